import type { IRequest } from 'itty-router'
import { invalid } from '../shared/problem'

/** A path parameter, percent-decoded; a malformed escape is the client's mistake, not a 500. */
export function pathParam(request: IRequest, name: string): string {
  try {
    return decodeURIComponent(request.params[name] ?? '')
  } catch {
    throw invalid([{ prop: name, message: 'is not a valid percent-encoded path segment' }])
  }
}

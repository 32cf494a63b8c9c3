import type { IRequest } from 'itty-router'
import { LogIdSchema } from '../schemas/log'
import { parseOrThrow } from '../schemas/requests'
import { invalid } from '../shared/problem'

/** A path parameter, percent-decoded; a malformed escape is the client's mistake, not a 500. */
export function pathParam(request: IRequest, name: string): string {
  try {
    return decodeURIComponent(request.params[name] ?? '')
  } catch {
    throw invalid([{ prop: name, message: 'is not a valid percent-encoded path segment' }])
  }
}

/** The `:id` of a log's path: the common case checked here, the rest by the log id's schema. */
export function logIdOf(request: IRequest): string {
  const id = pathParam(request, 'id')
  return id.length >= 1 && id.length <= 50 ? id : parseOrThrow(LogIdSchema, id, 'id')
}

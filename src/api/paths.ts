/**
 * A declared route as a request line: its method, and its path with the parameters filled in
 * and encoded, the query after it. Every caller of the routes writes its paths through this: the
 * typed client, and a cart calling its production (workspace/production.ts).
 */
import { ROUTES, type RouteName } from './routes'

export type RequestLine = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string }

/**
 * `params` fill the path's `{name}`s; `query` is appended, its undefined values left out. A path
 * segment `.` or `..` (encoded or not) is a step up the path for every URL parser, so
 * `DELETE /log/D001/volumes/..` would reach DELETE /log/D001: refused, with the parameter's name.
 */
export function requestLine(
  name: RouteName,
  params: Record<string, string> = {},
  query: Record<string, string | number | undefined> = {},
): RequestLine {
  const route = ROUTES[name]
  const path = route.path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key] ?? ''
    if (value === '.' || value === '..') throw new UnsendableSegment(key)
    return encodeURIComponent(value)
  })
  const pairs = Object.entries(query).flatMap(([k, v]): Array<[string, string]> =>
    v === undefined ? [] : [[k, String(v)]],
  )
  const search = new URLSearchParams(pairs).toString()
  return { method: route.method.toUpperCase() as RequestLine['method'], path: search ? `${path}?${search}` : path }
}

/** A path parameter that cannot be sent: `.` or `..`. */
export class UnsendableSegment extends Error {
  constructor(readonly param: string) {
    super(`${param} cannot be "." or ".."`)
  }
}

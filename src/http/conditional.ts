/**
 * Conditional GETs (RFC 9110 §13): a polled answer carries a tag of what it was made from, and a
 * request naming the tag (If-None-Match) is answered 304 with no body, the answer neither read nor
 * computed. The tags: shared/etag.ts; the routes that take them: `conditional` in api/routes.ts.
 */
import type { IRequest } from 'itty-router'
import { namesTag } from '../shared/etag'
import { jsonAnswer, notModified } from './headers'

/** The request's If-None-Match, as the workspace takes it. */
export const ifNoneMatch = (request: IRequest): string | undefined => request.headers.get('if-none-match') ?? undefined

/** Whether the request names `etag`: its answer is then 304. */
export const namesEtag = (request: IRequest, etag: string) => namesTag(ifNoneMatch(request), etag)

/**
 * A computed answer under its tag: 304 when the request names the tag, without computing; else
 * the answer `compute` makes, as JSON with the tag.
 */
export async function computedJson(request: IRequest, etag: string, compute: () => unknown) {
  if (namesEtag(request, etag)) return notModified(etag)
  return jsonAnswer(JSON.stringify(await compute()), 200, etag)
}

/**
 * Entity tags of answers a client polls (RFC 9110 §8.8.3): a tag names what an answer was made
 * from (a log's revision, the settings, the code that computed it), so it is known before the
 * answer is read or computed, and a request naming it is answered 304 with no body.
 */
import { base64urlnopad } from '@scure/base'
import { sha256Sync } from './secrets'

/**
 * A strong tag of an answer made from `parts`: 128 bits of SHA-256 of them as JSON. Two answers
 * of one tag are the same bytes.
 */
export const tagOf = (...parts: ReadonlyArray<string | number | boolean>): string =>
  `"${base64urlnopad.encode(sha256Sync(JSON.stringify(parts)).subarray(0, 16))}"`

/**
 * A weak tag (`W/`): answers of one tag mean the same and may differ in their bytes, as a report
 * made again differs in the time it says it was made.
 */
export const weakTagOf = (...parts: ReadonlyArray<string | number | boolean>): string => `W/${tagOf(...parts)}`

/**
 * Whether an If-None-Match names `etag`: `*`, or one of its tags by the weak comparison the
 * header takes (`W/` set aside). An empty or absent header names none.
 */
export function namesTag(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag
  for (const [, tag] of ifNoneMatch.matchAll(/(?:W\/)?("[^"]*")/g)) if (tag === opaque) return true
  return false
}

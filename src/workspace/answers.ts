/**
 * How a workspace method answers: its value, or the Problem its work threw, returned rather than
 * thrown (workerd logs every exception an RPC method throws as uncaught, and a 404 is no
 * accident). An Error is never a value otherwise, so the client tells them apart (client.ts).
 */
import { Problem } from '../shared/problem'
import { bytesOf } from '../shared/utf8'

/**
 * An answer's tag, and the answer unless the request named the tag (If-None-Match). Stored text
 * goes as one string, the tag and then the text: RPC carries a string for less than an object
 * holding one (as `{etag, body}`, a 17 KB GET /log/{id} cost 1.08× the CPU per request,
 * bench/compare.mjs, 8 paired rounds).
 */
export type Tagged<T> = { etag: string; body?: T } | TaggedText

declare const text: unique symbol
type TaggedText = string & { readonly [text]: true }

export const taggedText = (etag: string, body: string) => (etag + body) as TaggedText

/** The tag and the answer of either form. An entity tag is quoted and holds no quote (RFC 9110 §8.8.3). */
export function untagged<T>(answer: Tagged<T>): { etag: string; body?: T } {
  if (typeof answer !== 'string') return answer
  const end = answer.indexOf('"', 1) + 1
  return { etag: answer.slice(0, end), body: answer.slice(end) as T }
}

/** A body as RPC brings it: bytes, or past RPC_VALUE_BYTES a stream of them. */
export type Bytes = Uint8Array | ReadableStream<Uint8Array>

/** The value work that waits gives, or the Problem it threw; anything else it threw is thrown on (a 500). */
export const answerLater = <T>(work: Promise<T>): Promise<T | Problem> =>
  work.catch((err: unknown) => (err instanceof Problem ? err : Promise.reject(err)))

/** The bytes, read first when they came as a stream. */
export const bytesNow = (json: Bytes) => (json instanceof Uint8Array ? json : bytesOf(json))

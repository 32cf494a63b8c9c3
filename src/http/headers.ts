/** Answers are for this machine's clients only: never cached, never sniffed, never framed. */
// A Headers object, not a plain one: each Response copies it natively instead of reading five properties.
const STANDARD_JSON = new Headers({
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
})

/**
 * An answer with an entity tag (shared/etag.ts) may be kept by the client, which asks again every
 * time, naming its copy's tag: `no-store` would forbid the keeping.
 */
const REVALIDATE = 'private, no-cache'
const TAGGED_JSON = new Headers(STANDARD_JSON)
TAGGED_JSON.set('cache-control', REVALIDATE)

/**
 * JSON that is already text or bytes (stored logs) goes out as is: no parse, no stringify. The
 * router's last step makes the Response, with every standard header in one list. A Response kept
 * in a WeakSet to mark it held its body until V8's next full collection: gigabytes under load.
 * `T` is the shape the text holds, which a handler's answer is typed against (http/call.ts).
 */
export class JsonAnswer<T = unknown> {
  declare readonly shape?: T
  constructor(
    readonly body: string | Uint8Array | ReadableStream<Uint8Array>,
    readonly status: number,
    readonly etag?: string,
  ) {}
}

/** JSON text of the shape `T`, answered as it is. */
export const jsonAnswer = <T>(body: string | Uint8Array | ReadableStream<Uint8Array>, status = 200, etag?: string) =>
  new JsonAnswer<T>(body, status, etag)

/** A refusal that carries more than the error (409 with the window as it reads now): any route may answer one. */
export const refusal = (status: number, body: { error: string } & Record<string, unknown>) =>
  new JsonAnswer<never>(JSON.stringify(body), status)

/** 304: the copy the request named by its tag is the answer; no body. */
export const notModified = (etag: string) =>
  new Response(null, { status: 304, headers: { etag, 'cache-control': REVALIDATE } })

/** A file or page answer with its tag. */
export function tagged(response: Response, etag: string): Response {
  response.headers.set('etag', etag)
  response.headers.set('cache-control', REVALIDATE)
  return response
}

/** The router's last step for every answer. */
export function withStandardHeaders(answer: Response | JsonAnswer) {
  if (answer instanceof JsonAnswer) {
    if (answer.etag === undefined) return new Response(answer.body, { status: answer.status, headers: STANDARD_JSON })
    const response = new Response(answer.body, { status: answer.status, headers: TAGGED_JSON })
    response.headers.set('etag', answer.etag)
    return response
  }
  const headers = answer.headers
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store')
  headers.set('x-content-type-options', 'nosniff')
  headers.set('referrer-policy', 'no-referrer')
  if (!headers.has('x-frame-options')) headers.set('x-frame-options', 'DENY')
  return answer
}

/** A file to download (a PDF, a .eml): its media type and the name a browser or client saves it as. */
export function download(body: BodyInit, type: string, filename: string) {
  return new Response(body, { headers: { 'content-type': type, 'content-disposition': contentDisposition(filename) } })
}

/** RFC 6266: an ASCII fallback and the exact UTF-8 name (a lone surrogate as U+FFFD, see mailtoLink). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  const exact = encodeURIComponent(filename.toWellFormed()).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`
}

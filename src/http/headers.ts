/** Answers are for this machine's clients only: never cached, never sniffed, never framed. */
// A Headers object, not a plain one: each Response copies it natively instead of reading five properties.
const STANDARD_JSON = new Headers({
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
})

// Answers made with every standard header already in place: one header list, not four edits.
const complete = new WeakSet<Response>()

/** JSON that is already text (stored logs) goes out as is: no parse, no stringify. */
export function jsonAnswer(text: string, status = 200): Response {
  const response = new Response(text, { status, headers: STANDARD_JSON })
  complete.add(response)
  return response
}

/** The router's last step for every answer. */
export function withStandardHeaders(response: Response) {
  if (complete.has(response)) return response
  const headers = response.headers
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store')
  headers.set('x-content-type-options', 'nosniff')
  headers.set('referrer-policy', 'no-referrer')
  if (!headers.has('x-frame-options')) headers.set('x-frame-options', 'DENY')
  return response
}

// The little of `fetch` the service's client asks for (a method, headers and a text body out; the
// status, headers and the whole body back, a redirect never followed), over node:http. Node 20's
// own fetch loads undici on its first call: 35–60 ms of every command's start on these machines,
// where node:http takes 12. `verify` waits for the log before it reads a byte, so that wait is
// part of every read-back's time.
import { request as httpRequest } from 'node:http'

const utf8 = new TextDecoder()
const IDLE_MS = 300_000

/**
 * @param {string | URL | Request} input
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
export function httpFetch(input, init = {}) {
  return new Promise((resolve, reject) => {
    // As fetch fails: a TypeError whose cause is the network's error (ECONNREFUSED, …).
    const failed = (/** @type {unknown} */ cause) => reject(new TypeError('fetch failed', { cause }))
    /** @type {URL} */
    let url
    try {
      url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url)
    } catch (err) {
      return failed(err)
    }
    /** @param {typeof httpRequest} send */
    const start = (send) => {
      // A header that cannot be sent (a newline in a token file) fails as the network would.
      try {
        request(send)
      } catch (err) {
        failed(err)
      }
    }
    /** @param {typeof httpRequest} send */
    const request = (send) => {
      const req = send(
        url,
        {
          method: init.method ?? 'GET',
          // The client's headers are a plain object.
          headers: /** @type {Record<string, string>} */ (init.headers ?? {}),
          signal: init.signal ?? undefined,
        },
        (res) => resolve(answerOf(res)),
      )
      req.on('error', failed)
      // As undici's fetch: a connection silent for 5 minutes fails (an approval waits 1 by default).
      req.setTimeout(IDLE_MS, () =>
        req.destroy(Object.assign(new Error('the service went silent'), { code: 'ETIMEDOUT' })),
      )
      req.end(typeof init.body === 'string' ? init.body : undefined)
    }
    if (url.protocol === 'http:') start(httpRequest)
    // A production served by Cloudflare is https: node:https loaded for it alone.
    else if (url.protocol === 'https:') import('node:https').then(({ request }) => start(request), failed)
    else failed(new Error(`${url.protocol} is not a protocol the service is served over`))
  })
}

/** @param {import('node:http').IncomingMessage} res @returns {Response} */
function answerOf(res) {
  /** @type {Promise<Buffer> | undefined} */
  let whole
  const bytes = () =>
    (whole ??= new Promise((resolve, reject) => {
      /** @type {Buffer[]} */
      const chunks = []
      res.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk))
      res.on('end', () => resolve(Buffer.concat(chunks)))
      res.on('error', (cause) => reject(new TypeError('terminated', { cause })))
      res.on('aborted', () => reject(new TypeError('terminated')))
    }))
  const status = res.statusCode ?? 0
  // As fetch's text(): UTF-8, a byte order mark dropped, a malformed sequence as U+FFFD.
  const text = async () => utf8.decode(await bytes())
  const answer = {
    status,
    ok: status >= 200 && status < 300,
    type: 'basic',
    headers: {
      /** @param {string} name */
      get(name) {
        const value = res.headers[name.toLowerCase()]
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
      },
    },
    // What the client cancels (a 304, a redirect) is short: read to its end and dropped, which
    // leaves the connection for the next request rather than closing it.
    body: { cancel: () => Promise.resolve(void res.resume()) },
    text,
    json: async () => {
      /** @type {unknown} */
      const value = JSON.parse(await text())
      return value
    },
    arrayBuffer: async () => {
      const b = await bytes()
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)
    },
  }
  return /** @type {Response} */ (/** @type {unknown} */ (answer))
}

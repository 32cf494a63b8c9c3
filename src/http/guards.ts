import { base64urlnopad } from '@scure/base'
import { StatusError, type IRequest } from 'itty-router'
import { forbidden, unauthorized } from '../shared/problem'
import { digestsEqual, sha256 } from '../shared/secrets'

/** The names of this machine, as a URL's hostname gives them. */
export const LOOPBACK: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]'])

/** A Host header as HTTP defines it: a name or an IP literal, and a port that can exist. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i

/**
 * SPEC §7: only loopback names (plus ALLOWED_HOSTS) reach the service, so DNS rebinding gets
 * nowhere. A malformed Host header is answered 400.
 */
export function withAllowedHost(request: IRequest, env: Env) {
  const match = HOST.exec(request.headers.get('host') ?? new URL(request.url).host)
  if (!match || Number(match[2] ?? 0) > 65535) throw new StatusError(400, { error: 'Invalid Host header' })
  // The name without its port (`[::1]:5252` → `[::1]`).
  const name = match[1]!.toLowerCase()
  if (LOOPBACK.has(name)) return
  const extra = (env.ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
  if (extra.includes(name)) return
  throw forbidden('Host not allowed')
}

// ---- operator

const SESSION_DAYS = 7
const encoder = new TextEncoder()

/** The operator key, imported once: importing it again for every cookie tried is most of the cost. */
let signing: { key: string; cryptoKey: Promise<CryptoKey> } | undefined

async function hmac(key: string, message: string): Promise<string> {
  if (signing?.key !== key) {
    const cryptoKey = crypto.subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ])
    signing = { key, cryptoKey }
  }
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await signing.cryptoKey, encoder.encode(message)))
  return base64urlnopad.encode(mac)
}

async function sameSecret(given: string, expected: string): Promise<boolean> {
  return digestsEqual(await sha256(given), await sha256(expected))
}

const operatorKey = (env: Env) => {
  const key = env.OPERATOR_KEY ?? ''
  // An unset key must not turn into "the empty string opens the console".
  if (key.length < 16) throw new StatusError(503, { error: 'OPERATOR_KEY is not set: see .dev.vars.example' })
  return key
}

/**
 * Whether `given` is the operator key. A wrong one is answered only after the wrong ones before
 * it, ten a second at most however many arrive together (about 4,000 a second were possible); the
 * right key never waits. With 100 wrong keys waiting, every key is refused at once with 429, the
 * right one too, until they have been answered.
 */
export async function isOperatorKey(given: string | null | undefined, env: Env): Promise<boolean> {
  if (!given) return false
  // Refused before it is compared: answered at once, a key would tell right from wrong (200 or
  // 429) as fast as it is sent. A signed-in console is not asked for the key.
  if (wrongKeysWaiting >= WRONG_KEYS_WAITING)
    throw new StatusError(429, { error: 'Too many wrong operator keys: wait a moment' })
  if (await sameSecret(given, operatorKey(env))) return true
  await wrongKeyTurn()
  return false
}

const WRONG_KEY_SPACING_MS = 100
const WRONG_KEYS_WAITING = 100
// Per isolate: one locally; on Cloudflare each isolate keeps its own pace.
let nextWrongKeyAt = 0
let wrongKeysWaiting = 0

async function wrongKeyTurn() {
  if (wrongKeysWaiting >= WRONG_KEYS_WAITING)
    throw new StatusError(429, { error: 'Too many wrong operator keys: wait a moment' })
  const now = Date.now()
  // The queue ends at most one spacing per waiting key from now: a clock set back (the laptop's
  // time corrected) must not hold every wrong key for as long as it jumped.
  const at = Math.max(now, Math.min(nextWrongKeyAt, now + (wrongKeysWaiting + 1) * WRONG_KEY_SPACING_MS))
  nextWrongKeyAt = at + WRONG_KEY_SPACING_MS
  wrongKeysWaiting++
  try {
    await new Promise((resolve) => setTimeout(resolve, at - now))
  } finally {
    wrongKeysWaiting--
  }
}

/**
 * A signed, stateless session: `<issued>.<nonce>.<mac>`. Changing OPERATOR_KEY ends every session.
 * Nothing about it is stored, so the key never touches storage.
 */
export async function createSession(request: Request, env: Env): Promise<{ cookie: string; csrf: string }> {
  const issued = Date.now().toString(36)
  const nonce = crypto.randomUUID().replace(/-/g, '')
  const mac = await hmac(operatorKey(env), `session:${issued}.${nonce}`)
  const cookie = sessionCookie(request, `${issued}.${nonce}.${mac}`, SESSION_DAYS * 86400)
  return { cookie, csrf: await hmac(operatorKey(env), `csrf:${nonce}`) }
}

/**
 * The session cookie's name and attributes. Over HTTPS (deployed) it is `__Host-` prefixed and
 * `Secure`: no other host or path can set one the browser would send in its place, and it never
 * travels over plain HTTP. On the laptop the service speaks HTTP on loopback, where Safari keeps no
 * Secure cookie; there any page of this machine can set a cookie of the same name (cookies are not
 * port-scoped), so every copy the browser sends is tried (see sessionOf).
 */
const cookieNameOf = (request: Request) =>
  new URL(request.url).protocol === 'https:' ? '__Host-mls_operator' : 'mls_operator'

const sessionCookie = (request: Request, value: string, maxAge: number) =>
  `${cookieNameOf(request)}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}` +
  (new URL(request.url).protocol === 'https:' ? '; Secure' : '')

/**
 * Chromium keeps at most 180 cookies per host and Firefox 150: past that, nothing a page could set
 * is still in the header, and a header stuffed by hand is cut off here.
 */
const COOKIE_COPIES_TRIED = 180

/**
 * The nonce of a valid session cookie, or undefined. Every cookie of the session's name is tried,
 * in the order sent: a page on another localhost port can set copies for narrower paths
 * (`mls_operator=junk; path=/approve/state`, partitioned or not), which the browser sends before
 * the real one. Each costs one HMAC with the key imported once, about 10 µs.
 */
export async function sessionOf(request: Request, env: Env): Promise<string | undefined> {
  const prefix = `${cookieNameOf(request)}=`
  const cookies = (request.headers.get('cookie') ?? '').split(/;\s*/).filter((c) => c.startsWith(prefix))
  for (const cookie of cookies.slice(0, COOKIE_COPIES_TRIED)) {
    const [issued, nonce, mac, extra] = cookie.slice(prefix.length).split('.')
    if (!issued || !nonce || !mac || extra !== undefined) continue
    if (!(Date.now() - parseInt(issued, 36) <= SESSION_DAYS * 86_400_000)) continue
    if (await sameSecret(mac, await hmac(operatorKey(env), `session:${issued}.${nonce}`))) return nonce
  }
  return undefined
}

const csrfFor = (nonce: string, env: Env) => hmac(operatorKey(env), `csrf:${nonce}`)

export const clearedSessionCookie = (request: Request) => sessionCookie(request, '', 0)

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** A browser request sent by a page of another origin (another localhost port counts) is refused. */
export function refuseCrossOrigin(request: Request) {
  const origin = request.headers.get('origin')
  const own = new URL(request.url).origin
  const host = request.headers.get('host')
  if (origin && origin !== own && !(host && origin === `${new URL(request.url).protocol}//${host}`)) {
    throw forbidden('Cross-origin request refused')
  }
  const site = request.headers.get('sec-fetch-site')
  if (site && site !== 'same-origin') throw forbidden('Cross-site request refused')
}

/**
 * Operator endpoints: the `x-operator-key` header (scripts) or the console's session cookie, never
 * an API token. A state-changing request must come from the service's own origin. With the cookie,
 * every request (reads too) also carries the CSRF token: cookies are not port-scoped, so any other
 * server on this machine the browser visits receives the cookie and could replay it. The token
 * lives only in the console origin's storage, handed over once at sign-in.
 */
export async function withOperator(request: IRequest, env: Env) {
  if (!SAFE_METHODS.has(request.method)) refuseCrossOrigin(request)
  if (await isOperatorKey(request.headers.get('x-operator-key'), env)) return
  const nonce = await sessionOf(request, env)
  if (!nonce) throw unauthorized()
  const csrf = request.headers.get('x-csrf-token')
  if (!csrf || !(await sameSecret(csrf, await csrfFor(nonce, env)))) throw forbidden('Missing or invalid CSRF token')
}

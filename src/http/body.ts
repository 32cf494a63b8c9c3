import { StatusError } from 'itty-router'
import { validationError } from './errors'

/**
 * Body limits (413 beyond). Logs and settings: 64 MiB (SPEC §10; a 20,000-clip log is about 15 MB).
 * Commands (create, load, report, mail, operator edits): 1 MiB, far above what they carry.
 * Endpoints that answer anyone (POST /auth, the sign-in form): 4 KiB.
 */
export const BODY_LIMIT_BYTES = 64 * 1024 * 1024
export const COMMAND_BODY_BYTES = 1024 * 1024
export const OPEN_BODY_BYTES = 4 * 1024
/**
 * A body larger than this is read only once the workspace has accepted the request's token
 * (routes/), and is scanned for nesting depth before JSON.parse: parsing 63 MB of nested arrays
 * took ~10 s and 1.5 GiB. Below it a parse costs little and the walk after it is enough.
 */
export const LARGE_BODY_BYTES = 1024 * 1024
const MAX_DEPTH = 64
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

const invalidBody = (message: string, prop = '') => validationError([{ prop, message }])
const tooLarge = () => new StatusError(413, { error: 'Payload Too Large' })

/**
 * How long a body may take to arrive: 10 s, plus a second for each MiB it declares (a chunked
 * body: each MiB received so far). A client dripping a few bytes at a time holds a connection and
 * its memory; 19,900 such bodies once took workerd from 490 MiB to 1.25 GiB.
 */
const BODY_BASE_MS = 10_000
const BODY_MS_PER_MIB = 1000
const tooSlow = () => new StatusError(408, { error: 'Request body timed out' })

/**
 * Reads a JSON request body the way every endpoint needs it: declared as JSON, within the size
 * limit, arrived in time, parseable, no deeper than 64 levels, free of prototype-polluting keys,
 * and with no string that is not well-formed Unicode.
 */
export async function readJson(request: Request, limit = COMMAND_BODY_BYTES): Promise<unknown> {
  return parseJson((await readJsonBody(request, limit)).text)
}

/** A JSON body as the client sent it: its UTF-8 bytes (without a leading BOM) and their text. */
export type JsonBody = { bytes: Uint8Array; text: string }

const EMPTY: JsonBody = { bytes: new Uint8Array(0), text: '' }

/** The size a request declares, NaN when it declares none (a chunked body). */
export const declaredLength = (request: Request) => Number(request.headers.get('content-length') ?? NaN)

/**
 * The body's text and the bytes it was decoded from (logs are stored as those bytes), once it is
 * declared as JSON, within the limit, arrived in time, valid UTF-8 and, if large, not nested too
 * deep; not yet parsed.
 */
export function readJsonBody(request: Request, limit = BODY_LIMIT_BYTES): Promise<JsonBody> {
  const type = request.headers.get('content-type') ?? ''
  if (type !== 'application/json' && !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    return refuse(request, new StatusError(415, { error: 'Unsupported Media Type' }))
  }
  const declared = declaredLength(request)
  if (declared > limit) return refuse(request, tooLarge())
  if (!request.body) return Promise.resolve(EMPTY)
  // The runtime never delivers more than a declared Content-Length: one read, no chunk list.
  if (declared >= 0) return withDeadline(request.arrayBuffer(), BODY_BASE_MS + (declared / 1048576) * BODY_MS_PER_MIB).then((buffer) => decoded(new Uint8Array(buffer)))
  return readChunked(request.body, limit)
}

/**
 * Settles as `reading` does, or 408 once `ms` pass. A client that hangs up mid-body is answered
 * 400 (nobody reads it) and logged as one line, not as the runtime's stack.
 */
function withDeadline<T>(reading: Promise<T>, ms: number): Promise<T> {
  let timer = 0 as unknown as ReturnType<typeof setTimeout>
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(tooSlow()), ms)))
  return Promise.race([reading.catch(cutShort), late]).finally(() => clearTimeout(timer))
}

function cutShort(err: unknown): never {
  if (err instanceof StatusError) throw err
  console.warn(`request body not read: ${err instanceof Error ? err.message : String(err)}`)
  throw invalidBody('the body ended before it was complete')
}

/** Reading (and so draining) the body keeps the connection reusable for the client. */
async function refuse(request: Request, failure: StatusError): Promise<never> {
  await request.body?.cancel()
  throw failure
}

/** What readJson does after reading: parse, then refuse deep nesting, prototype keys and lone surrogates. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') throw invalidBody('a JSON body is required')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw invalidBody(`malformed JSON: ${(err as Error).message}`)
  }
  if (!shapeIsSafe(value)) checkShape(value)
  // A lone surrogate can only come from a \uD800–\uDFFF escape: strict UTF-8 has none. Without
  // such an escape in the text, no string needs looking at. indexOf first: the regular expression
  // alone over a 17 KB log cost 2% of a POST; a backslash is rare in a log, and indexOf finds none fast.
  if (text.indexOf('\\u') >= 0 && SURROGATE_ESCAPE.test(text)) refuseLoneSurrogates(value)
  return value
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/

/**
 * One pass over a large body's bytes as it is read, counting brackets outside strings: a body
 * nested deeper than 64 levels is refused before JSON.parse builds it. (A body this large has
 * already passed the token check: routes/token.ts.)
 */
function refuseDeepNesting(bytes: Uint8Array) {
  if (bytes.length <= LARGE_BODY_BYTES) return
  let depth = 0
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!
    if (b === 0x22) {
      // Skip the string: to its closing quote, past escaped characters.
      for (i++; i < bytes.length; i++) {
        const c = bytes[i]!
        if (c === 0x5c) i++
        else if (c === 0x22) break
      }
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > MAX_DEPTH) throw invalidBody(`nesting deeper than ${MAX_DEPTH} levels`)
    } else if (b === 0x5d || b === 0x7d) depth--
  }
}

/** Names the first string or key that is not well-formed Unicode (SPEC §4: strings everywhere). */
function refuseLoneSurrogates(root: unknown) {
  const stack: Array<[unknown, string]> = [[root, '']]
  while (stack.length) {
    const [value, path] = stack.pop()!
    if (typeof value === 'string') {
      if (!value.isWellFormed()) throw invalidBody('must be well-formed Unicode (a lone surrogate was sent)', path)
      continue
    }
    if (value === null || typeof value !== 'object') continue
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push([value[i], join(path, String(i))])
      continue
    }
    for (const key of Object.keys(value)) {
      if (!key.isWellFormed()) throw invalidBody('keys must be well-formed Unicode (a lone surrogate was sent)', join(path, key.toWellFormed()))
      stack.push([(value as Record<string, unknown>)[key], join(path, key)])
    }
  }
}

/** parseJson for endpoints that take a JSON object (every endpoint here does). */
export function parseObject(text: string): Record<string, unknown> {
  return asObject(parseJson(text))
}

/** A body that must be a JSON object (every endpoint here takes one); a command's unless `limit` says otherwise. */
export async function readObject(request: Request, limit = COMMAND_BODY_BYTES): Promise<Record<string, unknown>> {
  return asObject(await readJson(request, limit))
}

function asObject(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidBody(`expected a JSON object, received ${describe(value)}`)
  }
  return value as Record<string, unknown>
}

/**
 * Chunked bodies carry no length: count while reading so a huge one stops at the limit, and give
 * each read what is left of the time the bytes so far allow.
 */
async function readChunked(body: ReadableStream<Uint8Array>, limit: number): Promise<JsonBody> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  const started = Date.now()
  let size = 0
  for (;;) {
    const allowed = BODY_BASE_MS + (size / 1048576) * BODY_MS_PER_MIB - (Date.now() - started)
    let read: ReadableStreamReadResult<Uint8Array>
    try {
      read = await withDeadline(reader.read(), Math.max(allowed, 0))
    } catch (err) {
      reader.cancel().catch(() => {})
      throw err
    }
    if (read.done) break
    const value = read.value
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw tooLarge()
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return decoded(chunks[0]!)
  const all = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.byteLength
  }
  return decoded(all)
}

// One decoder for every body: a non-streaming decode() starts afresh, also after a failure.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

function decoded(bytes: Uint8Array): JsonBody {
  refuseDeepNesting(bytes)
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    throw invalidBody('the body is not valid UTF-8')
  }
  // The decoder drops a byte order mark; the stored bytes must match the text.
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  return { bytes: bom ? bytes.subarray(3) : bytes, text }
}

/**
 * The walk below without its paths: true when nothing is too deep and no key is forbidden. Most
 * bodies are fine, and a path string per value costs more than the rest of the walk. Recursion
 * stops at MAX_DEPTH, so it cannot exhaust the stack.
 */
function shapeIsSafe(value: unknown, depth = 1): boolean {
  if (value === null || typeof value !== 'object') return true
  if (depth > MAX_DEPTH) return false
  // Strings and numbers, most of a log's values, are skipped here rather than in a call each.
  if (Array.isArray(value)) {
    // for-of, not value[i]: V8 optimizes an index load that has seen arrays of numbers and of
    // objects by converting each number array (a CDL's slope, offset, power) to boxed values first.
    for (const item of value as unknown[]) {
      if (typeof item === 'object' && item !== null && !shapeIsSafe(item, depth + 1)) return false
    }
    return true
  }
  for (const key in value) {
    // Only keys starting like a forbidden one are looked up: `_`, `c`, `p`.
    const first = key.charCodeAt(0)
    if ((first === 95 || first === 99 || first === 112) && FORBIDDEN_KEYS.has(key)) return false
    const item = (value as Record<string, unknown>)[key]
    if (typeof item === 'object' && item !== null && !shapeIsSafe(item, depth + 1)) return false
  }
  return true
}

/**
 * Iterative walk: a recursive one would overflow the stack on exactly the bodies it must refuse.
 * Runs only when shapeIsSafe found something, to name where.
 */
function checkShape(root: unknown) {
  const stack: Array<[unknown, number, string]> = [[root, 1, '']]
  while (stack.length) {
    const [value, depth, path] = stack.pop()!
    if (value === null || typeof value !== 'object') continue
    if (depth > MAX_DEPTH) throw invalidBody(`nesting deeper than ${MAX_DEPTH} levels`, path)
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push([value[i], depth + 1, join(path, String(i))])
      continue
    }
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) throw invalidBody(`the key "${key}" is not allowed`, join(path, key))
      stack.push([(value as Record<string, unknown>)[key], depth + 1, join(path, key)])
    }
  }
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key)

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

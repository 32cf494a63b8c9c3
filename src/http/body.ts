import { StatusError } from 'itty-router'
import { validationError } from './errors'

/** SPEC §10: bodies up to 64 MiB; a 20,000-clip log is about 15 MB. */
export const BODY_LIMIT_BYTES = 64 * 1024 * 1024
const MAX_DEPTH = 64
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

const invalidBody = (message: string, prop = '') => validationError([{ prop, message }])
const tooLarge = () => new StatusError(413, { error: 'Payload Too Large' })

/**
 * Reads a JSON request body the way every endpoint needs it: declared as JSON, within the size
 * limit, parseable, no deeper than 64 levels and free of prototype-polluting keys.
 */
export async function readJson(request: Request): Promise<unknown> {
  return parseJson(await readJsonText(request))
}

/** A JSON body as the client sent it: its UTF-8 bytes (without a leading BOM) and their text. */
export type JsonBody = { bytes: Uint8Array; text: string }

const EMPTY: JsonBody = { bytes: new Uint8Array(0), text: '' }

/** The body's text, once it is declared as JSON, within the limit and valid UTF-8; not yet parsed. */
export function readJsonText(request: Request): Promise<string> {
  return readJsonBody(request).then((body) => body.text)
}

/** readJsonText with the bytes it was decoded from, for logs: they are stored as those bytes. */
export function readJsonBody(request: Request): Promise<JsonBody> {
  const type = request.headers.get('content-type') ?? ''
  if (type !== 'application/json' && !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    return refuse(request, new StatusError(415, { error: 'Unsupported Media Type' }))
  }
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > BODY_LIMIT_BYTES) return refuse(request, tooLarge())
  if (!request.body) return Promise.resolve(EMPTY)
  // The runtime never delivers more than a declared Content-Length: one read, no chunk list.
  // Promises rather than nested async functions: one step per body instead of three.
  return declared >= 0 ? request.arrayBuffer().then((buffer) => decoded(new Uint8Array(buffer))) : readChunked(request.body)
}

/** Reading (and so draining) the body keeps the connection reusable for the client. */
async function refuse(request: Request, failure: StatusError): Promise<never> {
  await request.body?.cancel()
  throw failure
}

/** What readJson does after reading: parse, then refuse deep nesting and prototype keys. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') throw invalidBody('a JSON body is required')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw invalidBody(`malformed JSON: ${(err as Error).message}`)
  }
  if (!shapeIsSafe(value)) checkShape(value)
  return value
}

/** parseJson for endpoints that take a JSON object (every endpoint here does). */
export function parseObject(text: string): Record<string, unknown> {
  return asObject(parseJson(text))
}

/** A body that must be a JSON object (every endpoint here takes one). */
export async function readObject(request: Request): Promise<Record<string, unknown>> {
  return asObject(await readJson(request))
}

function asObject(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidBody(`expected a JSON object, received ${describe(value)}`)
  }
  return value as Record<string, unknown>
}

/** Chunked bodies carry no length: count while reading so a huge one stops at the limit. */
async function readChunked(body: ReadableStream<Uint8Array>): Promise<JsonBody> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > BODY_LIMIT_BYTES) {
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

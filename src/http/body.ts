import { StatusError } from 'itty-router'
import { validationError } from './errors'

/** SPEC §10: bodies up to 64 MiB; a 20,000-clip log is about 15 MB. */
export const BODY_LIMIT_BYTES = 64 * 1024 * 1024
const MAX_DEPTH = 64
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

const invalidBody = (message: string, prop = '') => validationError([{ prop, message }])

/**
 * Reads a JSON request body the way every endpoint needs it: declared as JSON, within the size
 * limit, parseable, no deeper than 64 levels and free of prototype-polluting keys.
 */
export async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    // Reading (and so draining) the body keeps the connection reusable for the client.
    await request.body?.cancel()
    throw new StatusError(415, { error: 'Unsupported Media Type' })
  }
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > BODY_LIMIT_BYTES) {
    await request.body?.cancel()
    throw new StatusError(413, { error: 'Payload Too Large' })
  }
  const text = await readLimited(request)
  if (text.trim() === '') throw invalidBody('a JSON body is required')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw invalidBody(`malformed JSON: ${(err as Error).message}`)
  }
  checkShape(value)
  return value
}

/** A body that must be a JSON object (every endpoint here takes one). */
export async function readObject(request: Request): Promise<Record<string, unknown>> {
  const value = await readJson(request)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidBody(`expected a JSON object, received ${describe(value)}`)
  }
  return value as Record<string, unknown>
}

async function readLimited(request: Request): Promise<string> {
  if (!request.body) return ''
  // Chunked bodies carry no length: count while reading so a huge one stops at the limit.
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > BODY_LIMIT_BYTES) {
      await reader.cancel()
      throw new StatusError(413, { error: 'Payload Too Large' })
    }
    chunks.push(value)
  }
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
  try {
    if (chunks.length === 1) return decoder.decode(chunks[0])
    const all = new Uint8Array(size)
    let at = 0
    for (const chunk of chunks) {
      all.set(chunk, at)
      at += chunk.byteLength
    }
    return decoder.decode(all)
  } catch {
    throw invalidBody('the body is not valid UTF-8')
  }
}

/** Iterative walk: a recursive one would overflow the stack on exactly the bodies it must refuse. */
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

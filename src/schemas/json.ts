/**
 * A JSON body as every endpoint takes it (SPEC §10): parseable, no deeper than 64 levels, free of
 * prototype-polluting keys, and with no string that is not well-formed Unicode. Read by the worker
 * for most bodies and by the workspace for the text of a PATCH.
 */
import { Problem, invalid, invalidBody } from '../shared/problem'

const MAX_DEPTH = 64
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Above this a body is scanned for nesting depth before JSON.parse (refuseDeepNesting): parsing 63 MB
 * of nested arrays took ~10 s and 1.5 GiB. Below it a parse costs little and the walk after it is enough.
 */
export const DEPTH_SCAN_BYTES = 1024 * 1024

// One decoder for every body: a non-streaming decode() starts afresh, also after a failure. A
// leading byte order mark is cut off before (http/body.ts); a second one is text.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** A body's bytes (or a piece of them) as text; 400 unless they are valid UTF-8. */
export function bodyText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes)
  } catch {
    throw invalidBody('the body is not valid UTF-8')
  }
}

/** Parse, then refuse deep nesting, prototype keys and lone surrogates. */
function parseJson(text: string): unknown {
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

/** parseJson for endpoints that take a JSON object (every endpoint here does). */
export function parseObject(text: string): Record<string, unknown> {
  const value = parseJson(text)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidBody(`expected a JSON object, received ${describe(value)}`)
  }
  return value as Record<string, unknown>
}

/**
 * parseJson for one piece of a body read piece by piece (src/large-logs), `path` being where the
 * piece sits in the body: a refusal names the property from the body's root.
 */
export function parseJsonAt(text: string, path: string): unknown {
  try {
    return parseJson(text)
  } catch (err) {
    if (!(err instanceof Problem) || !err.details) throw err
    throw invalid(err.details.map((d) => ({ prop: join(path, d.prop), message: d.message })))
  }
}

/**
 * One pass over a large body's bytes as it is read, counting brackets outside strings: a body
 * nested deeper than 64 levels is refused before JSON.parse builds it. (A body this large has
 * already passed the token check: serve.ts.)
 */
export function refuseDeepNesting(bytes: Uint8Array) {
  if (bytes.length <= DEPTH_SCAN_BYTES) return
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
      if (!key.isWellFormed())
        throw invalidBody(
          'keys must be well-formed Unicode (a lone surrogate was sent)',
          join(path, key.toWellFormed()),
        )
      stack.push([(value as Record<string, unknown>)[key], join(path, key)])
    }
  }
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

const join = (path: string, key: string) => (path && key ? `${path}.${key}` : path || key)

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * A log's JSON split where it is large, without parsing it whole: the elements of its clip lists
 * (`ocf.clips`, `sound.clips`, `proxy.clips`) as byte spans, and the rest of the log, its
 * "skeleton", with those lists left empty. JSON.parse of a 60 MiB log built some 300 MB of objects
 * on V8's heap; parsed a clip at a time, a log needs what one clip takes.
 *
 * Only the structure is read here: strings are skipped, not decoded, and every byte ends up in
 * the skeleton or in one clip, which JSON.parse then reads with its own strictness. What lies
 * between clips (commas, white space) is checked here. A clip list named twice (`"ocf"` twice at
 * the top, or `"clips"` twice in one part) is refused: JSON.parse keeps the last, and a summary made
 * clip by clip would count both.
 *
 * membersOf reads the top-level members of an object the same way, for a PATCH merged in bytes.
 */
import { bodyText } from '../schemas/json'
import { invalidBody } from '../shared/problem'

type ClipPart = 'ocf' | 'sound' | 'proxy'

/** One clip list: where each clip's JSON starts and ends in the log's bytes. */
type ClipSpans = { part: ClipPart; starts: number[]; ends: number[] }

/** `custom`: the byte span of the top-level `custom` value (the last one, as JSON.parse reads it). */
export type ScannedLog = { skeleton: Uint8Array; lists: ClipSpans[]; custom?: [number, number] }

const PARTS = new Set<string>(['ocf', 'sound', 'proxy'])

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d

const malformed = (at: number, what: string) => invalidBody(`malformed JSON: ${what} at byte ${at}`)

/** Reads one member: its name, where its value starts, its key's span; returns the offset past the value. */
type Visit = (name: string, at: number, key: [number, number]) => number

/**
 * A reader of JSON's structure over bytes: white space, values skipped whole, property names, the
 * members of an object. Each takes a byte offset and gives the one past what it read.
 */
function structureOf(b: Uint8Array) {
  const n = b.length
  const space = (i: number) => {
    while (i < n && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++
    return i
  }
  const expect = (i: number, byte: number, what: string) => {
    if (b[i] !== byte) throw malformed(i, `expected ${what}`)
    return i + 1
  }
  const skipString = (i: number) => {
    for (i++; i < n; i++) {
      if (b[i] === BACKSLASH) i++
      else if (b[i] === QUOTE) return i + 1
    }
    throw malformed(n, 'unterminated string')
  }
  /** Past one value: a string, an object or array (brackets counted outside strings), a literal. */
  const skipValue = (i: number) => {
    if (i >= n) throw malformed(i, 'expected a value')
    const first = b[i]
    if (first === QUOTE) return skipString(i)
    if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      let depth = 0
      for (; i < n; i++) {
        const c = b[i]
        if (c === QUOTE) i = skipString(i) - 1
        else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++
        else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return i + 1
      }
      throw malformed(n, 'unterminated object or array')
    }
    const start = i
    while (i < n && b[i] !== COMMA && b[i] !== CLOSE_OBJECT && b[i] !== CLOSE_ARRAY && space(i) === i) i++
    if (i === start) throw malformed(i, 'expected a value')
    return i
  }
  /** A key as JSON.parse reads it (escapes and all): small, so parsed on its own. */
  const key = (i: number): [string, number] => {
    if (b[i] !== QUOTE) throw malformed(i, 'expected a property name')
    const end = skipString(i)
    const text = bodyText(b.subarray(i, end))
    try {
      return [JSON.parse(text) as string, end]
    } catch {
      throw malformed(i, 'bad property name')
    }
  }
  /**
   * The members of an object starting at `i`, each handed to `member` with where its value starts
   * and its key's span; past the object.
   */
  const members = (i: number, member: Visit) => {
    i = space(expect(i, OPEN_OBJECT, '{'))
    if (b[i] === CLOSE_OBJECT) return i + 1
    for (;;) {
      const [name, after] = key(i)
      const keyAt = i
      i = space(expect(space(after), COLON, ':'))
      i = space(member(name, i, [keyAt, after]))
      if (b[i] === CLOSE_OBJECT) return i + 1
      i = space(expect(i, COMMA, ', or }'))
    }
  }
  /** `members` of the whole text, which must be one object with nothing after it. */
  const root = (member: Visit) => {
    const end = space(members(space(0), member))
    if (end !== n) throw malformed(end, 'unexpected data after the object')
  }
  return { space, expect, skipValue, members, root }
}

/** One member of a JSON object: its name, and the bytes of its key and of its value. */
export type Member = { name: string; key: Uint8Array; value: Uint8Array }

/** The members of the object `bytes` holds, in their order, repeated names as often as they come. */
export function membersOf(bytes: Uint8Array): Member[] {
  const { skipValue, root } = structureOf(bytes)
  const found: Member[] = []
  root((name, at, [keyAt, keyEnd]) => {
    const end = skipValue(at)
    found.push({ name, key: bytes.subarray(keyAt, keyEnd), value: bytes.subarray(at, end) })
    return end
  })
  return found
}

export function scanLog(bytes: Uint8Array): ScannedLog {
  const b = bytes
  const n = b.length
  const { space, expect, skipValue, members, root } = structureOf(b)
  const lists: ClipSpans[] = []
  // Byte ranges left out of the skeleton: the inside of each clip list.
  const cuts: Array<[number, number]> = []

  const clipList = (part: ClipPart, i: number) => {
    const open = i + 1
    const list: ClipSpans = { part, starts: [], ends: [] }
    i = space(open)
    if (b[i] !== CLOSE_ARRAY) {
      for (;;) {
        const end = skipValue(i)
        list.starts.push(i)
        list.ends.push(end)
        i = space(end)
        if (b[i] === CLOSE_ARRAY) break
        i = space(expect(i, COMMA, ', or ]'))
      }
    }
    lists.push(list)
    cuts.push([open, i])
    return i + 1
  }
  const seenParts = new Set<string>()
  let custom: [number, number] | undefined
  root((name, at) => {
    if (name === 'custom') {
      custom = [at, skipValue(at)]
      return custom[1]
    }
    if (!PARTS.has(name) || b[at] !== OPEN_OBJECT) return skipValue(at)
    if (seenParts.has(name)) throw invalidBody(`"${name}" is given twice`, name)
    seenParts.add(name)
    let hasClips = false
    return members(at, (inner, valueAt) => {
      if (inner !== 'clips' || b[valueAt] !== OPEN_ARRAY) return skipValue(valueAt)
      if (hasClips) throw invalidBody('"clips" is given twice', `${name}.clips`)
      hasClips = true
      return clipList(name as ClipPart, valueAt)
    })
  })

  let size = n
  for (const [from, to] of cuts) size -= to - from
  const skeleton = new Uint8Array(size)
  let at = 0
  let from = 0
  for (const [start, end] of cuts) {
    skeleton.set(b.subarray(from, start), at)
    at += start - from
    from = end
  }
  skeleton.set(b.subarray(from), at)
  return { skeleton, lists, ...(custom && { custom }) }
}

/**
 * An import's body (POST /log/{id}/import) with its files' contents cut out: the rest as JSON with
 * each `content` `""`, small enough to parse, and each content's JSON string in the bytes, in file
 * order (the last `content` of a file, as JSON.parse reads it). A 42 MiB manifest parsed whole was
 * the body's text and the content's string at once, 84 MB of V8's heap.
 */
export function scanImport(bytes: Uint8Array): { skeleton: Uint8Array; contents: Array<[number, number] | undefined> } {
  const b = bytes
  const { space, expect, skipValue, members, root } = structureOf(b)
  let contents: Array<[number, number] | undefined> = []
  // Every file's content is cut from the skeleton; those of the last `files` are the body's, as
  // JSON.parse keeps the last of a name given twice.
  const cuts: Array<[number, number]> = []
  root((name, at) => {
    if (name === 'files') contents = []
    if (name !== 'files' || b[at] !== OPEN_ARRAY) return skipValue(at)
    let i = space(at + 1)
    if (b[i] === CLOSE_ARRAY) return i + 1
    for (;;) {
      let content: [number, number] | undefined
      const end =
        b[i] === OPEN_OBJECT
          ? members(i, (member, valueAt) => {
              const after = skipValue(valueAt)
              if (member === 'content') content = b[valueAt] === QUOTE ? [valueAt, after] : undefined
              return after
            })
          : skipValue(i)
      contents.push(content)
      if (content) cuts.push(content)
      i = space(end)
      if (b[i] === CLOSE_ARRAY) return i + 1
      i = space(expect(i, COMMA, ', or ]'))
    }
  })
  const skeleton = new Uint8Array(b.length - cuts.reduce((sum, [from, to]) => sum + to - from - 2, 0))
  let from = 0
  let to = 0
  for (const [start, end] of cuts) {
    skeleton.set(b.subarray(from, start + 1), to)
    to += start + 1 - from
    from = end - 1
  }
  skeleton.set(b.subarray(from), to)
  return { skeleton, contents }
}

const ESCAPED: Record<number, number> = {
  0x22: 0x22,
  0x5c: 0x5c,
  0x2f: 0x2f,
  0x62: 8,
  0x66: 12,
  0x6e: 10,
  0x72: 13,
  0x74: 9,
}

/**
 * The UTF-8 bytes of the string a JSON string literal (`"…"`, quotes included) holds, read from
 * bytes without making a string of it: what TextEncoder gives of JSON.parse's string. Refused as
 * JSON.parse refuses it, and for a lone surrogate, as every body here is.
 */
export function jsonStringBytes(literal: Uint8Array, prop: string): Uint8Array {
  const out = new Uint8Array(literal.length)
  let o = 0
  const end = literal.length - 1
  const hex = (at: number) => {
    const digits = at + 4 <= end ? String.fromCharCode(...literal.subarray(at, at + 4)) : ''
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw invalidBody('malformed JSON: bad \\u escape', prop)
    return Number.parseInt(digits, 16)
  }
  for (let i = 1; i < end; i++) {
    const c = literal[i]!
    if (c < 0x20) throw invalidBody('malformed JSON: a control character in a string', prop)
    if (c !== BACKSLASH) {
      out[o++] = c
      continue
    }
    const e = literal[++i]!
    if (e !== 0x75) {
      const byte = ESCAPED[e]
      if (byte === undefined || i >= end) throw invalidBody('malformed JSON: bad escape', prop)
      out[o++] = byte
      continue
    }
    let point = hex(i + 1)
    i += 4
    if (point >= 0xd800 && point <= 0xdfff) {
      const low = point <= 0xdbff && literal[i + 1] === BACKSLASH && literal[i + 2] === 0x75 ? hex(i + 3) : -1
      if (low < 0xdc00 || low > 0xdfff)
        throw invalidBody('must be well-formed Unicode (a lone surrogate was sent)', prop)
      point = 0x10000 + ((point - 0xd800) << 10) + (low - 0xdc00)
      i += 6
    }
    // Never longer than its escape: `\uXXXX` is six bytes, its UTF-8 at most three (four for a pair of twelve).
    if (point < 0x80) out[o++] = point
    else if (point < 0x800) {
      out[o++] = 0xc0 | (point >> 6)
      out[o++] = 0x80 | (point & 0x3f)
    } else if (point < 0x10000) {
      out[o++] = 0xe0 | (point >> 12)
      out[o++] = 0x80 | ((point >> 6) & 0x3f)
      out[o++] = 0x80 | (point & 0x3f)
    } else {
      out[o++] = 0xf0 | (point >> 18)
      out[o++] = 0x80 | ((point >> 12) & 0x3f)
      out[o++] = 0x80 | ((point >> 6) & 0x3f)
      out[o++] = 0x80 | (point & 0x3f)
    }
  }
  return out.subarray(0, o)
}

/**
 * A PATCH merged in the log's bytes (seed endpoint 8: top-level properties replace the stored
 * ones). Stored members the patch does not name are copied as stored; the others take the patch's
 * value; new ones follow in the patch's order. The object is the one `{...stored, ...patch}` gives,
 * but neither side is parsed: a 20,000-clip log parsed, merged and written out again needed close
 * to 128 MB of V8's heap, three copies of its objects at once.
 */
import { utf8Bytes } from '../shared/utf8'
import { membersOf, type Member } from './scan'

// SPEC §4: a log without `version` is stored with `version: 1` (a log stored before that rule too).
const VERSION_1: Member = { name: 'version', key: utf8Bytes('"version"'), value: utf8Bytes('1') }

const encoder = new TextEncoder()

/** The members of a patch already parsed, each value written as JSON.stringify writes it. */
export const membersOfObject = (patch: Record<string, unknown>): Member[] =>
  Object.entries(patch).map(([name, value]) => ({
    name,
    key: encoder.encode(JSON.stringify(name)),
    value: encoder.encode(JSON.stringify(value)),
  }))

/**
 * The stored log with the patch's members in it, as compact JSON at the top level (each value
 * keeps the bytes it came with). A name given twice keeps its first place and its last value, as
 * JSON.parse and spreading do.
 */
export function mergedLog(stored: Uint8Array, patch: Member[]): Uint8Array {
  const merged = new Map<string, Member>()
  for (const member of membersOf(stored)) merged.set(member.name, member)
  for (const member of patch) merged.set(member.name, member)
  if (!merged.has('version')) merged.set('version', VERSION_1)

  let size = 2 + merged.size - 1
  for (const { key, value } of merged.values()) size += key.length + 1 + value.length
  const out = new Uint8Array(size)
  out[0] = 0x7b
  let at = 1
  for (const { key, value } of merged.values()) {
    if (at > 1) out[at++] = 0x2c
    out.set(key, at)
    at += key.length
    out[at++] = 0x3a
    out.set(value, at)
    at += value.length
  }
  out[at] = 0x7d
  return out
}

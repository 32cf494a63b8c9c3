/**
 * A copy's hash read as the digest it names: `algorithm:value` where it is labelled (labels and
 * forms: docs/checks.md), the algorithm one name for all its spellings (`xxhash64be` is
 * `xxh64`), the value one form (hex in lower case, classic MHL's little-endian XXH64 turned round).
 * The checks compare digests in this form; an import writes a sequence's frames in it.
 */
import { hex } from '@scure/base'

type Algorithm = 'xxh32' | 'xxh64' | 'xxh3' | 'xxh128' | 'md5' | 'sha1' | 'c4'

/** A hash whose algorithm is known, its value in one canonical form. */
export type Digest = { algorithm: Algorithm | `${Algorithm}-frames`; value: string }

/**
 * Hex digits of each algorithm's digest. `xxh3` is XXH3's 64-bit form, as ASC MHL writes it (its
 * reference tool hashes `xxh3` with xxh3_64); the 128-bit form is `xxh128`.
 */
const HEX_DIGITS: Record<Exclude<Algorithm, 'c4'>, number> = {
  xxh32: 8,
  xxh64: 16,
  xxh3: 16,
  xxh128: 32,
  md5: 32,
  sha1: 40,
}

const LABELS: Record<string, Algorithm> = {
  xxh32: 'xxh32',
  xxh64: 'xxh64',
  xxhash64be: 'xxh64',
  xxhash64: 'xxh64',
  xxh3: 'xxh3',
  xxh128: 'xxh128',
  md5: 'md5',
  sha1: 'sha1',
  c4: 'c4',
}

const HEX = /^[0-9a-f]+$/
// Base58 as C4 writes it: no 0, O, I or l.
const C4_ID = /^c4[1-9A-HJ-NP-Za-km-z]{88}$/

/** `0123…` as the bytes in the other order: classic MHL's `xxhash64` against `xxh64`. */
const reversedBytes = (digits: string) => hex.encode(hex.decode(digits).reverse())

/** The digest a copy's hash names, when its label or its form says which algorithm made it. */
export function digestOf(hash: string): Digest | undefined {
  const colon = hash.indexOf(':')
  if (colon > 0) {
    const label = hash.slice(0, colon).toLowerCase()
    const frames = label.endsWith('-frames') ? LABELS[label.slice(0, -'-frames'.length)] : undefined
    if (frames) {
      const hex = hash
        .slice(colon + 1)
        .trim()
        .toLowerCase()
      return hex.length === 64 && HEX.test(hex) ? { algorithm: `${frames}-frames`, value: hex } : undefined
    }
    const algorithm = LABELS[label]
    if (algorithm) return readValue(algorithm, hash.slice(colon + 1).trim(), label === 'xxhash64')
  }
  const text = hash.trim()
  if (C4_ID.test(text)) return { algorithm: 'c4', value: text }
  const hex = text.toLowerCase()
  if (hex.length === 40 && HEX.test(hex)) return { algorithm: 'sha1', value: hex }
  return undefined
}

function readValue(algorithm: Algorithm, value: string, littleEndian: boolean): Digest | undefined {
  if (algorithm === 'c4') {
    const id = value.startsWith('c4') ? value : `c4${value}`
    return C4_ID.test(id) ? { algorithm, value: id } : undefined
  }
  const hex = value.toLowerCase()
  if (hex.length !== HEX_DIGITS[algorithm] || !HEX.test(hex)) return undefined
  return { algorithm, value: littleEndian ? reversedBytes(hex) : hex }
}

/**
 * A sequence's frames as one digest, labelled `xxh64-frames:` (by the frames' `algorithm`): SHA-256
 * of a line `name<TAB>value` per frame in name order, each name composed (NFC), each value in the
 * canonical form digestOf gives. Two volumes' copies agree when every frame does, in whatever
 * folder they sit: an import makes it of the frames' recorded digests, `media-log verify` of the
 * ones it computes.
 */
export async function framesDigest(
  algorithm: string,
  frames: ReadonlyArray<{ name: string; value: string }>,
): Promise<string> {
  const sorted = [...frames].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const lines = sorted.map((frame) => `${frame.name.normalize('NFC')}\t${frame.value}\n`).join('')
  const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(lines)))
  return `${algorithm}-frames:${hex.encode(sum)}`
}

/**
 * Why a labelled hash is not of its algorithm's form (`xxh64:` and 16 hex digits…), or undefined:
 * `xxh64:not-a-hash` on two copies once counted as agreeing. A hash without a label this service
 * knows is any string, kept as sent.
 */
export function hashFormProblem(hash: string): string | undefined {
  const colon = hash.indexOf(':')
  if (colon <= 0) return undefined
  const label = hash.slice(0, colon).toLowerCase()
  const frames = label.endsWith('-frames')
  const algorithm = LABELS[frames ? label.slice(0, -'-frames'.length) : label]
  if (!algorithm || digestOf(hash)) return undefined
  const written = hash.slice(0, colon + 1)
  if (frames) return `must be 64 hexadecimal digits after ${written}`
  if (algorithm === 'c4') return `must be a C4 ID after ${written} (c4 and 88 Base58 digits)`
  return `must be ${HEX_DIGITS[algorithm]} hexadecimal digits after ${written}`
}

/**
 * Whether two copies' hashes agree. Only digests of one algorithm, written the same way, can be
 * compared: a hash labelled `algorithm:value`, or unlabelled where its form proves the algorithm (40
 * hex digits are SHA-1, a 90-character `c4…` is a C4 ID). Anything else agrees when the strings are
 * equal and "cannot compare" otherwise, never "disagree": MD5 and XXH128 both write 32 hex digits,
 * and XXH64 is written in two byte orders. A `-frames` digest compares with its own kind only.
 */
export function compareHashes(a: string, b: string): 'agree' | 'disagree' | 'cannot compare' {
  const x = digestOf(a)
  const y = digestOf(b)
  if (x && y) {
    if (x.algorithm !== y.algorithm) return 'cannot compare'
    return x.value === y.value ? 'agree' : 'disagree'
  }
  // An unlabelled string: the same text is the same digest, whatever made it.
  if (a.trim() === b.trim()) return 'agree'
  if (x && !y && a.slice(a.indexOf(':') + 1).trim() === b.trim()) return 'agree'
  if (y && !x && b.slice(b.indexOf(':') + 1).trim() === a.trim()) return 'agree'
  return 'cannot compare'
}

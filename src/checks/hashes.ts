/**
 * Whether two copies' hashes agree. Only digests of one algorithm, written the same way, can be
 * compared: a copy's hash is read as `algorithm:value` where it is labelled, and an unlabelled one
 * is taken at its word only where its form proves the algorithm (40 hex digits are SHA-1, a 90-
 * character `c4…` is a C4 ID). Anything else agrees when the strings are equal and is "cannot
 * compare" otherwise, never "defect": MD5 and XXH128 both write 32 hex digits, and XXH64 is written
 * in two byte orders.
 *
 * Labels: `xxh64` (also `xxhash64be`), `xxhash64` (classic MHL's little-endian XXH64, compared
 * byte-reversed), `xxh3` (64-bit), `xxh128`, `md5`, `sha1`, `c4`. Hex is compared without regard
 * to case. A label with `-frames` (`xxh64-frames`) is an image sequence's or a RED clip's: the
 * SHA-256 of its frames' names and digests of that algorithm (src/import/clips.ts), compared with
 * its own kind only.
 */

type Algorithm = 'xxh64' | 'xxh3' | 'xxh128' | 'md5' | 'sha1' | 'c4'

/** A hash whose algorithm is known, its value in one canonical form. */
type Digest = { algorithm: Algorithm | `${Algorithm}-frames`; value: string }

const HEX_DIGITS: Record<Exclude<Algorithm, 'c4'>, number> = { xxh64: 16, xxh3: 16, xxh128: 32, md5: 32, sha1: 40 }

const LABELS: Record<string, Algorithm> = {
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
const reversedBytes = (hex: string) => hex.match(/../g)!.reverse().join('')

/** The digest a copy's hash names, when its label or its form says which algorithm made it. */
function digestOf(hash: string): Digest | undefined {
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

export type Comparison = 'agree' | 'disagree' | 'cannot compare'

export function compareHashes(a: string, b: string): Comparison {
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

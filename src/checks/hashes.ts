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

import { digestOf } from '../shared/digests'

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

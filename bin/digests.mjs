// The digests a copy is read back with, by the names the service gives algorithms (src/shared/
// digests.ts): each file read once, front to back, in large chunks, its digest in the form the
// service keeps (lower-case hex; C4 as its ID).
//
// Chosen by measurement (1 GiB from the page cache, one thread, AMD EPYC): hash-wasm's XXH64 at
// 2,558 MiB/s, XXH128 2,713, XXH3 1,869 (Debian's xxhsum: 4,390 / 5,399 / 5,698; `cat` 3,482);
// node:crypto's SHA-1 at 885 MiB/s (sha1sum 285) and MD5 at 470 (md5sum 544), ahead of hash-wasm's
// MD5 (440). xxhash-wasm's XXH64 is faster (2,963) but has neither XXH128 nor XXH3. The WASM
// digests reach about 60% of xxhsum on one thread; files are read back several at a time for more.
import { base58 } from '@scure/base'
import { createHash } from 'node:crypto'
import { open } from 'node:fs/promises'
import { createXXHash128, createXXHash3, createXXHash64 } from 'hash-wasm'

/** 8 MiB a read: XXH64 over 1 GiB ran at 2,986 MiB/s, against 2,454 with 1 MiB reads and 2,408 with 32 MiB. */
export const CHUNK = 8 * 1024 * 1024

/** @typedef {{update: (bytes: Uint8Array) => void, digest: () => string}} Digest */

/** @param {string} name @returns {() => Digest} */
const node = (name) => () => {
  const hash = createHash(name)
  return { update: (bytes) => hash.update(bytes), digest: () => hash.digest('hex') }
}

/** @param {() => Promise<{init: () => unknown, update: (b: Uint8Array) => unknown, digest: (f: 'hex') => string}>} make */
const wasm = (make) => async () => {
  const hash = await make()
  hash.init()
  return { update: (bytes) => void hash.update(bytes), digest: () => hash.digest('hex') }
}

/** C4 ID (SMPTE ST 2114): the SHA-512 in Base58, padded with `1` to 88 digits after `c4`. */
const c4 = () => {
  const hash = createHash('sha512')
  return {
    update: (/** @type {Uint8Array} */ bytes) => void hash.update(bytes),
    digest: () => `c4${base58.encode(hash.digest()).replace(/^1+/, '').padStart(88, '1')}`,
  }
}

/** Every algorithm a copy's hash may name that the command can compute. */
const ALGORITHMS = {
  xxh64: wasm(() => createXXHash64()),
  xxh128: wasm(() => createXXHash128()),
  xxh3: wasm(() => createXXHash3()),
  md5: node('md5'),
  sha1: node('sha1'),
  c4: () => Promise.resolve(c4()),
}

/** @typedef {keyof typeof ALGORITHMS} Algorithm */

/** Whether the command can compute `name`. @param {string} name @returns {name is Algorithm} */
export const computable = (name) => Object.hasOwn(ALGORITHMS, name)

/**
 * A file's digest by `algorithm`, read front to back in CHUNK-sized reads into one buffer.
 * `onRead` hears how many bytes each read gave (progress).
 * @param {string} path
 * @param {Algorithm} algorithm
 * @param {(bytes: number) => void} [onRead]
 */
export async function digestFile(path, algorithm, onRead) {
  const hash = await ALGORITHMS[algorithm]()
  const file = await open(path, 'r')
  try {
    const buffer = Buffer.allocUnsafe(CHUNK)
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, CHUNK, null)
      if (!bytesRead) break
      hash.update(buffer.subarray(0, bytesRead))
      onRead?.(bytesRead)
    }
    return hash.digest()
  } finally {
    await file.close()
  }
}

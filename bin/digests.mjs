// The digests a copy is read back with, by the names the service gives algorithms (src/shared/
// digests.ts): each file read once, front to back, in large chunks, its digest in the form the
// service keeps (lower-case hex; C4 as its ID).
//
// Chosen by measurement (1 GiB from the page cache, one thread, AMD EPYC): hash-wasm's XXH64 at
// 2,558 MiB/s, XXH128 2,713, XXH3 1,869 (Debian's xxhsum: 4,390 / 5,399 / 5,698; `cat` 3,482);
// node:crypto's SHA-1 at 885 MiB/s (sha1sum 285) and MD5 at 470 (md5sum 544), ahead of hash-wasm's
// MD5 (440). xxhash-wasm's XXH64 is faster alone (2,963) but has neither XXH128 nor XXH3, and on
// two threads gained nothing measurable. WASM has no SIMD path here where xxhsum uses SSE2/AVX2:
// one thread reaches about half of xxhsum, so files are read back several at a time, a thread
// each (DigestPool); bench/verify.mjs measures the command against the tools in one run.
import { base58 } from '@scure/base'
import { createHash } from 'node:crypto'
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { createXXHash128, createXXHash3, createXXHash32, createXXHash64 } from 'hash-wasm'
import { OPEN_FLAGS } from './walk.mjs'

/** 8 MiB a read: XXH64 over 1 GiB ran at 2,986 MiB/s, against 2,454 with 1 MiB reads and 2,408 with 32 MiB. */
export const CHUNK = 8 * 1024 * 1024

/**
 * @typedef {{update: (bytes: Uint8Array) => void, digest: () => string}} Digest
 * @typedef {{path: string | Uint8Array, algorithm: Algorithm, found?: {dev: bigint, ino: bigint}}} Job
 *   a file a thread is given
 * @typedef {{read: number} | {digest: string, size: number} | {error: {code?: unknown, message: string}}} Said
 *   what a thread says of it: each read's bytes, then its digest and size, or why not
 */

/** @param {string} name @returns {() => Digest} */
const node = (name) => () => {
  const hash = createHash(name)
  return { update: (bytes) => hash.update(bytes), digest: () => hash.digest('hex') }
}

/** @param {() => Promise<import('hash-wasm').IHasher>} make @returns {() => Promise<Digest>} */
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
  xxh32: wasm(() => createXXHash32()),
  md5: node('md5'),
  sha1: node('sha1'),
  c4: () => Promise.resolve(c4()),
}

/** @typedef {keyof typeof ALGORITHMS} Algorithm */

/** Whether the command can compute `name`. @param {string} name @returns {name is Algorithm} */
export const computable = (name) => Object.hasOwn(ALGORITHMS, name)

/**
 * A file's digest by `algorithm`, read front to back in CHUNK-sized reads into one buffer, and the
 * bytes it held. `onRead` hears how many bytes each read gave (progress). The reads block: on a
 * thread of its own (DigestPool) a blocking read gave 4,839 MiB/s where an awaited one gave 4,166
 * (two threads, XXH64), and the command's own thread never waits on them. The path may be bytes
 * (a name that is not UTF-8); `found`, the device and inode the file had when found: another file
 * in its place (a folder on its path swapped for a link) is refused.
 * @param {string | Uint8Array} path
 * @param {Algorithm} algorithm
 * @param {(bytes: number) => void} [onRead]
 * @param {{dev: bigint, ino: bigint}} [found]
 * @returns {Promise<{digest: string, size: number}>}
 */
export async function digestFile(path, algorithm, onRead, found) {
  const hash = await ALGORITHMS[algorithm]()
  const fd = openSync(typeof path === 'string' ? path : Buffer.from(path), OPEN_FLAGS)
  try {
    const stat = fstatSync(fd, { bigint: true })
    if (!stat.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOTFILE' })
    if (found && (stat.dev !== found.dev || stat.ino !== found.ino))
      throw Object.assign(new Error('another file is in its place'), { code: 'EREPLACED' })
    const buffer = Buffer.allocUnsafe(CHUNK)
    let size = 0
    for (let read; (read = readSync(fd, buffer, 0, CHUNK, null));) {
      hash.update(buffer.subarray(0, read))
      size += read
      onRead?.(read)
    }
    return { digest: hash.digest(), size }
  } finally {
    closeSync(fd)
  }
}

/**
 * Files digested several at a time, one a thread, a thread a core (four at most): a WASM digest
 * is bound by its core, not by reading (two threads: 2 GiB of XXH64 at 3,300–4,500 MiB/s, one
 * at 2,400). `onRead` hears every read's bytes, of whichever file. A thread that dies (out of
 * memory) fails the file it had with `fatal`: the run cannot go on.
 */
export class DigestPool {
  /** @type {Worker[]} */ #idle = []
  /** @type {Array<() => void>} */ #waiting = []
  /** @type {Worker[]} */ #workers = []
  /** Hears every read's bytes; may be set at any time. @type {((bytes: number) => void) | undefined} */
  onRead

  /**
   * The threads start at once (some 50 ms each, the WASM with them): made before the work is
   * known, they are ready when it is.
   * @param {{threads?: number, onRead?: (bytes: number) => void}} [options]
   */
  constructor({ threads = Math.min(availableParallelism(), 4), onRead } = {}) {
    this.threads = threads
    this.onRead = onRead
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(new URL(import.meta.url), { workerData: { digestPool: true } })
      worker.unref()
      worker.on('message', (/** @type {Said} */ message) => 'read' in message && this.onRead?.(message.read))
      // Heard by the file it had (digest below); never an unhandled 'error' that ends the process.
      worker.on('error', () => {})
      this.#workers.push(worker)
      this.#idle.push(worker)
    }
  }

  /**
   * The file's digest and size, on the next thread free.
   * @param {string | Uint8Array} path @param {Algorithm} algorithm
   * @param {{dev: bigint, ino: bigint}} [found]
   * @returns {Promise<{digest: string, size: number}>}
   */
  async digest(path, algorithm, found) {
    while (!this.#idle.length) await new Promise((resolve) => this.#waiting.push(() => resolve(undefined)))
    const worker = /** @type {Worker} */ (this.#idle.pop())
    worker.ref()
    let dead = false
    try {
      return await new Promise((resolve, reject) => {
        const onMessage = (/** @type {Said} */ message) => {
          if ('read' in message) return
          settled()
          if ('error' in message) reject(Object.assign(new Error(message.error.message), { code: message.error.code }))
          else resolve({ digest: message.digest, size: message.size })
        }
        const onExit = () => {
          dead = true
          settled()
          reject(Object.assign(new Error('a reading thread stopped'), { fatal: true }))
        }
        const settled = () => {
          worker.off('message', onMessage)
          worker.off('exit', onExit)
        }
        worker.on('message', onMessage)
        worker.on('exit', onExit)
        worker.postMessage({ path, algorithm, found })
      })
    } finally {
      worker.unref()
      if (!dead) this.#idle.push(worker)
      this.#waiting.shift()?.()
    }
  }

  close() {
    return Promise.all(this.#workers.map((worker) => worker.terminate()))
  }
}

/** @type {unknown} what the pool gave the thread, which Node types `any` */
const given = workerData
// A thread of the pool: digests the files it is given, saying each read's bytes as it goes.
if (!isMainThread && parentPort && /** @type {{digestPool?: true} | null} */ (given)?.digestPool) {
  const port = parentPort
  /** @param {Said} said */
  const say = (said) => port.postMessage(said)
  port.on('message', (/** @type {Job} */ { path, algorithm, found }) => {
    digestFile(path, algorithm, (read) => say({ read }), found).then(
      ({ digest, size }) => say({ digest, size }),
      (/** @type {unknown} */ err) => {
        const { code, message } = err instanceof Error ? /** @type {NodeJS.ErrnoException} */ (err) : {}
        say({ error: { code, message: message ?? String(err) } })
      },
    )
  })
}

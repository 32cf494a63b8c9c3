// The digests a copy is read back with, by the names the service gives algorithms (src/shared/
// digests.ts): each file read once, front to back, its digest in the form the service keeps
// (lower-case hex; C4 as its ID).
//
// Chosen by measurement (npm run bench:verify; docs/verify.md has the figures): the xxHash kinds
// from xxhash-addon's prebuilt native binary, where it loads, reading on one thread at 85–98% of
// Debian's xxhsum; where it does not (a platform without a prebuild), hash-wasm's WASM, the whole
// command at 28–66% (no SIMD: xxhsum uses SSE2/AVX2). node:crypto's SHA-1 at about twice
// sha1sum's speed and MD5 at md5sum's, ahead of hash-wasm's MD5. Files are read back several at
// a time, a thread each (DigestPool).
import { createHash } from 'node:crypto'
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { createRequire } from 'node:module'
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { Failure, shown } from './terminal.mjs'
import { OPEN_FLAGS } from './walk.mjs'

/**
 * 8 MiB a read for WASM and node:crypto: XXH64 in WASM over 1 GiB ran at 2,986 MiB/s, against
 * 2,454 with 1 MiB reads and 2,408 with 32 MiB.
 */
export const CHUNK = 8 * 1024 * 1024
/**
 * 256 KiB for the native xxHash, digested while the read is still in the core's cache: XXH128
 * over 1 GiB from the page cache at 4,870–6,140 MiB/s, against 3,000 with 8 MiB reads (xxhsum
 * 5,120; measured by a script reading the same file in each size, beside xxhsum).
 */
export const NATIVE_CHUNK = 256 * 1024

/**
 * @typedef {{update: (bytes: Uint8Array) => void, digest: () => string}} Digest
 * @typedef {'native' | 'wasm'} XxhashKind  where the xxHash digests come from
 * @typedef {{path: string | Uint8Array, algorithm: Algorithm, found?: {dev: bigint, ino: bigint}, stop: Int32Array}} Job
 *   a file a thread is given, and the pool's stop flag (shared memory: 1 once the pool stops)
 * @typedef {{read: number} | {digest: string, size: number} | {error: {code?: unknown, message: string}}} Said
 *   what a thread says of it: bytes read since it last said, then its digest and size, or why not
 * @typedef {{XXHash32: XxhashClass, XXHash64: XxhashClass, XXHash3: XxhashClass, XXHash128: XxhashClass}} Addon
 * @typedef {new (seed: Buffer) => {update: (bytes: Uint8Array) => void, digest: () => Buffer}} XxhashClass
 */

/** @type {{addon?: Addon, why?: string} | undefined} */
let loaded
/** xxhash-addon, or why it did not load: a platform it has no binary for, or one that cannot open it. */
function nativeAddon() {
  if (!loaded)
    try {
      /** @type {unknown} */
      const addon = createRequire(import.meta.url)('xxhash-addon')
      loaded = { addon: /** @type {Addon} */ (addon) }
    } catch (err) {
      loaded = { why: err instanceof Error ? err.message.split('\n')[0] : String(err) }
    }
  return loaded
}

/**
 * Where this machine's xxHash digests come from: native when the binary loads, else WASM, with
 * why. Asked once by the command; its reading threads are told, so one run uses one kind.
 * @returns {{kind: XxhashKind, why?: string}}
 */
export function xxhashKind() {
  const { addon, why } = nativeAddon()
  return addon ? { kind: 'native' } : { kind: 'wasm', why }
}

/** @param {string} name @returns {() => Digest} */
const node = (name) => () => {
  const hash = createHash(name)
  return { update: (bytes) => hash.update(bytes), digest: () => hash.digest('hex') }
}

/**
 * hash-wasm is loaded only where a WASM digest is made: loading it costs some 40 ms, on the
 * command's thread and on each reading thread, before the first byte is read.
 * @param {(wasm: typeof import('hash-wasm')) => Promise<import('hash-wasm').IHasher>} make
 * @returns {() => Promise<Digest>}
 */
const wasm = (make) => async () => {
  const hash = await make(await import('hash-wasm'))
  hash.init()
  return { update: (bytes) => void hash.update(bytes), digest: () => hash.digest('hex') }
}

/**
 * The native xxHash `name` with seed 0 (its digest big-endian, as xxhsum prints it), or the WASM one.
 * @param {'XXHash32' | 'XXHash64' | 'XXHash3' | 'XXHash128'} name
 * @param {(wasm: typeof import('hash-wasm')) => Promise<import('hash-wasm').IHasher>} make
 * @returns {(xxhash: XxhashKind) => Promise<Digest>}
 */
const xxhash = (name, make) => async (kind) => {
  if (kind === 'wasm') return wasm(make)()
  // Told native, a thread where the binary does not load fails its files rather than say native
  // of a WASM digest.
  const { addon, why } = nativeAddon()
  if (!addon) throw new Error(`the native xxHash did not load: ${why}`)
  const hash = new addon[name](Buffer.alloc(name === 'XXHash32' ? 4 : 8))
  return { update: (bytes) => hash.update(bytes), digest: () => hash.digest().toString('hex') }
}

/** C4 ID (SMPTE ST 2114): the SHA-512 in Base58, padded with `1` to 88 digits after `c4`. */
const c4 = async () => {
  const { base58 } = await import('@scure/base')
  const hash = createHash('sha512')
  return {
    update: (/** @type {Uint8Array} */ bytes) => void hash.update(bytes),
    digest: () => `c4${base58.encode(hash.digest()).replace(/^1+/, '').padStart(88, '1')}`,
  }
}

/** Every algorithm a copy's hash may name that the command can compute. */
const ALGORITHMS = {
  xxh64: xxhash('XXHash64', (wasm) => wasm.createXXHash64()),
  xxh128: xxhash('XXHash128', (wasm) => wasm.createXXHash128()),
  xxh3: xxhash('XXHash3', (wasm) => wasm.createXXHash3()),
  xxh32: xxhash('XXHash32', (wasm) => wasm.createXXHash32()),
  md5: node('md5'),
  sha1: node('sha1'),
  c4,
}

/** @typedef {keyof typeof ALGORITHMS} Algorithm */
/** @param {Algorithm} algorithm */
const isXxhash = (algorithm) => algorithm.startsWith('xxh')

/** Whether the command can compute `name`. @param {string} name @returns {name is Algorithm} */
export const computable = (name) => Object.hasOwn(ALGORITHMS, name)

/**
 * A file's digest by `algorithm`, read front to back into one buffer (NATIVE_CHUNK at a time for
 * the native xxHash, CHUNK otherwise), and the bytes it held. `onRead` hears how many bytes each
 * read gave (progress). The reads block: on a thread of its own (DigestPool) a blocking read gave
 * 4,839 MiB/s where an awaited one gave 4,166 (two threads, XXH64), and the command's own thread
 * never waits on them. The path may be bytes (a name that is not UTF-8); `found`, the device and
 * inode the file had when found: another file in its place (a folder on its path swapped for a
 * link) is refused. `xxhash`: where the xxHash kinds come from (this machine's, by default).
 * `stopped`, asked before each read: true gives the file up (code ESTOPPED).
 * @param {string | Uint8Array} path
 * @param {Algorithm} algorithm
 * @param {{onRead?: (bytes: number) => void, found?: {dev: bigint, ino: bigint}, xxhash?: XxhashKind, stopped?: () => boolean}} [options]
 * @returns {Promise<{digest: string, size: number}>}
 */
export async function digestFile(path, algorithm, { onRead, found, xxhash = xxhashKind().kind, stopped } = {}) {
  const hash = await /** @type {(xxhash: XxhashKind) => Promise<Digest>} */ (ALGORITHMS[algorithm])(xxhash)
  const chunk = xxhash === 'native' && isXxhash(algorithm) ? NATIVE_CHUNK : CHUNK
  const fd = openSync(typeof path === 'string' ? path : Buffer.from(path), OPEN_FLAGS)
  try {
    const stat = fstatSync(fd, { bigint: true })
    if (!stat.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOTFILE' })
    if (found && (stat.dev !== found.dev || stat.ino !== found.ino))
      throw Object.assign(new Error('another file is in its place'), { code: 'EREPLACED' })
    const buffer = Buffer.allocUnsafe(chunk)
    let size = 0
    for (let read; (read = readSync(fd, buffer, 0, chunk, null));) {
      if (stopped?.()) throw stoppedError()
      hash.update(buffer.subarray(0, read))
      size += read
      onRead?.(read)
    }
    return { digest: hash.digest(), size }
  } finally {
    closeSync(fd)
  }
}

/** A reading thread ended (out of memory, or it could not start): the run cannot go on. */
const THREAD_STOPPED =
  'a reading thread stopped (out of memory, or it could not start): run again, with --threads 1 if it stops again'
const threadStopped = () => Object.assign(new Failure(THREAD_STOPPED), { fatal: true })
const stoppedError = () => Object.assign(new Error('the read-back was stopped'), { code: 'ESTOPPED' })

/**
 * Files read at once: `--threads N`, else one a core (four at most). Fewer leaves a core to an
 * offload running beside the read-back.
 * @param {string | undefined} given
 */
export function threadsOf(given) {
  const threads = threadsGiven(given)
  if (threads === undefined)
    throw new Failure(`--threads ${shown(given)}: a whole number of files read at once, 1 to 64`)
  return threads
}

/** As threadsOf, undefined for a `--threads` that does not hold. @param {string | undefined} given */
function threadsGiven(given) {
  if (given === undefined) return Math.min(availableParallelism(), 4)
  const threads = Number(given)
  return /^\d+$/.test(given) && threads >= 1 && threads <= 64 ? threads : undefined
}

/** @param {XxhashKind} xxhash */
function startThread(xxhash) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { digestPool: true, xxhash } })
  // Heard by the file it has (DigestPool.digest); never an unhandled 'error' that ends the
  // process, even while a prestarted thread waits for its pool.
  worker.on('error', () => {})
  return worker
}

/** Threads started before their pool was made (prestart), and how. @type {{xxhash: XxhashKind, workers: Worker[]} | undefined} */
let prestarted

/**
 * The reading threads `--threads` asks for, started now for the pool the command makes later: a
 * thread takes some 60 ms to start, and `verify` can read nothing before its threads and the
 * service's answer are both there. The first pool made takes them; a pool that wants another kind
 * or fewer closes those it does not take. A `--threads` that does not hold starts none: the command
 * says what is wrong, in the order it checks its options.
 * @param {string | undefined} given
 */
export function prestart(given) {
  const threads = threadsGiven(given)
  if (threads === undefined) return
  const { kind: xxhash } = xxhashKind()
  for (const worker of prestarted?.workers ?? []) void worker.terminate()
  prestarted = { xxhash, workers: Array.from({ length: threads }, () => startThread(xxhash)) }
}

/**
 * Files digested several at a time, one a thread, a thread a core (four at most): a digest is
 * bound by its core, not by reading (two threads of WASM: 2 GiB of XXH64 at 3,300–4,500 MiB/s,
 * one at 2,400). `onRead` hears the bytes read, of whichever file. A thread that dies (out of
 * memory) fails the file it had with `fatal`: the run cannot go on. Every thread digests xxHash
 * the way `xxhash` says (this machine's, by default).
 *
 * A thread is never ended while it reads: xxhash-addon's native calls crash the process (SIGSEGV,
 * measured in 3 runs of 150 stopped at random) when a thread is terminated, or the process exits,
 * in the middle of one. stop() raises a flag each thread looks at between reads (256 KiB to
 * 8 MiB), and close() ends the threads only once every read under way has been given up.
 */
export class DigestPool {
  /** @type {Worker[]} */ #idle = []
  /** @type {Array<() => void>} */ #waiting = []
  /** @type {Worker[]} */ #workers = []
  /** Threads not ended. */ #live = 0
  /** Digests under way, settled or not yet. @type {Set<Promise<unknown>>} */ #busy = new Set()
  /** 1 once stopped: shared with the threads, which look at it between reads. */
  #stop = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT))
  /** Hears every read's bytes; may be set at any time. @type {((bytes: number) => void) | undefined} */
  onRead

  /**
   * The threads start at once (some 50 ms each, the WASM with them): made before the work is
   * known, they are ready when it is.
   * @param {{threads?: number, onRead?: (bytes: number) => void, xxhash?: XxhashKind}} [options]
   */
  constructor({ threads = threadsOf(undefined), onRead, xxhash = xxhashKind().kind } = {}) {
    this.threads = threads
    this.onRead = onRead
    this.xxhash = xxhash
    const { workers: spare = [], xxhash: spareKind } = prestarted ?? {}
    prestarted = undefined
    const ready = spareKind === xxhash ? spare.splice(0, threads) : []
    for (const worker of spare) void worker.terminate()
    for (let i = 0; i < threads; i++) {
      const worker = ready[i] ?? startThread(xxhash)
      worker.unref()
      worker.on('message', (/** @type {Said} */ message) => 'read' in message && this.onRead?.(message.read))
      this.#workers.push(worker)
      // A thread that ended takes no file: one prestarted that could not start (its id is -1 once
      // ended), or one that dies between files, which nothing would hear until a file was posted.
      if (worker.threadId === -1) continue
      this.#live++
      this.#idle.push(worker)
      worker.once('exit', () => {
        this.#live--
        const at = this.#idle.indexOf(worker)
        if (at !== -1) this.#idle.splice(at, 1)
        // The last one gone: the digests waiting for a thread fail as the files being read did.
        if (!this.#live) for (const waiting of this.#waiting.splice(0)) waiting()
      })
    }
  }

  /**
   * The file's digest and size, on the next thread free.
   * @param {string | Uint8Array} path @param {Algorithm} algorithm
   * @param {{dev: bigint, ino: bigint}} [found]
   * @returns {Promise<{digest: string, size: number}>}
   */
  digest(path, algorithm, found) {
    const digest = this.#digest(path, algorithm, found)
    const settled = digest.catch(() => {})
    this.#busy.add(settled)
    void settled.then(() => this.#busy.delete(settled))
    return digest
  }

  /** @param {string | Uint8Array} path @param {Algorithm} algorithm @param {{dev: bigint, ino: bigint}} [found] @returns {Promise<{digest: string, size: number}>} */
  async #digest(path, algorithm, found) {
    while (!this.#idle.length && !this.stopped && this.#live)
      await new Promise((resolve) => this.#waiting.push(() => resolve(undefined)))
    if (this.stopped) throw stoppedError()
    if (!this.#live) throw threadStopped()
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
          reject(threadStopped())
        }
        const settled = () => {
          worker.off('message', onMessage)
          worker.off('exit', onExit)
        }
        worker.on('message', onMessage)
        worker.on('exit', onExit)
        worker.postMessage(/** @type {Job} */ ({ path, algorithm, found, stop: this.#stop }))
      })
    } finally {
      worker.unref()
      if (!dead) this.#idle.push(worker)
      this.#waiting.shift()?.()
    }
  }

  get stopped() {
    return Atomics.load(this.#stop, 0) === 1
  }

  /** Every read under way is given up at its next read, and each digest asked now or later fails (ESTOPPED). */
  stop() {
    Atomics.store(this.#stop, 0, 1)
    for (const waiting of this.#waiting.splice(0)) waiting()
  }

  /** Stops, and ends the threads once none reads. */
  async close() {
    this.stop()
    await Promise.all(this.#busy)
    await Promise.all(this.#workers.map((worker) => worker.terminate()))
  }
}

/** @type {unknown} what the pool gave the thread, which Node types `any` */
const given = workerData
const pooled = /** @type {{digestPool?: true, xxhash?: XxhashKind} | null} */ (given)
// A thread of the pool: digests the files it is given, saying what it read every 8 MiB or so:
// enough for the progress line, where every 256 KiB read would be 4,096 messages a GiB.
if (!isMainThread && parentPort && pooled?.digestPool) {
  const port = parentPort
  const xxhash = pooled.xxhash ?? 'wasm'
  /** @param {Said} said */
  const say = (said) => port.postMessage(said)
  port.on('message', (/** @type {Job} */ { path, algorithm, found, stop }) => {
    let unsaid = 0
    const flush = () => {
      if (unsaid) say({ read: unsaid })
      unsaid = 0
    }
    const onRead = (/** @type {number} */ read) => {
      unsaid += read
      if (unsaid >= CHUNK) flush()
    }
    const stopped = () => Atomics.load(stop, 0) === 1
    digestFile(path, algorithm, { onRead, found, xxhash, stopped }).then(
      ({ digest, size }) => (flush(), say({ digest, size })),
      (/** @type {unknown} */ err) => {
        flush()
        const { code, message } = err instanceof Error ? /** @type {NodeJS.ErrnoException} */ (err) : {}
        say({ error: { code, message: message ?? String(err) } })
      },
    )
  })
}

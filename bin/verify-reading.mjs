// `media-log verify`, reading: the chosen files read back on the digest pool, the progress line, and
// the resume file a stopped run goes on from.
import { createHash } from 'node:crypto'
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { configFolder } from './service.mjs'
import { Progress, Stopped, count, onStop, warn } from './terminal.mjs'

/** The algorithm a clip with no hash anywhere is given: what offload tools default to. */
export const FIRST_ALGORITHM = 'xxh64'

/** A time as the log's hashdates give it: to the second, in UTC. @param {Date} date */
export const isoDate = (date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z')

/**
 * The progress line: share read, files, rate and time left; and the time the reading took. Both
 * count from the first byte read: the threads' start (some 50 ms) once made the first line promise
 * a minute for a second's work.
 */
export class Meter {
  #progress = new Progress()
  #firstRead = 0
  #bytes = 0
  #files = 0
  #shown = 0
  /**
   * @param {string} volume
   * @param {number} total bytes to read
   * @param {number} files files to read
   * @param {string} digests what the bytes are digested with
   */
  constructor(volume, total, files, digests) {
    this.volume = volume
    this.total = total
    this.files = files
    this.digests = digests
  }
  /** @param {number} bytes */
  add(bytes) {
    const now = performance.now()
    this.#firstRead ||= now
    this.#bytes += bytes
    // A terminal's line redrawn ten times a second, once a quarter second has given a rate; a
    // log's line every 15 seconds.
    if (process.stderr.isTTY ? now - this.#firstRead < 250 || now - this.#shown < 100 : now - this.#shown < 15_000)
      return
    this.#shown = now
    const rate = this.#bytes / ((now - this.#firstRead) / 1000)
    const left = Math.max(0, (this.total - this.#bytes) / rate)
    const share = this.total ? Math.min(this.#bytes / this.total, 1) : 1
    const bar = '#'.repeat(Math.round(share * 20)).padEnd(20, '.')
    this.#progress.say(
      `${this.volume} [${bar}] ${sizeOf(this.#bytes)} of ${sizeOf(this.total)}, ${this.#files} of ${count(this.files, 'file')} · ` +
        `${sizeOf(rate)}/s (${this.digests}) · ${clock(left)} left`,
    )
  }
  fileDone() {
    this.#files++
  }
  seconds() {
    return this.#firstRead ? (performance.now() - this.#firstRead) / 1000 : 0
  }
  done() {
    this.#progress.done()
  }
}

/** @param {number} bytes */
export const sizeOf = (bytes) =>
  bytes >= 1e12
    ? `${(bytes / 1e12).toFixed(1)} TB`
    : bytes >= 1e9
      ? `${(bytes / 1e9).toFixed(1)} GB`
      : bytes >= 1e6
        ? `${Math.round(bytes / 1e6)} MB`
        : `${Math.round(bytes / 1e3)} kB`
/** @param {number} seconds */
export const clock = (seconds) => {
  const s = Math.round(seconds)
  const mmss = `${Math.floor(s / 60) % 60}:${String(s % 60).padStart(2, '0')}`
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss.padStart(5, '0')}` : mmss
}

/**
 * @typedef {{path: string, size: number, ino: string, mtimeMs: number, ctimeMs: number, algorithm: string,
 *   digest: string, hashdate: string, at: number}} Entry  a file read: what it was, its digest, when
 */

/**
 * What a run has read, a line a file (path, size, inode, times of modification and of change,
 * algorithm, digest), in the user's config folder: the next run of the same volume, log and
 * service takes a file's digest from it while the file is as it was (a file copied over keeps its
 * modification time, not its time of change), for a week. Removed once the outcome is recorded.
 */
export class ResumeFile {
  static #WEEK = 7 * 24 * 3600 * 1000
  /** @type {Map<string, Entry>} */
  #kept = new Map()
  /** @type {number | undefined} */
  #fd
  #failed = false
  /** The parts' files (`watch --verify`) beside a whole read-back's, which takes their reads. @type {string[]} */
  #parts = []
  /**
   * @param {string} baseUrl @param {string} log @param {string} volume @param {string[]} roots
   * @param {boolean | undefined} again `--again`: what the run before read is read again
   * @param {string} [part] a part of the log's clips (`watch --verify`): a file of its own, so that
   *   its end does not take the progress of a whole `media-log verify` of the same drive; the whole
   *   one, which `watch` names for a part it stopped, goes on from the part's reads
   */
  constructor(baseUrl, log, volume, roots, again, part) {
    const digest = (/** @type {string[]} */ words) =>
      createHash('sha256').update(words.join('\u0000')).digest('hex').slice(0, 24)
    const key = digest([baseUrl, log, volume, ...roots])
    const folder = join(configFolder(), 'verify')
    this.path = join(folder, part === undefined ? `${key}.jsonl` : `${key}.${digest([part])}.jsonl`)
    if (part === undefined)
      try {
        this.#parts = readdirSync(folder)
          .filter((name) => name.startsWith(`${key}.`) && name !== `${key}.jsonl` && name.endsWith('.jsonl'))
          .map((name) => join(folder, name))
      } catch {}
    let text = ''
    // With --again nothing of it is read, even where it cannot be removed (a folder the user cannot
    // write: the writes below say so).
    if (again)
      for (const path of [this.path, ...this.#parts])
        try {
          rmSync(path, { force: true })
        } catch {}
    else
      for (const path of [...this.#parts, this.path])
        try {
          text += `${readFileSync(path, 'utf8')}\n`
        } catch {}
    const now = Date.now()
    for (const line of text.split('\n'))
      try {
        /** @type {unknown} JSON.parse types nothing: looked at below before it is used */
        const parsed = JSON.parse(line)
        const entry = /** @type {Partial<Entry> | null} */ (parsed)
        if (
          typeof entry?.path === 'string' &&
          typeof entry.digest === 'string' &&
          /^[0-9A-Za-z]+$/.test(entry.digest) &&
          typeof entry.hashdate === 'string' &&
          typeof entry.at === 'number' &&
          now - entry.at < ResumeFile.#WEEK
        )
          this.#kept.set(entry.path, /** @type {Entry} */ (entry))
      } catch {}
  }
  /**
   * The file's digest by `algorithm` as the run before read it, while the file is as it was then.
   * @param {import('./walk.mjs').Found} file @param {string} algorithm
   */
  kept(file, algorithm) {
    const entry = this.#kept.get(file.name)
    const same =
      entry &&
      entry.size === file.size &&
      entry.ino === String(file.ino) &&
      entry.mtimeMs === file.mtimeMs &&
      entry.ctimeMs === file.ctimeMs &&
      entry.algorithm === algorithm
    return same ? entry : undefined
  }
  /**
   * Keeps a file's digest; a folder that cannot be written to stops the keeping, said once.
   * @param {import('./walk.mjs').Found & {hashdate?: string}} file @param {string} algorithm @param {string} digest
   */
  add(file, algorithm, digest) {
    if (this.#failed) return
    try {
      if (this.#fd === undefined) {
        mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 })
        chmodSync(join(this.path, '..'), 0o700)
        this.#fd = openSync(this.path, 'a', 0o600)
      }
      const { name: path, size, mtimeMs, ctimeMs, hashdate } = file
      const entry = { path, size, ino: String(file.ino), mtimeMs, ctimeMs, algorithm, digest, hashdate, at: Date.now() }
      writeSync(this.#fd, `${JSON.stringify(entry)}\n`)
    } catch (err) {
      this.#failed = true
      warn(`${this.path}: ${/** @type {Error} */ (err).message}: a stopped run will start again from the beginning`)
    }
  }
  /** The read-back is done: its file goes, and a whole one's parts with it. */
  done() {
    if (this.#fd !== undefined) closeSync(this.#fd)
    this.#fd = undefined
    for (const path of [this.path, ...this.#parts])
      try {
        rmSync(path, { force: true })
      } catch (err) {
        warn(`${path}: ${/** @type {Error} */ (err).message}: a later run takes its reads as done`)
      }
  }
}

/**
 * Every file of the chosen clips read and hashed, several at a time (DigestPool), a progress line
 * with the rate and the time left; a file the resume file has, unchanged since, is not read again.
 * Ctrl-C stops the command where it is (the resume file keeps what was read); given `signal`
 * (`watch --verify`), its abort stops taking files instead, and the read-back throws it. `again`:
 * the run reads everything again (`--again`), which a run to go on with must leave out.
 * @param {import('./verify.mjs').Reading[]} chosen @param {ResumeFile} resume
 * @param {import('./verify.mjs').Outcome} outcome @param {import('./digests.mjs').DigestPool} pool
 * @param {{signal?: AbortSignal, again?: boolean}} [options]
 */
export async function readBack(chosen, resume, outcome, pool, { signal, again } = {}) {
  /** @type {Array<{item: import('./verify.mjs').Reading, file: import('./verify.mjs').File, i: number, algorithm: import('./digests.mjs').Algorithm}>} */
  const jobs = []
  for (const item of chosen) {
    const algorithm = item.expected?.algorithm ?? FIRST_ALGORITHM
    item.unit.files.forEach((file, i) => jobs.push({ item, file, i, algorithm }))
  }
  let total = 0
  for (const job of jobs) {
    const kept = resume.kept(job.file, job.algorithm)
    if (kept) {
      job.item.digests[job.i] = kept.digest
      job.file.hashdate = kept.hashdate
      outcome.read.resumed++
    } else total += job.file.size
  }
  const pending = jobs.filter((job) => job.item.digests[job.i] === undefined)
  if (outcome.read.resumed)
    warn(`${outcome.volume}: ${count(outcome.read.resumed, 'file')} read by the run before (--again reads them again)`)
  // The progress line names what the bytes are digested with: `xxh64 native`, `md5`.
  const digests = [...new Set(pending.map((job) => job.algorithm))]
  const meter = new Meter(
    outcome.volume,
    total,
    pending.length,
    digests.map((a) => (a.startsWith('xxh') ? `${a} ${pool.xxhash}` : a)).join(', '),
  )
  pool.onRead = (bytes) => meter.add(bytes)
  // Ctrl-C (or a kill, or the terminal closed): the reads under way are given up at their next
  // read (DigestPool.stop), nothing is recorded, and the command ends by that signal (Stopped);
  // the resume file keeps the files read whole.
  /** @type {NodeJS.Signals | undefined} */
  let interrupted
  const unheard = signal
    ? () => {}
    : onStop((name) => {
        interrupted ??= name
        pool.stop()
      })
  try {
    let next = 0
    const thread = async () => {
      while (next < pending.length && !signal?.aborted && !interrupted) {
        const job = pending[next++]
        if (job.item.error) continue
        try {
          const { file } = job
          const { digest, size } = await pool.digest(file.path, job.algorithm, { dev: file.dev, ino: file.ino })
          job.item.digests[job.i] = digest
          file.hashdate = isoDate(new Date())
          file.readSize = size
          resume.add(file, job.algorithm, digest)
          outcome.read.files++
          outcome.read.bytes += size
          meter.fileDone()
        } catch (thrown) {
          const err = /** @type {NodeJS.ErrnoException & {fatal?: true}} */ (thrown)
          if (err.fatal) throw err
          if (interrupted) return
          job.item.error = { file: job.file, message: readError(err) }
        }
      }
    }
    await Promise.all(Array.from({ length: pool.threads }, thread))
    if (interrupted)
      throw new Stopped(
        `stopped: ${count(outcome.read.files, 'file')} read; ` +
          (again ? 'run it again without --again to go on' : 'run the same command again to go on'),
        interrupted,
      )
    signal?.throwIfAborted()
  } finally {
    unheard()
    meter.done()
  }
  outcome.read.seconds = Number((meter.seconds() || 0).toFixed(3))
}

/** @param {NodeJS.ErrnoException} err */
function readError(err) {
  if (err.code === 'ENOENT') return 'gone since it was found'
  if (err.code === 'ELOOP' || err.code === 'EMLINK') return 'a symbolic link now, not the file found'
  if (err.code === 'ENOTFILE') return 'not a file any more'
  if (err.code === 'EREPLACED') return 'another file is in its place now, not the one found'
  return err.message
}

/**
 * `media-log watch --verify`: the clips of each report taken are read back from the watched
 * folder, as `media-log verify` reads them and with the outcome recorded the same way, once the
 * folder has been idle for `--idle` seconds (60 by default): no change in it, and no report waiting
 * to settle. Reading while the copy tool still writes would slow both, and read files half-copied.
 *
 * One read-back at a time; reports taken meanwhile wait for the next idle moment. Only manifests'
 * clips are read back (a transfer report's copies are elsewhere), and not in a folder the system
 * does not tell of changes (walked only): its idleness cannot be told. Stopped (Ctrl-C), a
 * read-back takes no more files once those being read are done, and each read-back still due is
 * said with the command that does it.
 */
import { count, shown } from './terminal.mjs'

/**
 * @typedef {{root: string, log: string, volume: string | undefined, clips: Set<string>}} Due
 *   clips taken into `log` from reports under `root`, still to be read back
 */

export class ReadBacks {
  /** @type {Map<string, Due>} */
  #due = new Map()
  /** When each watched folder last changed. @type {Map<string, number>} */
  #changedAt = new Map()
  /** @type {Promise<void> | undefined} */
  #running
  #stopping = new AbortController()

  /**
   * @param {{idleMs: number, client: import('media-log-service/client').MediaLogClient, usage: string, problem: (message: string) => void}} how
   */
  constructor({ idleMs, client, usage, problem }) {
    this.idleMs = idleMs
    this.client = client
    this.usage = usage
    this.problem = problem
  }

  /** Something in `root` changed: its read-backs wait for it to be idle again. @param {string} root */
  changed(root) {
    this.#changedAt.set(root, Date.now())
  }

  /**
   * A report under `root` was taken into `log`: its clips are due.
   * @param {string} root @param {string} log @param {string | undefined} volume @param {string[]} clips
   */
  taken(root, log, volume, clips) {
    if (!clips.length) return
    const key = JSON.stringify([root, log, volume ?? null])
    const due = this.#due.get(key) ?? { root, log, volume, clips: new Set() }
    for (const clip of clips) due.clips.add(clip)
    // Taken while stopping (a report sent as Ctrl-C came): said now, as stop() says the others.
    if (this.#stopping.signal.aborted) return this.problem(`not read back: ${this.#said(due)}`)
    this.#due.set(key, due)
    this.changed(root)
  }

  /**
   * Starts the first read-back due whose folder is idle.
   * @param {(root: string) => boolean} waiting reports still settling there
   * @param {(root: string) => boolean} walkedOnly the system does not tell of its changes
   */
  tick(waiting, walkedOnly) {
    if (this.#running || this.#stopping.signal.aborted) return
    const now = Date.now()
    for (const [key, due] of this.#due) {
      if (walkedOnly(due.root)) {
        this.#due.delete(key)
        this.problem(`not read back: ${this.#said(due)}; the folder is walked only, so a copy's end cannot be told`)
        continue
      }
      if (waiting(due.root) || now - (this.#changedAt.get(due.root) ?? 0) < this.idleMs) continue
      this.#due.delete(key)
      this.#running = this.#readBack(due).finally(() => (this.#running = undefined))
      return
    }
  }

  /**
   * Stopping: a read-back under way takes no more files, and each one still due is said. Answers
   * when the files being read are done.
   */
  stop() {
    this.#stopping.abort()
    for (const due of this.#due.values()) this.problem(`not read back: ${this.#said(due)}`)
    this.#due.clear()
    return this.#running ?? Promise.resolve()
  }

  /** @param {Due} due */
  #said({ root, log, volume, clips }) {
    const named = volume === undefined ? '' : ` --volume ${shown(volume)}`
    return `${count(clips.size, 'clip')} of ${shown(log)} in ${shown(root)} (media-log verify ${shown(root)} --log ${shown(log)}${named} reads them)`
  }

  /** @param {Due} due */
  async #readBack({ root, log, volume, clips }) {
    process.stdout.write(
      `reading back ${count(clips.size, 'clip')} of ${shown(log)} in ${shown(root)} ` +
        `(idle for ${this.idleMs / 1000} s)\n`,
    )
    try {
      const { verifyFolders } = await import('./verify.mjs')
      const status = await verifyFolders([root], { log, volume }, this.usage, {
        only: clips,
        signal: this.#stopping.signal,
        client: this.client,
      })
      if (status !== 0) this.problem(`read back ${shown(log)} in ${shown(root)}: not every clip verified`)
    } catch (err) {
      if (this.#stopping.signal.aborted)
        this.problem(`read-back of ${shown(log)} stopped: ${this.#said({ root, log, volume, clips })}`)
      else
        this.problem(
          `not read back ${shown(log)} in ${shown(root)}: ${err instanceof Error ? err.message : String(err)}`,
        )
    }
  }
}

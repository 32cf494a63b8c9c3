/**
 * `media-log watch --verify`: the clips of each report taken are read back from the watched
 * folder, as `media-log verify` reads them and with the outcome recorded the same way, once the
 * folder has been idle for `--idle` seconds (60 by default): no change in it, and no report waiting
 * to settle. Reading while the copy tool still writes would slow both, and read files half-copied.
 *
 * One read-back at a time; reports taken meanwhile wait for the next idle moment. Stopped (Ctrl-C),
 * a read-back stops taking files: the next `media-log verify` of that log goes on where it stopped.
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
    this.#due.set(key, due)
    this.changed(root)
  }

  /** Starts the first read-back due whose folder is idle. @param {(root: string) => boolean} waiting reports settling there */
  tick(waiting) {
    if (this.#running || this.#stopping.signal.aborted) return
    const now = Date.now()
    for (const [key, due] of this.#due) {
      if (waiting(due.root) || now - (this.#changedAt.get(due.root) ?? 0) < this.idleMs) continue
      this.#due.delete(key)
      this.#running = this.#readBack(due).finally(() => (this.#running = undefined))
      return
    }
  }

  /** Stops a read-back under way at its next file, and waits for it. */
  async stop() {
    this.#stopping.abort()
    await this.#running
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
        this.problem(`read-back of ${shown(log)} stopped: media-log verify goes on where it stopped`)
      else
        this.problem(
          `not read back ${shown(log)} in ${shown(root)}: ${err instanceof Error ? err.message : String(err)}`,
        )
    }
  }
}

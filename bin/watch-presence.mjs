/**
 * A watcher as the console lists it (PUT /watchers/{id}, docs/watch.md): the folders it watches,
 * the last report it took and its last problems. Sent when it starts, after each report and every
 * 15 s, so that the console can warn of a watcher it no longer hears; DELETE when it stops. The
 * service being away never stops the watching: the next report tries again.
 */
import { randomUUID } from 'node:crypto'
import { MediaLogError } from 'media-log-service/client'
import { warn } from './terminal.mjs'

/** Seconds between reports: the console calls a watcher quiet after three of them unheard. */
export const EVERY_SECONDS = 15
/** Problems kept to show: the last few, as the service takes them. */
const PROBLEMS = 5
/** Folders one watcher reports, as the service takes them. */
export const MOST_FOLDERS = 16

/** @param {string} text @param {number} max */
const within = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

export class Presence {
  #id = randomUUID()
  /** @type {import('media-log-service/client').WatcherReportInput} */
  #report
  /** @type {Promise<void>} */
  #sending = Promise.resolve()
  #queued = false
  #refusedSaid = false
  #stopped = false
  /** @type {ReturnType<typeof setInterval> | undefined} */
  #timer
  /** @type {import('media-log-service/client').MediaLogClient} */
  #client

  /**
   * @param {import('media-log-service/client').MediaLogClient} client
   * @param {{folders: string[], log?: string, volume?: string}} watching
   */
  constructor(client, { folders, log, volume }) {
    this.#client = client
    this.#report = {
      folders: folders.map((f) => within(f, 1024)),
      ...(log !== undefined && { log }),
      ...(volume !== undefined && { volume }),
      everySeconds: EVERY_SECONDS,
      taken: 0,
      problems: [],
      walkedOnly: [],
    }
  }

  start() {
    this.#send()
    this.#timer = setInterval(() => this.#send(), EVERY_SECONDS * 1000)
  }

  /**
   * A report taken into a log.
   * @param {{report: string, log: string, created: boolean, added: number, changed: number}} taken
   */
  took({ report, ...rest }) {
    this.#report.taken++
    this.#report.last = { report: within(report, 1024), at: new Date().toISOString(), ...rest }
    this.#send()
  }

  /** @param {string} message what went wrong, as the terminal said it */
  problem(message) {
    this.#report.problems = [
      ...this.#report.problems.slice(1 - PROBLEMS),
      { at: new Date().toISOString(), message: within(message, 500) },
    ]
    this.#send()
  }

  /**
   * A folder the system no longer tells of changes (walked only), or watched again.
   * @param {string} folder @param {boolean} walkedOnly
   */
  walkedOnly(folder, walkedOnly) {
    const shown = within(folder, 1024)
    const others = this.#report.walkedOnly.filter((f) => f !== shown)
    const now = walkedOnly ? [...others, shown] : others
    if (now.length === this.#report.walkedOnly.length) return
    this.#report.walkedOnly = now
    this.#send()
  }

  /** Stopped: the last report sent, then the service told, within 2 s whatever it answers. */
  async stop() {
    clearInterval(this.#timer)
    this.#stopped = true
    const told = this.#sending.then(() => this.#client.stopWatcher(this.#id)).catch(() => {})
    await Promise.race([told, new Promise((done) => setTimeout(done, 2000).unref())])
  }

  /** One report at a time; one asked for meanwhile goes when the one in flight is answered. */
  #send() {
    if (this.#queued || this.#stopped) return
    this.#queued = true
    this.#sending = this.#sending.then(async () => {
      this.#queued = false
      try {
        await this.#client.reportWatcher(this.#id, this.#report)
      } catch (err) {
        // Away, or busy: the next report says it all again. Refused: said once.
        if (err instanceof MediaLogError && err.status !== 503 && !this.#refusedSaid) {
          this.#refusedSaid = true
          warn(`the console cannot list this watcher: ${err.status} ${err.error}`)
        }
      }
    })
  }
}

/**
 * `media-log watch <folder…> [--log ID]`: the offload destinations watched, and each report an
 * offload tool writes there taken into the day's log once it is whole, as `media-log import` would
 * send it (docs/watch.md). Without --log, into the day its own dates name (POST /import): the
 * project's log of that date, else a new one from the project's log id template.
 *
 * Whole means: an ASC MHL generation (`ascmhl/NNNN_….mhl`) once it ends with its closing
 * `</hashlist>` and the history's `ascmhl_chain.xml` names it (a copy tool writes the chain last);
 * a classic MHL, an ALE or a CSV once its size and time have not changed for the settling time
 * (`--settle`, 2 s). Media files are never read: only reports are.
 *
 * The system tells of changes (watch-tree.mjs: FSEvents on macOS, ReadDirectoryChangesW on
 * Windows, an inotify watch a directory on Linux); a walk of each folder every 30 s finds what it
 * missed (an event lost under load), and each folder is looked for every 2 s (a drive unplugged
 * and plugged back). A report taken is remembered by
 * its bytes, its volume and the log, in `watch-taken.txt` of the config folder: seen again after
 * a restart or a rename, it is not sent again. Reports are taken one at a time, in the order they
 * became whole; what is held meanwhile is the reports waiting, never the media around them.
 */
import { createHash } from 'node:crypto'
import { appendFile, lstat, mkdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { MediaLogError } from 'media-log-service/client'
import { isManifest, isWanted, mayBeReport } from './reports.mjs'
import { configFolder, connectedClient, serviceUrl } from './service.mjs'
import { Failure, count, onStop, shown, warn } from './terminal.mjs'
import { mountedVolume, readRegularFile, walk } from './walk.mjs'
import { MOST_FOLDERS, Presence } from './watch-presence.mjs'
import { watchTree } from './watch-tree.mjs'
import { ReadBacks } from './watch-verify.mjs'

/** How often each folder is walked for what the watcher missed. */
const RESCAN_MS = 30_000
/** How often each folder is looked for: a drive plugged back is watched again within this. */
const LOOK_MS = 2000
/** How often waiting reports are looked at. */
const TICK_MS = 250
/** A generation its chain does not name yet is looked at again this often, or when the chain changes. */
const WAIT_MS = 5000
/** The largest report sent: as large as the service takes a body. */
const REPORT_BYTES = 64 * 1024 * 1024
/** A walk's progress, not said: it runs in the background. */
const QUIET = { say: () => {} }

/**
 * @typedef {{root: string, size: number, mtimeMs: number, changedAt: number, retryAt: number}} Waiting
 *   a report waiting to be whole: as last seen, when it last changed, when to look again
 * @typedef {import('media-log-service/client').MediaLogClient} Client
 */

/** @param {string[]} folders @param {import('./media-log.mjs').Options} options @param {string} usage */
export async function watchFolders(folders, options, usage) {
  if (!folders.length) throw new Failure(`watch needs folders\n${usage}`)
  if (folders.length > MOST_FOLDERS)
    throw new Failure(`watch takes at most ${MOST_FOLDERS} folders: start another watch for the rest`)
  const settleMs = options.settle === undefined ? 2000 : Number(options.settle) * 1000
  if (!(settleMs >= 0 && settleMs <= 600_000)) throw new Failure('--settle is seconds, from 0 to 600')
  if (options.idle !== undefined && !options.verify) throw new Failure('--idle goes with --verify')
  const idleMs = options.idle === undefined ? 60_000 : Number(options.idle) * 1000
  if (!(idleMs >= 0 && idleMs <= 86_400_000)) throw new Failure('--idle is seconds, from 0 to 86400')
  const roots = folders.map((folder) => resolve(folder))
  for (const [i, root] of roots.entries())
    if (!(await stat(root).catch(() => undefined))?.isDirectory())
      throw new Failure(`${shown(folders[i])} is not a folder`)
  const client = await connectedClient(serviceUrl(options.url))
  const log = options.log
  const taken = await rememberedReports()
  // What the console lists of this watcher (docs/watch.md).
  const presence = new Presence(client, { folders: roots, log, volume: options.volume })
  /** A problem, on the terminal and in the console. @param {string} message */
  const problem = (message) => {
    warn(message)
    presence.problem(message)
  }
  const readBacks = options.verify ? new ReadBacks({ idleMs, client, usage, problem }) : undefined

  /** @type {Map<string, Waiting>} */
  const waiting = new Map()
  /** Reports that failed, by key: not sent again until they change. @type {Set<string>} */
  const failed = new Set()

  /** Files dealt with, as they were then (size and time): a walk passes them by unless they changed. */
  /** @type {Map<string, string>} */
  const handled = new Map()

  /** A file the watcher or a walk named: waits if it may be a report. @param {string} root @param {string} path */
  const consider = async (root, path) => {
    const name = basename(path).toLowerCase()
    if (!mayBeReport(name)) return
    const found = await lstat(path).catch(() => undefined)
    if (!found?.isFile()) return void waiting.delete(path)
    // A chain that changed may name a generation waiting for it: looked at again now.
    if (name === 'ascmhl_chain.xml')
      for (const [other, entry] of waiting) if (dirname(other) === dirname(path)) entry.retryAt = 0
    if (handled.get(path) === `${found.size}:${found.mtimeMs}`) return
    const before = waiting.get(path)
    if (before && before.size === found.size && before.mtimeMs === found.mtimeMs) return
    waiting.set(path, { root, size: found.size, mtimeMs: found.mtimeMs, changedAt: Date.now(), retryAt: 0 })
  }

  // Each walk after the one before ends: a large RAID may take longer than the interval.
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let walking
  let stopping = false
  const walkAll = async () => {
    for (const root of roots) {
      const files = await walk(root, QUIET, isWanted).catch(() => [])
      for (const file of files) await consider(root, file.name)
    }
    if (!stopping) walking = setTimeout(() => void walkAll(), RESCAN_MS)
  }

  /**
   * Each folder's watcher, and which folder it watches (device and inode): a drive plugged back
   * is another folder at the same path, watched again.
   * @type {Map<string, {watcher: {close: () => void} | undefined, identity: string}>}
   */
  const watchers = new Map()
  /** @param {string} root @param {string} identity */
  const watchRoot = (root, identity) => {
    try {
      const watcher = watchTree(
        root,
        (path) => {
          // Any change, media too: a read-back waits for the copy to end.
          readBacks?.changed(root)
          void consider(root, path)
        },
        // The system stopped telling (its watches used up, the drive gone): the walks go on, and
        // the folder is watched again once it is another (plugged back).
        (err) => {
          problem(`${shown(root)}: no longer watched (${err.message}); walked every 30 s`)
          presence.walkedOnly(root, true)
          watchers.set(root, { watcher: undefined, identity })
        },
      )
      watchers.set(root, { watcher, identity })
      presence.walkedOnly(root, false)
    } catch (err) {
      problem(`${shown(root)}: not watched (${err instanceof Error ? err.message : String(err)}); walked every 30 s`)
      presence.walkedOnly(root, true)
      watchers.set(root, { watcher: undefined, identity })
    }
  }
  /** Folders gone (a drive unplugged): said once, and watched again when they are back. */
  const gone = new Set()
  const lookAround = async () => {
    for (const root of roots) {
      const now = await stat(root).catch(() => undefined)
      const was = watchers.get(root)
      if (!now?.isDirectory()) {
        if (gone.has(root)) continue
        gone.add(root)
        was?.watcher?.close()
        watchers.set(root, { watcher: undefined, identity: '' })
        presence.walkedOnly(root, false)
        problem(`${shown(root)} is gone (a drive unplugged?): watched again when it is back`)
        continue
      }
      const identity = `${now.dev}:${now.ino}`
      if (was?.identity === identity) continue
      was?.watcher?.close()
      if (gone.delete(root)) warn(`${shown(root)} is back: watched again`)
      watchRoot(root, identity)
      // What was written while it was away, or on the drive put in its place.
      for (const file of await walk(root, QUIET, isWanted).catch(() => [])) await consider(root, file.name)
    }
  }
  for (const root of roots) {
    const found = await stat(root)
    watchRoot(root, `${found.dev}:${found.ino}`)
  }
  warn(
    `watching ${roots.map(shown).join(', ')} for offload reports, taken into ` +
      `${log === undefined ? 'the day each one’s dates name' : shown(log)} ` +
      `(whole after ${settleMs / 1000} s unchanged; Ctrl-C stops)`,
  )
  // Stopping is heard from now on, the first walk of a large RAID included: the console is told.
  /** @type {(value?: unknown) => void} */
  let stop = () => {}
  const stopAsked = new Promise((resolve) => (stop = resolve))
  // The terminal closed stops it too, so that the console says it stopped.
  onStop(() => stop())
  presence.start()
  void walkAll()

  /** What is under way (a report being sent, the folders looked for): done before the watch says it stopped. */
  /** @type {Promise<void> | undefined} */
  let ticking
  /** @type {Promise<void> | undefined} */
  let looking
  /** A report left waiting this long (a generation its chain never names) holds no read-back back. */
  const stale = (/** @type {Waiting} */ w) => Date.now() - w.changedAt > 10 * 60_000
  const tick = async () => {
    try {
      const now = Date.now()
      const due = [...waiting]
        .filter(([, w]) => now - w.changedAt >= settleMs && now >= w.retryAt)
        .sort(([, a], [, b]) => a.changedAt - b.changedAt)
      for (const [path, entry] of due) {
        // Stopping: what is not sent yet waits for the next watch.
        if (stopping) break
        const outcome = await take(client, log, path, entry, options, taken, failed, { presence, problem, readBacks })
        // A generation whose chain does not name it yet waits for the chain.
        if (outcome === 'wait') entry.retryAt = Date.now() + WAIT_MS
        else if (outcome !== 'changed') {
          waiting.delete(path)
          // Not reachable: looked at again at the next walk.
          if (outcome !== 'unreachable') handled.set(path, `${entry.size}:${entry.mtimeMs}`)
        }
      }
      readBacks?.tick(
        (root) => [...waiting.values()].some((w) => w.root === root && !stale(w)),
        (root) => !watchers.get(root)?.watcher,
      )
    } catch (err) {
      problem(`watching: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  const ticks = setInterval(() => {
    if (!ticking && !stopping) ticking = tick().finally(() => (ticking = undefined))
  }, TICK_MS)
  const looks = setInterval(() => {
    if (!looking && !stopping) looking = lookAround().finally(() => (looking = undefined))
  }, LOOK_MS)
  await stopAsked
  stopping = true
  clearInterval(ticks)
  clearInterval(looks)
  clearTimeout(walking)
  const readingBack = readBacks?.stop()
  await Promise.all([ticking, looking])
  for (const { watcher } of watchers.values()) watcher?.close()
  // The console hears it stopped now; a read-back under way finishes the files it is reading.
  await presence.stop()
  await readingBack
  return 0
}

/**
 * A report taken into the log if whole, once: 'wait' while an ASC MHL generation is not closed or
 * not yet named by a whole chain; 'changed' when it changed since it was last seen.
 * @param {Client} client @param {string | undefined} log @param {string} path @param {Waiting} entry
 * @param {import('./media-log.mjs').Options} options @param {Remembered} taken @param {Set<string>} failed
 * @param {{presence: Presence, problem: (message: string) => void, readBacks: ReadBacks | undefined}} told
 *   what the console is told, and what is to be read back
 * @returns {Promise<'taken' | 'known' | 'wait' | 'changed' | 'failed' | 'unreachable' | 'not a report'>}
 */
async function take(client, log, path, entry, options, taken, failed, { presence, problem, readBacks }) {
  const name = basename(path)
  const generation = basename(dirname(path)) === 'ascmhl' && /\.mhl$/i.test(name)
  // The chain is sent with a generation, never alone.
  if (name.toLowerCase() === 'ascmhl_chain.xml') return 'not a report'
  if (!(await isWanted(name, basename(dirname(path)), Buffer.from(path)).catch(() => false))) return 'not a report'
  if (entry.size > REPORT_BYTES) {
    problem(`not taken ${shown(path)}: over ${REPORT_BYTES / 1024 / 1024} MiB, more than the service takes`)
    return 'not a report'
  }
  // Read as it was when found whole: a file written again meanwhile waits to settle again. Never
  // through a symbolic link (a drive's link to the user's files is not a report).
  const same = async () => {
    const now = await lstat(path).catch(() => undefined)
    if (!now?.isFile()) return false
    if (now.size === entry.size && now.mtimeMs === entry.mtimeMs) return true
    Object.assign(entry, { size: now.size, mtimeMs: now.mtimeMs, changedAt: Date.now() })
    return false
  }
  if (!(await same())) return 'changed'
  const bytes = await readRegularFile(path, REPORT_BYTES)
  if (!bytes || !(await same())) return 'changed'
  /** @type {Array<{name: string, bytes: Buffer}>} */
  const files = [{ name: path, bytes }]
  if (generation) {
    if (!/<\/hashlist>\s*$/.test(bytes.subarray(-64).toString('latin1'))) return 'wait'
    const chainPath = join(dirname(path), 'ascmhl_chain.xml')
    // The chain is read the same way: a link or a FIFO in its place is no chain.
    const chain = await readRegularFile(chainPath, REPORT_BYTES)
    const chainText = chain?.toString('utf8') ?? ''
    if (!chainText.includes(name) || !/<\/ascmhldirectory>\s*$/.test(chainText)) return 'wait'
    files.push({ name: chainPath, bytes: /** @type {Buffer} */ (chain) })
  }
  // A manifest is on the volume it describes (its drive's, else the watched folder's name); a
  // transfer report names its own, as `import` sends them.
  const mounted = mountedVolume(path)
  const volume = options.volume ?? (mounted === undefined ? basename(entry.root) : undefined)
  // The report's bytes (a generation's chain grows with each generation: not part of it), and the
  // volume it is on: the same report on two drives is two copies.
  const digest = createHash('sha256').update(bytes).digest('hex')
  const key = createHash('sha256')
    .update(JSON.stringify([log ?? null, options.volume ?? mounted ?? basename(entry.root), digest]))
    .digest('hex')
  if (taken.has(key) || failed.has(key)) return 'known'
  try {
    const body = {
      files: files.map((file) => ({
        name: file.name,
        content: file.bytes.toString('base64'),
        encoding: /** @type {const} */ ('base64'),
        ...(volume && (isManifest(file.name) || options.volume) && { volume }),
      })),
    }
    const answer =
      log === undefined ? await client.importToDay(body) : { ...(await client.importFiles(log, body)), log }
    // Taken, whatever the file that remembers it says: kept in memory, a later watch sends it again.
    await taken
      .add(key)
      .catch((err) =>
        problem(
          `${shown(path)}: taken, but not remembered for the next watch (${err instanceof Error ? err.message : err})`,
        ),
      )
    const read = answer.files.find((file) => file.name === path)
    const unread = answer.unreadable.map((u) => `; NOT READ ${shown(u.name)}: ${shown(u.reason)}`).join('')
    process.stdout.write(
      `taken ${shown(path)} into ${shown(answer.log)}: ${answer.created ? 'created' : 'merged'}; ` +
        `${count(answer.added.length, 'clip')} added, ${answer.changed.length} changed` +
        `${read?.volume ? `, volume ${shown(read.volume)}` : ''}${unread}\n`,
    )
    // A manifest's clips are beside it, on the volume the import recorded; a transfer report's are elsewhere.
    if (isManifest(path))
      readBacks?.taken(entry.root, answer.log, read?.volume ?? options.volume, [
        ...new Set([...answer.added, ...answer.changed].map((c) => c.clip)),
      ])
    presence.took({
      report: path,
      log: answer.log,
      created: answer.created,
      added: answer.added.length,
      changed: answer.changed.length,
    })
    return 'taken'
  } catch (err) {
    // The service's reason with its status, as `import` says it: which field, and why.
    const why = err instanceof MediaLogError ? err.message : String(err)
    problem(`not taken ${shown(path)}: ${why}`)
    // A report the service cannot read, or too large: not sent again until it changes. Anything
    // else (no project loaded, a token refused, the service away) is tried again at the next walk.
    if (err instanceof MediaLogError && [400, 413, 415].includes(err.status)) {
      failed.add(key)
      return 'failed'
    }
    return 'unreachable'
  }
}

/** @typedef {{has: (key: string) => boolean, add: (key: string) => Promise<void>}} Remembered */

/**
 * The reports taken before, from the config folder's `watch-taken.txt`: a line each, the SHA-256
 * of the log, the volume and the report's bytes.
 * @returns {Promise<Remembered>}
 */
async function rememberedReports() {
  const file = join(configFolder(), 'watch-taken.txt')
  const keys = new Set((await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean))
  await mkdir(configFolder(), { recursive: true, mode: 0o700 }).catch((/** @type {NodeJS.ErrnoException} */ err) => {
    throw new Failure(`${shown(configFolder())}: cannot keep the reports taken there (${err.code ?? err.message})`)
  })
  return {
    has: (key) => keys.has(key),
    async add(key) {
      keys.add(key)
      await appendFile(file, `${key}\n`, { mode: 0o600 })
    },
  }
}

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
 * Node's own recursive watching tells of changes (inotify on Linux, FSEvents on macOS,
 * ReadDirectoryChangesW on Windows); a walk of each folder every 30 s finds what it missed (a
 * drive unplugged and plugged back, an event lost under load). A report taken is remembered by
 * its bytes, its volume and the log, in `watch-taken.txt` of the config folder: seen again after
 * a restart or a rename, it is not sent again. Reports are taken one at a time, in the order they
 * became whole; what is held meanwhile is the reports waiting, never the media around them.
 */
import { createHash } from 'node:crypto'
import { watch } from 'node:fs'
import { appendFile, mkdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { MediaLogError } from 'media-log-service/client'
import { isManifest, isWanted } from './reports.mjs'
import { configFolder, connectedClient, serviceUrl } from './service.mjs'
import { Failure, count, shown, warn } from './terminal.mjs'
import { mountedVolume, walk } from './walk.mjs'

/** How often each folder is walked for what the watcher missed. */
const RESCAN_MS = 30_000
/** How often waiting reports are looked at. */
const TICK_MS = 250
/** A walk's progress, not said: it runs in the background. */
const QUIET = { say: () => {} }

/**
 * @typedef {{root: string, size: number, mtimeMs: number, changedAt: number}} Waiting
 * @typedef {import('media-log-service/client').MediaLogClient} Client
 */

/** @param {string[]} folders @param {import('./media-log.mjs').Options} options @param {string} usage */
export async function watchFolders(folders, options, usage) {
  if (!folders.length) throw new Failure(`watch needs folders\n${usage}`)
  const settleMs = options.settle === undefined ? 2000 : Number(options.settle) * 1000
  if (!(settleMs >= 0 && settleMs <= 600_000)) throw new Failure('--settle is seconds, from 0 to 600')
  const roots = folders.map((folder) => resolve(folder))
  for (const [i, root] of roots.entries())
    if (!(await stat(root).catch(() => undefined))?.isDirectory())
      throw new Failure(`${shown(folders[i])} is not a folder`)
  const client = await connectedClient(serviceUrl(options.url))
  const log = options.log
  const taken = await rememberedReports()

  /** @type {Map<string, Waiting>} */
  const waiting = new Map()
  /** Reports that failed, by key: not sent again until they change. @type {Set<string>} */
  const failed = new Set()

  /** A file the watcher or a walk named: waits if it may be a report. @param {string} root @param {string} path */
  const consider = async (root, path) => {
    const name = basename(path).toLowerCase()
    if (!/\.(mhl|ale|csv)$/.test(name) && name !== 'ascmhl_chain.xml') return
    const found = await stat(path).catch(() => undefined)
    if (!found?.isFile()) return void waiting.delete(path)
    const before = waiting.get(path)
    if (before && before.size === found.size && before.mtimeMs === found.mtimeMs) return
    waiting.set(path, { root, size: found.size, mtimeMs: found.mtimeMs, changedAt: Date.now() })
  }

  const walkAll = async () => {
    for (const root of roots) {
      const files = await walk(root, QUIET, isWanted).catch(() => [])
      for (const file of files) await consider(root, file.name)
    }
  }

  const watchers = roots.map((root) => {
    try {
      return watch(root, { recursive: true }, (_, name) => {
        if (name) void consider(root, join(root, name.toString()))
      })
    } catch (err) {
      warn(`${shown(root)}: not watched (${err instanceof Error ? err.message : String(err)}); walked every 30 s`)
      return undefined
    }
  })
  warn(
    `watching ${roots.map(shown).join(', ')} for offload reports, taken into ` +
      `${log === undefined ? 'the day each one’s dates name' : shown(log)} ` +
      `(whole after ${settleMs / 1000} s unchanged; Ctrl-C stops)`,
  )
  await walkAll()

  let busy = false
  const tick = async () => {
    if (busy) return
    busy = true
    try {
      const now = Date.now()
      const due = [...waiting]
        .filter(([, w]) => now - w.changedAt >= settleMs)
        .sort(([, a], [, b]) => a.changedAt - b.changedAt)
      for (const [path, entry] of due) {
        const outcome = await take(client, log, path, entry, options, taken, failed)
        // A generation whose chain does not name it yet waits for the chain.
        if (outcome !== 'wait') waiting.delete(path)
      }
    } finally {
      busy = false
    }
  }
  const ticking = setInterval(() => void tick(), TICK_MS)
  const rescanning = setInterval(() => void walkAll(), RESCAN_MS)
  await new Promise((stop) => {
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  clearInterval(ticking)
  clearInterval(rescanning)
  for (const watcher of watchers) watcher?.close()
  return 0
}

/**
 * A report taken into the log if whole, once: 'wait' while an ASC MHL generation is not yet
 * named by its chain or not closed.
 * @param {Client} client @param {string | undefined} log @param {string} path @param {Waiting} entry
 * @param {import('./media-log.mjs').Options} options @param {Remembered} taken @param {Set<string>} failed
 * @returns {Promise<'taken' | 'known' | 'wait' | 'failed' | 'not a report'>}
 */
async function take(client, log, path, entry, options, taken, failed) {
  const name = basename(path)
  const generation = basename(dirname(path)) === 'ascmhl' && /\.mhl$/i.test(name)
  // The chain is sent with a generation, never alone.
  if (name.toLowerCase() === 'ascmhl_chain.xml') return 'not a report'
  if (!(await isWanted(name, basename(dirname(path)), Buffer.from(path)).catch(() => false))) return 'not a report'
  const bytes = await readFile(path).catch(() => undefined)
  if (!bytes) return 'failed'
  /** @type {Array<{name: string, bytes: Buffer}>} */
  const files = [{ name: path, bytes }]
  if (generation) {
    if (!/<\/hashlist>\s*$/.test(bytes.subarray(-64).toString('latin1'))) return 'wait'
    const chainPath = join(dirname(path), 'ascmhl_chain.xml')
    const chain = await readFile(chainPath).catch(() => undefined)
    if (!chain?.toString('utf8').includes(name)) return 'wait'
    files.push({ name: chainPath, bytes: chain })
  }
  // A manifest is on the volume it describes (its drive's, else the watched folder's name); a
  // transfer report names its own, as `import` sends them.
  const volume = options.volume ?? (mountedVolume(entry.root) === undefined ? basename(entry.root) : undefined)
  const key = `${log ?? ''}\u0000${volume ?? ''}\u0000${createHash('sha256').update(bytes).digest('hex')}`
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
    await taken.add(key)
    const read = answer.files.find((file) => file.name === path)
    const unread = answer.unreadable.map((u) => `; NOT READ ${shown(u.name)}: ${shown(u.reason)}`).join('')
    process.stdout.write(
      `taken ${shown(path)} into ${shown(answer.log)}: ${answer.created ? 'created' : 'merged'}; ` +
        `${count(answer.added.length, 'clip')} added, ${answer.changed.length} changed` +
        `${read?.volume ? `, volume ${shown(read.volume)}` : ''}${unread}\n`,
    )
    return 'taken'
  } catch (err) {
    // The service refused it (a report it cannot read, a log it will not take): said once, not
    // sent again until it changes. Not reachable: tried again at the next change or walk.
    if (err instanceof MediaLogError && err.status < 500 && err.status !== 429) failed.add(key)
    const why = err instanceof MediaLogError ? `${err.status} ${err.error}` : String(err)
    warn(`not taken ${shown(path)}: ${why}`)
    return 'failed'
  }
}

/** @typedef {{has: (key: string) => boolean, add: (key: string) => Promise<void>}} Remembered */

/** The reports taken before, from the config folder's `watch-taken.txt` (a key a line). @returns {Promise<Remembered>} */
async function rememberedReports() {
  const file = join(configFolder(), 'watch-taken.txt')
  const keys = new Set(
    (await readFile(file, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replaceAll('\t', '\u0000')),
  )
  await mkdir(configFolder(), { recursive: true, mode: 0o700 })
  return {
    has: (key) => keys.has(key),
    async add(key) {
      keys.add(key)
      await appendFile(file, `${key.replaceAll('\u0000', '\t')}\n`, { mode: 0o600 })
    },
  }
}

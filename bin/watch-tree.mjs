/**
 * A folder and everything under it watched, each change told by its path. On macOS and Windows,
 * Node's recursive `fs.watch`: the system watches the tree (FSEvents, ReadDirectoryChangesW). On
 * Linux Node emulates recursion by keeping the stats of every file under the folder: 76 MiB of heap
 * for 50,000 files, measured (bench/watch.mjs), growing with every clip an offload lands. There each
 * directory is watched on its own (one inotify watch each), and what is held follows the directories,
 * not the files.
 */
import { watch } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import { join, sep } from 'node:path'

/**
 * @param {string} root
 * @param {(path: string) => void} changed a path under `root` that changed (created, written, renamed, removed)
 * @param {(err: Error) => void} failed the system stopped telling of `root` (watches used up, the drive gone)
 * @returns {{close: () => void}}
 */
export function watchTree(root, changed, failed) {
  if (process.platform !== 'linux') {
    const watcher = watch(root, { recursive: true }, (_, name) => {
      if (name) changed(join(root, name.toString()))
    })
    watcher.on('error', (err) => {
      watcher.close()
      failed(err)
    })
    return { close: () => watcher.close() }
  }
  return new DirectoryWatches(root, changed, failed)
}

class DirectoryWatches {
  /** @type {Map<string, import('node:fs').FSWatcher>} */
  #watchers = new Map()
  #closed = false

  /**
   * @param {string} root @param {(path: string) => void} changed @param {(err: Error) => void} failed
   */
  constructor(root, changed, failed) {
    this.root = root
    this.changed = changed
    this.failed = failed
    // The root first and at once, as Node's own watch throws when it cannot; the rest as found.
    this.#add(root, true)
    void this.#addBelow(root, false)
  }

  close() {
    this.#closed = true
    for (const watcher of this.#watchers.values()) watcher.close()
    this.#watchers.clear()
  }

  /** @param {string} dir @param {boolean} first thrown to the caller, as Node's recursive watch does */
  #add(dir, first = false) {
    if (this.#closed || this.#watchers.has(dir)) return
    let watcher
    try {
      watcher = watch(dir, (event, name) => {
        if (!name) return
        const path = join(dir, name.toString())
        this.changed(path)
        // A folder made or moved in: watched too, and what it already holds told.
        if (event === 'rename') void this.#renamed(path)
      })
    } catch (err) {
      if (first) throw err
      // Gone already, or a watch the system would not give: the root's problem only if the system's.
      if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOSPC') this.#fail(/** @type {Error} */ (err))
      return
    }
    watcher.on('error', (err) => {
      watcher.close()
      this.#watchers.delete(dir)
      if (dir === this.root) this.#fail(err)
    })
    this.#watchers.set(dir, watcher)
  }

  /** @param {Error} err */
  #fail(err) {
    if (this.#closed) return
    this.close()
    this.failed(err)
  }

  /** @param {string} path */
  async #renamed(path) {
    const found = await lstat(path).catch(() => undefined)
    if (found?.isDirectory()) {
      this.#add(path)
      await this.#addBelow(path, true)
      return
    }
    if (found) return
    // Removed or moved away: its watches, and those below it, go.
    for (const [dir, watcher] of this.#watchers)
      if (dir !== this.root && (dir === path || dir.startsWith(path + sep))) {
        watcher.close()
        this.#watchers.delete(dir)
      }
  }

  /**
   * Every directory below `dir` watched; `tell`: its files told as changed (a folder moved in whole).
   * @param {string} dir @param {boolean} tell
   */
  async #addBelow(dir, tell) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      if (this.#closed) return
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        this.#add(path)
        await this.#addBelow(path, tell)
      } else if (tell && entry.isFile()) this.changed(path)
    }
  }
}

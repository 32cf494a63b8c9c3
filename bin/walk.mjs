// A folder tree as the command looks through it: what a drive holds, found once and opened later
// as it was found.
import { isUtf8 } from 'node:buffer'
import { constants } from 'node:fs'
import { lstat, open, readdir } from 'node:fs/promises'
import { basename, sep } from 'node:path'
import { Failure, shown, warn } from './terminal.mjs'

/**
 * A file found is opened as it was found: never through a symbolic link put in its place, and
 * never waiting on a FIFO put there (what was opened is then checked against what was found).
 */
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

/**
 * A regular file's bytes, at most `limit` of them; undefined for anything else (a link, a FIFO, a
 * folder, a file over `limit`) or a file that cannot be read. A FIFO put where a report is
 * expected would otherwise hold the read, and the command, for good.
 * @param {string} path @param {number} limit
 * @returns {Promise<Buffer | undefined>}
 */
export async function readRegularFile(path, limit) {
  const handle = await open(path, OPEN_FLAGS).catch(() => undefined)
  if (!handle) return undefined
  try {
    const stat = await handle.stat()
    const { size } = stat
    if (!stat.isFile() || size > limit) return undefined
    // As long as it was when opened: one still growing is read short, and the caller sees it change.
    const bytes = Buffer.allocUnsafe(size)
    let at = 0
    for (let read; at < size && (read = (await handle.read(bytes, at, size - at, at)).bytesRead);) at += read
    return bytes.subarray(0, at)
  } catch {
    return undefined
  } finally {
    await handle.close()
  }
}

/** macOS and Linux mount points (/Volumes/NAME, /media/USER/NAME, /run/media/USER/NAME, /mnt/NAME). */
const MOUNTED = /^\/(?:Volumes|media\/[^/]+|run\/media\/[^/]+|mnt)\/([^/]+)/

/** The mount point a path is under, when it is on a mounted drive. @param {string} path */
export const mountPoint = (path) => MOUNTED.exec(path)?.[0]

/** The name of the drive a path is on, when it is on a mounted one. @param {string} path */
export const mountedVolume = (path) => MOUNTED.exec(path)?.[1]

/** Folders that hold nothing of a day's and can be huge, or are not the user's. */
const SKIPPED = new Set([
  '.Trashes',
  '.Spotlight-V100',
  '.fseventsd',
  '.TemporaryItems',
  'node_modules',
  '.git',
  // fsck's, at an ext4 drive's root, readable by root alone.
  'lost+found',
])

/**
 * @typedef {{path: Buffer, name: string, utf8: boolean, dev: bigint, ino: bigint, size: number, mtimeMs: number, ctimeMs: number}} Found
 * `path` as bytes and `name` as text (U+FFFD for bytes that are not UTF-8), with the device, inode,
 * size, time of modification and of change (any write, rename or copy over it) the file had when
 * found.
 */

/**
 * The files under `root` that `wanted(name, folderName, path)` takes, in byte order of their paths.
 * Names are read as bytes: one that is not UTF-8 is still found. Hidden folders and SKIPPED ones
 * are left out, and symbolic links are not followed: a link back up the tree would never end.
 * @param {string} root
 * @param {{say: (text: string) => void}} progress
 * @param {(name: string, folder: string, path: Buffer) => boolean | Promise<boolean>} wanted
 * @param {string[]} [unreadable]  given the folders and files that could not be read (each also warned of)
 * @returns {Promise<Found[]>}
 */
export async function walk(root, progress, wanted, unreadable = []) {
  const files = []
  const pending = [Buffer.from(root)]
  let folders = 0
  let folder
  while ((folder = pending.pop())) {
    let entries
    try {
      entries = await readdir(folder, { withFileTypes: true, encoding: 'buffer' })
    } catch (thrown) {
      const err = /** @type {NodeJS.ErrnoException} */ (thrown)
      if (folders === 0) throw new Failure(`${shown(root)}: ${err.code === 'ENOENT' ? 'no such folder' : err.message}`)
      warn(`${shown(folder.toString())}: ${err.message}`)
      unreadable.push(folder.toString())
      continue
    }
    if (++folders % 500 === 0) progress.say(`looked through ${folders} folders, found ${files.length} files`)
    const folderName = basename(folder.toString())
    for (const entry of entries) {
      const name = entry.name.toString()
      const path =
        folder.at(-1) === sep.charCodeAt(0)
          ? Buffer.concat([folder, entry.name])
          : Buffer.concat([folder, Buffer.from(sep), entry.name])
      if (entry.isDirectory() && !name.startsWith('.') && !SKIPPED.has(name)) pending.push(path)
      else if (entry.isFile()) {
        try {
          if (!(await wanted(name, folderName, path))) continue
          const { dev, ino, size, mtimeMs, ctimeMs } = await lstat(path, { bigint: true })
          const file = { path, name: path.toString(), utf8: isUtf8(path), dev, ino }
          files.push({ ...file, size: Number(size), mtimeMs: Number(mtimeMs), ctimeMs: Number(ctimeMs) })
        } catch (err) {
          warn(`${shown(path.toString())}: ${/** @type {Error} */ (err).message}`)
          unreadable.push(path.toString())
        }
      }
    }
  }
  return files.sort((a, b) => Buffer.compare(a.path, b.path))
}

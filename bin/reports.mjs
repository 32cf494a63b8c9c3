/**
 * What on a drive is an offload report, and which volume it describes: the files `import` sends
 * and `watch` takes (ASC MHL histories, classic manifests, ALEs, the CSVs that are transfer
 * reports or clip lists), and the volume each folder given is on.
 */
import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, join, sep } from 'node:path'
import { Failure, shown, warn } from './terminal.mjs'
import { mountedVolume } from './walk.mjs'

/** An MHL of either kind, and an ASC MHL history's chain: files that lie on the volume they describe. */
export const isManifest = (/** @type {string} */ name) => /\.mhl$|(^|[\\/])ascmhl_chain\.xml$/i.test(name)

/** Whether a file's name is one a report may have, before anything of it is read. @param {string} name */
export const mayBeReport = (name) => /\.(mhl|ale|csv)$/i.test(name) || name.toLowerCase() === 'ascmhl_chain.xml'

/**
 * The files of a folder tree worth sending: ASC MHL histories, classic manifests, ALEs, and the
 * CSVs that are reports (isReport).
 * @param {string} name @param {string} folder @param {Buffer} path
 */
export async function isWanted(name, folder, path) {
  const lower = name.toLowerCase()
  // `._` files: macOS resource forks on non-Mac volumes.
  if (!mayBeReport(lower) || lower.startsWith('._')) return false
  if (lower.endsWith('.csv')) return isReport(path)
  return lower !== 'ascmhl_chain.xml' || folder === 'ascmhl'
}

/**
 * Whether a CSV is a transfer report or a clip list, as the service reads them: within its first
 * lines, a header naming files, paths or hashes. Other CSVs on a drive (a camera's settings, a
 * budget) are not sent. Its opening bytes only, in UTF-8 or UTF-16 (Silverstack's) alike.
 * @param {Buffer} path
 */
async function isReport(path) {
  const handle = await open(path, constants.O_RDONLY)
  try {
    const head = Buffer.alloc(16384)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    const bytes = head.subarray(0, bytesRead)
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)
    const text = utf16
      ? new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes)
      : bytes.toString('utf8')
    return text
      .split(/\r\n|\r|\n/)
      .slice(0, 20)
      .some((line) =>
        line
          .split(/[,;\t]/)
          .map((cell) =>
            cell
              .replace(/^\s*"|"\s*$/g, '')
              .toLowerCase()
              .replace(/[^a-z0-9]/g, ''),
          )
          .some((cell) => REPORT_COLUMN.test(cell)),
      )
  } finally {
    await handle.close()
  }
}

const REPORT_COLUMN =
  /^((source|src|destination|dest|file)?(md5|sha1|xxhash(64)?(be|le)?|xxh(64|128|3))(checksum|hash)?|filename|sourcefile|clipname|name|path|filepath|destinationpath)$/

/**
 * The files of one given folder, by volume. Backups copied side by side into one folder
 * (RAID_NORD/ascmhl/…, SHUTTLE_02/ascmhl/…) are never one volume: a folder with no manifests of its
 * own that holds several folders with manifests gives one volume per such folder, named after it.
 * `--volume` names one volume, so it is refused there. On a mounted drive the service names the
 * volume after the drive.
 * @param {string} folder @param {string} root @param {import('./walk.mjs').Found[]} files
 * @param {string | undefined} volume `--volume`
 * @returns {Array<{files: import('./walk.mjs').Found[], volume: string | undefined}>}
 */
export function volumesOf(folder, root, files, volume) {
  if (!files.length) return []
  /** @type {Map<string, {files: import('./walk.mjs').Found[], manifests: boolean}>} */
  const tops = new Map()
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`
  for (const file of files) {
    const [top, ...below] = file.name.slice(prefix.length).split(sep)
    // The folder's own: files right in it, and its own ascmhl/ history.
    const key = below.length === 0 || top === 'ascmhl' ? '' : top
    const group = tops.get(key) ?? { files: [], manifests: false }
    group.files.push(file)
    group.manifests ||= file.name.toLowerCase().endsWith('.mhl')
    tops.set(key, group)
  }
  const backups = [...tops].filter(([key, group]) => key && group.manifests).map(([key]) => key)
  const whole = { files, volume }
  if (tops.get('')?.manifests || backups.length < 2 || mountedVolume(root) !== undefined) {
    if (volume || mountedVolume(root) !== undefined) return [whole]
    // Reports name their destinations themselves: the folder's name is only their fallback.
    if (files.some((file) => file.name.toLowerCase().endsWith('.mhl')))
      warn(`${shown(folder)}: volume ${shown(basename(root))} (the folder's name; --volume to name it)`)
    return [{ files, volume: basename(root) }]
  }
  const names = backups.map(shown).join(', ')
  if (volume)
    throw new Failure(
      `${shown(folder)} holds ${backups.length} folders with manifests (${names}), each a backup of its own: ` +
        `--volume would make them one volume. Leave out --volume to take each folder as a volume named after it, ` +
        `or import one folder per run with its own --volume.`,
    )
  warn(`${shown(folder)} holds ${backups.length} folders with manifests (${names}): each is a volume of its own`)
  const parts = []
  /** @type {import('./walk.mjs').Found[]} */
  const rest = []
  for (const [key, group] of tops) {
    if (!backups.includes(key)) {
      rest.push(...group.files)
      continue
    }
    warn(`${shown(join(folder, key))}: volume ${shown(key)} (the folder's name)`)
    parts.push({ files: group.files, volume: key })
  }
  // ALEs beside the backups: camera metadata, on no volume.
  if (rest.length) parts.push({ files: rest, volume: basename(root) })
  return parts
}

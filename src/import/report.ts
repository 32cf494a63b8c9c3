/**
 * Transfer reports read as copies: an offload tool's record of each file it copied, a row a file
 * and volume, as YoYotta writes it into an ALE (MD5 and xxHash columns beside the file's size,
 * path and destination) and YoYotta and Silverstack into CSV. Columns are known by their names,
 * without regard to case, spaces or underscores: the file's path (`Path`, `File Path`,
 * `Destination Path`) or name (`File Name`, `Source File`, `Name`), its volume (`Volume`,
 * `Destination`, `Destination Volume`, YoYotta's `Media`; else the volume its path names), the
 * folder its path is under (YoYotta's `Base`, `/Volumes/areca/…`), its size in bytes (`Size`, `File
 * Size`), and a column per digest (ale.ts hashColumn). A report names its volumes itself: the
 * folder it lies in is never one (only the body's `volume`, which `media-log import --volume` sends,
 * stands in for rows that name none).
 *
 * Byte order of xxHash64, as the tools' public documentation gives it:
 * - YoYotta's manual, "Verification" (yoyotta.com/help/verify.html): YoYotta hashes with
 *   "xxHash64be", "a 64bit big endian algorithm", which it calls the industry standard xxHash.
 * - xxHash's own tool, xxhsum (its manual page, xxhsum.1 in github.com/Cyan4973/xxHash): digests
 *   are displayed big-endian unless `--little-endian` is given.
 * - Silverstack: Pomfort's knowledge base page on its verification ("Checksum verification
 *   methods", kb.pomfort.com/uncategorized/checksum-verification-process/) explains the
 *   algorithms it offers; no statement of the order its reports write was found in it or in the
 *   other public pages searched. Its xxHash64 columns are read big-endian like the others.
 * A column whose name says little-endian (`xxHash64 LE`) is labelled `xxhash64`, classic MHL's
 * little-endian label, which the checks turn round. A digest read in the wrong order shows as a
 * hash mismatch against the clip's other copies, never as an agreement.
 */
import { hashFormProblem } from '../shared/digests'
import { hashColumn, type Table } from './ale'
import type { HashEntry, ManifestFile } from './mhl'

const keyOf = (column: string) => column.toLowerCase().replace(/[^a-z0-9]/g, '')

const PATHS = new Set(['path', 'filepath', 'fullpath', 'destinationpath', 'destpath', 'copypath', 'targetpath'])
const SOURCE_PATHS = new Set(['sourcepath', 'sourcefilepath', 'originalpath'])
/** In the order a file's name is taken from: a file name before a clip's name. */
const NAMES = ['filename', 'sourcefile', 'sourcefilename', 'file', 'name', 'clipname']
const VOLUMES = new Set([
  'volume',
  'volumename',
  'destination',
  'destinationvolume',
  'destinationname',
  'destinationdrive',
  'backupvolume',
  'drive',
  'targetvolume',
  'copyvolume',
  'backupdestination',
  'media',
  'medianame',
])
/** The folder a row's relative path is under, on its volume: YoYotta's `Base`. */
const BASES = new Set(['base', 'basefolder', 'basepath', 'destinationfolder', 'destinationbase'])
const SIZES = new Set(['size', 'filesize', 'sizebytes', 'filesizebytes', 'bytes', 'sizeinbytes'])
const SOURCE_HASH = /^(source|src)/

/** Which column holds what; hashes of the copy, and of its source where the report gives both. */
type Columns = {
  path?: number
  sourcePath?: number
  name?: number
  volume?: number
  base?: number
  size?: number
  hashes: Array<{ at: number; algorithm: string; source: boolean }>
}

function columnsOf(columns: readonly string[]): Columns {
  const found: Columns = { hashes: [] }
  const first = (set: ReadonlySet<string>) => {
    const at = columns.findIndex((c) => set.has(keyOf(c)))
    return at < 0 ? undefined : at
  }
  const path = first(PATHS)
  const sourcePath = first(SOURCE_PATHS)
  const keys = columns.map(keyOf)
  const name = NAMES.map((n) => keys.indexOf(n)).find((at) => at >= 0)
  const volume = first(VOLUMES)
  const base = first(BASES)
  const size = first(SIZES)
  if (path !== undefined) found.path = path
  if (sourcePath !== undefined) found.sourcePath = sourcePath
  if (name !== undefined) found.name = name
  if (volume !== undefined) found.volume = volume
  if (base !== undefined) found.base = base
  if (size !== undefined) found.size = size
  columns.forEach((column, at) => {
    const algorithm = hashColumn(column)
    if (algorithm) found.hashes.push({ at, algorithm, source: SOURCE_HASH.test(keyOf(column)) })
  })
  return found
}

/** Whether a table's columns make it a transfer report: a digest, and a file to put it on. */
export function isTransferReport(columns: readonly string[]): boolean {
  const found = columnsOf(columns)
  return found.hashes.length > 0 && (found.path ?? found.sourcePath ?? found.name) !== undefined
}

/** A report's files by volume; `notes` on what was left out, counted. */
export type ReportCopies = {
  volumes: Map<string, ManifestFile[]>
  noVolume: number
  malformed?: { count: number; first: string }
}

/**
 * Each row a file on a volume: its path there (the path column, or the volume's root and the
 * file's name), its size and digests. `volumeOf` reads a volume from a path (read.ts); `volume`
 * is the one the file or the body names, for rows that name none.
 */
export function reportCopies(
  table: Table,
  volumeOf: (path: string) => string | undefined,
  volume: string | undefined,
): ReportCopies {
  const at = columnsOf(table.columns)
  const volumes = new Map<string, ManifestFile[]>()
  // Per volume, each composed path and the path as the report wrote it (see read.ts latestOf).
  const written = new Map<string, string>()
  let noVolume = 0
  let malformed: ReportCopies['malformed']
  for (const { cells } of table.rows) {
    const cell = (i: number | undefined) => (i === undefined ? '' : (cells[i]?.trim() ?? ''))
    const name = cell(at.name).replace(/\\/g, '/')
    const base = cell(at.base).replace(/\\/g, '/').replace(/\/+$/, '')
    let path = cell(at.path).replace(/\\/g, '/')
    // A path under the row's base folder: the file's place on the volume is the two together.
    if (base && path && !path.startsWith('/') && !/^[A-Za-z]:\//.test(path))
      path = `${base}/${path.replace(/^\.?\//, '')}`
    const source = cell(at.sourcePath).replace(/\\/g, '/')
    const fileName = name.slice(name.lastIndexOf('/') + 1)
    // A destination path that is the file's folder: the file is in it.
    const last = path.slice(path.lastIndexOf('/') + 1)
    if (path && /\.[A-Za-z0-9]{1,5}$/.test(fileName) && last.toLowerCase() !== fileName.toLowerCase())
      path = `${path.replace(/\/+$/, '')}/${fileName}`
    const destination = cell(at.volume).replace(/\\/g, '/')
    const onVolume =
      (destination.includes('/') ? volumeOf(`${destination.replace(/\/+$/, '')}/`) : destination) ||
      (path ? volumeOf(path) : undefined) ||
      (base ? volumeOf(`${base}/`) : undefined) ||
      volume
    // `.` and `..` name no volume (no URL could name one so): a row saying so names none.
    if (!onVolume || onVolume === '.' || onVolume === '..') {
      noVolume++
      continue
    }
    const filePath = path || name || source
    if (!filePath) continue
    const composed = `${onVolume.normalize('NFC')}\u0000${filePath.normalize('NFC')}`
    const first = written.get(composed)
    if (first === undefined) written.set(composed, filePath)
    // Two rows whose names differ only in how they are composed are two files: kept apart.
    const file: ManifestFile = {
      path: first === undefined || first === filePath ? filePath.normalize('NFC') : filePath,
      hashes: [],
    }
    const size = sizeOf(cell(at.size))
    if (size !== undefined) file.size = size
    const copied = new Map<string, string>()
    const original = new Map<string, string>()
    for (const { at: c, algorithm, source: isSource } of at.hashes) {
      const value = cell(c)
      if (!value) continue
      if (hashFormProblem(`${algorithm}:${value}`) !== undefined) {
        if (malformed) malformed.count++
        else malformed = { count: 1, first: `${table.columns[c]} "${value.slice(0, 100)}"` }
        continue
      }
      // Hex in lower case, as MHL writes it (YoYotta's ALE writes MD5 in upper case).
      ;(isSource ? original : copied).set(algorithm, algorithm === 'c4' ? value : value.toLowerCase())
    }
    // A report with the source's digest and the copy's: the copy's, verified where they agree.
    let failed = false
    let verified = false
    for (const [algorithm, value] of original) {
      const copy = copied.get(algorithm)
      if (copy === undefined) copied.set(algorithm, value)
      else if (copy === value) verified = true
      else failed = true
    }
    for (const [algorithm, value] of copied) file.hashes.push(hashEntry(algorithm, value, failed, verified))
    const list = volumes.get(onVolume.normalize('NFC'))
    if (list) list.push(file)
    else volumes.set(onVolume.normalize('NFC'), [file])
  }
  return malformed ? { volumes, noVolume, malformed } : { volumes, noVolume }
}

function hashEntry(algorithm: string, value: string, failed: boolean, verified: boolean): HashEntry {
  if (failed) return { algorithm, value, action: 'failed' }
  return verified ? { algorithm, value, action: 'verified' } : { algorithm, value }
}

/** Bytes as a number, thousands separated or not (`1,234,567`). */
function sizeOf(text: string): number | undefined {
  const digits = text.replace(/[,' \u00a0]/g, '')
  if (!/^\d+$/.test(digits)) return undefined
  const n = Number(digits)
  return Number.isSafeInteger(n) ? n : undefined
}

/**
 * What a set of files an offload left behind says about a day: the clips each volume holds, with
 * their hashes, and the camera metadata of ALEs. Every file is read on its own: one that cannot be
 * read is named with the reason and the others are read all the same.
 *
 * ASC MHL generations are grouped by their `ascmhl/` folder and read in order, a later generation's
 * word on a file replacing an earlier one's; where the folder's `ascmhl_chain.xml` came too, each
 * generation's C4 must be the one the chain recorded for it.
 */
import { base58 } from '@scure/base'
import { nameKey } from '../shared/clip-names'
import { AleFields, MAX_ALE_ROWS, readAle, type AleRow, type Table } from './ale'
import { readCsv } from './csv'
import { STILL_LIST, isStillList, lookOf } from './look'
import { isTransferReport, reportCopies, type ReportCopies } from './report'
import {
  clipsOf,
  lastSegment,
  worstAction,
  type CopiedFile,
  type ImportedClip,
  type OtherFile,
  type Part,
} from './clips'
import {
  MAX_DIGESTS,
  dateOf,
  manifestReader,
  readChain,
  type Action,
  type ChainLink,
  type HashEntry,
  type Manifest,
} from './mhl'
import { STATE_WORDS } from '../copies/states'
import { Notes } from './notes'
import { UnreadableFile, decodeText, decodedPieces } from './text'

export type ImportFile = { name: string; bytes: Uint8Array; volume?: string }
export type ImportOptions = { volume?: string; kind?: Part }

/**
 * An ALE's rows, its name given once for them all. `transfer`: rows of an offload tool's report of
 * what it copied, whose metadata goes to the clips but which are no camera's list of what it recorded.
 */
type AleFile = { file: string; rows: AleRow[]; transfer?: true }

/**
 * What the files give a log: clips with one volume's copy each, ALE rows, the day's date, and the
 * files that are not media whose read-back a manifest records (`others`).
 */
export type ImportedDay = { clips: ImportedClip[]; metadata: AleFile[]; others: OtherFile[]; date?: string }

/**
 * Files that are not media an import keeps the read-back of: a sidecar beside each clip of a
 * 100,000-file manifest would otherwise be as many entries again.
 */
const MAX_OTHERS = 10_000

type FileRead = {
  name: string
  format: 'ascmhl' | 'ascmhl-chain' | 'mhl' | 'ale' | 'ale-transfer' | 'csv' | 'csv-transfer'
  volume?: string
  clips?: number
}
type Unreadable = { name: string; reason: string }

export type ReadImport = { day: ImportedDay; files: FileRead[]; unreadable: Unreadable[]; notes: Notes }

/** A generation or a classic manifest, read. */
type ReadManifest = { file: ImportFile; manifest: Manifest; volume: string; folder: string; generation: number }

/** A transfer report (ALE or CSV), its files by volume. */
type ReadReport = { file: ImportFile; format: 'ale-transfer' | 'csv-transfer'; copies: ReportCopies; rows: AleRow[] }

/** A folder's `ascmhl_chain.xml`: its generations by file name. */
type Chain = { name: string; links: Map<string, ChainLink> }

/**
 * Files one import reads from its manifests, together: each is a record of a few hundred bytes
 * until the clips are made. 100,000 frames of ARRIRAW (an hour of a card) complete with V8's heap
 * held to 64 MB, 200,000 needed 128 (bench/heap.mjs); the command sends a folder at a time.
 */
const MAX_FILES = 100_000

/**
 * Clips one import makes, all its files together. A day of 50,000 completes with V8's heap held to
 * 64 MB; 100,000 (one digest each) needed 128 (bench/heap.mjs).
 */
const MAX_CLIPS = 50_000

/** The clips `make` makes, or why a file is unreadable when they are more than an import takes. */
async function withinClips<T>(before: number, make: () => Promise<T>): Promise<T | string> {
  try {
    return await make()
  } catch (err) {
    if (!(err instanceof UnreadableFile)) throw err
    return (
      `${err.message}, what one import takes` +
      (before ? ' with the clips before it: send it in an import of its own' : '')
    )
  }
}

/**
 * Bytes read between two turns given to other requests: reading 10,000 small manifests in one
 * piece once held the service for seconds.
 */
const TURN_BYTES = 1024 * 1024

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0))

export async function readImport(files: readonly ImportFile[], options: ImportOptions = {}): Promise<ReadImport> {
  const read: FileRead[] = []
  const unreadable: Unreadable[] = []
  const notes = new Notes()
  const chains = new Map<string, Chain>()
  const manifests: ReadManifest[] = []
  const metadata: AleFile[] = []
  const reports: ReadReport[] = []
  const others: OtherFile[] = []
  let listed = 0
  let digests = 0
  let rowsLeft = MAX_ALE_ROWS
  let sinceTurn = 0

  for (const file of files) {
    sinceTurn += file.bytes.byteLength
    if (sinceTurn > TURN_BYTES) {
      sinceTurn = 0
      await nextTurn()
    }
    const name = file.name.replace(/\\/g, '/')
    const base = lastSegment(name).normalize('NFC')
    try {
      if (base.toLowerCase() === 'ascmhl_chain.xml') {
        const links = readChain(decodeText(file.bytes).text)
        chains.set(folderOf(name), { name: file.name, links: new Map(links.map((l) => [l.path.normalize('NFC'), l])) })
        read.push({ name: file.name, format: 'ascmhl-chain' })
      } else if (base.toLowerCase().endsWith('.mhl')) {
        // A turn for other requests after each MiB: a 14 MiB manifest read whole held the service 3 s.
        const reader = manifestReader(MAX_FILES - listed, MAX_DIGESTS - digests)
        for (const piece of decodedPieces(file.bytes)) {
          reader.write(piece)
          if (file.bytes.length > TURN_BYTES) await nextTurn()
        }
        const manifest = reader.close()
        listed += manifest.files.length + manifest.folders.length
        for (const entry of [...manifest.files, ...manifest.folders]) digests += entry.hashes.length
        const folder = folderOf(name)
        const volume = file.volume ?? volumeOf(name) ?? volumeOf(manifest.files[0]?.path ?? '') ?? options.volume
        if (!volume) throw new UnreadableFile('names no volume (no /Volumes/NAME in its path): give the volume')
        manifests.push({ file, manifest, volume, folder, generation: generationOf(base) })
        if (manifest.malformed) {
          const { count, first } = manifest.malformed
          const what =
            count === 1
              ? `a digest not of its algorithm’s form (${first})`
              : `${count} digests not of their algorithm’s form (the first: ${first})`
          notes.add({ name: file.name, message: `${what} left out` })
        }
      } else if (base.toLowerCase().endsWith('.ale')) {
        // The file's notes are kept apart until it is read: a file found unreadable says only why.
        const said = new Notes()
        const ale = readAle(decodeText(file.bytes).text, rowsLeft, (note) => said.add({ ...note, name: file.name }))
        rowsLeft -= ale.table ? ale.table.rows.length : ale.rows.length
        if (!ale.table && isStillList(ale.rows.map((row) => row.names[0]!))) throw new UnreadableFile(STILL_LIST)
        notes.take(said)
        if (ale.table) reports.push(report(file, 'ale-transfer', ale.table, ale.rows, options))
        else {
          metadata.push({ file: file.name, rows: ale.rows })
          read.push({ name: file.name, format: 'ale', clips: ale.rows.length })
        }
      } else if (base.toLowerCase().endsWith('.csv')) {
        const table = readCsv(decodeText(file.bytes).text, rowsLeft)
        rowsLeft -= table.rows.length
        const transfer = isTransferReport(table.columns)
        const fields = new AleFields(table.columns)
        const rows: AleRow[] = []
        const said = new Notes()
        for (const { line, cells } of table.rows) {
          const row = fields.row(line, cells, (note) => said.add({ ...note, name: file.name }), NaN, !transfer)
          if (row) rows.push(row)
        }
        if (!transfer && isStillList(rows.map((row) => row.names[0]!))) throw new UnreadableFile(STILL_LIST)
        notes.take(said)
        if (transfer) reports.push(report(file, 'csv-transfer', table, rows, options))
        else {
          metadata.push({ file: file.name, rows })
          read.push({ name: file.name, format: 'csv', clips: rows.length })
        }
      } else {
        throw new UnreadableFile(lookOf(base, file.bytes))
      }
    } catch (err) {
      unreadable.push({ name: file.name, reason: reasonOf(err) })
    }
  }

  const checked = await checkedAgainstChains(manifests, chains, unreadable, notes)
  const clips: ImportedClip[] = []
  for (const group of groupsOf(checked)) {
    const { volume, folder } = group[0]!
    const history = historyOf(group, chains.get(folder))
    for (const message of history.doubts) notes.add({ name: group.at(-1)!.file.name, message })
    const { files, folders } = latestOf(group, folder, history.ordered)
    const made = await withinClips(clips.length, () =>
      clipsOf(files, folders, volume, options.kind, MAX_CLIPS - clips.length),
    )
    if (typeof made === 'string') {
      for (const { file } of group) unreadable.push({ name: file.name, reason: made })
      continue
    }
    const { clips: found, other, others: kept, proxies } = made
    for (const clip of found) {
      if (history.doubts.length) clip.copy.doubt = history.doubts.join('; ')
      clips.push(clip)
    }
    for (const { file, manifest } of group) {
      read.push({ name: file.name, format: manifest.format, volume, clips: found.length })
    }
    // Said once, of the history's last generation.
    const name = group.at(-1)!.file.name
    if (proxies)
      notes.add({
        name,
        message: `${proxies === 1 ? '1 file' : `${proxies} files`} in a proxy folder left out: the log's proxies come from the application that makes them`,
      })
    keepOthers(name, other, kept, others, notes)
  }
  for (const { file, format, copies, rows } of reports) {
    if (!copies.volumes.size && format === 'ale-transfer') {
      // An ALE with hash columns and no volume was read as a camera's list before reports were
      // read as copies, and still is.
      notes.add({ name: file.name, message: 'its hash columns name no volume: read as a camera list' })
      metadata.push({ file: file.name, rows })
      read.push({ name: file.name, format: 'ale', clips: rows.length })
      continue
    }
    if (!copies.volumes.size) {
      unreadable.push({
        name: file.name,
        reason: 'names no volume (no Destination column, no /Volumes/NAME in its paths): give the volume',
      })
      continue
    }
    // Every volume's clips made before any is taken: a report past the bound is refused whole.
    const before = clips.length
    const made: Array<{ volume: string } & Awaited<ReturnType<typeof clipsOf>>> = []
    let refused: string | undefined
    for (const [volume, files] of copies.volumes) {
      const copied = files.map((f): CopiedFile => {
        const action = worstAction(f.hashes.map((h) => h.action))
        const file = { ...f, folder: folderOf(f.path), name: lastSegment(f.path) }
        return action ? { ...file, action } : file
      })
      const room = MAX_CLIPS - before - made.reduce((sum, { clips: found }) => sum + found.length, 0)
      const volumeMade = await withinClips(before, () => clipsOf(copied, new Map(), volume, options.kind, room))
      if (typeof volumeMade === 'string') {
        refused = volumeMade
        break
      }
      made.push({ volume, ...volumeMade })
    }
    if (refused !== undefined) {
      unreadable.push({ name: file.name, reason: refused })
      continue
    }
    // Its camera metadata goes to the clips its copies make (or already are).
    metadata.push({ file: file.name, rows, transfer: true })
    if (copies.noVolume) notes.add({ name: file.name, message: `${rowsOf(copies.noVolume)} naming no volume left out` })
    if (copies.malformed) {
      const { count, first } = copies.malformed
      notes.add({
        name: file.name,
        message: `${count === 1 ? 'a digest' : `${count} digests`} not of the algorithm’s form left out (the first: ${first})`,
      })
    }
    for (const { volume, clips: found, other, others: kept, proxies } of made) {
      clips.push(...found)
      read.push({ name: file.name, format, volume, clips: found.length })
      if (proxies)
        notes.add({
          name: file.name,
          message: `${proxies === 1 ? '1 file' : `${proxies} files`} in a proxy folder left out`,
        })
      keepOthers(file.name, other, kept, others, notes)
    }
  }
  const dates = checked.flatMap(({ manifest }) => (manifest.created ? [manifest.created.slice(0, 10)] : []))
  const date = dates.filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort()[0]
  const day: ImportedDay = { clips: oneFilePerName(clips, notes), metadata, others, ...(date && { date }) }
  return { day, files: read, unreadable, notes }
}

/**
 * The files of a manifest that are not media: those whose read-back it records are kept (a
 * failure among them is a finding of the day, never dropped with the file), the rest left out, and
 * both said: `Sidecar.txt on file_server: not media (a sidecar), read back and different`.
 */
function keepOthers(name: string, other: number, read: OtherFile[], others: OtherFile[], notes: Notes) {
  const failed = read.filter((f) => f.action === 'failed')
  for (const file of failed)
    notes.add({
      name,
      message: `${file.path} on ${file.volume}: not media (a sidecar), ${STATE_WORDS.failed.label}`,
      kind: 'sidecar-failed',
      item: `${file.path} on ${file.volume}`,
    })
  // A failure is always kept; a file read back good only while there is room.
  for (const file of read) if (file.action === 'failed' || others.length < MAX_OTHERS) others.push(file)
  const left = other - failed.length
  if (left)
    notes.add({
      name,
      message:
        left === 1
          ? '1 file that is not media left out (a sidecar)'
          : `${left} files that are not media left out (sidecars)`,
    })
}

/** A transfer report's copies; a row's volume, else the file's, else the body's. */
function report(
  file: ImportFile,
  format: ReadReport['format'],
  table: Table,
  rows: AleRow[],
  options: ImportOptions,
): ReadReport {
  const copies = reportCopies(table, volumeOf, file.volume ?? options.volume)
  return { file, format, copies, rows }
}

const rowsOf = (n: number) => (n === 1 ? '1 row' : `${n.toLocaleString('en-US')} rows`)

/** An ASC MHL generation's number as its file name gives it (`0002_…`); 0 for a classic manifest. */
const generationOf = (base: string) => Number(/^(\d+)_/.exec(base)?.[1] ?? 0)

/**
 * Files of one volume that are one clip by name (`A001C001.mov` in two folders, `a001c001.MOV`
 * beside `A001C001.mov`): the first is the clip's copy, and its `duplicates` name every such file,
 * so the checks can tell a clip copied twice from two different files under one name. Without it
 * the last one read silently stood for all.
 */
function oneFilePerName(clips: ImportedClip[], notes: Notes): ImportedClip[] {
  const first = new Map<string, number>()
  const kept: ImportedClip[] = []
  for (const clip of clips) {
    const key = `${clip.part}\u0000${clip.copy.volume}\u0000${nameKey(clip.clip)}`
    const at = first.get(key)
    if (at === undefined) {
      first.set(key, kept.push(clip) - 1)
      continue
    }
    const earlier = kept[at]!
    if (earlier.path === clip.path) {
      // The same file in two manifests of the volume (a classic MHL and a later one): the later word.
      if (earlier.copy.duplicates) clip.copy.duplicates = earlier.copy.duplicates
      kept[at] = clip
      continue
    }
    const duplicates = (earlier.copy.duplicates ??= [sourceOf(earlier)])
    duplicates.push(sourceOf(clip))
    notes.add({
      message: `${earlier.clip} is ${duplicates.length} files on ${clip.copy.volume}: ${duplicates.map((d) => d.path).join(', ')}`,
    })
  }
  return kept
}

const sourceOf = (clip: ImportedClip) => ({ path: clip.path, size: clip.size, hash: clip.copy.hash })

/**
 * The order of an ASC MHL history's generations, and what makes its record doubtful: a generation
 * the chain lists that did not come (deleted, it may have been the one that failed), and a chain
 * whose numbers are not the files' own (`0002_…` recorded as generation 1). Where the order is in
 * doubt, no generation's word replaces another's: a failure anywhere stays a failure.
 */
function historyOf(group: ReadManifest[], chain: Chain | undefined): { ordered: boolean; doubts: string[] } {
  const doubts: string[] = []
  let ordered = true
  if (!chain || group[0]!.manifest.format !== 'ascmhl') return { ordered, doubts }
  const present = new Set(group.map(({ file }) => lastSegment(file.name.replace(/\\/g, '/')).normalize('NFC')))
  const renumbered = [...present].sort().flatMap((base) => {
    const link = chain.links.get(base)
    const named = generationOf(base)
    return link && named && link.generation !== named ? [`${base} as generation ${link.generation}`] : []
  })
  if (renumbered.length) {
    ordered = false
    doubts.push(`the chain records ${renumbered.join(', ')}: which generation came last is not known`)
  }
  for (const [path, link] of chain.links)
    if (!present.has(path))
      doubts.push(
        `the chain lists generation ${link.generation} (${path}), which was not read: what it recorded is not known`,
      )
  return { ordered, doubts }
}

/**
 * The manifests whose C4 is the one their folder's chain recorded, or that have no chain to be
 * held to. A generation the chain does not list is read, with a note.
 */
async function checkedAgainstChains(
  manifests: ReadManifest[],
  chains: Map<string, Chain>,
  unreadable: Unreadable[],
  notes: Notes,
): Promise<ReadManifest[]> {
  const checked: ReadManifest[] = []
  for (const entry of manifests) {
    const chain = entry.manifest.format === 'ascmhl' ? chains.get(entry.folder) : undefined
    if (!chain) {
      checked.push(entry)
      continue
    }
    const link = chain.links.get(lastSegment(entry.file.name.replace(/\\/g, '/')).normalize('NFC'))
    if (!link) {
      notes.add({ name: entry.file.name, message: `not listed in ${chain.name}` })
      checked.push(entry)
      continue
    }
    const c4 = await c4Of(entry.file.bytes)
    if (c4 !== link.c4) {
      unreadable.push({
        name: entry.file.name,
        reason: `its C4 (${c4}) is not the one ascmhl_chain.xml recorded for generation ${link.generation}: the manifest changed after it was written`,
      })
      continue
    }
    checked.push({ ...entry, generation: link.generation })
  }
  return checked
}

/** One group per history: an `ascmhl/` folder's generations, or one classic manifest alone. */
function groupsOf(manifests: ReadManifest[]): ReadManifest[][] {
  const groups = new Map<string, ReadManifest[]>()
  manifests.forEach((entry, i) => {
    const key = entry.manifest.format === 'ascmhl' ? `${entry.volume}\u0000${entry.folder}` : `classic\u0000${i}`
    const group = groups.get(key)
    if (group) group.push(entry)
    else groups.set(key, [entry])
  })
  return [...groups.values()].map((group) => group.sort((a, b) => a.generation - b.generation))
}

/**
 * Each file as the last generation that lists it has it; an ASC MHL's paths are relative to the
 * folder that holds `ascmhl/`, a classic manifest's to its own folder unless absolute. In a history
 * whose order is in doubt (`ordered` false) a file's worst action over every generation stands.
 */
function latestOf(group: ReadManifest[], manifestFolder: string, ordered: boolean) {
  const root = group[0]!.manifest.format === 'ascmhl' ? folderOf(manifestFolder) : manifestFolder
  const files = new Map<string, CopiedFile>()
  const folders = new Map<string, HashEntry[]>()
  for (const { manifest } of group) {
    // Paths are read composed (NFC), as macOS and Linux may write one name two ways; two files of
    // one manifest whose names differ only so are two files (a case-sensitive drive holds both):
    // the second keeps its path as written, and the checks see two files under one clip name.
    const written = new Map<string, string>()
    for (const entry of manifest.files) {
      let path = resolved(root, entry.path)
      const raw = entry.path.replace(/\\/g, '/')
      const first = written.get(path)
      if (first === undefined) written.set(path, raw)
      else if (first !== raw) path = resolved(root, raw, false)
      const before = files.get(path)
      const own = worstAction(entry.hashes.map((h) => h.action))
      const action = ordered || !before?.action ? own : worstAction([own, before.action])
      // The manifest's own entry becomes the file: a 50,000-file manifest is not held twice.
      const file = Object.assign(entry, { path, folder: folderOf(path), name: lastSegment(path) }) as CopiedFile
      if (before) file.hashes = mergedHashes(before.hashes, entry.hashes)
      if (entry.size === undefined && before?.size !== undefined) file.size = before.size
      if (action) file.action = action
      // Who read the copy back, and when: the generation whose word the action is.
      const stamp = action === own ? stampOf(entry.hashes, own, manifest) : before
      if (stamp?.hashdate) file.hashdate = stamp.hashdate
      if (stamp?.tool) file.tool = stamp.tool
      files.set(path, file)
    }
    for (const folder of manifest.folders) folders.set(resolved(root, folder.path), folder.hashes)
  }
  return { files: [...files.values()], folders }
}

/** When a file was hashed again and found `action` (verified or failed), and by what tool. */
function stampOf(hashes: HashEntry[], action: Action | undefined, manifest: Manifest) {
  if (action !== 'verified' && action !== 'failed') return undefined
  const hashdate = hashes.find((h) => h.action === action)?.date ?? dateOf(manifest.created)
  return { ...(hashdate && { hashdate }), ...(manifest.tool && { tool: manifest.tool }) }
}

/** A later generation's digests, and the earlier ones of algorithms it did not hash again. */
const mergedHashes = (before: HashEntry[], after: HashEntry[]) => [
  ...after,
  ...before.filter((h) => !after.some((a) => a.algorithm === h.algorithm)),
]

const folderOf = (path: string) => {
  const slash = path.lastIndexOf('/')
  return slash < 0 ? '' : path.slice(0, slash)
}
function resolved(root: string, path: string, composed = true): string {
  const slashed = path.replace(/\\/g, '/')
  const clean = composed ? slashed.normalize('NFC') : slashed
  if (clean.startsWith('/') || /^[A-Za-z]:\//.test(clean) || !root) return clean
  return `${root}/${clean}`
}

/**
 * Why a file was not read. A reader that fails in a way it did not foresee still leaves the other
 * files to be read; its cause goes to the service's log, not to the client.
 */
function reasonOf(err: unknown): string {
  if (err instanceof UnreadableFile) return err.message
  console.error('import: a reader failed', err)
  return 'could not be read: the reader failed on it (the service log says why)'
}

/** A volume a path names: a mount point's folder on macOS (/Volumes) or Linux (/media, /run/media, /mnt). */
function volumeOf(path: string): string | undefined {
  const m = /^\/(?:Volumes|media\/[^/]+|run\/media\/[^/]+|mnt)\/([^/]+)\//.exec(path.replace(/\\/g, '/'))
  const name = m?.[1]?.normalize('NFC')
  // `/Volumes/../x` names no volume.
  return name === '.' || name === '..' ? undefined : name
}

/** C4 ID (SMPTE ST 2114): the SHA-512 of the bytes in Base58, padded with `1` to 88 digits after `c4`. */
export async function c4Of(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-512', bytes))
  // Base58 as Bitcoin writes it keeps a `1` per leading zero byte; C4 pads the number to a width.
  return `c4${base58.encode(digest).replace(/^1+/, '').padStart(88, '1')}`
}

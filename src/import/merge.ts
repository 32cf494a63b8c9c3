/**
 * An import merged into a day's log: clips found by name as the checks compare names (Unicode
 * composed alike, extension and case aside), each volume's copy added or brought up to date, ALE
 * fields set on the camera clips they name. Merging the same files again finds everything as it
 * is and changes nothing; the caller then writes nothing either.
 */
import { clipKeys, nameKey, sequenceOf } from '../shared/clip-names'
import { digestOf } from '../shared/digests'
import { invalid, type IssueDetail } from '../shared/problem'
import { clipNameOf, lastSegment, type ImportedCopy, type OtherFile, type Part } from './clips'
import type { AleRow } from './ale'
import { Notes, type Note } from './notes'
import type { SentClip, SentDay } from './transfer'

export type ClipRef = { part: Part; clip: string }
type ClipChange = ClipRef & { fields: string[] }
/** `notes` listed to a limit, `unlisted` the count of the rest. */
export type MergeOutcome = {
  created: boolean
  added: ClipRef[]
  changed: ClipChange[]
  notes: Note[]
  unlisted: number
  /** The notes summed up, a line per file and kind (notes.ts). */
  said: Note[]
}

type Clip = Record<string, unknown> & { clip: string; copies?: unknown }
type Log = Record<string, unknown>

/** What the caller names besides the files: the log, and its day and date when given. */
export type ImportKeys = { id: string; day?: number; date?: string }

export function mergeImport(stored: Log | undefined, imported: SentDay, keys: ImportKeys) {
  const log: Log = stored ? { ...stored } : newLog(imported, keys)
  const notes = new Notes()
  const outcome: MergeOutcome = { created: !stored, added: [], changed: [], notes: notes.listed, unlisted: 0, said: [] }
  const changes = new Map<Clip, { ref: ClipRef; fields: Set<string> }>()
  const changed = (clip: Clip, ref: ClipRef, field: string) => {
    const entry = changes.get(clip) ?? { ref, fields: new Set<string>() }
    entry.fields.add(field)
    changes.set(clip, entry)
  }
  let rekeyed = false
  if (stored)
    for (const key of ['day', 'date'] as const)
      if (keys[key] !== undefined && log[key] !== keys[key]) {
        log[key] = keys[key]
        notes.add({ message: `${key} set to ${keys[key]}` })
        rekeyed = true
      }

  const parts = { ocf: new PartClips(log, 'ocf'), sound: new PartClips(log, 'sound') }
  const newClips: Clip[] = []
  for (const found of imported.clips) {
    const part = parts[found.part]
    const existing = part.find(found.clip)
    const clip =
      existing ??
      part.add({ clip: found.clip, size: found.size, ...(found.sizeUnknown && { size_unknown: true }), copies: [] })
    // A clip the log had is named as the log names it (`A001C001`, not `a001c001.mov`).
    const ref = { part: found.part, clip: clip.clip }
    if (!existing) {
      outcome.added.push(ref)
      if (found.part === 'ocf') newClips.push(clip)
    } else if (
      !found.sizeUnknown &&
      found.copy.action !== 'failed' &&
      found.size &&
      (clip.size !== found.size || clip.size_unknown === true)
    ) {
      // A report that states the size fills in one no report stated before.
      clip.size = found.size
      delete clip.size_unknown
      changed(clip, ref, 'size')
    }
    if (mergeCopy(clip, found)) changed(clip, ref, 'copies')
  }

  const recorded = new RecordedClips(log)
  // A camera list's clip that was on no volume until now: the list's metadata comes with it.
  for (const clip of newClips) {
    const pending = recorded.take(clip.clip)
    if (pending) for (const [field, value] of Object.entries(pending)) clip[field] = value
  }

  for (const { file, rows, transfer } of imported.metadata)
    for (const row of rows) {
      const clip = row.names.map((name) => parts.ocf.find(name)).find((c) => c !== undefined)
      // A camera's list (not an offload tool's report of what it copied) is the day's record of
      // what was recorded: kept whether or not a copy is on a volume yet.
      const entry = transfer ? undefined : recorded.entryFor(row, lastSegment(file))
      if (!clip) {
        if (entry) recorded.hold(entry, row.fields)
        notes.add({
          name: file,
          message: `line ${row.line}: no camera clip ${row.names[0]} in the log`,
          kind: entry ? 'camera-list' : 'no-camera-clip',
          item: row.names[0]!,
        })
        continue
      }
      if (entry) recorded.held(entry)
      for (const [field, value] of Object.entries(row.fields)) {
        if (clip[field] === value) continue
        clip[field] = value
        changed(clip, { part: 'ocf', clip: clip.clip }, field)
      }
    }
  outcome.unlisted = notes.unlisted
  outcome.said = notes.summed()

  const others = mergeOthers(log, imported.others)

  let totals = false
  for (const part of Object.values(parts)) totals = part.close() || totals
  const listed = recorded.close()
  const added = new Set(outcome.added.map((ref) => `${ref.part}\u0000${ref.clip}`))
  for (const { ref, fields } of changes.values())
    if (!added.has(`${ref.part}\u0000${ref.clip}`)) outcome.changed.push({ ...ref, fields: [...fields] })
  const written = !stored || rekeyed || totals || listed || others || changes.size > 0 || outcome.added.length > 0
  return { log, outcome, written }
}

function newLog(imported: SentDay, { id, day, date }: ImportKeys): Log {
  const details: IssueDetail[] = []
  const number = day ?? dayOfId(id)
  if (number === undefined)
    details.push({ prop: 'day', message: `is required: the log ${id} does not exist and its id names no day number` })
  const when = date ?? imported.date
  if (when === undefined)
    details.push({ prop: 'date', message: `is required: the log ${id} does not exist and no manifest is dated` })
  if (details.length) throw invalid(details)
  return { id, day: number, date: when, version: 1 }
}

/** The day an id like `D012`, `Day 3` or `day_045` names, when it is one the seed allows. */
function dayOfId(id: string): number | undefined {
  const m = /(\d{1,3})$/.exec(id.trim())
  const n = m ? Number(m[1]) : NaN
  return n >= 1 && n <= 999 ? n : undefined
}

/**
 * The files that are not media (sidecars) a manifest records a read-back of, as the log keeps them
 * (`other_files`): one that failed is added, and one already there takes the latest word on it (a
 * later generation that verified it). Whether the list changed.
 */
function mergeOthers(log: Log, others: readonly OtherFile[] | undefined): boolean {
  if (!others?.length) return false
  const list = Array.isArray(log.other_files) ? [...(log.other_files as Array<Record<string, unknown>>)] : []
  const at = new Map<string, number>()
  list.forEach((file, i) => at.set(`${String(file?.volume)}\u0000${String(file?.path)}`, i))
  let changed = false
  for (const file of others) {
    const key = `${file.volume}\u0000${file.path}`
    const i = at.get(key)
    if (i === undefined) {
      if (file.action !== 'failed') continue
      at.set(key, list.push({ ...file }) - 1)
      changed = true
    } else if (JSON.stringify(list[i]) !== JSON.stringify(file)) {
      list[i] = { ...file }
      changed = true
    }
  }
  if (changed) log.other_files = list
  return changed
}

/** Puts the volume's copy on the clip; whether that changed anything. */
function mergeCopy(clip: Clip, found: SentClip): boolean {
  const copies = (Array.isArray(clip.copies) ? clip.copies : (clip.copies = [])) as Array<Record<string, unknown>>
  const copy = withComparableHash(found, copies)
  const at = copies.findIndex((c) => c?.volume === copy.volume)
  if (at < 0) {
    copies.push({ ...copy })
    return true
  }
  const before = copies[at]!
  const reference = typeof before.original === 'string' ? before.original : before.hash
  if (!readBack(copy.action)) {
    // A copy read back (verified, failed, or not found) keeps that record when an import brings
    // only what was known before: the checksum it was copied with, or none, and no reading of
    // its own (the offload's manifest imported again, after `media-log verify`).
    if (readBack(before.action) && (copy.hash === null || sameDigest(copy.hash, reference))) return false
    // A report without a checksum takes none away (the first one verify recorded, say).
    if (copy.hash === null && typeof before.hash === 'string' && before.hash) return false
  }
  const next: Record<string, unknown> = { ...before, ...copy }
  // What a copy's manifests said last time and no longer say goes with them.
  for (const key of ['action', 'hashdate', 'tool', 'files', 'duplicates', 'doubt', 'original', 'bad_frames'] as const)
    if ((copy as Record<string, unknown>)[key] === undefined) delete next[key]
  // A failed copy holds the digest found (ASC MHL's way); `original`, the checksum it was copied
  // with, stays beside it: what it is compared with when read back again.
  if (copy.action === 'failed' && typeof reference === 'string' && !sameDigest(copy.hash, reference))
    next.original = reference
  if (JSON.stringify(next) === JSON.stringify(before)) return false
  copies[at] = next
  return true
}

/** What a read-back found (an ASC MHL generation, `media-log verify`): verified, different, or not there. */
const readBack = (action: unknown) => action === 'verified' || action === 'failed' || action === 'missing'

/** Whether two hashes name one digest (`xxhash64:` little-endian and `xxh64:` alike). */
function sameDigest(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false
  const [x, y] = [digestOf(a), digestOf(b)]
  return x && y ? x.algorithm === y.algorithm && x.value === y.value : a === b
}

/**
 * The copy with the digest of an algorithm the clip's other copies were hashed with, where the
 * volume has one: a clip hashed XXH64 on one shuttle and MD5 and XXH64 on the other compares.
 */
function withComparableHash(found: SentClip, copies: Array<Record<string, unknown>>): ImportedCopy {
  const others = copies.filter((c) => c?.volume !== found.copy.volume && typeof c?.hash === 'string')
  const algorithmOf = (hash: string) => hash.slice(0, Math.max(hash.indexOf(':'), 0))
  for (const other of others) {
    const match = found.hashes.find((h) => algorithmOf(h) === algorithmOf(other.hash as string))
    if (match) return { ...found.copy, hash: match }
  }
  return found.copy
}

/** One part's clip list, indexed by name key, and its totals kept to the clips. */
class PartClips {
  readonly #byKey = new Map<string, Clip>()
  #clips: Clip[] | undefined
  #touched = false

  constructor(
    private readonly log: Log,
    private readonly part: Part,
  ) {
    const clips = (log[part] as { clips?: unknown } | undefined)?.clips
    if (Array.isArray(clips))
      for (const clip of clips as Clip[])
        if (typeof clip?.clip === 'string' && !this.#byKey.has(nameKey(clip.clip)))
          this.#byKey.set(nameKey(clip.clip), clip)
  }

  /** The clip a name finds: its own name first, then a sequence's (`NAME.[first-last].ext`). */
  find(name: string): Clip | undefined {
    for (const key of clipKeys(name)) {
      const clip = this.#byKey.get(key)
      if (!clip) continue
      this.#touched = true
      return clip
    }
    return undefined
  }

  add(clip: Clip): Clip {
    this.#list().push(clip)
    this.#byKey.set(nameKey(clip.clip), clip)
    this.#touched = true
    return clip
  }

  /** The part's clip list, made the log's own on first use: the stored log's objects stay as read. */
  #list(): Clip[] {
    if (this.#clips) return this.#clips
    const part: Log = (this.log[this.part] = { ...(this.log[this.part] ?? {}) })
    return (this.#clips = part.clips = Array.isArray(part.clips) ? [...(part.clips as Clip[])] : [])
  }

  /**
   * The part's totals as its clips now add up (a day whose `size` left out the imported clips
   * would fail its own checks), set where they differ; whether any did. Volumes are listed as the
   * part listed them, then as clips name them.
   */
  close(): boolean {
    if (!this.#touched) return false
    const clips = this.#list()
    const part = this.log[this.part] as Log
    const size = clips.reduce((sum, c) => sum + (typeof c.size === 'number' ? c.size : 0), 0)
    const volumes = new Set(Array.isArray(part.copies) ? (part.copies as string[]) : [])
    for (const clip of clips)
      if (Array.isArray(clip.copies))
        for (const copy of clip.copies as Array<{ volume?: unknown }>)
          if (typeof copy?.volume === 'string') volumes.add(copy.volume)
    // A sequence's copies name its frames: a day's `files` counts files, as offload tools do.
    const fileCount = clips.reduce((sum, c) => sum + filesOf(c), 0)
    const files = set(part, 'files', fileCount)
    const bytes = set(part, 'size', size)
    return set(part, 'copies', [...volumes]) || files || bytes
  }
}

/** The files a clip is: the most any of its copies names (a sequence's frames), else one. */
function filesOf(clip: Clip): number {
  let most = 1
  if (Array.isArray(clip.copies))
    for (const copy of clip.copies as Array<{ files?: unknown }>)
      if (typeof copy?.files === 'number' && copy.files > most) most = copy.files
  return most
}

/** Sets a total only when it differs, so a log merged again compares equal. */
function set(part: Log, key: string, value: unknown): boolean {
  if (JSON.stringify(part[key]) === JSON.stringify(value)) return false
  part[key] = value
  return true
}

/**
 * The day's camera lists as the log holds them: `ocf.recorded`, one entry a clip that a camera's
 * ALE (or a list of clips without copies) says was recorded, `{clip, list, source_file?, reel?}`,
 * and `metadata`, the list's fields for the clip, while no clip of `ocf.clips` holds them. Held
 * apart from the clip lists because a clip there must have a size and copies (seed §2.1): a clip
 * on no volume has neither, and would count in the day's totals. When a copy of it comes, the clip
 * is made with the metadata and the entry keeps only what finds it: any order of import gives the
 * same log.
 */
type Recorded = { clip: string; list: string; source_file?: string; reel?: string; metadata?: AleRow['fields'] }

class RecordedClips {
  #list: Recorded[]
  readonly #byKey = new Map<string, Recorded>()
  #changed = false

  constructor(private readonly log: Log) {
    const list = (log.ocf as Log | undefined)?.recorded
    this.#list = Array.isArray(list) ? (list as Recorded[]).filter((e) => typeof e?.clip === 'string') : []
    for (const entry of this.#list) this.#index(entry)
  }

  #index(entry: Recorded) {
    const names = [entry.clip, ...(typeof entry.source_file === 'string' ? [entry.source_file] : [])]
    for (const key of names.flatMap(clipKeys)) if (!this.#byKey.has(key)) this.#byKey.set(key, entry)
  }

  #find(names: readonly string[]): Recorded | undefined {
    for (const key of names.flatMap(clipKeys)) {
      const entry = this.#byKey.get(key)
      if (entry) return entry
    }
    return undefined
  }

  /** The entry of a row's clip: the one the log has, or a new one named as the row names it. */
  entryFor(row: AleRow, list: string): Recorded {
    const found = this.#find(row.names)
    if (found) return found
    const [first, ...others] = row.names as [string, ...string[]]
    const entry: Recorded = { clip: sequenceOf(first) ?? clipNameOf(first), list }
    const source = others.find((name) => name !== first)
    if (source !== undefined) entry.source_file = source
    if (typeof row.fields.reel === 'string') entry.reel = row.fields.reel
    this.#list.push(entry)
    this.#index(entry)
    this.#changed = true
    return entry
  }

  /** A row's metadata held on its entry, its clip being on no volume yet. */
  hold(entry: Recorded, fields: AleRow['fields']) {
    const metadata = { ...entry.metadata }
    for (const [field, value] of Object.entries(fields)) metadata[field] = value
    if (!Object.keys(metadata).length || JSON.stringify(metadata) === JSON.stringify(entry.metadata)) return
    entry.metadata = metadata
    this.#changed = true
  }

  /** The entry's clip is in the log, with the metadata: the entry keeps only what finds it. */
  held(entry: Recorded) {
    if (entry.metadata === undefined) return
    delete entry.metadata
    this.#changed = true
  }

  /** The metadata a clip just made takes from its entry. */
  take(name: string): AleRow['fields'] | undefined {
    const entry = this.#find([name])
    const metadata = entry?.metadata
    if (entry) this.held(entry)
    return metadata
  }

  /** Writes the list into the log where it changed; whether it did. */
  close(): boolean {
    if (!this.#changed) return false
    this.log.ocf = { ...(this.log.ocf ?? {}), recorded: this.#list }
    return true
  }
}

/**
 * The one account of a day's copies: for each clip, the state of its copy on each volume
 * (states.ts), from what the log records of it (its checksum, what a read-back found, when and by
 * what tool) and how its checksum compares with the clip's other copies; for each volume, how many
 * of the clips it owes are in each state. The checks, the summaries stored beside each log and so
 * every surface take a copy's state from here and nowhere else.
 *
 * Pure and linear in a clip's copies: one clip on 10,000 volumes once held the service 14 s when
 * every copy was compared with every other.
 */
import { digestOf, type Digest } from '../shared/digests'
import { COPY_STATES, type CopyState } from './states'

/** What a read-back of a sequence found wrong, frame by frame (`media-log verify`). */
export type BadFrames = { changed: string[]; missing: string[]; changed_count: number; missing_count: number }

/**
 * A copy's record as a log holds it (seed: `{volume, hash}`; the rest is this service's, docs/log.md):
 * `action` what the last read-back or manifest found (`verified`, `failed`, `missing` — not found on
 * read-back — or `original`), `hashdate` and `tool` when and by what, `original` the checksum a
 * failed copy was copied with, `bad_frames` which frames of a sequence were different or missing.
 */
type LogCopy = {
  volume?: unknown
  hash?: unknown
  action?: unknown
  original?: unknown
  hashdate?: unknown
  tool?: unknown
  bad_frames?: unknown
}

/** A copy as the account reads it, and the state it is in. */
export type Copy = {
  volume: string
  state: CopyState
  /** Its checksum: as copied, or (failed) as found on read-back. */
  hash?: string
  /** Of a failed copy, the checksum it was copied with. */
  original?: string
  hashdate?: string
  tool?: string
  frames?: BadFrames
  /** Of a copy whose checksum differs: the first copy it disagrees with. */
  against?: { volume: string; hash: string }
  /** Of a copy with a checksum: whether any other copy of the clip had one it could be compared with. */
  comparable?: boolean
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined)

function badFramesOf(value: unknown): BadFrames | undefined {
  const frames = value as Partial<BadFrames> | null | undefined
  if (!frames || typeof frames !== 'object') return undefined
  const names = (list: unknown) => (Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [])
  const count = (n: unknown, listed: number) => (typeof n === 'number' && n >= listed ? n : listed)
  const changed = names(frames.changed)
  const missing = names(frames.missing)
  return {
    changed,
    missing,
    changed_count: count(frames.changed_count, changed.length),
    missing_count: count(frames.missing_count, missing.length),
  }
}

/**
 * A clip's copies, one per volume (the first the log lists), each in its state. A copy read back
 * is `verified`, `failed` or `not-found` by what the read-back found; one never read back is
 * compared with the clip's other copies: it `match`es when its checksum agrees with another's of
 * the same algorithm, `differ`s when it disagrees with one and agrees with none, and is `recorded`
 * when there is nothing to compare it with. A checksum that disagrees outranks a read-back that
 * agreed with it: the copy is equal to what it was copied with, and that was not the camera's file.
 */
export function copiesOf(copies: unknown): Map<string, Copy> {
  const byVolume = new Map<string, Copy>()
  if (!Array.isArray(copies)) return byVolume
  const compared: Array<{ copy: Copy; digest: Digest | undefined; raw: string }> = []
  for (const record of copies as Array<LogCopy | null>) {
    const volume = record?.volume
    if (typeof volume !== 'string' || byVolume.has(volume)) continue
    const hash = text(record!.hash)
    const action = record!.action
    const copy: Copy = { volume, state: 'no-checksum' }
    if (hash) copy.hash = hash
    const original = text(record!.original)
    if (original) copy.original = original
    const hashdate = text(record!.hashdate)
    if (hashdate) copy.hashdate = hashdate
    const tool = text(record!.tool)
    if (tool) copy.tool = tool
    const frames = badFramesOf(record!.bad_frames)
    if (frames) copy.frames = frames
    if (action === 'failed') copy.state = 'failed'
    else if (action === 'missing') copy.state = 'not-found'
    else if (hash) {
      copy.state = action === 'verified' ? 'verified' : 'recorded'
      const digest = digestOf(hash)
      compared.push({ copy, digest, raw: digest ? hash.slice(hash.indexOf(':') + 1).trim() : hash.trim() })
    }
    byVolume.set(volume, copy)
  }
  if (compared.length > 1) compare(compared)
  return byVolume
}

/**
 * Each checksum against the others, through maps: by algorithm and value, the algorithms' values,
 * and the text of the unlabelled ones (an unlabelled hash agrees with a labelled one whose value
 * it is, as shared/digests.ts compares them).
 */
function compare(compared: Array<{ copy: Copy; digest: Digest | undefined; raw: string }>) {
  const sameDigest = new Map<string, number>()
  const values = new Map<string, Map<string, Copy>>()
  const unlabelled = new Map<string, number>()
  const labelledRaw = new Map<string, number>()
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)
  for (const { copy, digest, raw } of compared) {
    if (!digest) {
      bump(unlabelled, raw)
      continue
    }
    bump(sameDigest, `${digest.algorithm}\u0000${digest.value}`)
    bump(labelledRaw, raw)
    const byValue = values.get(digest.algorithm) ?? new Map<string, Copy>()
    if (!byValue.has(digest.value)) byValue.set(digest.value, copy)
    values.set(digest.algorithm, byValue)
  }
  for (const { copy, digest, raw } of compared) {
    let agrees: boolean
    let disagrees = false
    let comparable: boolean
    if (digest) {
      const others = values.get(digest.algorithm)!
      agrees = sameDigest.get(`${digest.algorithm}\u0000${digest.value}`)! > 1 || unlabelled.has(raw)
      disagrees = others.size > 1
      comparable = agrees || disagrees
      if (disagrees && !agrees)
        for (const [value, other] of others)
          if (value !== digest.value) {
            copy.against = { volume: other.volume, hash: other.hash! }
            break
          }
    } else {
      agrees = unlabelled.get(raw)! > 1 || labelledRaw.has(raw)
      comparable = agrees
    }
    copy.comparable = comparable
    if (disagrees && !agrees) copy.state = 'differ'
    else if (agrees && copy.state === 'recorded') copy.state = 'match'
  }
}

/** How many of a volume's clips are in each state. */
export type CopyCounts = Partial<Record<CopyState, number>>

/**
 * One volume's copies of one part of a day (or of a range of days): `clips` the clips it owes —
 * every clip of the part where the day plans the volume, else the clips it holds — and how many
 * are in each state, `missing` those it owes and does not hold. `days`, in a range's totals, when
 * the volume was used on fewer days than the range has (a shuttle rotates: it owes those days'
 * clips alone). `otherFailed`: files of the volume that are not media (sidecars) whose read-back
 * failed, which no clip count holds.
 */
export type VolumeCount = {
  volume: string
  clips: number
  states: CopyCounts
  days?: number
  otherFailed?: number
}

/**
 * A count as stored before copies had states (a send window's figures drawn then, kept as sent):
 * `{copied, total, hashed, failed?, verified?}`, read as the account would have counted it, with
 * checksums recorded where they were not read back. Any other count is returned as it is.
 */
export function accountOf(count: VolumeCount | Record<string, unknown>): VolumeCount {
  if ('states' in count && count.states && typeof count.states === 'object') return count as VolumeCount
  const stored = count as Record<string, unknown>
  const n = (key: string) => {
    const value = stored[key]
    return typeof value === 'number' ? value : 0
  }
  const [copied, total, hashed, failed, verified] = ['copied', 'total', 'hashed', 'failed', 'verified'].map(n) as [
    number,
    number,
    number,
    number,
    number,
  ]
  const states: CopyCounts = {}
  const put = (state: CopyState, value: number) => value > 0 && (states[state] = value)
  put('missing', total - copied)
  put('failed', failed)
  put('no-checksum', copied - hashed - failed)
  put('recorded', hashed - verified)
  put('verified', verified)
  return { volume: String(stored.volume), clips: total, states, ...(n('days') && { days: n('days') }) }
}

/** The states of a count in the order they are said, worst first, each with how many. */
export function statesIn(count: Pick<VolumeCount, 'states'>): Array<[CopyState, number]> {
  const found: Array<[CopyState, number]> = []
  for (const state of COPY_STATES) {
    const n = count.states[state]
    if (n) found.push([state, n])
  }
  return found
}

/**
 * How many of the clips a volume owes it holds intact as far as anyone knows: all but those
 * missing, not found on read-back, read back different, or whose checksum differs from another
 * copy's. A shuttle whose every clip read back wrong holds none of them.
 */
export const heldOf = ({ clips, states }: Pick<VolumeCount, 'clips' | 'states'>) =>
  clips - (states.missing ?? 0) - (states['not-found'] ?? 0) - (states.failed ?? 0) - (states.differ ?? 0)

/**
 * The volumes a day plans its copies on: the part's `copies` list, or without one every volume a
 * clip is on. A planned volume owes every clip of the part; another holds what it holds.
 */
export function plannedVolumes(listed: readonly string[] | undefined, held: Iterable<string>): Set<string> {
  return new Set(listed?.length ? listed : held)
}

/**
 * Counts volume by volume as a part's clips are taken one at a time. Volumes come out in the order
 * the day lists them, then as clips first name them.
 */
export class VolumeTally {
  readonly #volumes = new Map<string, CopyCounts>()
  clips = 0

  add(copies: ReadonlyMap<string, Copy>) {
    this.clips++
    for (const copy of copies.values()) {
      let states = this.#volumes.get(copy.volume)
      if (!states) this.#volumes.set(copy.volume, (states = {}))
      states[copy.state] = (states[copy.state] ?? 0) + 1
    }
  }

  /**
   * `planned`: the day's planned volumes, where these clips are some of a day's (a reel's); by
   * default the planned volumes of these clips alone.
   */
  counts(listed: readonly string[] = [], planned = plannedVolumes(listed, this.#volumes.keys())): VolumeCount[] {
    const order = new Set([...listed, ...planned, ...this.#volumes.keys()])
    return [...order].map((volume) => {
      const states = { ...this.#volumes.get(volume) }
      let held = 0
      for (const n of Object.values(states)) held += n
      if (!planned.has(volume)) return { volume, clips: held, states }
      if (this.clips > held) states.missing = this.clips - held
      return { volume, clips: this.clips, states }
    })
  }
}

/** Two counts of one volume as one: a range's days added up. */
export function addCounts(into: CopyCounts, from: CopyCounts) {
  for (const [state, n] of Object.entries(from) as Array<[CopyState, number]>) into[state] = (into[state] ?? 0) + n
}

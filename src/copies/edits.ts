/**
 * Changes to a day's copies that are neither a log an application posts nor an offload's files:
 * what a read-back of a volume found (`media-log verify`), and a volume renamed or taken off the
 * day (a report that named the wrong one). Pure: the stored log in, the changed log out, and what
 * changed; the workspace writes it as it writes an import.
 */
import { clipKeys, nameKey } from '../shared/clip-names'
import { digestOf } from '../shared/digests'
import { invalid, notFound } from '../shared/problem'
import type { BadFrames } from './account'

type Log = Record<string, unknown>
type LogCopy = Record<string, unknown> & { volume?: unknown }
type Clip = Record<string, unknown> & { clip?: unknown; copies?: unknown }

/** One clip as a read-back found it on the volume (docs/verify.md). */
type ReadBackClip = {
  part: 'ocf' | 'sound'
  clip: string
  /** `original`: the clip had no checksum anywhere; the one computed now is recorded as its first. */
  found: 'verified' | 'failed' | 'missing' | 'original'
  /** The digest computed now (a sequence's frames digest), labelled; none for `missing`. */
  hash?: string
  hashdate: string
  /** A sequence's frames read. */
  files?: number
  bad_frames?: BadFrames
}

type ReadBack = { volume: string; tool?: string; clips: ReadBackClip[] }

export type LogEdit =
  | ({ kind: 'read-back' } & ReadBack)
  | { kind: 'rename-volume'; volume: string; to: string }
  | { kind: 'remove-volume'; volume: string }

/** What an edit did: copies it recorded or moved, and the clips a read-back named that the log has not. */
export type EditOutcome = { copies: number; unknown: string[] }

const PARTS = ['ocf', 'sound'] as const

/** The log with `edit` made; `written` false when nothing changed (nothing is stored then). */
export function editLog(stored: Log, edit: LogEdit): { log: Log; outcome: EditOutcome; written: boolean } {
  const log: Log = { ...stored }
  const outcome: EditOutcome = { copies: 0, unknown: [] }
  if (edit.kind === 'read-back') readBack(log, edit, outcome)
  else moveVolume(log, edit, outcome)
  return { log, outcome, written: JSON.stringify(log) !== JSON.stringify(stored) }
}

/** A part's clips, made the log's own to change: the stored log's objects stay as read. */
function ownClips(log: Log, part: 'ocf' | 'sound'): Clip[] | undefined {
  const section = log[part] as Log | undefined
  if (!section || !Array.isArray(section.clips)) return undefined
  const clips = (section.clips as Clip[]).map((clip) => ({ ...clip }))
  log[part] = { ...section, clips }
  return clips
}

function readBack(log: Log, { volume, tool, clips: found }: ReadBack, outcome: EditOutcome) {
  const byPart = { ocf: new Map<string, Clip>(), sound: new Map<string, Clip>() }
  for (const part of PARTS)
    for (const clip of ownClips(log, part) ?? [])
      if (typeof clip.clip === 'string' && !byPart[part].has(nameKey(clip.clip)))
        byPart[part].set(nameKey(clip.clip), clip)
  for (const entry of found) {
    const clip = clipKeys(entry.clip)
      .map((key) => byPart[entry.part].get(key))
      .find(Boolean)
    if (!clip) {
      if (outcome.unknown.length < 100) outcome.unknown.push(entry.clip)
      continue
    }
    const copies = Array.isArray(clip.copies) ? (clip.copies as LogCopy[]).map((c) => ({ ...c })) : []
    clip.copies = copies
    const at = copies.findIndex((c) => c?.volume === volume)
    const before: LogCopy = at >= 0 ? copies[at]! : { volume, hash: null }
    const next = readBackCopy(before, entry, foundOf(entry, before, copies), tool)
    if (at >= 0) copies[at] = next
    else if (entry.found !== 'missing') copies.push(next)
    else continue
    outcome.copies++
  }
}

/** The checksum a copy was copied with: a failed copy's `original`, else its hash. */
const copiedWith = (copy: LogCopy | undefined) => {
  const hash = typeof copy?.original === 'string' ? copy.original : copy?.hash
  return typeof hash === 'string' && hash.trim() ? hash : undefined
}

/**
 * What the read-back found, as the log's own checksums say: its digest against the one the copy
 * was copied with (else another volume's copy's) of the same algorithm, equal or not; the caller's
 * word only where the log has no checksum of that algorithm to hold it to.
 */
function foundOf(
  entry: ReadBackClip,
  before: LogCopy,
  copies: readonly LogCopy[],
): { found: ReadBackClip['found']; against?: string } {
  const digest = entry.hash === undefined ? undefined : digestOf(entry.hash)
  if (entry.found === 'missing' || !digest) return { found: entry.found }
  for (const copy of [before, ...copies.filter((c) => c !== before)]) {
    if (copy.action === 'missing' && copy !== before) continue
    const recorded = copiedWith(copy)
    const reference = recorded === undefined ? undefined : digestOf(recorded)
    if (reference?.algorithm === digest.algorithm)
      return { found: reference.value === digest.value ? 'verified' : 'failed', against: recorded }
  }
  return { found: entry.found }
}

/**
 * A copy as a read-back leaves it: `verified` or `failed` (the digest found kept as its `hash`, the
 * checksum it was copied with as `original`), `missing` (its checksum kept: a copy found again is
 * compared with it), `original` (the first checksum it has). When and by what tool, always.
 */
function readBackCopy(
  before: LogCopy,
  entry: ReadBackClip,
  { found, against }: ReturnType<typeof foundOf>,
  tool: string | undefined,
): LogCopy {
  const copied = against ?? copiedWith(before)
  const next: LogCopy = { ...before }
  for (const key of ['original', 'bad_frames', 'hashdate', 'tool'] as const) delete next[key]
  next.action = found
  if (found === 'missing') next.hash = copiedWith(before) ?? null
  else if (found === 'failed') {
    next.hash = entry.hash!
    if (copied !== undefined && !sameDigest(copied, entry.hash!)) next.original = copied
  } else if (copied !== undefined && sameDigest(copied, entry.hash!)) next.hash = copiedWith(before) ?? entry.hash!
  else next.hash = entry.hash!
  if (entry.files !== undefined) next.files = entry.files
  if (entry.bad_frames) next.bad_frames = entry.bad_frames
  next.hashdate = entry.hashdate
  if (tool) next.tool = tool
  return next
}

function sameDigest(a: string, b: string): boolean {
  const [x, y] = [digestOf(a), digestOf(b)]
  return x && y ? x.algorithm === y.algorithm && x.value === y.value : a.trim() === b.trim()
}

/**
 * A volume renamed (`to`) or taken off the day: every clip's copy on it, the parts' `copies` lists,
 * and the files that are not media recorded on it. Renaming onto a volume that already holds one
 * of the same clips would make two copies of a clip on one volume: refused, naming them.
 */
function moveVolume(
  log: Log,
  edit: { kind: 'rename-volume'; volume: string; to: string } | { kind: 'remove-volume'; volume: string },
  outcome: EditOutcome,
) {
  const { volume } = edit
  const to = edit.kind === 'rename-volume' ? edit.to : undefined
  // Renamed to its own name: nothing to do, once the volume is known to be the day's.
  const same = to === volume
  let known = false
  const both: string[] = []
  for (const part of PARTS) {
    const section = log[part] as Log | undefined
    if (section && Array.isArray(section.copies) && (section.copies as unknown[]).includes(volume)) known = true
    for (const clip of ownClips(log, part) ?? []) {
      if (!Array.isArray(clip.copies)) continue
      const copies = clip.copies as LogCopy[]
      if (!copies.some((c) => c?.volume === volume)) continue
      known = true
      if (same) continue
      if (to !== undefined && copies.some((c) => c?.volume === to)) {
        both.push(String(clip.clip))
        continue
      }
      clip.copies =
        to === undefined
          ? copies.filter((c) => c?.volume !== volume)
          : copies.map((c) => (c?.volume === volume ? { ...c, volume: to } : c))
      outcome.copies++
    }
    const listed = (log[part] as { copies?: unknown } | undefined)?.copies as unknown[] | undefined
    if (Array.isArray(listed) && listed.includes(volume)) {
      const renamed = to === undefined ? listed.filter((v) => v !== volume) : listed.map((v) => (v === volume ? to : v))
      log[part] = { ...(log[part] as Log), copies: [...new Set(renamed)] }
    }
  }
  if (Array.isArray(log.other_files)) {
    const files = log.other_files as LogCopy[]
    if (files.some((f) => f?.volume === volume)) known = true
    log.other_files =
      to === undefined
        ? files.filter((f) => f?.volume !== volume)
        : files.map((f) => (f?.volume === volume ? { ...f, volume: to } : f))
  }
  if (!known) throw notFound('Volume')
  if (both.length) {
    const named = both.slice(0, 5).join(', ') + (both.length > 5 ? `, and ${both.length - 5} more` : '')
    throw invalid([
      {
        prop: 'name',
        message: `${to} already holds ${both.length === 1 ? 'a copy' : `${both.length} copies`} of the same clips (${named}): remove one of the two volumes from the day first`,
      },
    ])
  }
}

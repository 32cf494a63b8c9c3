/**
 * The checks of one shooting day, from what its log holds: copies and their hashes, clip numbers,
 * proxies and sound against the camera clips, sizes. Pure: the log in, findings out (it only
 * pauses between steps). Clip lists may be a large log's lists read from its bytes
 * (large-logs/read.ts), so each is gone through once, into the few fields the checks need.
 */
import type { LazyLog } from '../large-logs/read'
import { Findings, finding, type Checked, type Finding } from './findings'
import { compareHashes } from '../shared/digests'
import { copiesOf, plannedVolumes, type Copy } from '../copies/account'
import { CLIP_WORDS, STATE_WORDS } from '../copies/states'
import { badFramesWords } from '../copies/words'
import { cameraClipOf, gapsIn, missingIn, reelName } from './names'
import { clipKeys, nameKey } from '../shared/clip-names'
import { SoundMatch } from './sound'

export type DayCheckOptions = {
  /** The project's `match_sound` (default true): OCF clips and sound clips are matched by timecode. */
  matchSound: boolean
}

/** A file of a volume that is the clip by name, as an import recorded it (src/import/read.ts). */
type Source = { path: string; size: unknown; hash: unknown }

type CopyAbout = { part: 'ocf' | 'sound'; clip: string; volume: string }

/** What an import said of a copy besides its checksum: other files of its name, a history in doubt. */
type CopyNotes = { duplicates?: Source[]; doubt?: string }

/**
 * What the checks need of a clip, taken in one pass over its list: a large log's lists are parsed
 * from its bytes each time they are gone through (a 20,000-clip day's checks cost six such passes
 * per list before).
 */
export type Clip = {
  name: string
  size: unknown
  /** No report stated its size: `size: 0` stands for unknown (docs/log.md). */
  sizeUnknown: boolean
  reel: unknown
  /** Its copies in their states (src/copies/account.ts), by volume. */
  copies: Map<string, Copy>
  /** Per volume, where an import noted something of the copy. */
  notes?: Map<string, CopyNotes>
  timing: { tc_start?: unknown; tc_end?: unknown; duration?: unknown; fps?: unknown }
}

const nameOf = (clip: { clip?: unknown }) => (typeof clip.clip === 'string' ? clip.clip : '')

function taken(clips: Iterable<Record<string, unknown>>): Clip[] {
  const records: Clip[] = []
  for (const clip of clips) {
    const { tc_start, tc_end, duration, fps } = clip
    const record: Clip = {
      name: nameOf(clip),
      size: clip.size,
      sizeUnknown: clip.size_unknown === true,
      reel: clip.reel,
      copies: copiesOf(clip.copies),
      timing: { tc_start, tc_end, duration, fps },
    }
    const notes = notesOf(clip.copies)
    if (notes) record.notes = notes
    records.push(record)
  }
  return records
}

/**
 * Between its steps the checks let the runtime serve other requests: a 20,000-clip day takes some
 * 400 ms, and work held that long in one piece has seen connections reset under load (as reports
 * drawn in one piece did, bench/NOTES.md).
 */
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A day's clip lists, each gone through once into what the checks need of its clips. */
export type ReadDay = { log: LazyLog['log']; ocf: Clip[]; sound: Clip[]; proxy: Clip[] }

export async function readDay(day: LazyLog): Promise<ReadDay> {
  const ocf = taken(day.ocf)
  await nextTurn()
  const read = { log: day.log, ocf, sound: taken(day.sound), proxy: taken(day.proxy) }
  await nextTurn()
  return read
}

export const checkDay = async (day: LazyLog, options: DayCheckOptions) => checkRead(await readDay(day), options)

/** The findings of a day already read (readDay), most serious first. */
export async function checkRead({ log, ocf, sound, proxy }: ReadDay, options: DayCheckOptions): Promise<Checked> {
  const found = new Findings()
  checkCopies('ocf', ocf, log.ocf?.copies, found)
  checkCopies('sound', sound, log.sound?.copies, found)
  checkOtherFiles((log as { other_files?: unknown }).other_files, found)
  checkSizes('OCF', log.ocf?.size, ocf, found)
  checkSizes('Sound', log.sound?.size, sound, found)
  checkSizes('Proxies', log.proxy?.size, proxy, found)
  checkNumbering(ocf, found)
  checkRecorded((log.ocf as { recorded?: unknown } | undefined)?.recorded, ocf, found)
  if (proxy.length) checkProxies(ocf, proxy, found)
  if (options.matchSound && sound.length && ocf.length) {
    await nextTurn()
    checkSound(ocf, sound, found)
  }
  return found.checked()
}

/**
 * Per clip and volume, the copy's state (src/copies/account.ts) as a finding where it is not a good
 * one: missing where the day plans the volume (its `copies`, or else every volume any clip is on),
 * not found or different on read-back, a checksum that differs from another copy's, none at all.
 * A volume's findings of each kind are its count of that state: the checks and the summaries'
 * counts are one account.
 */
function checkCopies(
  part: 'ocf' | 'sound',
  clips: readonly Clip[],
  listed: readonly string[] | undefined,
  found: Findings,
) {
  const held = new Set<string>()
  if (!listed?.length) for (const clip of clips) for (const volume of clip.copies.keys()) held.add(volume)
  const planned = plannedVolumes(listed, held)
  countMissing(part, clips, planned, found)
  for (const { name, copies, notes } of clips) {
    // Camera files of a day that plans no volume and has none: nothing of the clip is backed up
    // anywhere. (Sound is often logged from the recorder before its copies are.)
    if (part === 'ocf' && !planned.size && !copies.size)
      found.add(finding('no-copy', `${name}: on no volume`, { part, clip: name }))
    let hashed = 0
    for (const copy of copies.values()) if (copy.comparable !== undefined) hashed++
    for (const copy of copies.values()) {
      const about = { part, clip: name, volume: copy.volume }
      const said = copyFinding(name, copy, hashed, about)
      if (said) found.add(said)
      const noted = notes?.get(copy.volume)
      if (noted?.duplicates) found.add(duplicatesFinding(name, copy.volume, noted.duplicates, about))
      if (noted?.doubt) found.add(finding('copy-in-doubt', `${name} on ${copy.volume}: ${noted.doubt}`, about))
    }
  }
}

/** ` (media-log 0.1.0, 2026-11-26T21:04:00Z)`: who found a copy so, and when, where the log says. */
const factsOf = ({ tool, hashdate }: Copy) => {
  const facts = [tool, hashdate].filter(Boolean)
  return facts.length ? ` (${facts.join(', ')})` : ''
}

/** `: 2 frames changed (A002C001.0000012.ari, …)`: a sequence's read-back, frame by frame. */
function framesWords(copy: Copy): string {
  const said = copy.frames ? badFramesWords(copy.frames) : ''
  return said ? `: ${said}` : ''
}

/** A copy's state as a finding, where it is one to report. */
function copyFinding(
  name: string,
  copy: Copy,
  hashed: number,
  about: CopyAbout & { volume: string },
): Finding | undefined {
  const { volume } = copy
  const label = STATE_WORDS[copy.state].label
  const facts = { ...(copy.tool && { tool: copy.tool }), ...(copy.hashdate && { hashdate: copy.hashdate }) }
  switch (copy.state) {
    case 'failed': {
      const found = copy.hash ? `: found ${copy.hash}${copy.original ? `, copied with ${copy.original}` : ''}` : ''
      return finding(
        'verification-failed',
        `${name} on ${volume}: ${label}${factsOf(copy)}${framesWords(copy) || found}`,
        {
          ...about,
          ...facts,
        },
      )
    }
    case 'not-found':
      return finding('copy-not-found', `${name} on ${volume}: ${label}${factsOf(copy)}${framesWords(copy)}`, {
        ...about,
        ...facts,
      })
    case 'differ':
      return finding(
        'hash-mismatch',
        `${name} on ${volume}: ${label} (${copy.hash}) from ${copy.against!.volume}’s (${copy.against!.hash})`,
        about,
      )
    case 'no-checksum':
      return finding('not-verified', `${name} on ${volume}: ${label}`, about)
    default:
      // A checksum no other copy's can be compared with, where others have one: nothing agrees or differs.
      if (hashed > 1 && copy.comparable === false)
        return finding(
          'hash-not-comparable',
          `${name} on ${volume}: its checksum (${copy.hash}) cannot be compared with the other copies’ (another algorithm, or none the service knows)`,
          about,
        )
      return undefined
  }
}

/**
 * Copies missing, counted per volume from the copies there are (a clip on 10,000 volumes and a
 * thousand clips on none would be ten million pairs), and listed clip by clip until the list is
 * full: past a couple of hundred volumes most pairs are missing, so the list fills at once.
 */
function countMissing(part: 'ocf' | 'sound', clips: readonly Clip[], volumes: ReadonlySet<string>, found: Findings) {
  const present = new Map<string, number>()
  for (const { copies } of clips)
    for (const volume of copies.keys()) if (volumes.has(volume)) present.set(volume, (present.get(volume) ?? 0) + 1)
  let listable = false
  for (const volume of volumes) {
    const missing = clips.length - (present.get(volume) ?? 0)
    if (missing && found.count('copy-missing', { part, volume }, missing)) listable = true
  }
  if (!listable) return
  for (const { name, copies } of clips)
    for (const volume of volumes)
      if (
        !copies.has(volume) &&
        !found.list(
          finding('copy-missing', `${name} on ${volume}: ${STATE_WORDS.missing.label}`, { part, clip: name, volume }),
        )
      )
        return
}

/** A clip that is several files of one volume: the same file copied twice, or different files. */
function duplicatesFinding(name: string, volume: string, duplicates: Source[], about: CopyAbout): Finding {
  const [one, ...others] = duplicates as [Source, ...Source[]]
  const alike = (d: Source) =>
    d.size === one.size &&
    (d.hash === one.hash ||
      (typeof d.hash === 'string' && typeof one.hash === 'string' && compareHashes(d.hash, one.hash) === 'agree'))
  if (others.every(alike))
    return finding(
      'copy-repeated',
      `${name} is on ${volume} ${duplicates.length} times: ${duplicates.map((d) => d.path).join(', ')}`,
      about,
    )
  const files = duplicates.map((d) => `${d.path} (${typeof d.size === 'number' ? `${d.size} bytes` : 'no size'})`)
  return finding(
    'name-collision',
    `${name} is ${duplicates.length} different files on ${volume}: ${files.join(', ')}`,
    about,
  )
}

/** Per volume, what an import noted of a clip's copy (duplicates, doubt); undefined when nothing. */
function notesOf(copies: unknown): Map<string, CopyNotes> | undefined {
  if (!Array.isArray(copies)) return undefined
  let notes: Map<string, CopyNotes> | undefined
  for (const copy of copies as Array<{ volume?: unknown; duplicates?: unknown; doubt?: unknown } | null>) {
    if (typeof copy?.volume !== 'string' || (copy.duplicates === undefined && copy.doubt === undefined)) continue
    if (notes?.has(copy.volume)) continue
    const noted: CopyNotes = {}
    const duplicates = sourcesOf(copy.duplicates)
    if (duplicates) noted.duplicates = duplicates
    if (typeof copy.doubt === 'string' && copy.doubt) noted.doubt = copy.doubt
    if (noted.duplicates || noted.doubt) (notes ??= new Map()).set(copy.volume, noted)
  }
  return notes
}

/** An import's `duplicates`, where there are at least two files with a path each. */
function sourcesOf(duplicates: unknown): Source[] | undefined {
  if (!Array.isArray(duplicates) || duplicates.length < 2) return undefined
  const sources = duplicates.filter((d): d is Source => typeof (d as Source | null)?.path === 'string')
  return sources.length >= 2 ? sources : undefined
}

/**
 * Zero-byte clips, clips whose size no report stated (never said to be 0 bytes), and a day's size
 * that is not the sum of its clips' (the known ones).
 */
function checkSizes(label: string, total: number | undefined, clips: readonly Clip[], found: Findings) {
  let sum = 0
  for (const { name, size, sizeUnknown } of clips) {
    if (sizeUnknown) {
      found.add(finding('size-unknown', `${name}: ${CLIP_WORDS.sizeUnknown} (no report stated it)`, { clip: name }))
      continue
    }
    if (typeof size !== 'number') continue
    sum += size
    if (size === 0) found.add(finding('zero-size', `${name} is 0 bytes`, { clip: name }))
  }
  if (clips.length && typeof total === 'number' && total !== sum)
    found.add(
      finding('size-mismatch', `${label}: the day's size (${total} bytes) is not the sum of its clips' (${sum} bytes)`),
    )
}

/**
 * Files that are not media (sidecars, a camera's XML) whose read-back failed, as the day's reports
 * recorded them (`other_files`, kept by the import when a report records a failure of one).
 */
function checkOtherFiles(others: unknown, found: Findings) {
  if (!Array.isArray(others)) return
  for (const file of others as Array<Record<string, unknown> | null>) {
    if (file?.action !== 'failed' || typeof file.volume !== 'string' || typeof file.path !== 'string') continue
    const facts = [file.tool, file.hashdate].filter((f): f is string => typeof f === 'string' && f !== '')
    found.add(
      finding(
        'other-file-failed',
        `${file.path} on ${file.volume}: not media (a sidecar), ${STATE_WORDS.failed.label}${facts.length ? ` (${facts.join(', ')})` : ''}`,
        { volume: file.volume, file: file.path },
      ),
    )
  }
}

/** Clip names given twice, and numbers missing in a camera reel's run of clips. */
function checkNumbering(clips: readonly Clip[], found: Findings) {
  const seen = new Map<string, { name: string; times: number }>()
  const reels = new Map<string, { name: string; numbers: Set<number>; digits: number }>()
  for (const { name } of clips) {
    const key = nameKey(name)
    const entry = seen.get(key)
    if (entry) entry.times++
    else seen.set(key, { name, times: 1 })
    const numbered = cameraClipOf(name)
    if (!numbered) continue
    const reel = reelName(numbered.camera, numbered.reel)
    const run = reels.get(reel) ?? { name: reel, numbers: new Set(), digits: numbered.digits }
    run.numbers.add(numbered.clip)
    reels.set(reel, run)
  }
  for (const { name, times } of seen.values())
    if (times > 1) found.add(finding('duplicate-clip', `${name} is listed ${times} times`, { clip: name }))
  for (const { name: reel, numbers, digits } of reels.values()) {
    const c = (n: number) => `C${String(n).padStart(digits, '0')}`
    for (const gap of gapsIn(numbers)) {
      const [before, after] = gap
      found.add(
        finding(
          'clip-gap',
          `${reel}: ${missingIn(gap, c, ['is', 'are'])} missing between ${c(before)} and ${c(after)}`,
          {
            reel,
          },
        ),
      )
    }
  }
}

/**
 * The camera lists (`ocf.recorded`, src/import/merge.ts) against the copies: a clip a camera
 * recorded that is on no volume (a card formatted before it was copied is the costliest mistake of
 * a day), and a clip on a volume that no list of its reel names, only where the reel has a list.
 */
function checkRecorded(recorded: unknown, ocf: readonly Clip[], found: Findings) {
  if (!Array.isArray(recorded) || !recorded.length) return
  const copied = new Set<string>()
  for (const { name, copies } of ocf) if (copies.size) copied.add(nameKey(name))
  const listed = new Set<string>()
  const reels = new Set<string>()
  for (const entry of recorded as Array<Record<string, unknown> | null>) {
    const clip = entry?.clip
    if (typeof clip !== 'string' || !clip) continue
    const source = typeof entry.source_file === 'string' ? [entry.source_file] : []
    const keys = [clip, ...source].flatMap(clipKeys)
    for (const key of keys) listed.add(key)
    const reel = reelKey(entry.reel, clip)
    if (reel) reels.add(reel)
    if (keys.some((key) => copied.has(key))) continue
    const list = typeof entry.list === 'string' ? ` in ${entry.list}` : ''
    found.add(
      finding('recorded-not-copied', `${clip} was recorded (camera list${list}) but is on no volume`, {
        part: 'ocf',
        clip,
        ...(reel && { reel }),
      }),
    )
  }
  if (!reels.size) return
  for (const { name, reel, copies } of ocf) {
    if (!copies.size || listed.has(nameKey(name))) continue
    const key = reelKey(reel, name)
    if (!key || !reels.has(key)) continue
    found.add(
      finding(
        'not-in-camera-list',
        `${name} is on ${[...copies.keys()].join(', ')} but in no camera list of reel ${key}`,
        { part: 'ocf', clip: name, reel: key },
      ),
    )
  }
}

/**
 * A reel as lists and clips compare it: a camera reel's letter and number (`A002` of `A002R1AB`),
 * else the reel as written, upper case; without a reel, the camera reel a clip's name gives.
 */
function reelKey(reel: unknown, name: string): string | undefined {
  if (typeof reel === 'string' && reel.trim()) {
    const camera = /^([A-Z])(\d{3})/i.exec(reel.trim())
    return camera ? reelName(camera[1]!.toUpperCase(), Number(camera[2])) : reel.trim().toUpperCase()
  }
  const numbered = cameraClipOf(name)
  return numbered ? reelName(numbered.camera, numbered.reel) : undefined
}

function checkProxies(ocf: readonly Clip[], proxies: readonly Clip[], found: Findings) {
  const proxyKeys = new Set(proxies.map((p) => nameKey(p.name)))
  const ocfKeys = new Set<string>()
  for (const { name } of ocf) {
    const key = nameKey(name)
    ocfKeys.add(key)
    if (!proxyKeys.has(key)) found.add(finding('no-proxy', `${name} has no proxy`, { clip: name }))
  }
  for (const { name } of proxies)
    if (!ocfKeys.has(nameKey(name)))
      found.add(finding('proxy-without-clip', `The proxy ${name} matches no OCF clip`, { clip: name }))
}

/**
 * OCF clips and sound clips matched by timecode: a camera clip with no sound running during it
 * (MOS, or sound not yet logged), and sound that runs during no camera clip (wild tracks, or
 * camera clips not yet logged). Information, not faults: both happen on every set.
 */
function checkSound(ocf: readonly Clip[], sound: readonly Clip[], found: Findings) {
  // Sound clips carry no rate: their frames count at the day's camera rate.
  const rate = dayRate(ocf)
  const rateOf = ({ fps }: Clip['timing']) => (typeof fps === 'number' && fps > 0 ? fps : rate)
  const cameraSpans = ocf.map((clip) => SoundMatch.spanOf(clip.timing, rateOf(clip.timing)))
  const soundSpans = sound.map((clip) => SoundMatch.spanOf(clip.timing, rate))
  // Without a timecode on any sound clip there is nothing to match by.
  if (!soundSpans.some(Boolean)) return
  const soundRuns = new SoundMatch(soundSpans)
  ocf.forEach(({ name }, i) => {
    const span = cameraSpans[i]
    if (span && !soundRuns.overlaps(span))
      found.add(finding('no-sound', `${name} has no sound running during it`, { clip: name }))
  })
  const cameraRuns = new SoundMatch(cameraSpans)
  sound.forEach(({ name }, i) => {
    const span = soundSpans[i]
    if (span && !cameraRuns.overlaps(span))
      found.add(finding('sound-without-clip', `The sound clip ${name} runs during no OCF clip`, { clip: name }))
  })
}

/** The rate most of the day's camera clips run at; 24 when none says. */
function dayRate(clips: readonly Clip[]): number {
  const counts = new Map<number, number>()
  let best = 24
  let most = 0
  for (const { fps } of clips.map((c) => c.timing)) {
    if (typeof fps !== 'number' || !(fps > 0)) continue
    const n = (counts.get(fps) ?? 0) + 1
    counts.set(fps, n)
    if (n > most) [best, most] = [fps, n]
  }
  return best
}

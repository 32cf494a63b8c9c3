/**
 * The checks of one shooting day, from what its log holds: copies and their hashes, clip numbers,
 * proxies and sound against the camera clips, sizes. Pure: the log in, findings out (it only
 * pauses between steps). Clip lists may be a large log's lists read from its bytes
 * (piecewise/read.ts), so each is gone through once, into the few fields the checks need.
 */
import type { LazyLog } from '../piecewise/read'
import { finding, ordered, type Finding } from './findings'
import { compareHashes } from './hashes'
import { cameraClipOf, gapsIn, missingIn, reelName } from './names'
import { nameKey } from '../shared/clip-names'
import { SoundMatch } from './sound'

export type DayCheckOptions = {
  /** The project's `match_sound` (default true): OCF clips and sound clips are matched by timecode. */
  matchSound: boolean
}

type Copy = { volume?: unknown; hash?: unknown; action?: unknown }

/**
 * What the checks need of a clip, taken in one pass over its list: a large log's lists are parsed
 * from its bytes each time they are gone through (a 20,000-clip day's checks cost six such passes
 * per list before).
 */
type Clip = {
  name: string
  size: unknown
  copies: Array<{ volume: string; hash: string | undefined; failed: boolean }>
  timing: { tc_start?: unknown; tc_end?: unknown; duration?: unknown; fps?: unknown }
}

const nameOf = (clip: { clip?: unknown }) => (typeof clip.clip === 'string' ? clip.clip : '')

function taken(clips: Iterable<Record<string, unknown>>): Clip[] {
  const records: Clip[] = []
  for (const clip of clips) {
    const { tc_start, tc_end, duration, fps } = clip
    records.push({
      name: nameOf(clip),
      size: clip.size,
      copies: copiesOf(clip.copies),
      timing: { tc_start, tc_end, duration, fps },
    })
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
export async function checkRead({ log, ocf, sound, proxy }: ReadDay, options: DayCheckOptions): Promise<Finding[]> {
  const found: Finding[] = []
  checkCopies('ocf', ocf, log.ocf?.copies, found)
  checkCopies('sound', sound, log.sound?.copies, found)
  checkSizes('OCF', log.ocf?.size, ocf, found)
  checkSizes('Sound', log.sound?.size, sound, found)
  checkSizes('Proxies', log.proxy?.size, proxy, found)
  checkNumbering(ocf, found)
  if (proxy.length) checkProxies(ocf, proxy, found)
  if (options.matchSound && sound.length && ocf.length) {
    await nextTurn()
    checkSound(ocf, sound, found)
  }
  return ordered(found)
}

/**
 * Per clip and volume: a copy on every volume the day names (its `copies`, or else every volume
 * any clip is on), each with a hash, and the hashes agreeing where they can be compared.
 */
function checkCopies(
  part: 'ocf' | 'sound',
  clips: readonly Clip[],
  listed: readonly string[] | undefined,
  found: Finding[],
) {
  const volumes = listed?.length
    ? [...new Set(listed)]
    : [...new Set(clips.flatMap((c) => c.copies.map((copy) => copy.volume)))]
  for (const { name, copies } of clips) {
    for (const volume of volumes)
      if (!copies.some((copy) => copy.volume === volume))
        found.push(finding('copy-missing', `${name} is not on ${volume}`, { part, clip: name, volume }))
    const hashed: Array<{ volume: string; hash: string }> = []
    for (const { volume, hash, failed } of copies) {
      if (failed)
        found.push(
          finding('verification-failed', `${name} on ${volume} failed verification${hash ? ` (${hash})` : ''}`, {
            part,
            clip: name,
            volume,
          }),
        )
      else if (hash) hashed.push({ volume, hash })
      else
        found.push(
          finding('not-verified', `${name} on ${volume} has no hash: not verified`, { part, clip: name, volume }),
        )
    }
    // Each copy against the first earlier copy it can be compared with: one bad copy is one
    // finding, not one for every copy after it too.
    for (let j = 1; j < hashed.length; j++) {
      const b = hashed[j]!
      const a = hashed.slice(0, j).find((earlier) => compareHashes(earlier.hash, b.hash) !== 'cannot compare')
      if (!a) {
        const first = hashed[0]!
        found.push(
          finding(
            'hash-not-comparable',
            `${name}: the hashes on ${first.volume} (${first.hash}) and ${b.volume} (${b.hash}) cannot be compared`,
            { part, clip: name, volume: b.volume },
          ),
        )
      } else if (compareHashes(a.hash, b.hash) === 'disagree')
        found.push(
          finding(
            'hash-mismatch',
            `${name}: the hash on ${b.volume} (${b.hash}) differs from ${a.volume}'s (${a.hash})`,
            { part, clip: name, volume: b.volume },
          ),
        )
    }
  }
}

/**
 * A clip's copies with a volume, one per volume (the first), hash `null` or empty as none. A copy
 * whose `action` is `failed` (ASC MHL: hashed again and found different) never counts as verified.
 */
function copiesOf(copies: unknown): Clip['copies'] {
  if (!Array.isArray(copies)) return []
  const byVolume = new Map<string, Clip['copies'][number]>()
  for (const copy of copies as Copy[]) {
    if (typeof copy?.volume !== 'string' || byVolume.has(copy.volume)) continue
    const hash = typeof copy.hash === 'string' && copy.hash.trim() ? copy.hash : undefined
    byVolume.set(copy.volume, { volume: copy.volume, hash, failed: copy.action === 'failed' })
  }
  return [...byVolume.values()]
}

/** Zero-byte clips, and a day's size that is not the sum of its clips'. */
function checkSizes(label: string, total: number | undefined, clips: readonly Clip[], found: Finding[]) {
  let sum = 0
  for (const { name, size } of clips) {
    if (typeof size !== 'number') continue
    sum += size
    if (size === 0) found.push(finding('zero-size', `${name} is 0 bytes`, { clip: name }))
  }
  if (clips.length && typeof total === 'number' && total !== sum)
    found.push(
      finding('size-mismatch', `${label}: the day's size (${total} bytes) is not the sum of its clips' (${sum} bytes)`),
    )
}

/** Clip names given twice, and numbers missing in a camera reel's run of clips. */
function checkNumbering(clips: readonly Clip[], found: Finding[]) {
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
    if (times > 1) found.push(finding('duplicate-clip', `${name} is listed ${times} times`, { clip: name }))
  for (const { name: reel, numbers, digits } of reels.values()) {
    const c = (n: number) => `C${String(n).padStart(digits, '0')}`
    for (const gap of gapsIn(numbers)) {
      const [before, after] = gap
      found.push(
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

function checkProxies(ocf: readonly Clip[], proxies: readonly Clip[], found: Finding[]) {
  const proxyKeys = new Set(proxies.map((p) => nameKey(p.name)))
  const ocfKeys = new Set<string>()
  for (const { name } of ocf) {
    const key = nameKey(name)
    ocfKeys.add(key)
    if (!proxyKeys.has(key)) found.push(finding('no-proxy', `${name} has no proxy`, { clip: name }))
  }
  for (const { name } of proxies)
    if (!ocfKeys.has(nameKey(name)))
      found.push(finding('proxy-without-clip', `The proxy ${name} matches no OCF clip`, { clip: name }))
}

/**
 * OCF clips and sound clips matched by timecode: a camera clip with no sound running during it
 * (MOS, or sound not yet logged), and sound that runs during no camera clip (wild tracks, or
 * camera clips not yet logged). Information, not faults: both happen on every set.
 */
function checkSound(ocf: readonly Clip[], sound: readonly Clip[], found: Finding[]) {
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
      found.push(finding('no-sound', `${name} has no sound running during it`, { clip: name }))
  })
  const cameraRuns = new SoundMatch(cameraSpans)
  sound.forEach(({ name }, i) => {
    const span = soundSpans[i]
    if (span && !cameraRuns.overlaps(span))
      found.push(finding('sound-without-clip', `The sound clip ${name} runs during no OCF clip`, { clip: name }))
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

/**
 * What a log amounts to: its files and sizes, its duration at the rate most clips run at, its reels,
 * and how many of its clips each volume holds (and how many of those copies carry a hash). Computed
 * once, when a log is written, and stored beside it: a report or an e-mail over every day of a
 * project reads these, never the days' clips (SPEC §4).
 */
import type { LogOutput } from '../schemas/log'
import { framesPerSecond, framesToTimecode, timecodeToFrames } from '../schemas/timecode'

const DEFAULT_FPS = 24

type TimedClip = { fps?: unknown; duration?: unknown; tc_start?: unknown; tc_end?: unknown }

const DAY_SECONDS = 24 * 3600

/** A clip's length in frames at its own rate: its `duration`, else TC out − TC in (across midnight too). */
function clipFrames(clip: TimedClip, fps: number): number | undefined {
  if (typeof clip.duration === 'string') {
    const frames = timecodeToFrames(clip.duration, fps)
    if (frames !== undefined) return frames
  }
  if (typeof clip.tc_start !== 'string' || typeof clip.tc_end !== 'string') return undefined
  const start = timecodeToFrames(clip.tc_start, fps)
  const end = timecodeToFrames(clip.tc_end, fps)
  if (start === undefined || end === undefined) return undefined
  return end >= start ? end - start : end + DAY_SECONDS * framesPerSecond(fps) - start
}

const clipFps = (clip: TimedClip, fallback: number) =>
  typeof clip.fps === 'number' && clip.fps > 0 ? clip.fps : fallback

export function clipDuration(clip: TimedClip, fallbackFps: number): string {
  if (typeof clip.duration === 'string') return clip.duration
  const fps = clipFps(clip, fallbackFps)
  const frames = clipFrames(clip, fps)
  return frames === undefined ? '' : framesToTimecode(frames, fps)
}

/** The rate most clips run at: durations summed over a day print at it. */
function commonFps(clips: readonly TimedClip[]): number {
  const counts = new Map<number, number>()
  let best = DEFAULT_FPS
  let bestCount = 0
  for (const clip of clips) {
    if (typeof clip.fps !== 'number' || !(clip.fps > 0)) continue
    const n = (counts.get(clip.fps) ?? 0) + 1
    counts.set(clip.fps, n)
    if (n > bestCount) {
      best = clip.fps
      bestCount = n
    }
  }
  return best
}

export type Duration = { seconds: number; fps: number; text: string }

function durationText(seconds: number, fps: number) {
  return framesToTimecode(Math.round(seconds * framesPerSecond(fps)), fps)
}

/**
 * Clips a volume holds out of `total`, and how many of those copies carry a hash; `failed` (left
 * out when none) the copies hashed again and found different (ASC MHL), which `hashed` leaves out;
 * `verified` (left out when none), of the hashed ones, those read back and found equal (an ASC MHL
 * `verified` action). A hash alone was recorded when the file was copied: it says nothing of the
 * copy as it is now.
 * `days`, in a range's totals only, when the volume was used on fewer days than the range has:
 * it then owes the clips of those days alone (a shuttle rotates; completeness is per day).
 */
export type VolumeCount = {
  volume: string
  copied: number
  total: number
  hashed: number
  failed?: number
  verified?: number
  days?: number
}

/**
 * A volume's copies in the three states of their checksums (read back and `verified`, `recorded`
 * at copy time only, `noChecksum`), beside those that `failed` verification and the clips `missing`:
 * the one reading of a VolumeCount the checks, the console and the reports share.
 */
export function copyStates({ copied, total, hashed, failed = 0, verified = 0 }: VolumeCount) {
  return {
    verified,
    recorded: hashed - verified,
    noChecksum: Math.max(0, copied - hashed - failed),
    failed,
    missing: Math.max(0, total - copied),
  }
}

export type Media = { files: number; size: number }

/** A log's summary as stored beside it. `unit` is the log's own; the project's stands in when read. */
export type LogSummary = {
  id: string
  day: number
  date: string
  unit?: string
  /** OCF clips the log lists. */
  clips: number
  /** Sound clips the log lists (left out when none). */
  soundClips?: number
  fps: number
  duration?: Duration
  ocf?: Media
  proxy?: Media
  sound?: Media
  reels: string[]
  copies: VolumeCount[]
  soundCopies: VolumeCount[]
}

type Tally = { copied: number; hashed: number; failed: number; verified: number }

const volumeCount = (volume: string, { copied, hashed, failed, verified }: Tally, total: number): VolumeCount => ({
  volume,
  copied,
  total,
  hashed,
  ...(failed && { failed }),
  ...(verified && { verified }),
})

/** What the clips of one part (ocf, sound, proxy) add up to, taken one clip at a time. */
class ClipTotals {
  count = 0
  size = 0
  /** Clips held by each volume, in the order clips first name them; a clip counts once per volume. */
  readonly volumes = new Map<string, Tally>()
  readonly reels = new Set<string>()
  readonly #rates = new Map<number, number>()
  /** The rate most clips run at; the first to lead keeps a tie. */
  fps = DEFAULT_FPS
  #fpsCount = 0
  /** Seconds of the clips with their own rate; the others wait for the common rate. */
  seconds = 0
  readonly #unrated: TimedClip[] = []

  add(clip: Record<string, unknown>) {
    this.count++
    if (typeof clip.size === 'number') this.size += clip.size
    if (typeof clip.reel === 'string' && clip.reel) this.reels.add(clip.reel)
    const copies = clip.copies
    if (Array.isArray(copies)) {
      // Most clips have two or three copies, looked through faster than hashed; a clip with many
      // (10,000 volumes once took seconds to sum up) is counted through a set.
      const seen = copies.length > 8 ? new Set<string>() : undefined
      for (let i = 0; i < copies.length; i++) {
        const { volume, hash, action } = (copies[i] ?? {}) as { volume?: unknown; hash?: unknown; action?: unknown }
        if (typeof volume !== 'string') continue
        if (seen) {
          if (seen.has(volume)) continue
          seen.add(volume)
        } else {
          let before = false
          for (let j = 0; j < i && !before; j++) before = (copies[j] as { volume?: unknown })?.volume === volume
          if (before) continue
        }
        const count = this.volumes.get(volume) ?? { copied: 0, hashed: 0, failed: 0, verified: 0 }
        count.copied++
        if (action === 'failed') count.failed++
        else if (typeof hash === 'string' && hash) {
          count.hashed++
          if (action === 'verified') count.verified++
        }
        this.volumes.set(volume, count)
      }
    }
    const rate = clip.fps
    if (typeof rate === 'number' && rate > 0) {
      const n = (this.#rates.get(rate) ?? 0) + 1
      this.#rates.set(rate, n)
      if (n > this.#fpsCount) {
        this.fps = rate
        this.#fpsCount = n
      }
      const frames = clipFrames(clip, rate)
      if (frames !== undefined) this.seconds += frames / framesPerSecond(rate)
    } else if (clip.duration !== undefined || clip.tc_start !== undefined) {
      const { duration, tc_start, tc_end } = clip
      this.#unrated.push({ duration, tc_start, tc_end })
    }
  }

  /** Seconds of every clip, those without a rate of their own at the common one. */
  totalSeconds(): number {
    let seconds = this.seconds
    for (const clip of this.#unrated) {
      const frames = clipFrames(clip, this.fps)
      if (frames !== undefined) seconds += frames / framesPerSecond(this.fps)
    }
    return seconds
  }

  /** Volumes the log lists first, then the others as clips name them; each out of every clip. */
  volumeCounts(listed: readonly string[] = []): VolumeCount[] {
    const counts = new Map<string, Tally>()
    for (const volume of listed)
      counts.set(volume, this.volumes.get(volume) ?? { copied: 0, hashed: 0, failed: 0, verified: 0 })
    for (const [volume, count] of this.volumes) if (!counts.has(volume)) counts.set(volume, count)
    return [...counts].map(([volume, tally]) => volumeCount(volume, tally, this.count))
  }
}

/** A log's `ocf`, `proxy` or `sound` object, as far as its counts go. */
type MediaSection = { files?: number; size?: number; clips?: unknown[] }

function media(part: MediaSection | undefined, totals: ClipTotals): Media | undefined {
  if (!part) return undefined
  return { files: part.files ?? (part.clips ? totals.count : 0), size: part.size ?? totals.size }
}

/**
 * A summary made one clip at a time, for a log too large to hold whole (src/large-logs): the clips
 * go in with addClip, then `of` takes the rest of the log, its clip lists left out or empty.
 */
export class Summing {
  readonly #parts = { ocf: new ClipTotals(), sound: new ClipTotals(), proxy: new ClipTotals() }

  addClip(part: 'ocf' | 'sound' | 'proxy', clip: Record<string, unknown>) {
    this.#parts[part].add(clip)
  }

  of(log: LogOutput): LogSummary {
    const { ocf, sound, proxy } = this.#parts
    const fps = ocf.fps
    let duration: Duration | undefined
    if (log.ocf?.duration) {
      const frames = timecodeToFrames(log.ocf.duration, fps)
      if (frames !== undefined) duration = { seconds: frames / framesPerSecond(fps), fps, text: log.ocf.duration }
    }
    if (!duration && ocf.count) {
      const seconds = ocf.totalSeconds()
      duration = { seconds, fps, text: durationText(seconds, fps) }
    }
    const summary: LogSummary = {
      id: log.id,
      day: log.day,
      date: log.date,
      clips: ocf.count,
      fps,
      reels: [...new Set([...(log.ocf?.reels ?? []), ...ocf.reels])],
      copies: [],
      soundCopies: [],
    }
    if (typeof log.unit === 'string' && log.unit) summary.unit = log.unit
    if (duration) summary.duration = duration
    const ocfMedia = media(log.ocf, ocf)
    const proxyMedia = media(log.proxy, proxy)
    const soundMedia = media(log.sound, sound)
    if (ocfMedia) summary.ocf = ocfMedia
    if (proxyMedia) summary.proxy = proxyMedia
    if (soundMedia) summary.sound = soundMedia
    summary.copies = ocf.volumeCounts(log.ocf?.copies)
    summary.soundCopies = sound.volumeCounts(log.sound?.copies)
    if (sound.count) summary.soundClips = sound.count
    return summary
  }
}

export function summarize(log: LogOutput): LogSummary {
  const summing = new Summing()
  for (const part of ['ocf', 'sound', 'proxy'] as const)
    for (const clip of log[part]?.clips ?? []) summing.addClip(part, clip)
  return summing.of(log)
}

/** The unit a log is reported under: its own, else the project's. */
export const unitOf = (summary: LogSummary, projectUnit: string | undefined) => summary.unit || projectUnit || ''

/** Totals over several days: sizes and files add up, durations add in seconds, volumes merge. */
export function total(summaries: readonly LogSummary[]) {
  const add = (pick: (s: LogSummary) => Media | undefined): Media | undefined => {
    const parts = summaries.map(pick).filter((m): m is Media => !!m)
    return parts.length
      ? { files: parts.reduce((n, m) => n + m.files, 0), size: parts.reduce((n, m) => n + m.size, 0) }
      : undefined
  }
  const timed = summaries.filter((s) => s.duration)
  const fps = commonFps(timed.map((s) => ({ fps: s.fps })))
  const seconds = timed.reduce((n, s) => n + s.duration!.seconds, 0)
  return {
    clips: summaries.reduce((n, s) => n + s.clips, 0),
    duration: timed.length ? { seconds, fps, text: durationText(seconds, fps) } : undefined,
    ocf: add((s) => s.ocf),
    proxy: add((s) => s.proxy),
    sound: add((s) => s.sound),
    reels: summaries.flatMap((s) => s.reels),
    copies: rangeCopies(summaries.map((s) => ({ counts: s.copies, clips: s.clips }))),
    soundCopies: rangeCopies(summaries.map((s) => ({ counts: s.soundCopies, clips: s.soundClips ?? 0 }))),
  }
}

/**
 * A range's copies per volume, from each day's. A volume owes the clips of the days it was used on,
 * not of the whole range: shuttles rotate, and a shuttle that carried days 1 and 3 in full is
 * complete. Which volumes a day used is what its log says (its copies list, or the volumes its
 * clips are on); a volume the log names that holds none of the day's clips owes them all. A day
 * with clips on no volume at all is owed by every volume: nothing of it is backed up.
 */
function rangeCopies(days: ReadonlyArray<{ counts: readonly VolumeCount[]; clips: number }>): VolumeCount[] {
  const volumes = new Map<string, Tally & { total: number; days: number }>()
  let uncopied = 0
  // The days a volume could have been used on: a day of no clips is none.
  let copyDays = 0
  for (const { counts, clips } of days) {
    if (counts.length) copyDays++
    else if (clips > 0) {
      copyDays++
      uncopied += clips
    }
    for (const c of counts) {
      const sum = volumes.get(c.volume) ?? { copied: 0, hashed: 0, failed: 0, verified: 0, total: 0, days: 0 }
      sum.copied += c.copied
      sum.hashed += c.hashed
      sum.failed += c.failed ?? 0
      sum.verified += c.verified ?? 0
      sum.total += c.total
      sum.days++
      volumes.set(c.volume, sum)
    }
  }
  return [...volumes].map(([volume, sum]) => ({
    ...volumeCount(volume, sum, sum.total + uncopied),
    ...(sum.days < copyDays && { days: sum.days }),
  }))
}

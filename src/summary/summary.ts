/**
 * What a log amounts to: its files and sizes (and how many clips' sizes no report stated), its
 * duration at the rate most clips run at, its reels, and each volume's copies counted by state (the
 * one account, src/copies/). Computed once, when a log is written, and stored beside it: a report
 * or an e-mail over every day of a project reads these, never the days' clips (SPEC §4).
 */
import { VolumeTally, addCounts, copiesOf, type VolumeCount } from '../copies/account'
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

export type { VolumeCount }

/** `unknownSizes`: clips whose size no report stated (docs/log.md), which `size` leaves out; left out when none. */
export type Media = { files: number; size: number; unknownSizes?: number }

/** A log's summary as stored beside it. `unit` is the log's own; the project's stands in when read. */
export type LogSummary = {
  id: string
  day: number
  date: string
  unit?: string
  /**
   * The unit whose cart wrote the day (docs/units.md), kept beside the log, never in it: added as
   * the summary is read, not stored with it.
   */
  owner?: string
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

/** What the clips of one part (ocf, sound, proxy) add up to, taken one clip at a time. */
class ClipTotals {
  count = 0
  size = 0
  unknownSizes = 0
  /** Each volume's copies by state (src/copies/account.ts). */
  readonly volumes = new VolumeTally()
  readonly reels = new Set<string>()
  readonly #rates = new Map<number, number>()
  /** The rate most clips run at; the first to lead keeps a tie. */
  fps = DEFAULT_FPS
  #fpsCount = 0
  /** Seconds of the clips with their own rate; the others wait for the common rate. */
  seconds = 0
  /** Whether any clip with its own rate said how long it is. */
  timed = false
  readonly #unrated: TimedClip[] = []

  add(clip: Record<string, unknown>, copies = true) {
    this.count++
    if (typeof clip.size === 'number') this.size += clip.size
    if (clip.size_unknown === true) this.unknownSizes++
    if (typeof clip.reel === 'string' && clip.reel) this.reels.add(clip.reel)
    if (copies) this.volumes.add(copiesOf(clip.copies))
    const rate = clip.fps
    if (typeof rate === 'number' && rate > 0) {
      const n = (this.#rates.get(rate) ?? 0) + 1
      this.#rates.set(rate, n)
      if (n > this.#fpsCount) {
        this.fps = rate
        this.#fpsCount = n
      }
      const frames = clipFrames(clip, rate)
      if (frames !== undefined) {
        this.seconds += frames / framesPerSecond(rate)
        this.timed = true
      }
    } else if (clip.duration !== undefined || clip.tc_start !== undefined) {
      const { duration, tc_start, tc_end } = clip
      this.#unrated.push({ duration, tc_start, tc_end })
    }
  }

  /**
   * Seconds of every clip, those without a rate of their own at the common one; undefined when no
   * clip says how long it is (no duration, no TC in and out): an unknown duration is no zero.
   */
  totalSeconds(): number | undefined {
    let seconds = this.seconds
    let timed = this.timed
    for (const clip of this.#unrated) {
      const frames = clipFrames(clip, this.fps)
      if (frames === undefined) continue
      seconds += frames / framesPerSecond(this.fps)
      timed = true
    }
    return timed ? seconds : undefined
  }

  /** Volumes the log lists first, then the others as clips name them. */
  volumeCounts(listed: readonly string[] = []): VolumeCount[] {
    return this.volumes.counts(listed)
  }
}

/** A log's `ocf`, `proxy` or `sound` object, as far as its counts go. */
type MediaSection = { files?: number; size?: number; clips?: unknown[] }

function media(part: MediaSection | undefined, totals: ClipTotals): Media | undefined {
  if (!part) return undefined
  const counted = { files: part.files ?? (part.clips ? totals.count : 0), size: part.size ?? totals.size }
  return totals.unknownSizes ? { ...counted, unknownSizes: totals.unknownSizes } : counted
}

/**
 * Files of a day that are not media (sidecars) whose read-back failed, per volume (`other_files`,
 * docs/log.md), as the checks find them (a volume and a path each): no clip holds them, so they are
 * counted beside the volume's clips, the camera files' line where the volume has one, else the
 * sound's, else a line of its own among the camera files'.
 */
function withOtherFiles(
  parts: { copies: VolumeCount[]; soundCopies: VolumeCount[] },
  others: unknown,
): { copies: VolumeCount[]; soundCopies: VolumeCount[] } {
  if (!Array.isArray(others)) return parts
  const failed = new Map<string, number>()
  for (const file of others as Array<{ volume?: unknown; path?: unknown; action?: unknown } | null>)
    if (typeof file?.volume === 'string' && typeof file.path === 'string' && file.action === 'failed')
      failed.set(file.volume, (failed.get(file.volume) ?? 0) + 1)
  if (!failed.size) return parts
  const onto = (counts: VolumeCount[]) =>
    counts.map((c) => {
      const n = failed.get(c.volume)
      if (!n) return c
      failed.delete(c.volume)
      return { ...c, otherFailed: n }
    })
  const copies = onto(parts.copies)
  const soundCopies = onto(parts.soundCopies)
  for (const [volume, n] of failed) copies.push({ volume, clips: 0, states: {}, otherFailed: n })
  return { copies, soundCopies }
}

/**
 * A summary made one clip at a time, for a log too large to hold whole (src/large-logs): the clips
 * go in with addClip, then `of` takes the rest of the log, its clip lists left out or empty.
 */
export class Summing {
  readonly #parts = { ocf: new ClipTotals(), sound: new ClipTotals(), proxy: new ClipTotals() }

  addClip(part: 'ocf' | 'sound' | 'proxy', clip: Record<string, unknown>) {
    // Proxies are made on set, not copied: their copies are no copies of the day's.
    this.#parts[part].add(clip, part !== 'proxy')
  }

  of(log: LogOutput): LogSummary {
    const { ocf, sound, proxy } = this.#parts
    const fps = ocf.fps
    let duration: Duration | undefined
    if (log.ocf?.duration) {
      const frames = timecodeToFrames(log.ocf.duration, fps)
      if (frames !== undefined) duration = { seconds: frames / framesPerSecond(fps), fps, text: log.ocf.duration }
    }
    const seconds = duration || !ocf.count ? undefined : ocf.totalSeconds()
    if (seconds !== undefined) duration = { seconds, fps, text: durationText(seconds, fps) }
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
    const counted = withOtherFiles(
      { copies: ocf.volumeCounts(log.ocf?.copies), soundCopies: sound.volumeCounts(log.sound?.copies) },
      (log as { other_files?: unknown }).other_files,
    )
    summary.copies = counted.copies
    summary.soundCopies = counted.soundCopies
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
/**
 * The unit a day is shown under: the `unit` its log names, else the unit whose cart wrote it, else
 * the project's. The project's `unit` never relabels a day another unit's cart wrote.
 */
export const unitOf = (summary: LogSummary, projectUnit: string | undefined) =>
  summary.unit || summary.owner || projectUnit || ''

/** Totals over several days: sizes and files add up, durations add in seconds, volumes merge. */
export function total(summaries: readonly LogSummary[]) {
  const add = (pick: (s: LogSummary) => Media | undefined): Media | undefined => {
    const parts = summaries.map(pick).filter((m): m is Media => !!m)
    if (!parts.length) return undefined
    const sum: Media = { files: parts.reduce((n, m) => n + m.files, 0), size: parts.reduce((n, m) => n + m.size, 0) }
    const unknown = parts.reduce((n, m) => n + (m.unknownSizes ?? 0), 0)
    return unknown ? { ...sum, unknownSizes: unknown } : sum
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
  const volumes = new Map<string, VolumeCount & { days: number }>()
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
      const sum = volumes.get(c.volume) ?? { volume: c.volume, clips: 0, states: {}, days: 0 }
      sum.clips += c.clips
      addCounts(sum.states, c.states)
      if (c.otherFailed) sum.otherFailed = (sum.otherFailed ?? 0) + c.otherFailed
      sum.days++
      volumes.set(c.volume, sum)
    }
  }
  return [...volumes.values()].map(({ days, ...sum }) => {
    if (uncopied) sum.states.missing = (sum.states.missing ?? 0) + uncopied
    return { ...sum, clips: sum.clips + uncopied, ...(days < copyDays && { days }) }
  })
}

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

/** Clips a volume holds out of `total`, and how many of those copies carry a hash. */
export type VolumeCount = { volume: string; copied: number; total: number; hashed: number }

/**
 * Clips held by each volume, and of those how many copies carry a hash. Volumes the log lists come
 * first, then the others as clips name them; a clip counts once per volume however many copies it
 * has there.
 */
function volumeCounts(clips: ReadonlyArray<{ copies?: unknown }>, listed: readonly string[] = []): VolumeCount[] {
  const counts = new Map<string, { copied: number; hashed: number }>()
  for (const volume of listed) counts.set(volume, { copied: 0, hashed: 0 })
  for (const clip of clips) {
    const copies = clip.copies
    if (!Array.isArray(copies)) continue
    for (let i = 0; i < copies.length; i++) {
      const { volume, hash } = (copies[i] ?? {}) as { volume?: unknown; hash?: unknown }
      if (typeof volume !== 'string') continue
      let seen = false
      for (let j = 0; j < i; j++) if ((copies[j] as { volume?: unknown })?.volume === volume) seen = true
      if (seen) continue
      const count = counts.get(volume) ?? { copied: 0, hashed: 0 }
      count.copied++
      if (typeof hash === 'string' && hash) count.hashed++
      counts.set(volume, count)
    }
  }
  return [...counts].map(([volume, { copied, hashed }]) => ({ volume, copied, total: clips.length, hashed }))
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
  fps: number
  duration?: Duration
  ocf?: Media
  proxy?: Media
  sound?: Media
  reels: string[]
  copies: VolumeCount[]
  soundCopies: VolumeCount[]
}

type Sized = { size?: unknown }

function sizeOf(clips: readonly Sized[] | undefined) {
  let total = 0
  for (const clip of clips ?? []) if (typeof clip.size === 'number') total += clip.size
  return total
}

function media(part: { files?: number; size?: number; clips?: readonly Sized[] } | undefined): Media | undefined {
  if (!part) return undefined
  return { files: part.files ?? part.clips?.length ?? 0, size: part.size ?? sizeOf(part.clips) }
}

export function summarize(log: LogOutput): LogSummary {
  const clips = log.ocf?.clips ?? []
  const fps = commonFps(clips)
  let duration: Duration | undefined
  if (log.ocf?.duration) {
    const frames = timecodeToFrames(log.ocf.duration, fps)
    if (frames !== undefined) duration = { seconds: frames / framesPerSecond(fps), fps, text: log.ocf.duration }
  }
  if (!duration && clips.length) {
    let seconds = 0
    for (const clip of clips) {
      const rate = clipFps(clip, fps)
      const frames = clipFrames(clip, rate)
      if (frames !== undefined) seconds += frames / framesPerSecond(rate)
    }
    duration = { seconds, fps, text: durationText(seconds, fps) }
  }
  const reels = new Set(log.ocf?.reels ?? [])
  for (const clip of clips) if (typeof clip.reel === 'string' && clip.reel) reels.add(clip.reel)
  const summary: LogSummary = {
    id: log.id,
    day: log.day,
    date: log.date,
    clips: clips.length,
    fps,
    reels: [...reels],
    copies: [],
    soundCopies: [],
  }
  if (typeof log.unit === 'string' && log.unit) summary.unit = log.unit
  if (duration) summary.duration = duration
  const ocf = media(log.ocf)
  const proxy = media(log.proxy)
  const sound = media(log.sound)
  if (ocf) summary.ocf = ocf
  if (proxy) summary.proxy = proxy
  if (sound) summary.sound = sound
  summary.copies = volumeCounts(clips, log.ocf?.copies)
  summary.soundCopies = volumeCounts(log.sound?.clips ?? [], log.sound?.copies)
  return summary
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
  // Across days a volume owes every clip of the range: 120/240 means it holds one day of two.
  const copied = new Map<string, { copied: number; hashed: number }>()
  let clips = 0
  for (const s of summaries) {
    clips += s.clips
    for (const c of s.copies) {
      const sum = copied.get(c.volume) ?? { copied: 0, hashed: 0 }
      sum.copied += c.copied
      sum.hashed += c.hashed
      copied.set(c.volume, sum)
    }
  }
  return {
    clips,
    duration: timed.length ? { seconds, fps, text: durationText(seconds, fps) } : undefined,
    ocf: add((s) => s.ocf),
    proxy: add((s) => s.proxy),
    sound: add((s) => s.sound),
    reels: summaries.flatMap((s) => s.reels),
    copies: [...copied].map(([volume, n]): VolumeCount => ({
      volume,
      copied: n.copied,
      total: clips,
      hashed: n.hashed,
    })),
  }
}

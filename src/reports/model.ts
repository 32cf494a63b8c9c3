/** What a report says about a log: totals, durations, reels, copies per volume, and how values print. */
import type { LogOutput } from '../schemas/log'
import { framesPerSecond, framesToTimecode, timecodeToFrames } from '../schemas/timecode'

const DEFAULT_FPS = 24
const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB']

/** Decimal units, as media tools and drive labels count: 1.23 TB = 1.23 × 10¹² bytes. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return ''
  if (bytes < 1000) return `${Math.round(bytes)} B`
  let unit = 0
  let value = bytes
  while (value >= 999.995 && unit < UNITS.length - 1) {
    value /= 1000
    unit++
  }
  return `${value.toFixed(2)} ${UNITS[unit]}`
}

export const formatFps = (fps: number) => String(Math.round(fps * 1000) / 1000)

export const formatCount = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')

/** Any JSON value as one line of text: lists joined, maps as `key: value`. */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value))
    return value
      .map((v) => (Array.isArray(v) ? v.map(textOf).join(', ') : textOf(v)))
      .filter(Boolean)
      .join(Array.isArray(value[0]) ? '; ' : ', ')
  if (typeof value === 'object')
    return Object.entries(value)
      .map(([k, v]) => `${k}: ${textOf(v)}`)
      .join(', ')
  return ''
}

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

export type VolumeCount = { volume: string; copied: number; total: number }

/**
 * Clips held by each volume. Volumes the log lists come first, then the others as clips name them;
 * a clip counts once per volume however many copies it has there.
 */
function volumeCounts(clips: ReadonlyArray<{ copies?: unknown }>, listed: readonly string[] = []): VolumeCount[] {
  const counts = new Map<string, number>()
  for (const volume of listed) counts.set(volume, 0)
  for (const clip of clips) {
    const copies = clip.copies
    if (!Array.isArray(copies)) continue
    for (let i = 0; i < copies.length; i++) {
      const volume = (copies[i] as { volume?: unknown })?.volume
      if (typeof volume !== 'string') continue
      let seen = false
      for (let j = 0; j < i; j++) if ((copies[j] as { volume?: unknown })?.volume === volume) seen = true
      if (!seen) counts.set(volume, (counts.get(volume) ?? 0) + 1)
    }
  }
  return [...counts].map(([volume, copied]) => ({ volume, copied, total: clips.length }))
}

const REEL = /^(.*?)(\d+)(\D*)$/

/** `A001, A002, A003, B001` → `A001–A003, B001`: consecutive numbers with the same prefix merge. */
export function mergeReels(reels: Iterable<string>): string {
  type Numbered = { prefix: string; suffix: string; digits: number; n: number; name: string }
  const numbered: Numbered[] = []
  const others: string[] = []
  for (const name of new Set(reels)) {
    if (!name) continue
    const m = REEL.exec(name)
    if (m) numbered.push({ prefix: m[1]!, suffix: m[3]!, digits: m[2]!.length, n: Number(m[2]), name })
    else others.push(name)
  }
  const collator = new Intl.Collator('en', { numeric: true })
  numbered.sort(
    (a, b) =>
      collator.compare(a.prefix, b.prefix) || collator.compare(a.suffix, b.suffix) || a.digits - b.digits || a.n - b.n,
  )
  const parts: string[] = []
  let i = 0
  while (i < numbered.length) {
    const first = numbered[i]!
    let j = i
    while (j + 1 < numbered.length) {
      const next = numbered[j + 1]!
      if (
        next.prefix !== first.prefix ||
        next.suffix !== first.suffix ||
        next.digits !== first.digits ||
        next.n !== numbered[j]!.n + 1
      )
        break
      j++
    }
    parts.push(j > i ? `${first.name}–${numbered[j]!.name}` : first.name)
    i = j + 1
  }
  return [...parts, ...others.sort(collator.compare)].join(', ')
}

export type Media = { files: number; size: number }

export type LogSummary = {
  log: LogOutput
  unit: string
  fps: number
  duration: Duration | undefined
  ocf: Media | undefined
  proxy: Media | undefined
  sound: Media | undefined
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

export function summarize(log: LogOutput, projectUnit: string | undefined): LogSummary {
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
  return {
    log,
    unit: log.unit || projectUnit || '',
    fps,
    duration,
    ocf: media(log.ocf),
    proxy: media(log.proxy),
    sound: media(log.sound),
    reels: [...reels],
    copies: volumeCounts(clips, log.ocf?.copies),
    soundCopies: volumeCounts(log.sound?.clips ?? [], log.sound?.copies),
  }
}

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
  const copied = new Map<string, number>()
  let clips = 0
  for (const s of summaries) {
    clips += s.log.ocf?.clips?.length ?? 0
    for (const c of s.copies) copied.set(c.volume, (copied.get(c.volume) ?? 0) + c.copied)
  }
  return {
    duration: timed.length ? { seconds, fps, text: durationText(seconds, fps) } : undefined,
    ocf: add((s) => s.ocf),
    proxy: add((s) => s.proxy),
    sound: add((s) => s.sound),
    reels: summaries.flatMap((s) => s.reels),
    copies: [...copied].map(([volume, n]): VolumeCount => ({ volume, copied: n, total: clips })),
  }
}

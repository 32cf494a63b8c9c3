/**
 * Timecode spans on the clock of a day, and whether one overlaps any of a set. A span runs from
 * its TC in up to, not including, its TC out (or TC in + duration): clips that meet at a frame
 * boundary do not overlap. A span whose TC out is below its TC in ran past midnight.
 *
 * Times are seconds, `HH:MM:SS` + frames ÷ the rate's frames per second: the same instant written
 * at two rates (12 frames at 24, 15 at 30) is the same number, since each step is rounded once.
 */
import { framesOf, framesPerSecond } from '../schemas/timecode'

export type Span = { start: number; end: number }

const DAY = 24 * 3600
const TIMECODE = /^(\d{2}):(\d{2}):(\d{2})[:;](\d{2})$/

function secondsOf(tc: unknown, fps: number): number | undefined {
  if (typeof tc !== 'string') return undefined
  const m = TIMECODE.exec(tc)
  if (!m || framesOf(tc) === undefined) return undefined
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / framesPerSecond(fps)
}

export class SoundMatch {
  /** Starts in order, and the latest end among the spans up to each (ends may pass midnight). */
  readonly #starts: number[] = []
  readonly #reach: number[] = []

  /** Spans left out (`undefined`) are clips without a timecode. */
  constructor(spans: ReadonlyArray<Span | undefined>) {
    const sorted = spans.filter((s): s is Span => s !== undefined).sort((a, b) => a.start - b.start)
    // Each span also a day earlier and later: one that ran past midnight meets the next day's. Every
    // start lies within one day, so the three runs follow one another in order.
    let reach = -Infinity
    for (const shift of [-DAY, 0, DAY])
      for (const { start, end } of sorted) {
        reach = Math.max(reach, end + shift)
        this.#starts.push(start + shift)
        this.#reach.push(reach)
      }
  }

  /** A clip's span: TC in to TC out, or TC in + duration; none without a TC in. */
  static spanOf(clip: { tc_start?: unknown; tc_end?: unknown; duration?: unknown }, fps: number): Span | undefined {
    const start = secondsOf(clip.tc_start, fps)
    if (start === undefined) return undefined
    let end = secondsOf(clip.tc_end, fps)
    if (end === undefined) {
      const length = secondsOf(clip.duration, fps)
      if (length === undefined) return undefined
      end = start + length
    }
    return { start, end: end < start ? end + DAY : end }
  }

  /** Whether some span runs during `span` (for at least a frame). */
  overlaps({ start, end }: Span): boolean {
    // The last span starting before `end`; any up to it that reaches past `start` overlaps.
    let lo = 0
    let hi = this.#starts.length - 1
    let last = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (this.#starts[mid]! < end) {
        last = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    return last >= 0 && this.#reach[last]! > start
  }
}

import * as v from 'valibot'

// ';' before the frames is the drop-frame form of the same timecode (29.97/59.94 DF).
const TIMECODE = /^(\d{2}):([0-5]\d):([0-5]\d)[:;](\d{2})$/

export const TimecodeSchema = v.pipe(
  v.string('must be a timecode string'),
  v.regex(TIMECODE, 'must be a timecode HH:MM:SS:FF with minutes and seconds below 60'),
)

/** Frames of a valid timecode, or undefined when the text is not one. */
export function framesOf(tc: unknown): number | undefined {
  if (typeof tc !== 'string') return undefined
  const m = TIMECODE.exec(tc)
  return m ? Number(m[4]) : undefined
}

/** Frames counted per second at a rate: 23.976 counts 24, 29.97 counts 30. */
export const framesPerSecond = (fps: number) => Math.ceil(fps - 1e-9)

export function timecodeToFrames(tc: string, fps: number): number | undefined {
  const m = TIMECODE.exec(tc)
  if (!m) return undefined
  const base = framesPerSecond(fps)
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * base + Number(m[4])
}

export function framesToTimecode(frames: number, fps: number): string {
  const base = framesPerSecond(fps)
  const f = frames % base
  const s = Math.floor(frames / base)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}:${pad(f)}`
}

/**
 * Clip names as cameras write them, and names as two lists of one day compare.
 *
 * Camera naming: a camera letter and a three-digit reel, then `C` and the clip number, as ARRI,
 * Sony, Canon and RED write them (`A001C007_240101_R1AB`, `A001_C007_0101XY`), or with the date and
 * time between (`A001_01011230_C007`, Blackmagic). Other names are not numbered clips: no gap is
 * looked for among them.
 */

export type CameraClip = { camera: string; reel: number; clip: number; digits: number }

const CAMERA_CLIP = /^([A-Z])(\d{3})_?(?:\d{8}_)?C(\d{3,4})(?![0-9])/i

export function cameraClipOf(name: string): CameraClip | undefined {
  const m = CAMERA_CLIP.exec(name)
  if (!m) return undefined
  return { camera: m[1]!.toUpperCase(), reel: Number(m[2]), clip: Number(m[3]), digits: m[3]!.length }
}

/** A reel as the log names it (`A001`): its camera letter and number. */
export function cameraReelOf(name: string): { camera: string; reel: number } | undefined {
  const m = /^([A-Z])(\d{3})$/i.exec(name.trim())
  return m ? { camera: m[1]!.toUpperCase(), reel: Number(m[2]) } : undefined
}

export const reelName = (camera: string, reel: number) => `${camera}${String(reel).padStart(3, '0')}`

/** The gaps in a set of numbers (clips of a reel, reels of a camera): the numbers either side of each. */
export function gapsIn(numbers: Iterable<number>): Array<[before: number, after: number]> {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b)
  const gaps: Array<[number, number]> = []
  for (let i = 1; i < sorted.length; i++) if (sorted[i]! - sorted[i - 1]! > 1) gaps.push([sorted[i - 1]!, sorted[i]!])
  return gaps
}

/** What a gap misses, named: `C004 is` or `C004–C006 are` (`verbs`: for one, for several). */
export const missingIn = ([before, after]: [number, number], name: (n: number) => string, verbs: [string, string]) =>
  after - before === 2 ? `${name(before + 1)} ${verbs[0]}` : `${name(before + 1)}–${name(after - 1)} ${verbs[1]}`

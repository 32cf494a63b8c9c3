/**
 * A quick yes for the logs clients send all day. LogSchema (src/schemas/log.ts) stays the judge:
 * this answers true only for a log it certainly accepts (seed fields of the right types, frames
 * below each clip's rate, no `custom` entries), and anything else goes to checkLog, which names
 * every problem. Valibot builds an output object for every clip and copy; on a 20-clip log that
 * was most of the cost of a POST. Keep every rule here at least as strict as the schema's.
 */
import { framesPerSecond } from './timecode'
import { hashFormProblem } from '../shared/digests'

type Fields = Record<string, unknown>

import type { LogKeys } from '../shared/log-order'

const isObject = (x: unknown): x is Fields => typeof x === 'object' && x !== null && !Array.isArray(x)
const isCount = (x: unknown) => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0
const optional = (x: unknown, check: (x: unknown) => boolean) => x === undefined || check(x)
const isText = (x: unknown) => typeof x === 'string'

// Digit values at a position; out of 0–9 for anything else.
const digitAt = (text: string, i: number) => text.charCodeAt(i) - 48
const isDigitAt = (text: string, i: number, max = 9) => digitAt(text, i) >= 0 && digitAt(text, i) <= max

/**
 * The frames of a timecode `HH:MM:SS:FF` (or `;` before the frames), minutes and seconds below
 * 60, as TimecodeSchema's pattern reads it (framesOf in timecode.ts, by regex); -1 for anything
 * else. By hand, without closures made per call (the bundle names each one): a regex match per
 * timecode, three per clip, was the largest part of this check.
 */
function quickFramesOf(x: unknown): number {
  if (typeof x !== 'string' || x.length !== 11) return -1
  if (!isDigitAt(x, 0) || !isDigitAt(x, 1) || x.charCodeAt(2) !== 58) return -1
  if (!isDigitAt(x, 3, 5) || !isDigitAt(x, 4) || x.charCodeAt(5) !== 58) return -1
  if (!isDigitAt(x, 6, 5) || !isDigitAt(x, 7) || (x.charCodeAt(8) !== 58 && x.charCodeAt(8) !== 59)) return -1
  if (!isDigitAt(x, 9) || !isDigitAt(x, 10)) return -1
  return digitAt(x, 9) * 10 + digitAt(x, 10)
}

const isTimecode = (x: unknown) => quickFramesOf(x) >= 0

/** Every item, holes included (`every` skips holes; the schema reads them as undefined). */
function isListOf(x: unknown, check: (item: unknown) => boolean) {
  if (!Array.isArray(x)) return false
  for (let i = 0; i < x.length; i++) if (!check(x[i])) return false
  return true
}

const isTextList = (x: unknown) => isListOf(x, isText)

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const number2 = (text: string, i: number) => digitAt(text, i) * 10 + digitAt(text, i + 1)

/**
 * `YYYY-MM-DD` naming a real day (IsoDate's isCalendarDate in log.ts, through Date), by hand like
 * quickFramesOf; years before 1000 are left to the schema.
 */
function isQuickCalendarDate(x: unknown) {
  if (typeof x !== 'string' || x.length !== 10 || x.charCodeAt(4) !== 45 || x.charCodeAt(7) !== 45) return false
  if (!isDigitAt(x, 0) || !isDigitAt(x, 1) || !isDigitAt(x, 2) || !isDigitAt(x, 3)) return false
  if (!isDigitAt(x, 5) || !isDigitAt(x, 6) || !isDigitAt(x, 8) || !isDigitAt(x, 9)) return false
  const year = number2(x, 0) * 100 + number2(x, 2)
  const month = number2(x, 5)
  const day = number2(x, 8)
  if (year < 1000 || month < 1 || month > 12 || day < 1) return false
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)
}

const isCopy = (x: unknown) =>
  isObject(x) &&
  typeof x.volume === 'string' &&
  x.volume.length > 0 &&
  (x.hash === undefined || x.hash === null || (typeof x.hash === 'string' && hashFormProblem(x.hash) === undefined))

const hasCopies = (clip: Fields) => isListOf(clip.copies, isCopy)

const isOptionalText = (x: unknown) => x === undefined || typeof x === 'string'
// `size_unknown`: true, and only beside a size of 0 (sizeIssues' rule).
const sizeUnknownOk = (clip: Fields) =>
  clip.size_unknown === undefined || (clip.size_unknown === true && clip.size === 0)
// sensor_fps and wb: a string (the document) or a number (the reference application).
const isOptionalTextOrNumber = (x: unknown) => x === undefined || typeof x === 'string' || typeof x === 'number'

function isOcfClip(x: unknown) {
  if (!isObject(x) || typeof x.clip !== 'string' || !isCount(x.size) || !hasCopies(x) || !sizeUnknownOk(x)) return false
  // Named one by one: a loop over key names would make every read a dictionary lookup.
  if (
    !isOptionalText(x.camera_model) ||
    !isOptionalText(x.reel) ||
    !isOptionalTextOrNumber(x.sensor_fps) ||
    !isOptionalText(x.lens)
  )
    return false
  if (
    !isOptionalText(x.resolution) ||
    !isOptionalText(x.codec) ||
    !isOptionalText(x.gamma) ||
    !isOptionalTextOrNumber(x.wb)
  )
    return false
  if (!isOptionalText(x.tint) || !isOptionalText(x.lut)) return false
  const { fps } = x
  if (fps !== undefined && (typeof fps !== 'number' || !(fps > 0 && fps <= 1000))) return false
  // Frames below the clip's own rate (frameIssues' rule); any frames without a rate.
  const limit = fps === undefined ? 100 : framesPerSecond(fps)
  return framesBelow(x.tc_start, limit) && framesBelow(x.tc_end, limit) && framesBelow(x.duration, limit)
}

function framesBelow(tc: unknown, limit: number) {
  if (tc === undefined) return true
  const frames = quickFramesOf(tc)
  return frames >= 0 && frames < limit
}

const isSoundClip = (x: unknown) =>
  isObject(x) &&
  typeof x.clip === 'string' &&
  isCount(x.size) &&
  hasCopies(x) &&
  sizeUnknownOk(x) &&
  optional(x.tc_start, isTimecode) &&
  optional(x.tc_end, isTimecode)

const isProxyClip = (x: unknown) =>
  isObject(x) &&
  typeof x.clip === 'string' &&
  isCount(x.size) &&
  isText(x.format) &&
  isText(x.codec) &&
  isText(x.resolution)

function isSection(x: unknown, isClip: (clip: unknown) => boolean, extra: (section: Fields) => boolean) {
  if (!isObject(x)) return false
  if (!optional(x.files, isCount) || !optional(x.size, isCount) || !extra(x)) return false
  return optional(x.clips, (clips) => isListOf(clips, isClip))
}

const ocfExtra = (s: Fields) =>
  optional(s.duration, isTimecode) && optional(s.reels, isTextList) && optional(s.copies, isTextList)
const soundExtra = (s: Fields) => optional(s.copies, isTextList)
const proxyExtra = () => true

const CLIPS = { ocf: isOcfClip, sound: isSoundClip, proxy: isProxyClip }

/** True only when checkClip (a log read a clip at a time) would certainly find nothing to report. */
export const certainlyValidClip = (part: keyof typeof CLIPS, clip: unknown): boolean => CLIPS[part](clip)

/** True only when checkLog would certainly find nothing to report and keep the log as it is. */
export function certainlyValidLog(log: Fields): log is Fields & LogKeys {
  return (
    typeof log.id === 'string' &&
    log.id.length >= 1 &&
    log.id.length <= 50 &&
    typeof log.day === 'number' &&
    Number.isInteger(log.day) &&
    log.day >= 1 &&
    log.day <= 999 &&
    isQuickCalendarDate(log.date) &&
    optional(log.unit, isText) &&
    // Custom entries depend on the project's schemas, and some are dropped: checkLog's job.
    log.custom === undefined &&
    optional(log.ocf, (s) => isSection(s, isOcfClip, ocfExtra)) &&
    optional(log.sound, (s) => isSection(s, isSoundClip, soundExtra)) &&
    optional(log.proxy, (s) => isSection(s, isProxyClip, proxyExtra))
  )
}

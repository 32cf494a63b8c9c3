import * as v from 'valibot'
import { append } from '../shared/lists'
import { TimecodeSchema, framesOf, framesPerSecond } from './timecode'
import { LISTED_DETAILS, type IssueDetail } from '../shared/problem'
import { toDetails } from './issues'
import { hashFormProblem } from '../shared/digests'
import { looseObject } from './shapes'
import type { CustomSchemas } from './custom'

const Size = v.pipe(
  v.number('must be a whole number of bytes'),
  v.safeInteger('must be a whole number of bytes'),
  v.minValue(0, 'must not be negative'),
)
const Count = v.pipe(
  v.number('must be a whole number'),
  v.safeInteger('must be a whole number'),
  v.minValue(0, 'must not be negative'),
)
const Text = v.string('must be a string')
const TextList = v.array(Text, 'must be an array of strings')
/**
 * The document types these as strings; the reference application writes numbers (its camera
 * metadata coerces them). Either is accepted and kept as sent (SPEC §1).
 */
const TextOrNumber = v.union([Text, v.number()], 'must be a string or a number')

export const LogIdSchema = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must be 1 to 50 characters'),
  v.maxLength(50, 'must be 1 to 50 characters'),
)

export const DayNumber = v.pipe(
  v.number('must be a whole number from 1 to 999'),
  v.integer('must be a whole number from 1 to 999'),
  v.minValue(1, 'must be a whole number from 1 to 999'),
  v.maxValue(999, 'must be a whole number from 1 to 999'),
)

export const IsoDate = v.pipe(
  v.string('must be a date YYYY-MM-DD'),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD'),
  v.check(isCalendarDate, 'must be a real calendar date'),
)

function isCalendarDate(text: string) {
  // The format is the regex's to report; valibot runs every check of a pipe.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return true
  const [y, m, d] = text.split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

/** A copy's hash: any string, and of its algorithm's form where its label names one (SPEC §11). */
const HashSchema = v.pipe(
  v.string('must be a string or null'),
  v.rawCheck(({ dataset, addIssue }) => {
    const problem = dataset.typed ? hashFormProblem(dataset.value) : undefined
    if (problem) addIssue({ message: problem })
  }),
)

const CopySchema = looseObject(
  {
    volume: v.pipe(Text, v.minLength(1, 'must not be empty')),
    hash: v.optional(v.nullable(HashSchema)),
  },
  'must be an object {volume, hash}',
)
const Copies = v.array(CopySchema, 'must be an array of copies')

/**
 * A clip whose size no report stated: `size` 0 (the seed requires a number, and Daytalog's schema
 * too), and this, so that nothing takes the 0 for the clip's size (docs/log.md).
 */
const SizeUnknown = v.optional(v.literal(true, 'must be true, or left out'))

const OcfClipSchema = looseObject(
  {
    clip: Text,
    size: Size,
    size_unknown: SizeUnknown,
    copies: Copies,
    tc_start: v.optional(TimecodeSchema),
    tc_end: v.optional(TimecodeSchema),
    duration: v.optional(TimecodeSchema),
    camera_model: v.optional(Text),
    reel: v.optional(Text),
    fps: v.optional(
      v.pipe(v.number('must be a number'), v.gtValue(0, 'must be above 0'), v.maxValue(1000, 'must be at most 1000')),
    ),
    sensor_fps: v.optional(TextOrNumber),
    lens: v.optional(Text),
    resolution: v.optional(Text),
    codec: v.optional(Text),
    gamma: v.optional(Text),
    wb: v.optional(TextOrNumber),
    tint: v.optional(Text),
    lut: v.optional(Text),
  },
  'must be an object',
)

const SoundClipSchema = looseObject(
  {
    clip: Text,
    size: Size,
    size_unknown: SizeUnknown,
    copies: Copies,
    tc_start: v.optional(TimecodeSchema),
    tc_end: v.optional(TimecodeSchema),
  },
  'must be an object',
)

const ProxyClipSchema = looseObject(
  { clip: Text, size: Size, format: Text, codec: Text, resolution: Text },
  'must be an object',
)

const OcfSchema = looseObject(
  {
    files: v.optional(Count),
    size: v.optional(Size),
    duration: v.optional(TimecodeSchema),
    reels: v.optional(TextList),
    copies: v.optional(TextList),
    clips: v.optional(v.array(OcfClipSchema, 'must be an array of clips')),
  },
  'must be an object',
)

const SoundSchema = looseObject(
  {
    files: v.optional(Count),
    size: v.optional(Size),
    copies: v.optional(TextList),
    clips: v.optional(v.array(SoundClipSchema, 'must be an array of clips')),
  },
  'must be an object',
)

const ProxySchema = looseObject(
  {
    files: v.optional(Count),
    size: v.optional(Size),
    clips: v.optional(v.array(ProxyClipSchema, 'must be an array of clips')),
  },
  'must be an object',
)

/** Seed §2.1. Unknown properties anywhere are kept as sent (SPEC §4). */
export const LogSchema = looseObject(
  {
    id: LogIdSchema,
    day: DayNumber,
    date: IsoDate,
    unit: v.optional(Text),
    ocf: v.optional(OcfSchema),
    sound: v.optional(SoundSchema),
    proxy: v.optional(ProxySchema),
    // Entries are checked against the project's own schemas: see CustomSchemas.
    custom: v.optional(v.array(v.unknown(), 'must be an array')),
  },
  'must be a log object',
)

export type LogOutput = v.InferOutput<typeof LogSchema>
export type OcfClip = v.InferOutput<typeof OcfClipSchema>
export type SoundClip = v.InferOutput<typeof SoundClipSchema>
export type ProxyClip = v.InferOutput<typeof ProxyClipSchema>

/**
 * Frames must stay below the clip's own rate. Kept outside the schema so it is reported together
 * with every other issue: valibot skips pipe checks on an object that already has issues.
 */
function clipFrameIssues(clip: unknown, path: string): IssueDetail[] {
  const fps = (clip as { fps?: unknown })?.fps
  if (typeof fps !== 'number' || !(fps > 0)) return []
  const limit = framesPerSecond(fps)
  const details: IssueDetail[] = []
  for (const field of ['tc_start', 'tc_end', 'duration'] as const) {
    const frames = framesOf((clip as Record<string, unknown>)[field])
    if (frames !== undefined && frames >= limit) {
      details.push({ prop: `${path}.${field}`, message: `frames must be below ${limit} at ${fps} fps` })
    }
  }
  return details
}

/** A size stated beside `size_unknown`: one of them is wrong. */
function sizeIssues(clip: unknown, path: string): IssueDetail[] {
  const { size, size_unknown } = (clip ?? {}) as { size?: unknown; size_unknown?: unknown }
  if (size_unknown !== true || typeof size !== 'number' || size === 0) return []
  return [{ prop: `${path}.size_unknown`, message: `is true while size says ${size} bytes: leave it out, or size 0` }]
}

const CLIP_SCHEMAS = { ocf: OcfClipSchema, sound: SoundClipSchema, proxy: ProxyClipSchema }

/**
 * One clip of a log's `part`, as checkLog checks it inside a whole log, named by `path`
 * (`ocf.clips.7`): for a log checked a clip at a time (src/large-logs).
 */
export function checkClip(part: keyof typeof CLIP_SCHEMAS, clip: unknown, path: string): IssueDetail[] {
  const result = v.safeParse(CLIP_SCHEMAS[part], clip)
  const details = result.success ? [] : toDetails(result.issues, path)
  if (part === 'ocf') append(details, clipFrameIssues(clip, path))
  if (part !== 'proxy') append(details, sizeIssues(clip, path))
  return details
}

export type LogCheck = {
  log: Record<string, unknown>
  details: IssueDetail[]
  /** Failing properties past what an answer lists, counted, not collected. */
  unlisted: number
}

/**
 * Validates a whole log against the seed and the project's custom schemas. The log that comes back
 * is the input itself, key order and unknown properties intact, less the custom entries of
 * schemas the project does not have.
 *
 * The log without its clips is checked whole, then each clip alone, as a log too large to parse
 * is (large-logs/check.ts): the failures of one clip are alive at a time, and past LISTED_DETAILS
 * they are counted, not kept. Checked whole, 200,000 invalid clips (2.1 MiB) made valibot hold an
 * issue, its path and its input for each, and ended the isolate at 128 MB.
 */
export function checkLog(input: Record<string, unknown>, schemas: CustomSchemas): LogCheck {
  let log = input
  let customDetails: IssueDetail[] = []
  if (Array.isArray(input.custom)) {
    const applied = schemas.apply(input.custom)
    if (applied.changed) log = { ...input, custom: applied.kept }
    customDetails = applied.details
  }
  const lists = CLIP_PARTS.flatMap((part) => {
    const clips = (log[part] as { clips?: unknown } | null | undefined)?.clips
    return Array.isArray(clips) && isPlainObject(log[part]) ? [{ part, clips }] : []
  })
  let skeleton = log
  if (lists.length) {
    skeleton = { ...log }
    for (const { part } of lists) skeleton[part] = { ...(log[part] as object), clips: [] }
  }
  const result = v.safeParse(LogSchema, skeleton)
  const details = result.success ? [] : toDetails(result.issues)
  append(details, customDetails)
  let unlisted = 0
  for (const { part, clips } of lists)
    clips.forEach((clip, i) => {
      const problems = checkClip(part, clip, `${part}.clips.${i}`)
      if (!problems.length) return
      if (details.length < LISTED_DETAILS) append(details, problems)
      else unlisted += problems.length
    })
  return { log, details, unlisted }
}

const CLIP_PARTS = Object.keys(CLIP_SCHEMAS) as Array<keyof typeof CLIP_SCHEMAS>

const isPlainObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value)

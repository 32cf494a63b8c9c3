import * as v from 'valibot'
import { invalid } from '../shared/problem'
import { toDetails } from './issues'
import { DayNumber, IsoDate, LogIdSchema } from './log'
import { ProjectNameSchema } from './settings'
import { ANCESTORS_KEPT, MAX_VERSIONS, REVISION } from '../shared/revisions'
import { digestOf } from '../shared/digests'

export const AuthRequestSchema = v.object({
  appName: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must be 1 to 100 characters'),
    v.maxLength(100, 'must be 1 to 100 characters'),
  ),
  /**
   * A code the application shows its user, for the operator to compare with the console's card.
   * Optional: the seed's clients send only `appName`.
   */
  code: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.toUpperCase(),
      v.regex(/^[A-Z0-9](?:-?[A-Z0-9]){3,11}$/, 'must be 4 to 12 letters or digits, dashes between them allowed'),
    ),
  ),
  /** `true` from a unit's cart linking to a production (docs/units.md): its token only syncs there. */
  unit: v.optional(v.boolean('must be true or false')),
})

/**
 * A volume's name. `.` and `..` are no name a URL path can carry (every URL parser takes them as
 * steps up the path: `/log/D001/volumes/..` is `/log/D001/`), and no drive is called so.
 */
export const VolumeName = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must be 1 to 200 characters'),
  v.maxLength(200, 'must be 1 to 200 characters'),
  v.check((name) => name !== '.' && name !== '..', 'cannot be "." or ".."'),
)

export const CreateProjectSchema = v.object({ project_name: ProjectNameSchema })

export const LoadProjectSchema = v.object({
  path: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(1000, 'must be at most 1000 characters'),
  ),
})

/** One log id or several: reports and mails cover a range of shooting days. */
const LogIds = v.union(
  [
    LogIdSchema,
    v.pipe(
      v.array(LogIdSchema, 'must be a log id or an array of log ids'),
      v.minLength(1, 'must name at least one log'),
      v.maxLength(1000, 'must name at most 1000 logs'),
    ),
  ],
  'must be a log id or an array of log ids',
)

const PresetIdRef = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must not be empty'),
  v.maxLength(100, 'must be at most 100 characters'),
)

export const GeneratePdfSchema = v.object({ presetId: PresetIdRef, logId: LogIds })

export const OpenEmailWindowSchema = v.object({ logId: LogIds, presetId: v.optional(PresetIdRef) })

export const DecisionSchema = v.object({
  decision: v.picklist(['approve', 'deny'], 'must be "approve" or "deny"'),
})

/** POST /approve/session: the operator key, typed into the sign-in form. */
export const SignInSchema = v.object({
  key: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(1000, 'must be at most 1000 characters'),
  ),
})

/** One file of an import: its path as the laptop names it, its content as text or in base64. */
const ImportFileSchema = v.object({
  name: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must be 1 to 4096 characters'),
    v.maxLength(4096, 'must be 1 to 4096 characters'),
  ),
  content: v.string('must be a string'),
  encoding: v.optional(v.picklist(['text', 'base64'], 'must be "text" or "base64"')),
  volume: v.optional(VolumeName),
})

/** `POST /log/{id}/import`: MHL, ASC MHL and ALE files merged into a day's log. */
export const ImportSchema = v.object({
  files: v.pipe(
    v.array(ImportFileSchema, 'must be an array of files {name, content}'),
    v.minLength(1, 'must hold at least one file'),
    v.maxLength(10000, 'must hold at most 10000 files'),
  ),
  volume: v.optional(VolumeName),
  kind: v.optional(v.picklist(['ocf', 'sound'], 'must be "ocf" or "sound"')),
  day: v.optional(DayNumber),
  date: v.optional(IsoDate),
})

/** Frames of a sequence a read-back names (the first few; the counts say how many in all). */
const FrameNames = v.pipe(
  v.array(v.pipe(v.string('must be a string'), v.maxLength(255, 'must be at most 255 characters'))),
  v.maxLength(5, 'must name at most 5 frames: the count says how many'),
)
const FrameCount = v.pipe(v.number('must be a number'), v.safeInteger('must be a whole number'), v.minValue(0))

/** A labelled digest of a known algorithm (`xxh64:…`, `md5:…`, `xxh64-frames:…`), as a read-back computes it. */
const Digest = v.pipe(
  v.string('must be a string'),
  v.check(
    (hash) => digestOf(hash) !== undefined && hash.includes(':'),
    'must be a labelled digest: xxh64:<16 hex digits>, md5:…, xxh64-frames:<64 hex digits>',
  ),
)

const ReadBackClipSchema = v.pipe(
  v.object({
    part: v.picklist(['ocf', 'sound'], 'must be "ocf" or "sound"'),
    clip: v.pipe(
      v.string('must be a string'),
      v.minLength(1, 'must not be empty'),
      v.maxLength(255, 'must be at most 255 characters'),
    ),
    found: v.picklist(
      ['verified', 'failed', 'missing', 'original'],
      'must be "verified", "failed", "missing" or "original"',
    ),
    hash: v.optional(Digest),
    hashdate: v.pipe(
      v.string('must be a string'),
      v.isoTimestamp('must be a date and time, ISO 8601 (2026-11-26T21:04:00Z)'),
    ),
    files: v.optional(v.pipe(FrameCount, v.minValue(1, 'must be at least 1'))),
    bad_frames: v.optional(
      v.object({ changed: FrameNames, missing: FrameNames, changed_count: FrameCount, missing_count: FrameCount }),
    ),
  }),
  v.forward(
    v.check((c) => c.found === 'missing' || c.hash !== undefined, 'is required: the digest computed on read-back'),
    ['hash'],
  ),
)

/** `POST /log/{id}/read-back`: what a read-back of one volume found of the day's clips. */
export const ReadBackSchema = v.object({
  volume: VolumeName,
  tool: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.minLength(1, 'must not be empty'),
      v.maxLength(100, 'must be at most 100 characters'),
    ),
  ),
  clips: v.pipe(
    v.array(ReadBackClipSchema, 'must be an array of clips'),
    v.minLength(1, 'must hold at least one clip'),
    v.maxLength(20_000, 'must hold at most 20000 clips: send the rest in another request'),
  ),
})

/** `PATCH /log/{id}/volumes/{volume}`: the volume's new name. */
export const VolumeRenameSchema = v.object({ name: VolumeName })

/** One end of a range of days: a day number (1–999) or a date `YYYY-MM-DD`, as a query gives it. */
const DayOrDate = v.union(
  [
    v.pipe(v.string(), v.regex(/^\d{1,3}$/), v.transform(Number), v.number(), v.minValue(1)),
    // A date that is not one (2025-02-30) names no day: refused, not read as the next real one.
    IsoDate,
  ],
  'must be a day number from 1 to 999 or a date YYYY-MM-DD',
)

/** `?enabled=true|false` of the preset lists: only those; both when left out. */
export const EnabledQuerySchema = v.object({
  enabled: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
})

/** `GET /approve?key=…`: the operator key, once, from the link `npm start` prints. */
export const KeyQuerySchema = v.object({ key: v.optional(v.string('must be given once')) })

const wholeUpTo = (max: number) => {
  const message = `must be a whole number from 0 to ${max}`
  return v.pipe(v.string(message), v.regex(/^\d{1,15}$/, message), v.transform(Number), v.maxValue(max, message))
}

/** A long poll is answered after this long even when nothing changed (well under proxy idle limits). */
const HOLD_SECONDS = 25

/** `GET /approve/state?since=…&wait=…`: the version the console has, and how long to hold the answer. */
export const LiveStateQuerySchema = v.object({
  since: v.optional(wholeUpTo(Number.MAX_SAFE_INTEGER)),
  wait: v.optional(wholeUpTo(HOLD_SECONDS), String(HOLD_SECONDS)),
})

/** `GET /checks?from=…&to=…`: either end may be left out. */
export const ChecksQuerySchema = v.object({ from: v.optional(DayOrDate), to: v.optional(DayOrDate) })

/** Parses a request value or throws the seed's 400 with every failing property. */
export function parseOrThrow<const S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  prefix = '',
): v.InferOutput<S> {
  const result = v.safeParse(schema, input)
  if (!result.success) throw invalid(toDetails(result.issues, prefix))
  return result.output
}

export const logIdsOf = (logId: string | string[]) => (typeof logId === 'string' ? [logId] : logId)

// ---- units (docs/units.md)

const Revision = v.pipe(v.string('must be a string'), v.regex(REVISION, 'must be a revision like 1-0123456789abcdef'))

/** `?project=…` of every sync call: the project the caller syncs with, which must be the one loaded. */
const project = v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100, 'must be at most 100 characters')))

export const SyncProjectQuerySchema = v.object({ project })

/** `GET /sync/changes?since=…&limit=…`: the feed's place (0 for the start) and a page's size. */
export const SyncChangesQuerySchema = v.object({
  project,
  since: v.optional(v.pipe(v.string(), v.regex(/^\d{1,16}$/, 'must be a whole number'), v.transform(Number)), '0'),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, 'must be a whole number from 1 to 1000'),
      v.transform(Number),
      v.number(),
      v.minValue(1, 'must be a whole number from 1 to 1000'),
      v.maxValue(1000, 'must be a whole number from 1 to 1000'),
    ),
    '100',
  ),
})

/** `POST /sync/missing`: revisions per log, of which the service answers those it lacks. */
export const SyncMissingSchema = v.object({
  logs: v.pipe(
    v.array(
      v.object({
        id: LogIdSchema,
        revs: v.pipe(v.array(Revision, 'must be an array of revisions'), v.maxLength(100, 'must name at most 100')),
      }),
      'must be an array of {id, revs}',
    ),
    v.maxLength(1000, 'must name at most 1000 logs'),
  ),
})

/** `GET /sync/logs/{id}?rev=…`: which version. */
export const SyncVersionQuerySchema = v.object({ project, rev: Revision })

/** `POST /sync/logs/{id}?rev=…&ancestors=…&deleted=true`: the version sent, and what it replaces. */
export const SyncLeafQuerySchema = v.object({
  project,
  rev: Revision,
  ancestors: v.optional(
    v.pipe(
      v.string(),
      v.transform((text) => (text ? text.split(',') : [])),
      v.array(Revision),
      v.maxLength(ANCESTORS_KEPT, `must name at most ${ANCESTORS_KEPT} revisions`),
    ),
    '',
  ),
  deleted: v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
  owner: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'must be 1 to 100 characters'),
      v.maxLength(100, 'must be 1 to 100 characters'),
    ),
  ),
})

// What a cart takes from its production's answers, and no more (workspace/production.ts): a
// production is another service, and what it answers is stored and sent on.

const SentLeaf = v.object({
  rev: Revision,
  ancestors: v.pipe(v.array(Revision), v.maxLength(ANCESTORS_KEPT, `must name at most ${ANCESTORS_KEPT} revisions`)),
  deleted: v.boolean(),
  owner: v.optional(SyncLeafQuerySchema.entries.owner.wrapped),
})

/** `GET /sync/changes` as a production answers it: at most `limit` logs, each of at most MAX_VERSIONS. */
export const syncChangesAnswerSchema = (since: number, limit: number) =>
  v.pipe(
    v.object({
      changes: v.pipe(
        v.array(
          v.object({
            id: LogIdSchema,
            leaves: v.pipe(v.array(SentLeaf), v.minLength(1), v.maxLength(MAX_VERSIONS)),
          }),
        ),
        v.maxLength(limit, `must list at most ${limit} logs`),
      ),
      last: v.pipe(v.number(), v.safeInteger(), v.minValue(since)),
    }),
    v.check(({ changes, last }) => !changes.length || last > since, 'must move on from where it was read'),
  )

/** `POST /sync/missing` as a production answers it. */
export const SyncMissingAnswerSchema = v.object({
  missing: v.pipe(
    v.array(v.object({ id: LogIdSchema, revs: v.pipe(v.array(Revision), v.maxLength(100)) })),
    v.maxLength(1000),
  ),
})

/** `POST /approve/link-codes`: whom a production's link code admits, by the name it will ask as. */
export const LinkCodeRequestSchema = v.object({
  name: AuthRequestSchema.entries.appName,
  unit: v.optional(v.boolean('must be true or false'), false),
})

/** `POST /approve/conflicts/{id}`: the version of the log to keep. */
export const ResolveSchema = v.object({ keep: Revision })

/** `POST /approve/link`: the production's URL, and the unit this cart is known by there. */
export const LinkSchema = v.object({
  url: v.pipe(
    v.string('must be a string'),
    v.maxLength(2000, 'must be at most 2000 characters'),
    v.url('must be a URL'),
  ),
  /** The cart's name at the production: its application name there. */
  unit: AuthRequestSchema.entries.appName,
  /** The link code the production's operator made for this unit (POST /approve/link-codes there). */
  linkCode: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, "must be the production's link code for this unit"),
    v.maxLength(40, 'must be at most 40 characters'),
  ),
})

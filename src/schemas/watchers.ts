/**
 * What a running `media-log watch` tells the service about itself (PUT /watchers/{id}), for the
 * console's list of watchers (docs/watch.md). Paths are the laptop's own and shown as sent.
 */
import * as v from 'valibot'
import { LogIdSchema } from './log'
import { VolumeName } from './requests'

/** A watcher's id: a UUID the command makes when it starts, one per run. */
export const WatcherIdSchema = v.pipe(
  v.string('must be a string'),
  v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a UUID in lower case'),
)

const Path = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must be 1 to 1024 characters'),
  v.maxLength(1024, 'must be 1 to 1024 characters'),
)
const Count = v.pipe(
  v.number('must be a whole number'),
  v.integer('must be a whole number'),
  v.minValue(0, 'must be 0 or more'),
)
const At = v.pipe(v.string('must be a time'), v.isoTimestamp('must be an ISO 8601 time with its zone'))

/** The fastest and slowest a watcher may say it reports: it is called quiet after three times that. */
const WATCHER_EVERY = { min: 5, max: 300 } as const

export const WatcherReportSchema = v.object({
  /** The folders watched, as given on the command line (resolved). */
  folders: v.pipe(
    v.array(Path, 'must be an array of folders'),
    v.minLength(1, 'must name 1 to 16 folders'),
    v.maxLength(16, 'must name 1 to 16 folders'),
  ),
  /** `--log`: every report into that log. Left out: each into the day its own dates name. */
  log: v.optional(LogIdSchema),
  /** `--volume`: the volume every report is on. */
  volume: v.optional(VolumeName),
  /** How often the watcher reports, in seconds: it is quiet once three of them pass unheard. */
  everySeconds: v.pipe(
    v.number('must be a whole number of seconds'),
    v.integer('must be a whole number of seconds'),
    v.minValue(WATCHER_EVERY.min, `must be ${WATCHER_EVERY.min} to ${WATCHER_EVERY.max} seconds`),
    v.maxValue(WATCHER_EVERY.max, `must be ${WATCHER_EVERY.min} to ${WATCHER_EVERY.max} seconds`),
  ),
  /** Reports taken since it started. */
  taken: Count,
  /** The last report taken: where it was, the log it went into, and what it changed. */
  last: v.optional(
    v.object({
      report: Path,
      log: LogIdSchema,
      at: At,
      created: v.boolean('must be true or false'),
      added: Count,
      changed: Count,
    }),
  ),
  /** The last problems met (a report refused, the service away, a drive gone), newest last. */
  problems: v.pipe(
    v.array(
      v.object({
        at: At,
        message: v.pipe(
          v.string('must be a string'),
          v.minLength(1, 'must be 1 to 500 characters'),
          v.maxLength(500, 'must be 1 to 500 characters'),
        ),
      }),
      'must be an array of problems',
    ),
    v.maxLength(5, 'must hold at most 5 problems'),
  ),
  /** Folders the system no longer tells of changes (a drive unplugged): only walked, every 30 s. */
  walkedOnly: v.pipe(v.array(Path, 'must be an array of folders'), v.maxLength(16, 'must name at most 16 folders')),
})

export type WatcherReport = v.InferOutput<typeof WatcherReportSchema>

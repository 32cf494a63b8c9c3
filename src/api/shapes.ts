/**
 * The answers' shapes, as valibot schemas the document converts like the request schemas. The
 * service does not validate its own answers; these describe them, and the contract test holds
 * every answer it gets to them.
 */
import * as v from 'valibot'
import { COPY_STATES } from '../copies/states'
import { LogSchema } from '../schemas/log'
import { SettingsSchema } from '../schemas/settings'

const text = v.string()
const count = v.pipe(v.number(), v.integer(), v.minValue(0))

/** Every refusal: `error`, and for 400 every failing property. */
export const ErrorSchema = v.object({
  error: text,
  details: v.optional(v.array(v.object({ prop: text, message: text }))),
})

export const SuccessSchema = v.object({ success: v.literal(true) })

export const TokenSchema = v.object({ token: text })

export const CreatedProjectSchema = v.object({ id: text, project_name: text, path: text, created_at: text })

export const LogListSchema = v.object({ logs: v.array(LogSchema) })

export const PatchedLogSchema = v.object({ success: v.literal(true), data: LogSchema })

export const PatchedSettingsSchema = v.object({ success: v.literal(true), data: SettingsSchema })

export const PdfSchema = v.object({
  success: v.literal(true),
  data: v.object({ filename: text, mimeType: v.literal('application/pdf'), base64: text }),
})

export const PingSchema = v.object({ status: v.literal('ok'), active: v.boolean() })

export const VersionSchema = v.object({ version: v.object({ app: text, api: text }) })

export const ProjectListSchema = v.array(v.object({ label: text, path: text, active: v.boolean(), project_name: text }))

export const ActiveProjectSchema = v.looseObject({
  project_name: text,
  id: text,
  path: text,
  created_at: text,
  activeLog: v.null(),
})

export const PresetListSchema = v.array(v.object({ id: text, label: text, enabled: v.boolean() }))

const Counts = { errors: count, warnings: count, info: count }

const FindingSchema = v.object({
  kind: text,
  severity: v.picklist(['error', 'warning', 'info']),
  log: v.optional(text),
  part: v.optional(v.picklist(['ocf', 'sound'])),
  clip: v.optional(text),
  volume: v.optional(text),
  reel: v.optional(text),
  file: v.optional(text),
  tool: v.optional(text),
  hashdate: v.optional(text),
  message: text,
})

const FindingsSummarySchema = v.object({ ...Counts, kinds: v.record(text, count) })

/** Present when a kind has more findings than an answer lists (1,000 a kind): how many were left out. */
const Unlisted = v.optional(v.record(text, count))

/**
 * Each volume's copies in the one account (docs/checks.md): of the `clips` it owes (over a range,
 * of the `days` it was used on when fewer than the range's), how many are in each state, how many
 * it holds as far as anyone knows, its verdict (the worst state's severity), and all of it in words.
 */
const CopyLinesSchema = v.array(
  v.object({
    part: v.picklist(['ocf', 'sound']),
    volume: text,
    clips: count,
    held: count,
    states: v.object(Object.fromEntries(COPY_STATES.map((state) => [state, v.optional(count)]))),
    otherFailed: v.optional(count),
    days: v.optional(count),
    verdict: v.picklist(['ok', 'warning', 'error']),
    mark: text,
    words: text,
  }),
)

/** The findings as lines: a kind and volume each, how many, the first clips named (checks/groups.ts). */
const FindingGroupsSchema = v.array(
  v.object({
    kind: text,
    severity: v.picklist(['error', 'warning', 'info']),
    title: text,
    volume: v.optional(text),
    part: v.optional(v.picklist(['ocf', 'sound'])),
    count,
    words: text,
  }),
)

export const DayChecksSchema = v.object({
  checks: v.array(FindingSchema),
  summary: FindingsSummarySchema,
  groups: FindingGroupsSchema,
  copies: CopyLinesSchema,
  unlisted: Unlisted,
})

export const RangeChecksSchema = v.object({
  checks: v.array(FindingSchema),
  summary: FindingsSummarySchema,
  groups: FindingGroupsSchema,
  copies: CopyLinesSchema,
  days: v.array(v.object({ log: text, day: count, date: text, summary: FindingsSummarySchema })),
  unlisted: Unlisted,
})

export const SignedInSchema = v.object({ success: v.literal(true), csrf: text })

const RequestSchema = v.object({
  id: text,
  appName: text,
  code: v.nullable(text),
  userAgent: v.nullable(text),
  mixedScripts: v.array(text),
  createdAt: text,
  lastAskedAt: text,
  attempts: count,
  expiresAt: text,
  unit: v.optional(v.literal(true)),
})
const ApprovedTokenSchema = v.object({
  id: text,
  appName: text,
  unit: v.optional(v.literal(true)),
  mixedScripts: v.array(text),
  createdAt: text,
  lastUsedAt: v.nullable(text),
})
const WindowSchema = v.looseObject({ id: text, logIds: v.array(text), subject: text, status: text, fingerprint: text })

const LinkCodeListingSchema = v.object({ id: text, name: text, unit: v.boolean(), createdAt: text, expiresAt: text })
export const LinkCodeSchema = v.object({ ...LinkCodeListingSchema.entries, code: text })
export const LinkCodeListSchema = v.object({ codes: v.array(LinkCodeListingSchema) })
export const RequestListSchema = v.object({ requests: v.array(RequestSchema) })
export const TokenListSchema = v.object({ tokens: v.array(ApprovedTokenSchema) })
export const WindowListSchema = v.object({ windows: v.array(WindowSchema) })
export const WindowAnswerSchema = v.object({ window: WindowSchema })
export const EditedWindowSchema = v.object({ success: v.literal(true), window: WindowSchema })
export const LiveStateSchema = v.looseObject({ version: count })

const ClipRef = { part: v.picklist(['ocf', 'sound']), clip: text }

/** A read-back recorded, a volume renamed or removed: the copies it changed, clips the log has not. */
export const EditAnswerSchema = v.object({ success: v.literal(true), copies: count, unknown: v.array(text) })

/** POST /log/{id}/import: what the files gave the log, and what they could not. */
export const ImportAnswerSchema = v.object({
  success: v.literal(true),
  created: v.boolean(),
  added: v.array(v.object(ClipRef)),
  changed: v.array(v.object({ ...ClipRef, fields: v.array(text) })),
  files: v.array(
    v.object({
      name: text,
      format: v.picklist(['ascmhl', 'ascmhl-chain', 'mhl', 'ale', 'ale-transfer', 'csv', 'csv-transfer']),
      volume: v.optional(text),
      clips: v.optional(count),
    }),
  ),
  unreadable: v.array(v.object({ name: text, reason: text })),
  /** A line per file and kind of note, summed up (`31 clips kept as the camera's list…`). */
  notes: v.array(v.object({ name: v.optional(text), message: text })),
  /** Each note as it was found, listed to 100 and the rest counted. */
  noteDetail: v.array(v.object({ name: v.optional(text), message: text })),
})

/** POST /import: as a log's import, with the log the files' date named. */
export const ImportToDayAnswerSchema = v.object({ ...ImportAnswerSchema.entries, log: text })

const PartMedia = v.nullable(
  v.object({ files: count, size: count, unknownSizes: v.optional(count), unknown: v.optional(text) }),
)
const CopyPart = v.picklist(['ocf', 'sound'])

/** A volume's copies as a chip shows them (src/copies/words.ts chipOf). */
const ChipShape = {
  volume: text,
  held: count,
  clips: count,
  verdict: v.picklist(['ok', 'warning', 'error']),
  mark: text,
  words: text,
}

/** A day as the console's Days view lists it (GET /approve/days). */
const DayRowSchema = v.object({
  id: text,
  /** Changes with every write of the log. */
  written: text,
  day: count,
  date: text,
  unit: text,
  clips: count,
  ocf: PartMedia,
  sound: PartMedia,
  proxy: PartMedia,
  copies: v.array(v.object({ part: CopyPart, ...ChipShape })),
  checks: v.object(Counts),
})

const PresetRef = v.object({ id: text, label: text, enabled: v.boolean() })

/**
 * GET /approve/days: the days, and the presets the view offers for them (a PDF of each report
 * preset, an e-mail from each e-mail preset). `report` says which report a PDF preset draws.
 */
export const DayListSchema = v.object({
  days: v.array(DayRowSchema),
  presets: v.object({
    pdfs: v.array(v.object({ ...PresetRef.entries, report: v.picklist(['clips-report', 'data-report']) })),
    emails: v.array(PresetRef),
  }),
})

export const DayDetailSchema = v.object({
  day: DayRowSchema,
  checks: v.array(
    v.object({
      kind: text,
      title: text,
      severity: v.picklist(['error', 'warning', 'info']),
      volume: v.optional(text),
      part: v.optional(CopyPart),
      count,
      words: text,
      findings: v.array(
        v.object({
          part: v.optional(CopyPart),
          clip: v.optional(text),
          volume: v.optional(text),
          reel: v.optional(text),
          file: v.optional(text),
          message: text,
        }),
      ),
    }),
  ),
  copies: v.array(
    v.object({
      part: CopyPart,
      reel: text,
      clips: count,
      volumes: v.array(v.object(ChipShape)),
    }),
  ),
})

// ---- units (docs/units.md)

const LeafSchema = v.object({ rev: text, ancestors: v.array(text), deleted: v.boolean(), owner: v.optional(text) })

export const SyncChangesSchema = v.object({
  changes: v.array(v.object({ id: text, seq: count, leaves: v.array(LeafSchema) })),
  last: count,
})

export const SyncMissingAnswerSchema = v.object({ missing: v.array(v.object({ id: text, revs: v.array(text) })) })

export const SyncReceivedSchema = v.object({ outcome: v.picklist(['known', 'winner', 'conflict']) })

const ConflictsSchema = v.array(v.object({ id: text, leaves: count }))

/** A service's link to its production (GET /sync/status); `conflicts`, its logs whose versions are in conflict. */
export const SyncStatusSchema = v.variant('linked', [
  v.object({ linked: v.literal(false), conflicts: ConflictsSchema }),
  v.object({
    linked: v.literal(true),
    production: text,
    unit: text,
    /** When the last round ended with nothing left to exchange. */
    lastSync: v.nullable(text),
    /** Logs written here since the production last took them. */
    pending: count,
    /** Why the last round stopped; null once a round completes. */
    error: v.nullable(text),
    /** Versions one end refused (`push`: the production; `pull`: this cart), set aside so the rest syncs. */
    refused: v.array(v.object({ id: text, rev: text, way: v.picklist(['push', 'pull']), error: text })),
    /** Whether the production tells this cart of other units' writes as they happen (GET /sync/live); else it asks every 5 s. */
    live: v.boolean(),
    conflicts: ConflictsSchema,
  }),
])

/** A version of a log in conflict, as the list describes it. */
const ConflictVersionSchema = v.object({
  rev: text,
  deleted: v.boolean(),
  served: v.boolean(),
  owner: v.nullable(text),
  day: v.optional(count),
  date: v.optional(text),
  unit: v.optional(v.nullable(text)),
  clips: v.optional(count),
})

export const ConflictListSchema = v.object({
  conflicts: v.array(v.object({ id: text, keptHere: v.boolean(), versions: v.array(ConflictVersionSchema) })),
})

const listedSchema = <T extends v.GenericSchema>(item: T) => v.object({ count, listed: v.array(item) })

/** One log's versions in conflict side by side: each against the one served, and what its checks find. */
export const ConflictComparisonSchema = v.object({
  id: text,
  keptHere: v.boolean(),
  versions: v.array(
    v.object({
      ...ConflictVersionSchema.entries,
      soundClips: v.optional(count),
      volumes: v.optional(v.array(text)),
      checks: v.optional(v.object({ errors: count, warnings: count, info: count })),
      /** Against the version served (left out for it and for a deletion). */
      differs: v.optional(
        v.object({
          added: listedSchema(text),
          removed: listedSchema(text),
          changed: listedSchema(
            v.object({ clip: text, what: v.array(v.picklist(['size', 'reel', 'copies', 'checksums'])) }),
          ),
          volumes: v.object({ added: v.array(text), removed: v.array(text) }),
        }),
      ),
    }),
  ),
})

export const ResolvedSchema = v.object({ success: v.literal(true), rev: text })

/** A log's versions a resolution did not keep, the latest first. */
export const SetAsideListSchema = v.object({
  versions: v.array(
    v.object({
      rev: text,
      owner: v.nullable(text),
      replacedBy: text,
      setAsideAt: text,
      day: v.optional(count),
      date: v.optional(text),
      unit: v.optional(v.nullable(text)),
      clips: v.optional(count),
    }),
  ),
})

/**
 * The answers' shapes, as valibot schemas the document converts like the request schemas. The
 * service does not validate its own answers; these describe them, and the contract test holds
 * every answer it gets to them.
 */
import * as v from 'valibot'
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
  message: text,
})

const FindingsSummarySchema = v.object({ ...Counts, kinds: v.record(text, count) })

/** Present when a kind has more findings than an answer lists (1,000 a kind): how many were left out. */
const Unlisted = v.optional(v.record(text, count))

/**
 * Each volume's copies in the three states a copy's checksum can be in: `verified` (read back and
 * found equal), `recorded` (a checksum from when it was copied, not read back), `noChecksum`;
 * besides them `failed` verification and `missing`, of `clips` the volume owes (over a range, of
 * the `days` it was used on when fewer than the range's).
 */
const CopyStatesSchema = v.array(
  v.object({
    part: v.picklist(['ocf', 'sound']),
    volume: text,
    clips: count,
    verified: count,
    recorded: count,
    noChecksum: count,
    failed: count,
    missing: count,
    days: v.optional(count),
  }),
)

export const DayChecksSchema = v.object({
  checks: v.array(FindingSchema),
  summary: FindingsSummarySchema,
  copies: CopyStatesSchema,
  unlisted: Unlisted,
})

export const RangeChecksSchema = v.object({
  checks: v.array(FindingSchema),
  summary: FindingsSummarySchema,
  copies: CopyStatesSchema,
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

export const RequestListSchema = v.object({ requests: v.array(RequestSchema) })
export const TokenListSchema = v.object({ tokens: v.array(ApprovedTokenSchema) })
export const WindowListSchema = v.object({ windows: v.array(WindowSchema) })
export const WindowAnswerSchema = v.object({ window: WindowSchema })
export const EditedWindowSchema = v.object({ success: v.literal(true), window: WindowSchema })
export const LiveStateSchema = v.looseObject({ version: count })

const ClipRef = { part: v.picklist(['ocf', 'sound']), clip: text }

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
  notes: v.array(v.object({ name: v.optional(text), message: text })),
})

const PartMedia = v.nullable(v.object({ files: count, size: count }))
const CopyPart = v.picklist(['ocf', 'sound'])

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
  copies: v.array(
    v.object({
      part: CopyPart,
      volume: text,
      present: count,
      expected: count,
      failed: count,
      noHash: count,
      verified: count,
    }),
  ),
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
      count,
      findings: v.array(
        v.object({
          part: v.optional(CopyPart),
          clip: v.optional(text),
          volume: v.optional(text),
          reel: v.optional(text),
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
      volumes: v.array(v.object({ volume: text, present: count, failed: count, noHash: count, missing: count })),
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

export const SyncStatusSchema = v.variant('linked', [
  v.object({ linked: v.literal(false), conflicts: ConflictsSchema }),
  v.object({
    linked: v.literal(true),
    production: text,
    unit: text,
    lastSync: v.nullable(text),
    pending: count,
    error: v.nullable(text),
    refused: v.array(v.object({ id: text, rev: text, way: v.picklist(['push', 'pull']), error: text })),
    conflicts: ConflictsSchema,
  }),
])

export const ConflictListSchema = v.object({
  conflicts: v.array(
    v.object({
      id: text,
      keptHere: v.boolean(),
      versions: v.array(
        v.object({
          rev: text,
          deleted: v.boolean(),
          served: v.boolean(),
          owner: v.nullable(text),
          day: v.optional(count),
          date: v.optional(text),
          unit: v.optional(v.nullable(text)),
          clips: v.optional(count),
        }),
      ),
    }),
  ),
})

export const ResolvedSchema = v.object({ success: v.literal(true), rev: text })

import * as v from 'valibot'
import { append } from '../shared/lists'
import { isTimeZone } from '../shared/time-zone'
import type { IssueDetail } from '../shared/problem'
import { toDetails } from './issues'
import { looseObject, record } from './shapes'

const RESERVED_NAMES = new Set(['settings', 'shared', 'templates'])
const NAME_FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f]/

export const ProjectNameSchema = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must be 1 to 100 characters'),
  v.maxLength(100, 'must be 1 to 100 characters'),
  v.check((name) => !NAME_FORBIDDEN.test(name), 'must not contain < > : " / \\ | ? * or control characters'),
  v.check((name) => name.trim() === name, 'must not start or end with spaces'),
  v.check((name) => !RESERVED_NAMES.has(name.toLowerCase()), 'is a reserved name'),
)

const PresetId = v.pipe(v.string('must be a string'), v.length(5, 'must be exactly 5 characters'))
const Label = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'))
const Delimiter = v.picklist([',', ';', '|', ':', '='], 'must be one of , ; | : =')
const KeyName = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must be 1 to 80 characters'),
  v.maxLength(80, 'must be 1 to 80 characters'),
)

const RESERVED_LOG_KEYS = [
  'id',
  'day',
  'date',
  'unit',
  'ocf',
  'sound',
  'proxy',
  'custom',
  'match_schema',
  'match_sound',
  'version',
]
const RESERVED_CLIP_KEYS = ['clip', 'size', 'duration', 'proxy', 'sound']

/**
 * Camera metadata a schema's clip field may mirror instead of declaring its own value: every
 * member of the reference application's camera metadata (its CameraMetadataEnum), `clip` included.
 */
const OCF_METADATA = [
  'clip',
  'tc_start',
  'tc_end',
  'duration',
  'camera_model',
  'reel',
  'fps',
  'sensor_fps',
  'lens',
  'shutter',
  'resolution',
  'codec',
  'gamma',
  'ei',
  'wb',
  'tint',
  'lut',
] as const

export const FIELD_TYPES = ['text', 'text_list', 'text_list_list', 'kv_map', 'kv_map_list'] as const

const fieldOptions = {
  column: v.optional(v.string('must be a string')),
  delimiter: v.optional(Delimiter),
  primary_delimiter: v.optional(Delimiter),
  secondary_delimiter: v.optional(Delimiter),
}

const ValueField = (reserved: string[]) =>
  looseObject({
    type: v.picklist(FIELD_TYPES, `must be one of ${FIELD_TYPES.join(', ')}`),
    key_name: v.pipe(
      KeyName,
      v.check((k) => !reserved.includes(k), `must not be one of ${reserved.join(', ')}`),
    ),
    subfields: v.optional(v.array(looseObject({ key_name: KeyName }), 'must be an array of {key_name}')),
    ...fieldOptions,
  })

const LogFieldSchema = ValueField(RESERVED_LOG_KEYS)
const ClipFieldSchema = v.union([
  ValueField(RESERVED_CLIP_KEYS),
  looseObject({ type: v.picklist(OCF_METADATA), column: v.optional(v.string('must be a string')) }),
])

const CustomSchemaSchema = looseObject({
  id: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must be 1 to 80 characters'),
    v.maxLength(80, 'must be 1 to 80 characters'),
  ),
  order: v.optional(v.pipe(v.number('must be a whole number'), v.integer('must be a whole number'))),
  active: v.optional(v.boolean('must be true or false')),
  sync: v.picklist(['clip', 'tc'], 'must be "clip" or "tc"'),
  csv_import: v.optional(v.boolean('must be true or false')),
  log_fields: v.optional(v.array(LogFieldSchema, 'must be an array of fields')),
  clip_fields: v.optional(v.array(ClipFieldSchema, 'must be an array of fields')),
})

const PDF_TEMPLATES = ['clips-report', 'data-report'] as const
/** The reference application's stock report templates; any other name is a template of the user's. */
const REACT_TEMPLATES: Record<string, (typeof PDF_TEMPLATES)[number]> = {
  'ClipsReport.tsx': 'clips-report',
  'DataReport.tsx': 'data-report',
}

export const CLIP_COLUMNS = [
  'clip',
  'tc_start',
  'tc_end',
  'duration',
  'fps',
  'sensor_fps',
  'size',
  'camera_model',
  'reel',
  'lens',
  'shutter',
  'resolution',
  'codec',
  'gamma',
  'ei',
  'wb',
  'tint',
  'lut',
  'copies',
] as const

const PdfOptionsSchema = looseObject({
  page_size: v.optional(v.picklist(['A4', 'Letter'], 'must be "A4" or "Letter"')),
  orientation: v.optional(v.picklist(['portrait', 'landscape'], 'must be "portrait" or "landscape"')),
  // Built-in clip columns, or `custom:<schema id>.<key_name>` for a custom-schema clip field.
  columns: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string('must be a string'),
          v.check(
            (c) => (CLIP_COLUMNS as readonly string[]).includes(c) || /^custom:[^.]+\..+$/.test(c),
            `must be one of ${CLIP_COLUMNS.join(', ')} or custom:<schema>.<field>`,
          ),
        ),
        'must be an array of column names',
      ),
      v.minLength(1, 'must name at least one column'),
    ),
  ),
})

const PdfPresetSchema = v.pipe(
  looseObject({
    id: PresetId,
    label: Label,
    output_name: v.pipe(
      v.string('must be a string'),
      v.regex(/^[A-Za-z0-9<>_-]+\.pdf$/, 'must be letters, digits, _ - and tags, ending in .pdf'),
    ),
    template: v.optional(v.picklist(PDF_TEMPLATES, `must be one of ${PDF_TEMPLATES.join(', ')}`)),
    // The reference application's template file; a user's own (`CameraReport_v2.jsx`) is kept too.
    react: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must name a template'))),
    enabled: v.optional(v.boolean('must be true or false')),
    options: v.optional(PdfOptionsSchema),
  }),
  v.forward(
    v.check(
      (p) => p.template !== undefined || p.react !== undefined,
      'must name a report: clips-report or data-report',
    ),
    ['template'],
  ),
)

/**
 * The built-in report a preset renders, from `template` or the reference app's `react` name. A
 * template of the user's own (any other `react` name) cannot run here: the clips report stands in.
 */
export const reportOf = (preset: PdfPreset) => preset.template ?? REACT_TEMPLATES[preset.react ?? ''] ?? 'clips-report'

/** The template of the user's a PDF preset names, which the built-in report replaces here. */
export const userReportTemplate = (preset: PdfPreset) =>
  preset.template === undefined && preset.react !== undefined && !(preset.react in REACT_TEMPLATES)
    ? preset.react
    : undefined

export const EMAIL_TEMPLATES = ['plain', 'day-summary'] as const
const REACT_BODIES: Record<string, (typeof EMAIL_TEMPLATES)[number]> = {
  'DaySummary.tsx': 'day-summary',
  'Plain.tsx': 'plain',
}

/**
 * The built-in body an e-mail preset renders (SPEC §5). Defaults apply here, when read: a preset
 * is stored as sent. A template of the user's own renders the day summary, whose figures such
 * templates are for; a preset naming none is the plain message.
 */
export const bodyOf = (preset: EmailPreset): (typeof EMAIL_TEMPLATES)[number] =>
  preset.template ?? (preset.react === undefined ? 'plain' : (REACT_BODIES[preset.react] ?? 'day-summary'))

/** The template of the user's an e-mail preset names, which the built-in body replaces here. */
export const userBodyTemplate = (preset: EmailPreset) =>
  preset.template === undefined && preset.react !== undefined && !(preset.react in REACT_BODIES)
    ? preset.react
    : undefined

const EmailPresetSchema = looseObject({
  id: PresetId,
  label: Label,
  // May be empty, as a new project's day e-mail is: the operator adds recipients in the send
  // window, whose Send refuses a message to no one.
  recipients: v.array(
    v.pipe(v.string('must be a string'), v.trim(), v.email('must be a valid e-mail address')),
    'must be an array of e-mail addresses',
  ),
  subject: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty')),
  attachments: v.optional(v.array(v.string('must be a string'), 'must be an array of PDF preset ids')),
  message: v.optional(v.string('must be a string')),
  template: v.optional(v.picklist(EMAIL_TEMPLATES, 'must be "plain" or "day-summary"')),
  react: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must name a template'))),
  enabled: v.optional(v.boolean('must be true or false')),
})

/**
 * The presets a new project starts with, in the shapes the reference application writes (its stock
 * templates by their `react` names): a clips report, a data report, and a day e-mail to no one until
 * the user adds recipients. The e-mail attaches no PDF preset, so a config that sets only `pdfs`
 * (as many scripts do) replaces the reports without being refused for an attachment naming a report
 * it removed; the operator ticks the reports in the send window. A config PATCHed later with `pdfs`
 * or `emails` replaces them; projects made before they existed keep what they have.
 */
export const defaultPresets = (): Pick<Settings, 'pdfs' | 'emails'> => ({
  pdfs: [
    { id: 'clp01', label: 'Clips report', output_name: 'Clips_<log>.pdf', react: 'ClipsReport.tsx', enabled: true },
    { id: 'dat01', label: 'Data report', output_name: 'Data_<log>.pdf', react: 'DataReport.tsx', enabled: true },
  ],
  emails: [
    {
      id: 'day01',
      label: 'Day e-mail',
      recipients: [],
      subject: '<project> — Day <d> (<yyyy-mm-dd>)',
      attachments: [],
      react: 'DaySummary.tsx',
      enabled: true,
    },
  ],
})

/** A preset is offered unless it says `enabled: false`. */
export const isEnabled = (preset: { enabled?: boolean }) => preset.enabled !== false

/** SPEC §5. Unknown settings are kept: other tools of the reference app store their own. */
export const SettingsSchema = looseObject({
  project_name: ProjectNameSchema,
  logid_template: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.regex(/^(?:[A-Za-z0-9_-]|<[^<>]+>)*$/, 'must be letters, digits, _ - and <tags>'),
      v.check((t) => !t.includes('<log>'), 'must not contain <log>'),
    ),
  ),
  unit: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.check((u) => !u.includes('<unit>'), 'must not contain <unit>'),
    ),
  ),
  custom_info: v.optional(
    v.array(record(v.string('must be a string'), 'must be a map of strings'), 'must be an array of key/value maps'),
  ),
  default_ocf_paths: v.optional(v.array(v.string('must be a string'), 'must be an array of strings')),
  default_sound_paths: v.optional(v.array(v.string('must be a string'), 'must be an array of strings')),
  default_proxy_path: v.optional(v.string('must be a string')),
  match_sound: v.optional(v.boolean('must be true or false')),
  match_schemas: v.optional(v.boolean('must be true or false')),
  custom_schemas: v.optional(v.array(CustomSchemaSchema, 'must be an array of schemas')),
  pdfs: v.optional(v.array(PdfPresetSchema, 'must be an array of PDF presets')),
  emails: v.optional(v.array(EmailPresetSchema, 'must be an array of e-mail presets')),
  /** Where "generated" stamps are read; a new project takes the laptop's zone, one without it is UTC. */
  time_zone: v.optional(
    v.pipe(v.string('must be a string'), v.check(isTimeZone, 'must be an IANA time zone such as Europe/Berlin or UTC')),
  ),
  version: v.optional(v.literal(1, 'must be 1')),
})

type Row = Record<string, unknown>
const rows = (value: unknown): Row[] =>
  Array.isArray(value) ? value.map((r) => (r && typeof r === 'object' ? (r as Row) : {})) : []

/** Duplicate strings of `key` among the rows, as details on the later rows. */
function duplicates(list: Row[], key: string, at: string, message: string): IssueDetail[] {
  const seen = new Set<unknown>()
  const details: IssueDetail[] = []
  list.forEach((row, i) => {
    const k = row[key]
    if (typeof k !== 'string') return
    if (seen.has(k)) details.push({ prop: `${at}.${i}`, message })
    seen.add(k)
  })
  return details
}

/**
 * Rules across items (unique ids, attachments naming PDF presets). Kept apart from the schema so
 * they are reported together with every other issue: valibot skips checks on arrays with issues.
 */
function crossIssues(settings: Row): IssueDetail[] {
  const details: IssueDetail[] = []
  const schemas = rows(settings.custom_schemas)
  append(details, duplicates(schemas, 'id', 'custom_schemas', 'id must be unique'))
  schemas.forEach((schema, i) => {
    for (const fields of ['log_fields', 'clip_fields']) {
      append(
        details,
        duplicates(
          rows(schema[fields]),
          'key_name',
          `custom_schemas.${i}.${fields}`,
          'key_name must be unique within the schema',
        ),
      )
    }
  })
  const pdfs = rows(settings.pdfs)
  append(details, duplicates(pdfs, 'id', 'pdfs', 'id must be unique'))
  const emails = rows(settings.emails)
  append(details, duplicates(emails, 'id', 'emails', 'id must be unique'))
  const pdfIds = new Set(pdfs.map((p) => p.id))
  emails.forEach((email, i) => {
    if (!Array.isArray(email.attachments)) return
    email.attachments.forEach((id, j) => {
      if (typeof id === 'string' && !pdfIds.has(id))
        details.push({ prop: `emails.${i}.attachments.${j}`, message: `names no PDF preset: ${id}` })
    })
  })
  return details
}

/**
 * Validates whole settings. They are kept as sent (SPEC §5): the schema adds no defaults, and the
 * input, not valibot's copy of it, is what is stored.
 */
export function checkSettings(input: Row): { settings?: Settings; details: IssueDetail[] } {
  const result = v.safeParse(SettingsSchema, input)
  const details = [...(result.success ? [] : toDetails(result.issues)), ...crossIssues(input)]
  return details.length ? { details } : { settings: input as Settings, details }
}

export type Settings = v.InferOutput<typeof SettingsSchema>
export type CustomSchema = v.InferOutput<typeof CustomSchemaSchema>
export type PdfPreset = v.InferOutput<typeof PdfPresetSchema>
export type EmailPreset = v.InferOutput<typeof EmailPresetSchema>

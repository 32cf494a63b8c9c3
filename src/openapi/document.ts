/**
 * GET /openapi.json: the service's contract as an OpenAPI 3.1 document. Request bodies are the
 * valibot schemas the routes validate with, converted by @valibot/to-json-schema (checks it cannot
 * express, such as a real calendar date, are left to the prose of the README); answers are the
 * shapes in shapes.ts. A test holds the operations here to the router's table, both ways.
 */
import { toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { WindowEditSchema, WindowSendSchema } from '../mail/schemas'
import { LogSchema } from '../schemas/log'
import {
  AuthRequestSchema,
  ChecksQuerySchema,
  CreateProjectSchema,
  DecisionSchema,
  GeneratePdfSchema,
  ImportSchema,
  LoadProjectSchema,
  OpenEmailWindowSchema,
  SignInSchema,
} from '../schemas/requests'
import { SettingsSchema } from '../schemas/settings'
import * as shapes from './shapes'

type Who = 'anyone' | 'application' | 'operator'

/** One endpoint. `ok`: the success status and its body (a schema, or a media type for files and pages). */
type Operation = {
  method: 'get' | 'post' | 'patch' | 'delete'
  path: string
  summary: string
  /** What a caller must know beyond the summary and the shapes. */
  description?: string
  tag: 'Logs' | 'Projects' | 'Reports and e-mail' | 'Checks' | 'Service' | 'Approval' | 'Operator'
  who: Who
  /** A valibot schema, or a JSON Schema made from one (a PATCH's partial). */
  body?: v.GenericSchema | Record<string, unknown>
  query?: Record<string, { description: string; schema: object }>
  ok: [status: number, body: v.GenericSchema | string]
  /** Another success status with the same body, and what it means. */
  alsoOk?: [status: number, description: string]
  errors: number[]
  example?: { request?: unknown; response?: unknown }
}

const EXAMPLE_LOG = {
  id: 'D001',
  day: 1,
  date: '2024-03-01',
  ocf: {
    copies: ['SSD_01', 'RAID_A'],
    clips: [
      {
        clip: 'A001C001_240301_R1AB',
        size: 1234567890,
        fps: 24,
        tc_start: '10:00:00:00',
        tc_end: '10:01:00:00',
        reel: 'A001',
        copies: [
          { volume: 'SSD_01', hash: 'xxh64:ef46db3751d8e999' },
          { volume: 'RAID_A', hash: 'xxh64:ef46db3751d8e999' },
        ],
      },
    ],
  },
  version: 1,
}

/** A classic MHL of the example log's one clip, as an offload tool writes it after copying to a shuttle. */
const EXAMPLE_MHL = `<?xml version="1.0" encoding="UTF-8"?>
<hashlist version="1.1">
  <creatorinfo><tool>offload</tool><startdate>2024-03-01T19:00:00Z</startdate></creatorinfo>
  <hash>
    <file>A001C001_240301_R1AB.mxf</file>
    <size>1234567890</size>
    <xxhash64be>ef46db3751d8e999</xxhash64be>
  </hash>
</hashlist>
`

/** A query parameter as ChecksQuerySchema reads it: the text, before it is turned into a number. */
const dayQuery = (name: 'from' | 'to') =>
  (jsonSchema(ChecksQuerySchema, 'input') as { properties: Record<string, object> }).properties[name]!

const ID = 'the log, project request, token or window id (URL-encoded)'

const OPERATIONS: Operation[] = [
  // logs
  {
    method: 'post',
    path: '/log',
    summary: 'Create a log (one shooting day) in the active project',
    tag: 'Logs',
    who: 'application',
    body: LogSchema,
    ok: [201, shapes.SuccessSchema],
    errors: [400, 401, 409, 413, 415],
    example: { request: EXAMPLE_LOG, response: { success: true } },
  },
  {
    method: 'get',
    path: '/log/{id}',
    summary: 'A log, exactly as stored',
    tag: 'Logs',
    who: 'application',
    ok: [200, LogSchema],
    errors: [400, 401, 404],
    example: { response: EXAMPLE_LOG },
  },
  {
    method: 'patch',
    path: '/log/{id}',
    summary: 'Replace the top-level properties a patch names; another `id` renames the log',
    tag: 'Logs',
    who: 'application',
    body: partial(LogSchema),
    ok: [200, shapes.PatchedLogSchema],
    errors: [400, 401, 404, 409, 413, 415],
    example: { request: { unit: '2nd Unit' }, response: { success: true, data: { ...EXAMPLE_LOG, unit: '2nd Unit' } } },
  },
  {
    method: 'delete',
    path: '/log/{id}',
    summary: 'Delete a log',
    tag: 'Logs',
    who: 'application',
    ok: [200, shapes.SuccessSchema],
    errors: [400, 401, 404],
  },
  {
    method: 'post',
    path: '/log/{id}/import',
    summary:
      'Merge what offload tools and cameras wrote (ASC MHL folders, classic MHL, ALE, CSV and ALE transfer reports) into a log, made when new; files as text or base64',
    description: [
      'A camera’s ALE (or a CSV listing clips without copies) is the day’s record of what was recorded. A clip of',
      '`ocf.clips` must have a size and copies, so the list is held apart, in the log’s `ocf.recorded`: an entry a',
      'clip, `{clip, list, source_file?, reel?, metadata?}`, `list` the file’s name and `metadata` the row’s fields',
      'while no copy of the clip is on a volume (the clip a copy makes takes them). Either order of import gives the',
      'same log. The checks find `recorded-not-copied` (error) and `not-in-camera-list` (warning) from it.',
      'Transfer reports (`ale-transfer`, `csv-transfer` in `files`) give copies as an MHL does, each hash column',
      'labelled by algorithm (`md5:`, `sha1:`, `xxh64:` big-endian, `xxhash64:` where the column says little-endian).',
      'A file that is none of these is in `unreadable`, named for what it looks like (an Avid bin, a Resolve timeline',
      'export, a still image list) with what to export instead.',
    ].join(' '),
    tag: 'Logs',
    who: 'application',
    body: ImportSchema,
    // The example merges into the example log: 200. Nothing is written when nothing changed.
    ok: [200, shapes.ImportAnswerSchema],
    alsoOk: [201, 'The log did not exist: the import made it'],
    errors: [400, 401, 409, 413, 415],
    example: {
      request: {
        files: [
          {
            name: '/Volumes/SHUTTLE_A/D001/A001.mhl',
            content: EXAMPLE_MHL,
          },
        ],
      },
      response: {
        success: true,
        created: false,
        added: [],
        changed: [{ part: 'ocf', clip: 'A001C001_240301_R1AB', fields: ['copies'] }],
        files: [{ name: '/Volumes/SHUTTLE_A/D001/A001.mhl', format: 'mhl', volume: 'SHUTTLE_A', clips: 1 }],
        unreadable: [],
        notes: [],
      },
    },
  },
  {
    method: 'get',
    path: '/logs',
    summary: "The active project's logs, by day, date and id",
    tag: 'Logs',
    who: 'application',
    ok: [200, shapes.LogListSchema],
    errors: [401],
  },
  {
    method: 'get',
    path: '/log/{id}/checks',
    summary: "A day's checks: copies and hashes, clip numbers, proxies, sound, sizes",
    tag: 'Checks',
    who: 'application',
    ok: [200, shapes.DayChecksSchema],
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/checks',
    summary: 'The checks of a range of days, with reel gaps and clips logged on two days',
    tag: 'Checks',
    who: 'application',
    query: {
      from: { description: 'first day: a day number (1–999) or a date YYYY-MM-DD', schema: dayQuery('from') },
      to: { description: 'last day, included: a day number or a date', schema: dayQuery('to') },
    },
    ok: [200, shapes.RangeChecksSchema],
    errors: [400, 401],
  },
  // service
  {
    method: 'get',
    path: '/ping',
    summary: 'Liveness, and whether a project is loaded',
    tag: 'Service',
    who: 'anyone',
    ok: [200, shapes.PingSchema],
    errors: [],
  },
  {
    method: 'get',
    path: '/version',
    summary: 'The service and interface versions',
    tag: 'Service',
    who: 'anyone',
    ok: [200, shapes.VersionSchema],
    errors: [],
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    tag: 'Service',
    who: 'anyone',
    ok: [200, 'application/json'],
    errors: [],
  },
  {
    method: 'post',
    path: '/auth',
    summary: 'Ask the operator for a token; answered when the operator decides (or it times out)',
    tag: 'Approval',
    who: 'anyone',
    body: AuthRequestSchema,
    ok: [200, shapes.TokenSchema],
    errors: [400, 403, 408, 413, 415, 429],
    example: { request: { appName: 'Offload Tool', code: 'K7QM-2XPD' }, response: { token: 'mls_…' } },
  },
  // projects
  {
    method: 'post',
    path: '/project/create',
    summary: 'Create a project and make it the active one',
    tag: 'Projects',
    who: 'application',
    body: CreateProjectSchema,
    ok: [201, shapes.CreatedProjectSchema],
    errors: [400, 401, 409, 415],
    example: { request: { project_name: 'Feature Film' } },
  },
  {
    method: 'post',
    path: '/project/load',
    summary: 'Make a project the active one, by its path',
    tag: 'Projects',
    who: 'application',
    body: LoadProjectSchema,
    ok: [200, shapes.SuccessSchema],
    errors: [400, 401, 404, 415],
  },
  {
    method: 'get',
    path: '/projects',
    summary: 'Every project',
    tag: 'Projects',
    who: 'application',
    ok: [200, shapes.ProjectListSchema],
    errors: [401],
  },
  {
    method: 'get',
    path: '/project',
    summary: "The active project's settings and its id, path and creation time",
    tag: 'Projects',
    who: 'application',
    ok: [200, shapes.ActiveProjectSchema],
    errors: [401, 409],
  },
  {
    method: 'get',
    path: '/project/config',
    summary: "The active project's settings",
    tag: 'Projects',
    who: 'application',
    ok: [200, SettingsSchema],
    errors: [401, 409],
  },
  {
    method: 'patch',
    path: '/project/config',
    summary: "Merge settings into the active project's (top level), then check them whole",
    tag: 'Projects',
    who: 'application',
    body: partial(SettingsSchema),
    ok: [200, shapes.PatchedSettingsSchema],
    errors: [400, 401, 409, 413, 415],
    example: { request: { unit: 'Main Unit' } },
  },
  {
    method: 'get',
    path: '/pdf-presets',
    summary: 'The PDF presets',
    tag: 'Projects',
    who: 'application',
    query: { enabled: { description: '`true` or `false`: only those', schema: { enum: ['true', 'false'] } } },
    ok: [200, shapes.PresetListSchema],
    errors: [400, 401, 409],
  },
  {
    method: 'get',
    path: '/email-presets',
    summary: 'The e-mail presets',
    tag: 'Projects',
    who: 'application',
    query: { enabled: { description: '`true` or `false`: only those', schema: { enum: ['true', 'false'] } } },
    ok: [200, shapes.PresetListSchema],
    errors: [400, 401, 409],
  },
  // reports and e-mail
  {
    method: 'post',
    path: '/generate-pdf',
    summary: 'Draw a PDF report of one log or several',
    tag: 'Reports and e-mail',
    who: 'application',
    body: GeneratePdfSchema,
    ok: [200, shapes.PdfSchema],
    errors: [400, 401, 404, 415],
    example: { request: { presetId: 'clips', logId: ['D001', 'D002'] } },
  },
  {
    method: 'post',
    path: '/open-email-window',
    summary: 'Prepare the e-mail of some days for the operator to check and send',
    tag: 'Reports and e-mail',
    who: 'application',
    body: OpenEmailWindowSchema,
    ok: [200, shapes.SuccessSchema],
    errors: [400, 401, 404, 415, 429],
    example: { request: { logId: 'D001', presetId: 'daily' }, response: { success: true } },
  },
  // the operator console
  {
    method: 'get',
    path: '/approve',
    summary: 'The operator console (HTML); `?key=` signs in once',
    tag: 'Operator',
    who: 'anyone',
    query: { key: { description: 'the operator key, once, from the printed link', schema: { type: 'string' } } },
    ok: [200, 'text/html'],
    errors: [401],
  },
  {
    method: 'get',
    path: '/approve/console/{file}',
    summary: "One module of the console's script",
    tag: 'Operator',
    who: 'anyone',
    ok: [200, 'text/javascript'],
    errors: [404],
  },
  {
    method: 'get',
    path: '/approve/console.css',
    summary: "The console's style",
    tag: 'Operator',
    who: 'anyone',
    ok: [200, 'text/css'],
    errors: [],
  },
  {
    method: 'post',
    path: '/approve/session',
    summary: 'Sign in with the operator key: a session cookie and the CSRF token',
    tag: 'Operator',
    who: 'anyone',
    body: SignInSchema,
    ok: [200, shapes.SignedInSchema],
    errors: [400, 401, 403, 415],
  },
  {
    method: 'delete',
    path: '/approve/session',
    summary: 'Sign out',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SuccessSchema],
    errors: [401, 403],
  },
  {
    method: 'get',
    path: '/approve/state',
    summary: 'What the console shows, held until it changes (`?since=`, `?wait=` seconds)',
    tag: 'Operator',
    who: 'operator',
    query: {
      since: { description: 'the version the console has', schema: { type: 'string' } },
      wait: { description: 'seconds to hold the answer for a change', schema: { type: 'string' } },
    },
    ok: [200, shapes.LiveStateSchema],
    errors: [400, 401, 403],
  },
  {
    method: 'get',
    path: '/approve/requests',
    summary: 'Applications waiting for approval',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.RequestListSchema],
    errors: [401, 403],
  },
  {
    method: 'post',
    path: '/approve/requests/{id}',
    summary: 'Approve or deny a waiting application',
    tag: 'Operator',
    who: 'operator',
    body: DecisionSchema,
    ok: [200, shapes.SuccessSchema],
    errors: [400, 401, 403, 404, 409, 415],
    example: { request: { decision: 'approve' } },
  },
  {
    method: 'get',
    path: '/approve/tokens',
    summary: 'Connected applications',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.TokenListSchema],
    errors: [401, 403],
  },
  {
    method: 'delete',
    path: '/approve/tokens/{id}',
    summary: "Revoke an application's token",
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SuccessSchema],
    errors: [401, 403, 404],
  },
  {
    method: 'get',
    path: '/approve/windows',
    summary: 'E-mails waiting to be sent',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.WindowListSchema],
    errors: [401, 403],
  },
  {
    method: 'get',
    path: '/approve/windows/{id}',
    summary: 'One e-mail window',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.WindowAnswerSchema],
    errors: [401, 403, 404],
  },
  {
    method: 'patch',
    path: '/approve/windows/{id}',
    summary: "Edit an e-mail's recipients, subject, message or attachments, or mark it as looked at",
    description:
      '`{seen: fingerprint}`, alone, marks the window as looked at in the version that fingerprint names: ' +
      'its `updated` is null until its logs or settings move again. A fingerprint of an older version ' +
      'answers 409 `{error, window}` with the window as it reads now.',
    tag: 'Operator',
    who: 'operator',
    body: WindowEditSchema,
    ok: [200, shapes.EditedWindowSchema],
    errors: [400, 401, 403, 404, 409, 415],
  },
  {
    method: 'delete',
    path: '/approve/windows/{id}',
    summary: 'Discard an e-mail window',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SuccessSchema],
    errors: [401, 403, 404, 409],
  },
  {
    method: 'post',
    path: '/approve/windows/{id}/send',
    summary: 'Send an e-mail through the configured provider, as it was shown',
    description:
      'The body names the message the caller looked at: the `fingerprint` of the window as ' +
      '`GET /approve/windows/{id}` (or the console) listed it, a hash of exactly what would be sent. ' +
      'It is required. When the message would differ now (its logs or settings were written, the ' +
      'draft was edited), nothing is sent and the answer is 409 `{error, window}` with the window as ' +
      'it reads now: look at it, then send again with its fingerprint. A script must look at ' +
      '`window.checks` itself before sending: the console asks before sending with errors, the API does not.',
    tag: 'Operator',
    who: 'operator',
    body: WindowSendSchema,
    ok: [200, shapes.EditedWindowSchema],
    errors: [400, 401, 403, 404, 409, 415, 502],
    example: { request: { fingerprint: '3f1c9a0e5b7d2c4f8a6e1b3d5c7f9a2e4b6d8c0f1a3e5b7d9c2f4a6e8b0d1c3f' } },
  },
  {
    method: 'get',
    path: '/approve/windows/{id}/attachments/{presetId}',
    summary: "One of an e-mail's PDFs, drawn now",
    tag: 'Operator',
    who: 'operator',
    ok: [200, 'application/pdf'],
    errors: [401, 403, 404],
  },
  {
    method: 'get',
    path: '/approve/windows/{id}/message.eml',
    summary: 'The whole message as a .eml file',
    tag: 'Operator',
    who: 'operator',
    ok: [200, 'message/rfc822'],
    errors: [401, 403, 404, 409],
  },
]

const ERRORS: Record<number, string> = {
  400: 'Validation Error: `details` names every failing property',
  401: 'Unauthorized: no token, an unknown or revoked one (or no operator session)',
  403: 'Refused: not approved, a Host not allowed, a cross-site operator request',
  404: 'Not found (the log, project, preset, request, window or path)',
  408: 'Timed out: the approval, or a body that did not arrive in time',
  409: 'Conflict: No Project Loaded, Log already exists, … (an e-mail that changed since it was shown: `{error, window}`)',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type: bodies are application/json',
  429: 'Too many: waiting approvals or unsent e-mails',
  502: 'The e-mail provider refused the message or could not be reached',
}

const SECURITY: Record<Who, Array<Record<string, string[]>>> = {
  anyone: [],
  application: [{ apiToken: [] }],
  operator: [{ operatorKey: [] }, { operatorSession: [] }],
}

/**
 * A valibot schema as JSON Schema 2020-12, OpenAPI 3.1's dialect: the values a body may hold
 * (`ignore`: through the pipelines' transforms), or a query's text (`input`). Every object of the service
 * starts with a check that refuses arrays (schemas/shapes.ts), a custom schema the converter
 * cannot read: it stands for "an object" here.
 */
function jsonSchema(schema: v.GenericSchema, typeMode: 'ignore' | 'input' = 'ignore'): Record<string, unknown> {
  const { $schema: _, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore',
    overrideSchema: ({ valibotSchema }) => (valibotSchema.type === 'custom' ? { type: 'object' } : undefined),
  }) as Record<string, unknown>
  return rest
}

/** A PATCH body: the schema's properties, none of them required (the stored ones fill in). */
function partial(schema: v.GenericSchema): Record<string, unknown> {
  const { required: _, ...rest } = jsonSchema(schema)
  return rest
}

const errorResponse = (status: number) => ({
  description: ERRORS[status]!,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

function operationObject(op: Operation) {
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: ID,
    schema: { type: 'string' },
  }))
  const queries = Object.entries(op.query ?? {}).map(([name, { description, schema }]) => ({
    name,
    in: 'query',
    required: false,
    description,
    schema,
  }))
  const [status, body] = op.ok
  const content =
    typeof body === 'string'
      ? { [body]: { schema: { type: 'string' } } }
      : {
          'application/json': {
            schema: jsonSchema(body),
            ...(op.example?.response !== undefined && { example: op.example.response }),
          },
        }
  return {
    operationId: `${op.method}${op.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => (c ?? '').toUpperCase())}`,
    summary: op.summary,
    ...(op.description && { description: op.description }),
    tags: [op.tag],
    security: SECURITY[op.who],
    ...(params.length + queries.length && { parameters: [...params, ...queries] }),
    ...(op.body && {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: '~standard' in op.body ? jsonSchema(op.body as v.GenericSchema) : op.body,
            ...(op.example?.request !== undefined && { example: op.example.request }),
          },
        },
      },
    }),
    responses: {
      [status]: { description: 'Success', content },
      ...(op.alsoOk && { [op.alsoOk[0]]: { description: op.alsoOk[1], content } }),
      ...Object.fromEntries(op.errors.map((s) => [s, errorResponse(s)])),
    },
  }
}

let built: object | undefined

/** The document, built once per isolate. */
export function openApiDocument(version: string): object {
  if (built) return built
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op)
  built = {
    openapi: '3.1.0',
    info: {
      title: 'Media-Log Service',
      version,
      description:
        "A shooting day's logs over HTTP/JSON, approved per application by the DIT, with PDF reports, e-mail and day checks. Interface 0.1.0 and its extensions.",
    },
    servers: [{ url: 'http://localhost:5252' }],
    tags: ['Logs', 'Checks', 'Projects', 'Reports and e-mail', 'Service', 'Approval', 'Operator'].map((name) => ({
      name,
    })),
    paths,
    components: {
      schemas: { Error: jsonSchema(shapes.ErrorSchema) },
      securitySchemes: {
        apiToken: { type: 'apiKey', in: 'header', name: 'x-api-token', description: 'A token from POST /auth' },
        operatorKey: { type: 'apiKey', in: 'header', name: 'x-operator-key', description: "The operator's key" },
        operatorSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'mls_operator',
          description: 'The console session (every call also sends x-csrf-token); named __Host-mls_operator over HTTPS',
        },
      },
    },
  }
  return built
}

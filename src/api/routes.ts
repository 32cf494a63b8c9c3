/**
 * The service's routes, declared once. Each names its method and path, who may call it, the
 * schema its body is validated with, the shape of its answer, the refusals it can give, and an
 * example. The router binds a handler to each (router.ts), GET /openapi.json is built from them
 * (openapi/document.ts), and the typed client calls them by name (client/index.ts).
 *
 * The order is the router's: the table is tried from the top, one pattern match per route of the
 * request's method, so the routes clients call all day come first.
 */
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
  LinkCodeRequestSchema,
  LinkSchema,
  LoadProjectSchema,
  ResolveSchema,
  OpenEmailWindowSchema,
  ReadBackSchema,
  VolumeRenameSchema,
  SignInSchema,
  SyncChangesQuerySchema,
  SyncLeafQuerySchema,
  SyncMissingSchema,
  SyncProjectQuerySchema,
  SyncVersionQuerySchema,
} from '../schemas/requests'
import { SettingsSchema } from '../schemas/settings'
import { EXAMPLE_LOG, EXAMPLE_MHL } from './examples'
import * as shapes from './shapes'

/** Who may call a route: anyone, an approved application (x-api-token), the operator (key or console session). */
export type Who = 'anyone' | 'application' | 'operator'

type Tag = 'Logs' | 'Projects' | 'Reports and e-mail' | 'Checks' | 'Units' | 'Service' | 'Approval' | 'Operator'

/** One route. `ok`: the success status and its body (a schema, or a media type for files and pages). */
export type Route = {
  method: 'get' | 'post' | 'patch' | 'delete'
  /** OpenAPI's form: `/log/{id}`. */
  path: string
  summary: string
  /** What a caller must know beyond the summary and the shapes. */
  description?: string
  tag: Tag
  who: Who
  body?: v.GenericSchema
  /** The body is a patch: the schema's properties, none of them required. */
  partial?: true
  /**
   * Query parameters: what each means, and its JSON Schema, or the valibot object schema the
   * route reads the query with (`in`), whose property of that name the document shows.
   */
  query?: Record<string, { description: string } & ({ schema: object } | { in: v.GenericSchema })>
  ok: readonly [status: number, body: v.GenericSchema | string]
  /** Another success status with the same body, and what it means. */
  alsoOk?: readonly [status: number, description: string]
  errors: readonly number[]
  example?: { request?: unknown; response?: unknown }
  /**
   * A GET answered with an entity tag of what the answer is made from, kept by the client
   * (`Cache-Control: private, no-cache`); a request naming the tag (If-None-Match) is answered 304
   * with no body, the answer neither read nor computed (http/conditional.ts).
   */
  conditional?: true
}

export const ID = 'the log, project request, token or window id (URL-encoded)'

/** A range of days as GET /checks, the range PDFs and the console's range take it. */
const DAY_RANGE = {
  from: { description: 'first day: a day number (1–999) or a date YYYY-MM-DD', in: ChecksQuerySchema },
  to: { description: 'last day, included: a day number or a date', in: ChecksQuerySchema },
}

export const ROUTES = {
  // logs
  createLog: {
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
  getLog: {
    method: 'get',
    conditional: true,
    path: '/log/{id}',
    summary: 'A log, exactly as stored',
    tag: 'Logs',
    who: 'application',
    ok: [200, LogSchema],
    errors: [400, 401, 404],
    example: { response: EXAMPLE_LOG },
  },
  patchLog: {
    method: 'patch',
    path: '/log/{id}',
    summary: 'Replace the top-level properties a patch names; another `id` renames the log',
    tag: 'Logs',
    who: 'application',
    body: LogSchema,
    partial: true,
    ok: [200, shapes.PatchedLogSchema],
    errors: [400, 401, 404, 409, 413, 415],
    example: { request: { unit: '2nd Unit' }, response: { success: true, data: { ...EXAMPLE_LOG, unit: '2nd Unit' } } },
  },
  deleteLog: {
    method: 'delete',
    path: '/log/{id}',
    summary: 'Delete a log',
    tag: 'Logs',
    who: 'application',
    ok: [200, shapes.SuccessSchema],
    errors: [400, 401, 404],
  },
  importFiles: {
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
        noteDetail: [],
      },
    },
  },
  readBack: {
    method: 'post',
    path: '/log/{id}/read-back',
    summary: 'Record what a read-back of one volume found of the day’s clips (what media-log verify sends)',
    description: [
      'Each clip as found on `volume`: `verified` (read and hashed again, equal to the checksum it was copied',
      'with), `failed` (different: `hash` the digest found; the checksum it was copied with is kept as the copy’s',
      '`original`), `missing` (no file of it on the volume), `original` (no checksum anywhere: the one computed',
      'is its first). `hash` is a labelled digest (a sequence’s `xxh64-frames:`), `bad_frames` the frames of a',
      'sequence found different or missing. The copy keeps `action`, `hashdate` and `tool`; the checks and every',
      'surface take its state from them (docs/checks.md). Clips the log does not have are in `unknown`.',
    ].join(' '),
    tag: 'Logs',
    who: 'application',
    body: ReadBackSchema,
    ok: [200, shapes.EditAnswerSchema],
    errors: [400, 401, 404, 413, 415],
    example: {
      request: {
        volume: 'SHUTTLE_A',
        tool: 'media-log 0.1.0',
        clips: [
          {
            part: 'ocf',
            clip: 'A001C001_240301_R1AB',
            found: 'verified',
            hash: 'xxh64:7c3f9a1e5b2d8064',
            hashdate: '2024-03-01T22:14:05Z',
          },
        ],
      },
      response: { success: true, copies: 1, unknown: [] },
    },
  },
  renameVolume: {
    method: 'patch',
    path: '/log/{id}/volumes/{volume}',
    summary: 'Rename a volume of a day: every clip’s copy on it, the day’s copies lists',
    description:
      'For a volume a report named wrong. Refused (400) where the new name already holds a copy of one of the same clips: remove one of the two first.',
    tag: 'Logs',
    who: 'application',
    body: VolumeRenameSchema,
    ok: [200, shapes.EditAnswerSchema],
    errors: [400, 401, 404, 413, 415],
    example: { request: { name: 'areca' }, response: { success: true, copies: 39, unknown: [] } },
  },
  removeVolume: {
    method: 'delete',
    path: '/log/{id}/volumes/{volume}',
    summary: 'Take a volume off a day: every clip’s copy on it, and it from the day’s copies lists',
    tag: 'Logs',
    who: 'application',
    ok: [200, shapes.EditAnswerSchema],
    errors: [400, 401, 404],
  },
  listLogs: {
    method: 'get',
    conditional: true,
    path: '/logs',
    summary: "The active project's logs, by day, date and id",
    tag: 'Logs',
    who: 'application',
    ok: [200, shapes.LogListSchema],
    errors: [401],
  },
  logChecks: {
    method: 'get',
    conditional: true,
    path: '/log/{id}/checks',
    summary: "A day's checks: copies and hashes, clip numbers, proxies, sound, sizes",
    tag: 'Checks',
    who: 'application',
    ok: [200, shapes.DayChecksSchema],
    errors: [400, 401, 404],
  },
  rangeChecks: {
    method: 'get',
    conditional: true,
    path: '/checks',
    summary: 'The checks of a range of days, with reel gaps and clips logged on two days',
    tag: 'Checks',
    who: 'application',
    query: DAY_RANGE,
    ok: [200, shapes.RangeChecksSchema],
    errors: [400, 401],
  },
  // service
  ping: {
    method: 'get',
    path: '/ping',
    summary: 'Liveness, and whether a project is loaded',
    tag: 'Service',
    who: 'anyone',
    ok: [200, shapes.PingSchema],
    errors: [],
  },
  version: {
    method: 'get',
    path: '/version',
    summary: 'The service and interface versions',
    tag: 'Service',
    who: 'anyone',
    ok: [200, shapes.VersionSchema],
    errors: [],
  },
  openApi: {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    tag: 'Service',
    who: 'anyone',
    ok: [200, 'application/json'],
    errors: [],
  },
  requestToken: {
    method: 'post',
    path: '/auth',
    summary: 'Ask the operator for a token; answered when the operator decides (or it times out)',
    tag: 'Approval',
    who: 'anyone',
    body: AuthRequestSchema,
    ok: [200, shapes.TokenSchema],
    errors: [400, 403, 408, 413, 415, 429],
    example: { request: { appName: 'Offload Tool', code: 'K7QM-2XPD' }, response: { token: 'mls_…' } },
    description:
      'On a production (docs/units.md), only with header `X-Link-Code`: a code its operator made for this name, which ' +
      'answers the token at once; without one, 403 before the body is read.',
  },
  // projects
  createProject: {
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
  loadProject: {
    method: 'post',
    path: '/project/load',
    summary: 'Make a project the active one, by its path',
    tag: 'Projects',
    who: 'application',
    body: LoadProjectSchema,
    ok: [200, shapes.SuccessSchema],
    errors: [400, 401, 404, 415],
  },
  listProjects: {
    method: 'get',
    path: '/projects',
    summary: 'Every project',
    tag: 'Projects',
    who: 'application',
    ok: [200, shapes.ProjectListSchema],
    errors: [401],
  },
  getProject: {
    method: 'get',
    path: '/project',
    summary: "The active project's settings and its id, path and creation time",
    tag: 'Projects',
    who: 'application',
    ok: [200, shapes.ActiveProjectSchema],
    errors: [401, 409],
  },
  getConfig: {
    method: 'get',
    path: '/project/config',
    summary: "The active project's settings",
    tag: 'Projects',
    who: 'application',
    ok: [200, SettingsSchema],
    errors: [401, 409],
  },
  patchConfig: {
    method: 'patch',
    path: '/project/config',
    summary: "Merge settings into the active project's (top level), then check them whole",
    tag: 'Projects',
    who: 'application',
    body: SettingsSchema,
    partial: true,
    ok: [200, shapes.PatchedSettingsSchema],
    errors: [400, 401, 409, 413, 415],
    example: { request: { unit: 'Main Unit' } },
  },
  listPdfPresets: {
    method: 'get',
    path: '/pdf-presets',
    summary: 'The PDF presets',
    tag: 'Projects',
    who: 'application',
    query: { enabled: { description: '`true` or `false`: only those', schema: { enum: ['true', 'false'] } } },
    ok: [200, shapes.PresetListSchema],
    errors: [400, 401, 409],
  },
  listEmailPresets: {
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
  generatePdf: {
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
  logPdf: {
    method: 'get',
    conditional: true,
    path: '/log/{id}/pdf/{presetId}',
    summary: "A PDF report of one log, as the file itself (the preset's output_name in Content-Disposition)",
    tag: 'Reports and e-mail',
    who: 'application',
    ok: [200, 'application/pdf'],
    errors: [400, 401, 404],
  },
  rangePdf: {
    method: 'get',
    conditional: true,
    path: '/pdf/{presetId}',
    summary: 'A PDF report of a range of days, as the file itself',
    description: [
      'The logs from `from` to `to`, both included, in log order, as `GET /checks` takes a range: either end a',
      'day number or a date, either left out. A range holding no log is 404 `Log not found`.',
    ].join(' '),
    tag: 'Reports and e-mail',
    who: 'application',
    query: DAY_RANGE,
    ok: [200, 'application/pdf'],
    errors: [400, 401, 404],
  },
  openEmailWindow: {
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
  openConsole: {
    method: 'get',
    path: '/approve',
    summary: 'The operator console (HTML); `?key=` signs in once',
    tag: 'Operator',
    who: 'anyone',
    query: { key: { description: 'the operator key, once, from the printed link', schema: { type: 'string' } } },
    ok: [200, 'text/html'],
    errors: [401],
  },
  consoleScript: {
    method: 'get',
    path: '/approve/console/{file}',
    summary: "One module of the console's script",
    tag: 'Operator',
    who: 'anyone',
    ok: [200, 'text/javascript'],
    errors: [404],
  },
  consoleStyle: {
    method: 'get',
    path: '/approve/console.css',
    summary: "The console's style",
    tag: 'Operator',
    who: 'anyone',
    ok: [200, 'text/css'],
    errors: [],
  },
  consoleIcon: {
    method: 'get',
    path: '/approve/icon.svg',
    summary: "The console's tab icon",
    tag: 'Operator',
    who: 'anyone',
    ok: [200, 'image/svg+xml'],
    errors: [],
  },
  signIn: {
    method: 'post',
    path: '/approve/session',
    summary: 'Sign in with the operator key: a session cookie and the CSRF token',
    tag: 'Operator',
    who: 'anyone',
    body: SignInSchema,
    ok: [200, shapes.SignedInSchema],
    errors: [400, 401, 403, 415],
  },
  signOut: {
    method: 'delete',
    path: '/approve/session',
    summary: 'Sign out',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SuccessSchema],
    errors: [401, 403],
  },
  liveState: {
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
  listRequests: {
    method: 'get',
    path: '/approve/requests',
    summary: 'Applications waiting for approval',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.RequestListSchema],
    errors: [401, 403],
  },
  decideRequest: {
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
  listTokens: {
    method: 'get',
    path: '/approve/tokens',
    summary: 'Connected applications',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.TokenListSchema],
    errors: [401, 403],
  },
  revokeToken: {
    method: 'delete',
    path: '/approve/tokens/{id}',
    summary: "Revoke an application's token",
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SuccessSchema],
    errors: [401, 403, 404],
  },
  makeLinkCode: {
    method: 'post',
    path: '/approve/link-codes',
    summary: "A production's one-time link code for the application named: its POST /auth answers at once",
    description:
      'Deployed, a production admits only applications its operator made a code for: a unit’s cart (`unit`: true, ' +
      'named as its unit) or an office application. The code is shown once, admits one POST /auth (header ' +
      '`X-Link-Code`) asking as that name within 24 hours, and is stored as a digest. 409 on a service that is not a production.',
    tag: 'Operator',
    who: 'operator',
    body: LinkCodeRequestSchema,
    ok: [201, shapes.LinkCodeSchema],
    errors: [400, 401, 403, 409, 415],
    example: {
      request: { name: 'Second unit', unit: true },
      response: {
        id: '3f9c0a7d1e2b4c6a',
        code: '7KQM-2XPD-R4TW-9HNC',
        name: 'Second unit',
        unit: true,
        createdAt: '2026-11-28T09:00:00.000Z',
        expiresAt: '2026-11-29T09:00:00.000Z',
      },
    },
  },
  listLinkCodes: {
    method: 'get',
    path: '/approve/link-codes',
    summary: "A production's link codes not yet used, without the codes",
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.LinkCodeListSchema],
    errors: [401, 403, 409],
  },
  revokeLinkCode: {
    method: 'delete',
    path: '/approve/link-codes/{id}',
    summary: 'Withdraw a link code before it is used',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SuccessSchema],
    errors: [401, 403, 404],
  },
  listWindows: {
    method: 'get',
    path: '/approve/windows',
    summary: 'E-mails waiting to be sent',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.WindowListSchema],
    errors: [401, 403],
  },
  openWindow: {
    method: 'post',
    path: '/approve/windows',
    summary: 'Prepare the e-mail of some days, from the console',
    description:
      'As `POST /open-email-window` for an application; the answer is the window, to look at and send. ' +
      'Without `presetId` the first enabled e-mail preset is used, or none.',
    tag: 'Operator',
    who: 'operator',
    body: OpenEmailWindowSchema,
    ok: [201, shapes.WindowAnswerSchema],
    errors: [400, 401, 403, 404, 415, 429],
    example: { request: { logId: ['D001', 'D002', 'D003'], presetId: 'day01' } },
  },
  getWindow: {
    method: 'get',
    path: '/approve/windows/{id}',
    summary: 'One e-mail window',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.WindowAnswerSchema],
    errors: [401, 403, 404],
  },
  editWindow: {
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
  discardWindow: {
    method: 'delete',
    path: '/approve/windows/{id}',
    summary: 'Discard an e-mail window',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SuccessSchema],
    errors: [401, 403, 404, 409],
  },
  sendWindow: {
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
  downloadAttachment: {
    method: 'get',
    path: '/approve/windows/{id}/attachments/{presetId}',
    summary: "One of an e-mail's PDFs, drawn now",
    tag: 'Operator',
    who: 'operator',
    ok: [200, 'application/pdf'],
    errors: [401, 403, 404],
  },
  downloadEml: {
    method: 'get',
    path: '/approve/windows/{id}/message.eml',
    summary: 'The whole message as a .eml file',
    tag: 'Operator',
    who: 'operator',
    ok: [200, 'message/rfc822'],
    errors: [401, 403, 404, 409],
  },
  // the console's Days view: the active project's days, and one day's findings and copies
  listDays: {
    method: 'get',
    conditional: true,
    path: '/approve/days',
    summary: "The active project's days: parts, each volume's copies, check counts; the presets to use on them",
    description:
      'One row per log in log order (none with no project loaded). `written` changes with every write ' +
      'of the log. `copies` has a chip per volume and part, in the one account of the day’s copies ' +
      '(docs/checks.md): `held` of the `clips` it owes, the `verdict` of its worst state, its `mark` and its ' +
      '`words`. `presets`: the PDF and e-mail presets of the project, disabled ones included (`enabled` says which).',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.DayListSchema],
    errors: [401, 403],
  },
  getDay: {
    method: 'get',
    conditional: true,
    path: '/approve/days/{id}',
    summary: 'One day: its findings naming the clips, and its copies by reel and volume',
    description:
      '`checks`: the findings as lines, a kind (and volume) each, most serious first: `words` the line, ' +
      '`count` how many there are, of which `findings` lists up to 200. `copies`: a line per part and reel ' +
      '(clips without a reel under `""`), a cell per volume of the day, each as a chip is.',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.DayDetailSchema],
    errors: [400, 401, 403, 404],
  },
  dayPdf: {
    method: 'get',
    conditional: true,
    path: '/approve/days/{id}/pdf/{presetId}',
    summary: "A day's PDF report, as the file itself",
    description: 'What `GET /log/{id}/pdf/{presetId}` gives an application, for the console.',
    tag: 'Operator',
    who: 'operator',
    ok: [200, 'application/pdf'],
    errors: [400, 401, 403, 404],
  },
  renameDayVolume: {
    method: 'patch',
    path: '/approve/days/{id}/volumes/{volume}',
    summary: 'Rename a volume of a day, from the console',
    description: 'What `PATCH /log/{id}/volumes/{volume}` does for an application.',
    tag: 'Operator',
    who: 'operator',
    body: VolumeRenameSchema,
    ok: [200, shapes.EditAnswerSchema],
    errors: [400, 401, 403, 404, 413, 415],
  },
  removeDayVolume: {
    method: 'delete',
    path: '/approve/days/{id}/volumes/{volume}',
    summary: 'Take a volume off a day, from the console',
    description: 'What `DELETE /log/{id}/volumes/{volume}` does for an application.',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.EditAnswerSchema],
    errors: [400, 401, 403, 404],
  },
  rangeOfDaysPdf: {
    method: 'get',
    conditional: true,
    path: '/approve/days/pdf/{presetId}',
    summary: 'A PDF report of a range of days (a wrap report), as the file itself',
    description: 'What `GET /pdf/{presetId}` gives an application, for the console.',
    tag: 'Operator',
    who: 'operator',
    query: DAY_RANGE,
    ok: [200, 'application/pdf'],
    errors: [400, 401, 403, 404],
  },
  // units (docs/units.md): a cart and its production exchange versions of logs
  syncStatus: {
    method: 'get',
    path: '/sync/status',
    summary: 'Whether this service is linked to a production, when it last synced, what waits to go',
    tag: 'Units',
    who: 'application',
    ok: [200, shapes.SyncStatusSchema],
    errors: [401],
  },
  syncChanges: {
    method: 'get',
    path: '/sync/changes',
    summary: "The active project's logs written after `since`, each with its versions (leaves)",
    description:
      'A page of the changes feed, in the order written; `last` is the `since` of the next page. ' +
      'A leaf is a version no other one here replaces: the first is the log as served, any other is in conflict.',
    tag: 'Units',
    who: 'application',
    query: {
      project: { description: 'the project synced with (409 when another is loaded)', in: SyncChangesQuerySchema },
      since: { description: 'the `last` of the page before (0 for the start)', in: SyncChangesQuerySchema },
      limit: { description: 'logs per page, 1–1000 (100)', in: SyncChangesQuerySchema },
    },
    ok: [200, shapes.SyncChangesSchema],
    errors: [400, 401, 409],
  },
  syncMissing: {
    method: 'post',
    path: '/sync/missing',
    summary: 'Of the revisions named per log, those this service has neither received nor seen replaced',
    tag: 'Units',
    who: 'application',
    body: SyncMissingSchema,
    ok: [200, shapes.SyncMissingAnswerSchema],
    errors: [400, 401, 409, 413, 415],
    query: {
      project: { description: 'the project synced with (409 when another is loaded)', in: SyncProjectQuerySchema },
    },
    example: {
      request: { logs: [{ id: 'D01', revs: ['2-5b1f0e3c9a7d4e21'] }] },
      response: { missing: [{ id: 'D01', revs: ['2-5b1f0e3c9a7d4e21'] }] },
    },
  },
  getVersion: {
    method: 'get',
    path: '/sync/logs/{id}',
    summary: 'One version of a log, exactly as stored: the one served or one in conflict',
    tag: 'Units',
    who: 'application',
    query: {
      project: { description: 'the project synced with (409 when another is loaded)', in: SyncVersionQuerySchema },
      rev: { description: 'the revision', in: SyncVersionQuerySchema },
    },
    ok: [200, LogSchema],
    errors: [400, 401, 404, 409],
  },
  sendVersion: {
    method: 'post',
    path: '/sync/logs/{id}',
    summary: 'A version of a log written elsewhere, with the revisions it replaces (no body for a deletion)',
    description:
      'Checked as POST /log checks a log and kept as sent. `outcome`: `known` (this service has it or what ' +
      'replaced it), `winner` (the log as served now), `conflict` (kept beside the log until the operator resolves it). ' +
      'On a production the sender is the unit its token was approved as: 403 for a version ' +
      "naming another owner or replacing another unit's day; beside another unit's version it is a conflict, never merged.",
    tag: 'Units',
    who: 'application',
    query: {
      project: { description: 'the project synced with (409 when another is loaded)', in: SyncLeafQuerySchema },
      rev: { description: 'the revision', in: SyncLeafQuerySchema },
      ancestors: { description: 'the revisions it replaces, comma separated, newest first', in: SyncLeafQuerySchema },
      deleted: { description: '`true` for a deletion', in: SyncLeafQuerySchema },
      owner: { description: 'the unit that owns the log (none: the production)', in: SyncLeafQuerySchema },
    },
    body: LogSchema,
    ok: [200, shapes.SyncReceivedSchema],
    errors: [400, 401, 403, 404, 409, 413, 415],
  },
  linkStatus: {
    method: 'get',
    path: '/approve/link',
    summary: "This cart's link to its production, as GET /sync/status",
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SyncStatusSchema],
    errors: [401, 403],
  },
  link: {
    method: 'post',
    path: '/approve/link',
    summary: 'Link the active project to a production, with the link code its operator made for this unit',
    description:
      'The service asks the production (POST /auth as `unit`, with `linkCode`, which answers at once): 200 with the ' +
      "status when linked, 502 when the production refuses or cannot be reached. A production with no project loaded takes this one's " +
      'name. 409 on a production, or when linked already.',
    tag: 'Operator',
    who: 'operator',
    body: LinkSchema,
    ok: [200, shapes.SyncStatusSchema],
    errors: [400, 401, 403, 409, 415, 502],
    example: {
      request: {
        url: 'https://media-log.example.com/productions/feature',
        unit: 'Second unit',
        linkCode: '7KQM-2XPD-R4TW-9HNC',
      },
    },
  },
  listConflicts: {
    method: 'get',
    path: '/approve/conflicts',
    summary: 'Logs of the active project whose versions are in conflict, each version described',
    description:
      "Two units wrote the same log without seeing each other's write: both versions are kept, `served` is the one " +
      'GET /log answers (the same on every unit), until the operator keeps one. `owner` is the unit a version belongs ' +
      "to (null: none); `keptHere` is false on a cart where another unit owns a version: the production's operator keeps one.",
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.ConflictListSchema],
    errors: [401, 403],
  },
  resolveConflict: {
    method: 'post',
    path: '/approve/conflicts/{id}',
    summary: 'Keep one version of a log in conflict; the others go, on every unit once synced',
    description:
      "403 on a cart where another unit owns a version (`keptHere` false): the production's operator keeps one there.",
    tag: 'Operator',
    who: 'operator',
    body: ResolveSchema,
    ok: [200, shapes.ResolvedSchema],
    errors: [400, 401, 403, 404, 409, 415],
  },
  unlink: {
    method: 'delete',
    path: '/approve/link',
    summary: 'Stop syncing with the production; every log stays as it is',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SuccessSchema],
    errors: [401, 403, 404],
  },
} as const satisfies Record<string, Route>

export type RouteName = keyof typeof ROUTES

/**
 * The workspace: the one Durable Object that owns all state of the service: projects, the active
 * project, logs, settings, approved tokens and the connection requests waiting for the operator.
 * It is single-threaded, so a read-merge-write that has no await in it cannot lose an update.
 * Log writes run in groups, one commit per group (GroupCommit).
 */
import { DurableObject } from 'cloudflare:workers'
import { parseObject } from '../http/body'
import { conflict, notFound, validationError, type Failure, toFailure } from '../http/errors'
import { CustomSchemas } from '../schemas/custom'
import { checkLog, type LogCheck, type LogOutput } from '../schemas/log'
import { certainlyValidLog, type LogKeys } from '../schemas/plain-log'
import { checkSettings, isEnabled, userBodyTemplate, userReportTemplate, type EmailPreset, type PdfPreset, type Settings } from '../schemas/settings'
import { RPC_VALUE_BYTES, bytesOf, joinedBytes, rpcSafe, streamOf, utf8Bytes, utf8Text } from '../shared/utf8'
import { Approvals, Tokens } from './access'
import { GroupCommit } from './group-commit'
import { Store, type ProjectRow } from './store'
import { SendWindows, requireEditable, type NewSendWindow, type SendOutcome, type SendWindowRecord, type WindowEdit } from './windows'

// One object type, not a union: RPC's type mapping would split a union into a union of promises.
export type Reply<T> = { value?: T; failure?: Failure }

/** What a log's JSON may travel as: text, bytes, or a stream when it would pass RPC's 32 MiB. */
export type LogBody = string | Uint8Array | ReadableStream<Uint8Array>

/**
 * A reply whose value is text, bytes, a stream or nothing, sent as it is: only a failure has a
 * `failure` key, and a wrapping object costs a serialization each way (about 5% of a log read or write).
 */
export type BareReply<T extends LogBody | void> = T | { failure: Failure }

const bare = <T extends LogBody | void>({ value, failure }: Reply<T>): BareReply<T> =>
  failure ? { failure } : (value as T)


/** RPC drops everything of a thrown error but its message, so failures travel as data. */
async function reply<T>(work: () => T | Promise<T>): Promise<Reply<T>> {
  try {
    return { value: await work() }
  } catch (err) {
    return failed(err)
  }
}

function failed(err: unknown): Reply<never> {
  const failure = toFailure(err)
  if (failure) return { failure }
  throw err
}

export type Project = { id: string; project_name: string; path: string; created_at: string }
export type ProjectListing = { label: string; path: string; active: boolean; project_name: string }
export type PresetListing = { id: string; label: string; enabled: boolean }
export type ReportSource = { settings: Settings; preset: PdfPreset; logs: LogOutput[] }
/** What a report needs besides its logs, which the worker reads one at a time (storedLog). */
export type ReportPlan = { settings: Settings; preset: PdfPreset; projectId: string }

type ActiveProject = { row: ProjectRow; settings: Settings; schemas: CustomSchemas }

/** Settings are one row; Cloudflare's row limit is 2 MB. */
const SETTINGS_LIMIT = 1024 * 1024

const noProject = () => conflict('No Project Loaded')

export class Workspace extends DurableObject<Env> {
  #store!: Store
  #tokens!: Tokens
  #approvals!: Approvals
  #windows!: SendWindows
  #active: ActiveProject | undefined
  #version = 0
  readonly #waiters = new Set<() => void>()
  readonly #commits = new GroupCommit()

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    ctx.blockConcurrencyWhile(async () => {
      // One transaction: a store of an older layout is converted in place, all or nothing.
      this.#store = ctx.storage.transactionSync(() => new Store(ctx.storage.sql))
      const ttl = Number(env.TOKEN_TTL_DAYS)
      this.#tokens = new Tokens(this.#store, ttl > 0 ? ttl : undefined)
      this.#approvals = new Approvals(this.#tokens, {
        timeoutMs: positive(env.AUTH_TIMEOUT_SECONDS, 60) * 1000,
        limit: positive(env.AUTH_PENDING_LIMIT, 20),
        changed: () => this.#changed(),
      })
      this.#windows = new SendWindows(ctx.storage.sql)
      const activeId = this.#store.getMeta('active_project')
      const row = activeId ? this.#store.project(activeId) : undefined
      if (row) this.#activate(row)
    })
  }

  // ---- projects (API token)

  createProject(token: string, projectName: string) {
    return this.#client(token, () => {
      const settings: Settings = { project_name: projectName, version: 1 }
      const row: ProjectRow = {
        id: crypto.randomUUID(),
        path: `projects/${projectName}`,
        created_at: new Date().toISOString(),
        settings: JSON.stringify(settings),
      }
      this.ctx.storage.transactionSync(() => {
        this.#store.insertProject(row)
        this.#store.setMeta('active_project', row.id)
      })
      this.#activate(row)
      return projectOf(this.#active!)
    })
  }

  loadProject(token: string, path: string) {
    return this.#client(token, () => {
      const row = this.#store.projectByPath(path.replace(/\/+$/, ''))
      if (!row) throw notFound('Project')
      this.#store.setMeta('active_project', row.id)
      this.#activate(row)
    })
  }

  listProjects(token: string) {
    return this.#client(token, (): ProjectListing[] =>
      this.#store.projects().map((row) => {
        const name = (JSON.parse(row.settings) as Settings).project_name
        return { label: name, path: row.path, active: row.id === this.#active?.row.id, project_name: name }
      }),
    )
  }

  activeProjectDetails(token: string) {
    return this.#client(token, () => {
      const active = this.#requireActive()
      return { ...active.settings, activeLog: null, ...projectOf(active) }
    })
  }

  hasActiveProject(): boolean {
    return this.#active !== undefined
  }

  settings(token: string) {
    return this.#client(token, () => this.#requireActive().settings)
  }

  /** Shallow merge (SPEC §5); the merged whole must be valid. */
  patchSettings(token: string, patch: Record<string, unknown>) {
    return this.#client(token, () => {
      const active = this.#requireActive()
      const { settings, details } = checkSettings({ ...active.settings, ...patch })
      if (!settings) throw validationError(details)
      const text = JSON.stringify(settings)
      if (text.length > SETTINGS_LIMIT) throw validationError([{ prop: '', message: 'project settings must stay under 1 MB' }])
      // A new name moves the project's path with it, as the reference application moves the
      // project's folder; a name another project has (in any case) is refused.
      let path = active.row.path
      if (settings.project_name !== active.settings.project_name) {
        path = `projects/${settings.project_name}`
        const holder = this.#store.projectByPath(path)
        if (holder && holder.id !== active.row.id) throw conflict('Project already exists')
      }
      this.#store.updateSettings(active.row.id, text, path)
      this.#activate({ ...active.row, path, settings: text })
      return settings
    })
  }

  listPresets(token: string, kind: 'pdfs' | 'emails', enabled?: boolean) {
    return this.#client(token, (): PresetListing[] => {
      const presets: Array<PdfPreset | EmailPreset> = this.#active?.settings[kind] ?? []
      return presets
        .filter((p) => enabled === undefined || isEnabled(p) === enabled)
        .map((p) => ({ id: p.id, label: p.label, enabled: isEnabled(p) }))
    })
  }

  /** Whether the token is one the operator approved: asked before a large body is read. */
  checkToken(token: string): BareReply<void> {
    return bare(this.#client(token, () => {}))
  }

  // ---- logs (API token)

  /**
   * A log the worker found certainly valid (certainlyValidLog), stored as the very bytes the client
   * sent (SPEC §4: kept exactly as sent) without parsing them again. The keys are taken as given:
   * only this service's worker calls the workspace.
   */
  createCheckedLog(token: string, json: Uint8Array | ReadableStream<Uint8Array>, id: string, day: number, date: string): Promise<BareReply<void>> {
    if (!(json instanceof Uint8Array)) return bytesOf(json).then((bytes) => this.createCheckedLog(token, bytes, id, day, date))
    return this.#commits.run(() => bare(this.#client(token, () => this.#insertLog(this.#requireActive(), { id, day, date }, json))))
  }

  /** Any other log: parsed and checked here, where the project's custom fields are known. */
  createLog(token: string, json: Uint8Array | ReadableStream<Uint8Array>): Promise<BareReply<void>> {
    if (!(json instanceof Uint8Array)) return bytesOf(json).then((bytes) => this.createLog(token, bytes))
    return this.#commits.run(() => bare(this.#clientWithBody(token, utf8Text(json), (body) => {
      const active = this.#requireActive()
      const { log, details } = checkLog(body, active.schemas)
      if (details.length) throw validationError(details)
      // A log kept as it came is stored as sent, not stringified again.
      this.#insertLog(active, log as LogKeys, log === body ? json : utf8Bytes(JSON.stringify(log)))
    })))
  }

  /**
   * `{"logs": [...]}` assembled from stored bytes: nothing is parsed or decoded on the way out. A
   * listing over RPC's limit goes as a stream of the same bytes.
   */
  logsJson(token: string): BareReply<Uint8Array | ReadableStream<Uint8Array>> {
    return bare(this.#client(token, () => {
      const active = this.#active
      const logs = active ? this.#store.logsBytes(active.row.id) : []
      if (logs.reduce((size, log) => size + log.byteLength, 0) <= RPC_VALUE_BYTES) return joinedBytes(logs, '{"logs":[', ',', ']}')
      const comma = utf8Bytes(',')
      return streamOf([utf8Bytes('{"logs":['), ...logs.flatMap((log, i) => (i ? [comma, log] : [log])), utf8Bytes(']}')])
    }))
  }

  logJson(token: string, id: string): BareReply<LogBody> {
    return bare(this.#client(token, () => this.#storedLog(this.#requireLogProject(), id)))
  }

  /**
   * A log of any project as stored, for reports and mail: the worker reads the logs of a range one
   * at a time, never all in one RPC value. Called only after the worker's own checks.
   */
  storedLog(projectId: string, id: string): BareReply<LogBody> {
    try {
      return this.#storedLog(projectId, id)
    } catch (err) {
      return { failure: failed(err).failure! }
    }
  }

  #storedLog(projectId: string, id: string): LogBody {
    const json = this.#store.logJson(projectId, id)
    if (!json) throw notFound('Log')
    return typeof json === 'string' ? json : rpcSafe(json)
  }

  /** Seed endpoint 8: top-level properties replace the stored ones; an `id` that differs renames. */
  patchLog(token: string, id: string, patchText: string | ReadableStream<Uint8Array>): Promise<BareReply<string | ReadableStream<Uint8Array>>> {
    if (typeof patchText !== 'string') return bytesOf(patchText).then((bytes) => this.patchLog(token, id, utf8Text(bytes)))
    return this.#commits.run(() => bare(this.#clientWithBody(token, patchText, (patch) => {
      const projectId = this.#requireLogProject()
      const active = this.#active!
      const stored = JSON.parse(this.#store.requireLogText(projectId, id)) as Record<string, unknown>
      const merged = { ...stored, ...patch }
      // SPEC §4: a log without `version` is stored with `version: 1` (a log stored before that rule too).
      if (merged.version === undefined) merged.version = 1
      const { log, details } = checkedLog(merged, active.schemas)
      if (details.length) throw validationError(details)
      if (log.id !== id && this.#store.hasLog(projectId, log.id as string)) throw conflict('Log already exists')
      const text = JSON.stringify(log)
      const bytes = utf8Bytes(text)
      this.ctx.storage.transactionSync(() => this.#store.putLog(projectId, log as LogKeys, bytes, id))
      return bytes.byteLength > RPC_VALUE_BYTES ? streamOf([bytes]) : text
    })))
  }

  deleteLog(token: string, id: string): Promise<BareReply<void>> {
    return this.#commits.run(() => bare(this.#client(token, () => {
      if (!this.#store.deleteLog(this.#requireLogProject(), id)) throw notFound('Log')
    })))
  }

  /** What a report needs besides its logs, once every log asked for exists. */
  reportPlan(token: string, presetId: string, logIds: string[]) {
    return this.#client(token, (): ReportPlan => {
      const projectId = this.#requireLogProject()
      this.#requireLogs(projectId, logIds)
      const settings = this.#active!.settings
      const preset = settings.pdfs?.find((p) => p.id === presetId)
      if (!preset) throw notFound('Preset')
      return { settings, preset, projectId }
    })
  }

  // ---- connection approval (called by the worker after its own checks)

  /** Held open until the operator decides or the request expires. */
  requestAccess(appName: string, requestId?: string) {
    return reply(async () => {
      const outcome = await this.#approvals.request(appName, requestId)
      if ('failure' in outcome) throw outcome.failure
      return { token: outcome.token }
    })
  }

  withdrawAccess(requestId: string) {
    this.#approvals.withdraw(requestId)
  }

  pendingRequests() {
    return this.#approvals.list()
  }

  decide(requestId: string, decision: 'approve' | 'deny') {
    return reply(() => this.#approvals.decide(requestId, decision))
  }

  connectedApps() {
    return this.#tokens.list()
  }

  revokeToken(id: string) {
    return reply(() => {
      this.#tokens.revoke(id)
      this.#changed()
    })
  }

  /**
   * Long poll for the console: answers the state version as soon as it differs from `since`, or
   * after `timeoutMs` with the same version.
   */
  async waitForChange(since: number, timeoutMs: number): Promise<number> {
    if (since !== this.#version) return this.#version
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.#waiters.delete(done)
        resolve()
      }
      const timer = setTimeout(done, timeoutMs)
      this.#waiters.add(done)
    })
    return this.#version
  }

  // ---- send windows (SPEC §9): kept here; composed, rendered and sent by the worker

  /** What opening a window needs besides its logs: the settings, the e-mail preset if any. */
  mailSource(token: string, logIds: string[], presetId?: string) {
    return this.#client(token, (): MailSource => {
      const projectId = this.#requireLogProject()
      this.#requireLogs(projectId, logIds)
      const settings = this.#active!.settings
      const emails = settings.emails ?? []
      const preset = presetId === undefined ? emails.find(isEnabled) : emails.find((p) => p.id === presetId)
      if (presetId !== undefined && !preset) throw notFound('Preset')
      return { projectId, settings, preset: preset ?? null }
    })
  }

  openSendWindow(draft: NewSendWindow) {
    return reply(() => {
      const record = this.#windows.open(draft)
      this.#changed()
      return this.#listing(record)
    })
  }

  sendWindows(): SendWindowListing[] {
    if (this.#windows.expireStaleSends()) this.#changed()
    return this.#windows.list().map((record) => this.#listing(record))
  }

  sendWindow(id: string) {
    return reply(() => {
      if (this.#windows.expireStaleSends()) this.#changed()
      return this.#listing(this.#windows.get(id))
    })
  }

  /** The window with its project's settings and logs, for rendering attachments and the message. */
  windowSource(id: string) {
    return reply(() => this.#windowSource(this.#windows.get(id)))
  }

  editSendWindow(id: string, changes: WindowEdit) {
    return reply(() => {
      const record = this.#windows.edit(id, changes)
      this.#changed()
      return this.#listing(record)
    })
  }

  /** Starts a send: the window is locked as `sending` until finishSendWindow reports the outcome. */
  claimSendWindow(id: string) {
    return reply(() => {
      this.#windows.expireStaleSends()
      const record = this.#windows.get(id)
      requireEditable(record)
      let source: WindowSource
      try {
        source = this.#windowSource(record)
      } catch (err) {
        // A log deleted or renamed since the window opened: the draft stays, with the reason.
        this.#windows.fail(id, 'A log of this message no longer exists; discard the window and open a new one.')
        this.#changed()
        throw err
      }
      const claimed = this.#windows.claim(id)
      this.#changed()
      return { ...source, window: this.#listing(claimed) }
    })
  }

  finishSendWindow(id: string, outcome: SendOutcome) {
    return reply(() => {
      const record = this.#windows.finish(id, outcome)
      this.#changed()
      return this.#listing(record)
    })
  }

  discardSendWindow(id: string) {
    return reply(() => {
      this.#windows.discard(id)
      this.#changed()
    })
  }

  #windowSource(record: SendWindowRecord): WindowSource {
    this.#requireLogs(record.projectId, record.logIds)
    return { window: this.#listing(record), settings: this.#settingsOf(record.projectId) }
  }

  #requireLogs(projectId: string, logIds: string[]) {
    for (const id of logIds) if (!this.#store.hasLog(projectId, id)) throw notFound('Log')
  }

  /** What the console shows beside the stored draft: names from the window's own project. */
  #listing(record: SendWindowRecord): SendWindowListing {
    const settings = this.#settingsOf(record.projectId)
    const preset = settings.emails?.find((p) => p.id === record.presetId)
    return {
      ...record,
      projectName: settings.project_name,
      presetLabel: preset?.label ?? null,
      bodyReplaces: (preset && userBodyTemplate(preset)) ?? null,
      pdfPresets: (settings.pdfs ?? []).map((p) => ({ id: p.id, label: p.label, replaces: userReportTemplate(p) ?? null })),
    }
  }

  #settingsOf(projectId: string): Settings {
    if (this.#active?.row.id === projectId) return this.#active.settings
    const row = this.#store.project(projectId)
    if (!row) throw notFound('Project')
    return JSON.parse(row.settings) as Settings
  }

  // ---- internals

  /** Token check and work in one synchronous step: no await, so no other request in between. */
  #client<T>(token: string, work: () => T): Reply<T> {
    try {
      this.#tokens.verify(token)
      return { value: work() }
    } catch (err) {
      return failed(err)
    }
  }

  /** A request body's own mistakes answer first, before the token is looked at, as for every endpoint. */
  #clientWithBody<T>(token: string, text: string, work: (body: Record<string, unknown>) => T): Reply<T> {
    try {
      const body = parseObject(text)
      this.#tokens.verify(token)
      return { value: work(body) }
    } catch (err) {
      return failed(err)
    }
  }

  #changed() {
    this.#version++
    for (const wake of [...this.#waiters]) wake()
  }

  #insertLog(active: ActiveProject, keys: LogKeys, json: Uint8Array) {
    if (!this.#store.insertLog(active.row.id, keys, json)) throw conflict('Log already exists')
  }

  #activate(row: ProjectRow) {
    const settings = JSON.parse(row.settings) as Settings
    this.#active = { row, settings, schemas: new CustomSchemas(settings) }
  }

  #requireActive(): ActiveProject {
    if (!this.#active) throw noProject()
    return this.#active
  }

  /** With no project loaded, endpoints that name a log answer 404 (SPEC §3). */
  #requireLogProject(): string {
    if (!this.#active) throw notFound('Log')
    return this.#active.row.id
  }
}

export type MailSource = { projectId: string; settings: Settings; preset: EmailPreset | null }
export type SendWindowListing = SendWindowRecord & {
  projectName: string
  presetLabel: string | null
  /** The template of the user's the preset names, which the built-in body stands in for. */
  bodyReplaces: string | null
  /** `replaces`: the template of the user's the built-in report stands in for. */
  pdfPresets: Array<{ id: string; label: string; replaces: string | null }>
}
export type WindowSource = { window: SendWindowListing; settings: Settings }

/** checkLog, skipped for a log that certainly passes it. */
const checkedLog = (log: Record<string, unknown>, schemas: CustomSchemas): LogCheck =>
  certainlyValidLog(log) ? { log, details: [] } : checkLog(log, schemas)

const projectOf = ({ row, settings }: ActiveProject): Project => ({
  id: row.id,
  project_name: settings.project_name,
  path: row.path,
  created_at: row.created_at,
})

function positive(text: string | undefined, fallback: number): number {
  const n = Number(text)
  return Number.isFinite(n) && n > 0 ? n : fallback
}

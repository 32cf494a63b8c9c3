/**
 * The workspace: the one Durable Object that owns all state of the service: projects and the
 * active one, logs, settings, approved tokens, the connection requests waiting for the operator,
 * the send windows and the link to a production. It is single-threaded, so work without an await
 * cannot interleave with another request's; log writes run in groups, one commit per group.
 *
 * A facade: each method says who may call it and whether it writes (#read, #write), and hands the
 * work to the module of its concern. A Problem is returned, not thrown: workerd logs every
 * exception an RPC method throws as uncaught, and a 404 is no accident. An Error is never a value
 * otherwise, so the client tells them apart. `who` is an application's API token, or OPERATOR,
 * which the worker passes only once it has checked the operator's session.
 */
import { isTimeZone } from '../shared/time-zone'
import { DurableObject } from 'cloudflare:workers'
import { parseObject } from '../schemas/json'
import { Problem, conflict, forbidden, notFound } from '../shared/problem'
import { namesTag, tagOf } from '../shared/etag'
import { bytesOf, utf8Text } from '../shared/utf8'
import { membersOf } from '../large-logs/scan'
import type { Leaf } from '../shared/revisions'
import type { ImportKeys } from '../import/merge'
import { dayOf } from '../import/transfer'
import type { LogEdit } from '../copies/edits'
import { type AccessAsk, Approvals, type Caller, LinkCodes, type LinkCodeListing, Tokens, noLinkCode } from './access'
import { OPERATOR, type Who } from './access'
import { Changes } from './changes'
import { GroupCommit } from './group-commit'
import { Logs, type LogBody, type LogRead } from './logs'
import { Plans, type Days } from './plans'
import { Projects } from './projects'
import { Store } from './store'
import { SYNC_AFTER_WRITE_MS, Sync, type NewLink } from './sync'
import { UnitLink, type SyncStatus } from './units'
import { WindowDesk } from './window-desk'
import { SendWindows, type NewSendWindow, type SendOutcome, type SendWindowListing } from './windows'
import type { WindowAttachment, WindowEdit } from './windows'

export type { ReportPlan } from './plans'

/** An answer's tag, and the answer unless the request named the tag (If-None-Match). */
export type Tagged<T> = { etag: string; body?: T }

/** Everything the console shows, at one version of it. */
export type ConsoleState = {
  version: number
  requests: ReturnType<Approvals['list']>
  tokens: ReturnType<Tokens['list']>
  windows: SendWindowListing[]
  /** The active project: its name, and the zone the console reads times in (null with none loaded). */
  project: { name: string; timeZone: string } | null
  /** This service's link to a production, and the logs in conflict (docs/units.md). */
  sync: SyncStatus
  /** A production's live link codes (docs/units.md); none elsewhere. */
  linkCodes?: LinkCodeListing[]
}

type Bytes = Uint8Array | ReadableStream<Uint8Array>

export class Workspace extends DurableObject<Env> {
  #store!: Store
  #projects!: Projects
  #logs!: Logs
  #plans!: Plans
  #tokens!: Tokens
  #approvals!: Approvals
  #linkCodes!: LinkCodes
  #desk!: WindowDesk
  #sync!: Sync
  readonly #changes = new Changes()
  readonly #commits = new GroupCommit(() => this.#afterWrites())
  /** Whether a log was written in the group being committed (#afterWrites). */
  #logsMoved = false

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    // The set-up is synchronous; blockConcurrencyWhile takes a promise, and if the set-up throws
    // it rejects and the runtime resets the object, so nothing waits on it here.
    // eslint-disable-next-line @typescript-eslint/require-await
    void ctx.blockConcurrencyWhile(async () => {
      const transaction = <T>(work: () => T) => ctx.storage.transactionSync(work)
      // The object of a production's name (http/productions.ts), on a deployment holding them.
      const production = ctx.id.name?.startsWith('production:') ?? (env.PRODUCTIONS ?? '').trim() !== ''
      // One transaction: a store of an older layout is converted in place, all or nothing.
      const store = (this.#store = transaction(() => new Store(ctx.storage.sql, production ? 'production' : 'cart')))
      const projects = (this.#projects = new Projects(
        store,
        transaction,
        isTimeZone(env.TIME_ZONE) ? env.TIME_ZONE : 'UTC',
      ))
      const logs = (this.#logs = new Logs(store, projects, transaction))
      // Made here: workerd gives no random values to a module's top level. A computed answer's tag
      // holds it, as what computed the answer (the code of a deploy or a restart) may differ.
      this.#plans = new Plans(store, projects, logs, crypto.randomUUID())
      const ttl = Number(env.TOKEN_TTL_DAYS)
      this.#tokens = new Tokens(store, ttl > 0 ? ttl : undefined)
      this.#approvals = new Approvals(this.#tokens, {
        timeoutMs: positive(env.AUTH_TIMEOUT_SECONDS, 60) * 1000,
        limit: positive(env.AUTH_PENDING_LIMIT, 20),
        changed: () => this.#changes.changed(),
      })
      this.#linkCodes = new LinkCodes(store)
      const windows = new SendWindows(ctx.storage.sql, () => this.#changes.changed())
      this.#desk = new WindowDesk(windows, store, projects, logs, this.#changes)
      const units = new UnitLink(ctx.storage.sql, store)
      this.#sync = new Sync(store, projects, logs, units, this.#changes, transaction, (at) => {
        void ctx.storage.setAlarm(at)
      })
      const link = units.get()
      store.revisions.linkAs(link && { projectId: link.project, unit: link.unit })
      // After a restart: what was written before it and not yet sent goes at once.
      this.#sync.soon(0)
    })
  }

  // ---- projects and settings

  createProject(token: string, projectName: string) {
    const made = this.#read(
      token,
      ({ unit }) => {
        // A unit's cart gives a production its project when it has none (workspace/production.ts).
        if (unit && this.#production && this.#projects.active)
          throw conflict('This production has its project: carts link to it')
        return this.#projects.create(projectName)
      },
      true,
    )
    return this.#moved(made)
  }
  loadProject(token: string, path: string) {
    return this.#moved(this.#read(token, () => this.#projects.load(path)))
  }
  listProjects(token: string) {
    return this.#read(token, () => this.#projects.list())
  }
  /** GET /project; a unit's cart on a production reads which project it syncs, no settings. */
  projectDetails(token: string) {
    const identity = (caller?: Caller) => caller?.unit && this.#production
    return this.#read(token, (c) => (identity(c) ? this.#projects.identity() : this.#projects.details()), true)
  }
  settings(token: string) {
    return this.#read(token, () => this.#projects.requireActive().settings)
  }
  patchSettings(token: string, patch: Record<string, unknown>) {
    return this.#read(token, () => {
      const settings = this.#projects.patchSettings(patch)
      // The days' check counts follow `match_sound`, and the unit: the console draws them again.
      this.#changes.changed()
      this.#desk.follow()
      return settings
    })
  }
  listPresets(token: string, kind: 'pdfs' | 'emails', enabled?: boolean) {
    return this.#read(token, () => this.#projects.presets(kind, enabled))
  }
  /** GET /ping (no token): whether a project is loaded. */
  hasActiveProject(): boolean {
    return this.#projects.active !== undefined
  }
  /** Asked before a large body is read; `syncs` for the sync routes, the only ones a unit's cart calls on a production. */
  checkToken(token: string, syncs = false) {
    return this.#read(token, () => {}, syncs)
  }

  // ---- logs; writes committed in groups

  /**
   * A new log, as the bytes sent. How the worker read it (flows/sent-log.ts) decides what is left:
   * `checked` is stored as it is; `scanned`'s skeleton is checked here for custom entries; a log
   * neither is parsed and checked here, where the project's custom fields are known.
   */
  createLog(token: string, json: Bytes, read: LogRead = {}): Promise<void | Problem> {
    const { checked, scanned } = read
    return withBytes(json, async (bytes) => {
      if (checked) return this.#write(token, () => this.#logs.insertChecked(bytes, checked, checked.summary))
      const outline = utf8Text(scanned ? await bytesNow(scanned.skeleton) : bytes)
      return this.#write(
        token,
        (_, body) =>
          scanned
            ? this.#logs.insertScanned(body!, bytes, scanned.summary, scanned.custom)
            : this.#logs.insert(body!, bytes),
        outline,
      )
    })
  }
  /** GET /logs; its tag is of the project's logs and their revisions, known without reading one. */
  logsJson(token: string, ifNoneMatch?: string): Tagged<LogBody> | Problem {
    return this.#read(token, () => {
      const projectId = this.#projects.active?.row.id
      const logs = projectId === undefined ? [] : this.#store.revisionsOf(projectId)
      const etag = tagOf('logs', projectId ?? '', ...logs.map(({ id, revision }) => `${id}\u0000${revision}`).sort())
      return namesTag(ifNoneMatch, etag) ? { etag } : { etag, body: this.#logs.listing() }
    })
  }
  /** GET /log/{id}; its tag is the log's revision (unique to each write in the store) and project. */
  logJson(token: string, id: string, ifNoneMatch?: string): Tagged<LogBody> | Problem {
    return this.#read(token, () => {
      const projectId = this.#projects.requireForLogs()
      // Not hashed: a GET of a log is the service's most frequent call, and its tag says nothing
      // secret. Without a tag to compare, one query reads the log and its revision.
      const etag = (revision: number) => `"${projectId}.${revision.toString(36)}"`
      if (ifNoneMatch) {
        const revision = this.#store.revision(projectId, id)
        if (revision === undefined) throw notFound('Log')
        if (namesTag(ifNoneMatch, etag(revision))) return { etag: etag(revision) }
      }
      const { body, revision } = this.#logs.readAt(projectId, id)
      return { etag: etag(revision), body }
    })
  }
  /** A patch as text is parsed here; a large one comes as bytes, merged without being parsed whole. */
  patchLog(token: string, id: string, patch: string | Bytes): Promise<LogBody | Problem> {
    if (typeof patch === 'string') return this.#write(token, (_, body) => this.#logs.patch(id, body!), patch)
    return withBytes(patch, (bytes) => {
      // The body's own mistakes answer first, as a small patch's do.
      const members = answer(() => membersOf(bytes))
      if (members instanceof Problem) return Promise.resolve(members)
      return this.#write(token, () => this.#logs.patch(id, members))
    })
  }
  /** An offload's files, read by the worker, merged into a log (created when it does not exist). */
  importLog(token: string, day: Bytes, keys: ImportKeys) {
    return withBytes(day, (bytes) => this.#write(token, () => this.#logs.import(dayOf(bytes), keys)))
  }
  /** What a read-back found, or a volume renamed or taken off a day (copies/edits.ts). */
  editLog(who: Who, id: string, edit: LogEdit) {
    return this.#write(who, () => this.#logs.edit(id, edit))
  }
  deleteLog(token: string, id: string) {
    return this.#write(token, () => this.#logs.delete(id))
  }
  /** A log of any project as stored: reports and mails read the logs of a range one call each. */
  storedLog(projectId: string, id: string): LogBody | Problem {
    return answer(() => this.#logs.read(projectId, id))
  }

  // ---- what reports, checks and the Days view are drawn from (plans.ts)

  reportPlan(who: Who, presetId: string, days: Days) {
    return this.#read(who, () => this.#plans.report(presetId, days))
  }
  checkPlan(token: string, days: Days) {
    return this.#read(token, () => this.#plans.checks(days))
  }
  daysPlan() {
    return answer(() => this.#plans.days())
  }
  dayPlan(id: string) {
    return answer(() => this.#plans.day(id))
  }
  cachedChecks(projectId: string, ids: string[]) {
    return this.#plans.cachedChecks(projectId, ids)
  }
  logVersions(projectId: string, ids: string[]): number[] {
    return this.#plans.versions(projectId, ids)
  }
  /** Caches a log's check counts, unless it was written again since `revision`. */
  cacheChecks(projectId: string, id: string, revision: number, checks: string) {
    this.#store.cacheChecks(projectId, id, revision, checks)
  }

  // ---- access: approval here, link codes on a production (the worker checks the operator first)

  /** POST /auth: on a production with a link code, answered at once; elsewhere held for the operator. */
  requestAccess(ask: AccessAsk, requestId?: string, linkCode?: string) {
    if (!this.#production)
      return answerLater(
        this.#approvals.request(ask, requestId).then((outcome) => {
          if ('failure' in outcome) throw outcome.failure
          return { token: outcome.token }
        }),
      )
    if (linkCode === undefined) return noLinkCode()
    return answerLater(
      (async () => {
        this.#linkCodes.take(linkCode, ask)
        const token = await this.#tokens.issue(ask.appName, ask.unit === true)
        this.#changes.changed()
        return { token }
      })(),
    )
  }
  /** 403 unless a production's POST /auth brings a live link code: asked before its body is read. */
  admitLinkCode(code: string | undefined): true | Problem {
    if (!this.#production) return true
    return code !== undefined && this.#linkCodes.find(code) ? true : noLinkCode()
  }
  makeLinkCode(name: string, unit: boolean) {
    if (!this.#production) return notAProduction()
    return answerLater(this.#linkCodes.make(name, unit).then((made) => (this.#changes.changed(), made)))
  }
  linkCodes(): LinkCodeListing[] | Problem {
    return this.#production ? this.#linkCodes.list() : notAProduction()
  }
  revokeLinkCode(id: string) {
    return answer(() => (this.#linkCodes.revoke(id), this.#changes.changed()))
  }
  withdrawAccess(requestId: string) {
    this.#approvals.withdraw(requestId)
  }
  pendingRequests() {
    return this.#approvals.list()
  }
  decide(requestId: string, decision: 'approve' | 'deny') {
    return answerLater(this.#approvals.decide(requestId, decision))
  }
  connectedApps() {
    return this.#tokens.list()
  }
  revokeToken(id: string) {
    return answer(() => (this.#tokens.revoke(id), this.#changes.changed()))
  }

  /** The console's long poll: as soon as the version differs from `since` (or after `timeoutMs`), all it shows. */
  async consoleState(since: number, timeoutMs: number): Promise<ConsoleState> {
    const version = await this.#changes.after(since, timeoutMs)
    const settings = this.#projects.active?.settings
    return {
      version,
      requests: this.#approvals.list(),
      tokens: this.#tokens.list(),
      windows: this.#desk.list(),
      project: settings ? { name: settings.project_name, timeZone: settings.time_zone ?? 'UTC' } : null,
      sync: this.#sync.status(),
      ...(this.#production && { linkCodes: this.#linkCodes.list() }),
    }
  }

  // ---- send windows (window-desk.ts)

  mailSource(who: Who, logIds: string[], presetId?: string) {
    return this.#read(who, () => this.#desk.mailSource(logIds, presetId))
  }
  openSendWindow(draft: NewSendWindow) {
    return answer(() => this.#desk.open(draft))
  }
  sendWindows() {
    return answer(() => this.#desk.list())
  }
  sendWindow(id: string) {
    return answer(() => this.#desk.get(id))
  }
  windowSource(id: string) {
    return answer(() => this.#desk.source(id))
  }
  editSendWindow(id: string, changes: WindowEdit) {
    return answer(() => this.#desk.edit(id, changes))
  }
  claimSendWindow(id: string) {
    return answer(() => this.#desk.claim(id))
  }
  refreshSendWindow(id: string, source: string, updatedAt: string, summary: string, attachments: WindowAttachment[]) {
    return answer(() => this.#desk.refresh(id, source, updatedAt, summary, attachments))
  }
  noteWindowContent(id: string, contentKey: string, updatedAt: string, summarySource: string | null) {
    return answer(() => this.#desk.noteContent(id, contentKey, updatedAt, summarySource))
  }
  acknowledgeSendWindow(id: string, source: string) {
    return answer(() => this.#desk.acknowledge(id, source))
  }
  releaseSendWindow(id: string) {
    return answer(() => this.#desk.release(id))
  }
  finishSendWindow(id: string, outcome: SendOutcome) {
    return answer(() => this.#desk.finish(id, outcome))
  }
  discardSendWindow(id: string) {
    return answer(() => this.#desk.discard(id))
  }

  // ---- units (sync.ts, docs/units.md): the calls other units make, then this one's link

  syncChanges(token: string, project: string | undefined, since: number, limit: number) {
    return this.#read(token, () => this.#sync.feed(project, since, limit), true)
  }
  syncMissing(token: string, project: string | undefined, logs: Array<{ id: string; revs: string[] }>) {
    return this.#read(token, () => this.#sync.missing(project, logs), true)
  }
  syncVersion(token: string, project: string | undefined, id: string, rev: string): LogBody | Problem {
    return this.#read(token, () => this.#sync.version(project, id, rev), true)
  }
  /** A version another unit wrote; on a production its sender is a cart, held to its own unit's days. */
  syncReceive(
    token: string,
    project: string | undefined,
    id: string,
    leaf: Leaf,
    sent?: { json: Bytes; read: LogRead },
  ) {
    const receive = (bytes?: Uint8Array, skeleton?: string) =>
      this.#write(
        token,
        ({ appName }) => {
          const version = bytes && { bytes, read: sent!.read, skeleton }
          const from = this.#production ? { unit: appName } : {}
          return { outcome: this.#sync.receive(this.#sync.project(project), id, leaf, version, from) }
        },
        undefined,
        true,
      )
    if (!sent) return receive()
    const { scanned } = sent.read
    return withBytes(sent.json, async (bytes) => receive(bytes, scanned && utf8Text(await bytesNow(scanned.skeleton))))
  }
  linkable() {
    return answer(() => this.#sync.linkable())
  }
  linkProduction(projectId: string, link: NewLink) {
    return answer(() => this.#sync.link(projectId, link))
  }
  unlinkProduction() {
    return answer(() => this.#sync.unlink())
  }
  conflicts() {
    return answer(() => this.#sync.conflicts())
  }
  resolveConflict(id: string, keep: string) {
    return this.#write(OPERATOR, () => this.#sync.resolve(id, keep))
  }
  syncStatus(who: Who): SyncStatus | Problem {
    return this.#read(who, () => this.#sync.status(), true)
  }
  override async alarm() {
    await this.#sync.round(() => {
      this.#logsMoved = true
      this.#afterWrites()
    })
  }

  // ---- the two wrappers: who may call, and whether the call writes

  get #production() {
    return this.#store.role === 'production'
  }

  /**
   * Work for `who`, checked and done in one synchronous step: no await, so no other request in
   * between. A body (`text`) is parsed before the token is looked at: its own mistakes answer first,
   * as for every endpoint. On a production a unit's cart's token syncs (`syncs`) and does nothing else.
   */
  #read<T>(who: Who, work: (caller: Caller, body?: Record<string, unknown>) => T, syncs = false, text?: string) {
    return answer(() => {
      const body = text === undefined ? undefined : parseObject(text)
      if (typeof who !== 'string') return work({ appName: 'operator', unit: false }, body)
      const caller = this.#tokens.verify(who)
      if (caller.unit && this.#production && !syncs)
        throw forbidden(`${caller.appName} is a unit's cart: here it syncs, and does nothing else`)
      return work(caller, body)
    })
  }

  /** As #read, for a log write: run in the group being committed; the console hears of it after. */
  #write<T>(who: Who, work: (caller: Caller, body?: Record<string, unknown>) => T, text?: string, syncs = false) {
    return this.#commits.run(() => {
      const outcome = this.#read(who, work, syncs, text)
      if (!(outcome instanceof Problem)) this.#logsMoved = true
      return outcome
    })
  }

  /** A project created or loaded: the console hears of it, and a linked one syncs at once. */
  #moved<T>(outcome: T | Problem): T | Problem {
    if (!(outcome instanceof Problem)) {
      this.#changes.changed()
      this.#sync.soon(0)
    }
    return outcome
  }

  /** After each group of log writes: the Days view and the sync hear of any log written; windows follow. */
  #afterWrites() {
    if (this.#logsMoved) {
      this.#logsMoved = false
      this.#changes.changed()
      this.#sync.soon(SYNC_AFTER_WRITE_MS)
    }
    this.#desk.follow()
  }
}

const notAProduction = () =>
  conflict('Link codes are a production’s: on this machine applications ask in the console and are approved there')

/** The work's value, or the Problem it threw; anything else it threw is thrown on (a 500). */
function answer<T>(work: () => T): T | Problem {
  try {
    return work()
  } catch (err) {
    if (err instanceof Problem) return err
    throw err
  }
}

/** `answer` for work that waits. */
const answerLater = <T>(work: Promise<T>): Promise<T | Problem> =>
  work.catch((err: unknown) => (err instanceof Problem ? err : Promise.reject(err)))

/**
 * The work on a body's bytes: at once when they came as bytes, and once read when RPC brought them
 * as a stream (over RPC_VALUE_BYTES). Small bodies get no extra turn before their write is queued.
 */
const withBytes = <T>(json: Bytes, work: (bytes: Uint8Array) => Promise<T>) =>
  json instanceof Uint8Array ? work(json) : bytesOf(json).then(work)

const bytesNow = (json: Bytes) => (json instanceof Uint8Array ? json : bytesOf(json))

function positive(text: string | undefined, fallback: number): number {
  const n = Number(text)
  return Number.isFinite(n) && n > 0 ? n : fallback
}

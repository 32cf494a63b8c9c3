/**
 * The workspace: the one Durable Object that owns all state of the service: projects and the
 * active one, logs, settings, approved tokens, the connection requests waiting for the operator and
 * the send windows. It is single-threaded, so work without an await cannot interleave with another
 * request's; log writes run in groups, one commit per group (GroupCommit).
 *
 * Each method is a small RPC entry: it checks the caller where one is named (an API token), hands
 * the work to the module of its concern, and returns its value, or the Problem the work threw. A
 * Problem is returned, not thrown: workerd logs every exception an RPC method throws as uncaught,
 * and a 404 is no accident. An Error is never a value otherwise, so the client tells them apart.
 * The operator methods take no token: the worker checks the operator before it calls them.
 */
import { isTimeZone } from '../shared/time-zone'
import { hex } from '@scure/base'
import { DurableObject } from 'cloudflare:workers'
import { parseObject } from '../schemas/json'
import { isEnabled } from '../schemas/settings'
import { Problem, conflict, forbidden, notFound } from '../shared/problem'
import { sha256Sync } from '../shared/secrets'
import { namesTag, tagOf, weakTagOf } from '../shared/etag'
import { bytesOf, bytesOrStream, concatBytes, utf8Bytes, utf8Text } from '../shared/utf8'
import { mergedVersions } from '../shared/three-way'
import { membersOf } from '../large-logs/scan'
import { type AccessAsk, Approvals, type Caller, LinkCodes, type LinkCodeListing, Tokens, noLinkCode } from './access'
import { Changes } from './changes'
import { GroupCommit } from './group-commit'
import { Logs, type DayRange, type LogBody, type LogRead, type SentVersion } from './logs'
import { Projects } from './projects'
import { Store } from './store'
import { UnitLink, type SyncStatus } from './units'
import { productionAt } from './production'
import { knows, newestCommon, type Leaf } from '../shared/revisions'
import {
  SendWindows,
  listingOf,
  requireEditable,
  type MailSource,
  type NewSendWindow,
  type SendOutcome,
  type SendWindowListing,
  type SendWindowRecord,
  type SourceKey,
  type WindowAttachment,
  type WindowEdit,
  type WindowSource,
} from './windows'
import type { PdfPreset, Settings } from '../schemas/settings'
import type { ImportKeys } from '../import/merge'
import { dayOf } from '../import/transfer'
import type { LogSummary } from '../summary/summary'
import type { LogEdit } from '../copies/edits'

/** What a report needs besides its logs' clips, which the worker reads one log at a time (storedLog). */
export type ReportPlan = {
  settings: Settings
  preset: PdfPreset
  projectId: string
  summaries: LogSummary[]
  /** Weak: a report drawn again says another time it was made. */
  etag: string
}

/** What the checks of some days need besides their clips (checkPlan); `versions` kept of each day. */
type CheckPlan = { projectId: string; matchSound: boolean; summaries: LogSummary[]; versions: number[]; etag: string }

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

const transactionOf =
  (ctx: DurableObjectState) =>
  <T>(work: () => T) =>
    ctx.storage.transactionSync(work)

export class Workspace extends DurableObject<Env> {
  #store!: Store
  #projects!: Projects
  #logs!: Logs
  #tokens!: Tokens
  #approvals!: Approvals
  #linkCodes!: LinkCodes
  #windows!: SendWindows
  #units!: UnitLink
  /** When the next sync round is due, as this object set it (undefined: not set since it started). */
  #roundAt: number | undefined
  readonly #changes = new Changes()
  readonly #commits = new GroupCommit(() => this.#afterWrites())
  /** Whether a log was written in the group being committed (#afterWrites). */
  #logsMoved = false
  /** Each unsent window's source key as the console last heard of it (#followWindows). */
  #windowSources = new Map<string, string>()
  /** A project's settings digest, by the settings text it was taken of. */
  readonly #settingsDigests = new Map<string, { text: string; digest: string }>()

  /**
   * This object's start: a computed answer's tag holds it, as what computed the answer (the code of
   * a deploy or a restart) may differ from the last start's. Made here: workerd gives no random
   * values to a module's top level.
   */
  readonly #started: string = crypto.randomUUID()

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    // The set-up is synchronous; blockConcurrencyWhile takes a promise, and if the set-up throws
    // it rejects and the runtime resets the object, so nothing waits on it here.
    // eslint-disable-next-line @typescript-eslint/require-await
    void ctx.blockConcurrencyWhile(async () => {
      // One transaction: a store of an older layout is converted in place, all or nothing.
      this.#store = ctx.storage.transactionSync(() => new Store(ctx.storage.sql))
      this.#projects = new Projects(this.#store, transactionOf(ctx), isTimeZone(env.TIME_ZONE) ? env.TIME_ZONE : 'UTC')
      this.#logs = new Logs(this.#store, this.#projects, transactionOf(ctx))
      const ttl = Number(env.TOKEN_TTL_DAYS)
      this.#tokens = new Tokens(this.#store, ttl > 0 ? ttl : undefined)
      this.#approvals = new Approvals(this.#tokens, {
        timeoutMs: positive(env.AUTH_TIMEOUT_SECONDS, 60) * 1000,
        limit: positive(env.AUTH_PENDING_LIMIT, 20),
        changed: () => this.#changes.changed(),
      })
      this.#linkCodes = new LinkCodes(this.#store)
      this.#windows = new SendWindows(ctx.storage.sql, () => this.#changes.changed())
      this.#units = new UnitLink(ctx.storage.sql, this.#store)
      // The object of a production's name (http/productions.ts), on a deployment holding them.
      this.#store.production = ctx.id.name?.startsWith('production:') ?? (env.PRODUCTIONS ?? '').trim() !== ''
      const link = this.#units.get()
      this.#store.linkAs(link && { projectId: link.project, unit: link.unit })
      // After a restart: what was written before it and not yet sent goes at once.
      this.#syncSoon(0)
    })
  }

  // ---- projects and settings (API token)

  createProject(token: string, projectName: string) {
    return this.#moved(
      this.#client(
        token,
        ({ unit }) => {
          // A unit's cart gives a production its project when it has none (workspace/production.ts).
          if (unit && this.#store.production && this.#projects.active)
            throw conflict('This production has its project: carts link to it')
          return this.#projects.create(projectName)
        },
        true,
      ),
    )
  }

  loadProject(token: string, path: string) {
    return this.#moved(this.#client(token, () => this.#projects.load(path)))
  }

  listProjects(token: string) {
    return this.#client(token, () => this.#projects.list())
  }

  /**
   * GET /project. A unit's cart on a production reads which project it syncs, and nothing of the
   * production's settings (its e-mail recipients among them): GET /project/config refuses it.
   */
  projectDetails(token: string) {
    return this.#client(
      token,
      (caller) => (caller.unit && this.#store.production ? this.#projects.identity() : this.#projects.details()),
      true,
    )
  }

  settings(token: string) {
    return this.#client(token, () => this.#projects.requireActive().settings)
  }

  patchSettings(token: string, patch: Record<string, unknown>) {
    return this.#client(token, () => {
      const settings = this.#projects.patchSettings(patch)
      // The days' check counts follow `match_sound`, and the unit: the console draws them again.
      this.#changes.changed()
      this.#followWindows()
      return settings
    })
  }

  listPresets(token: string, kind: 'pdfs' | 'emails', enabled?: boolean) {
    return this.#client(token, () => this.#projects.presets(kind, enabled))
  }

  /** GET /ping (no token): whether a project is loaded. */
  hasActiveProject(): boolean {
    return this.#projects.active !== undefined
  }

  /**
   * Whether the token is one the operator approved for the call, asked before a large body is
   * read: `syncs` for the sync routes, which a unit's cart on a production may call; any other
   * call of such a token is refused here, before its body (63 MiB once) is read.
   */
  checkToken(token: string, syncs = false) {
    return this.#client(token, () => {}, syncs)
  }

  // ---- logs (API token); writes committed in groups

  /**
   * A new log, as the bytes sent (`version` added where missing). How the worker read it decides
   * what is left to do here:
   * - `checked`: certainly valid, its keys and summary known: stored as the bytes, no second parse;
   * - `scanned`: too large to parse whole, checked a clip at a time (src/large-logs): `skeleton` is
   *   the log with its clip lists empty, as bytes (what lies outside the clip lists may pass RPC's
   *   limit too), checked here again with the project's custom schemas; should some custom entries
   *   go, `custom` is where they are in the bytes;
   * - neither: parsed and checked here, where the project's custom fields are known.
   */
  createLog(token: string, json: Uint8Array | ReadableStream<Uint8Array>, read: LogRead = {}): Promise<void | Problem> {
    const { checked, scanned } = read
    if (checked)
      return withBytes(json, (bytes) =>
        this.#commits.run(() =>
          this.#wrote(this.#client(token, () => this.#logs.insertChecked(bytes, checked, checked.summary))),
        ),
      )
    if (scanned)
      return withBytes(json, (bytes) =>
        withBytes(scanned.skeleton, (outline) =>
          this.#commits.run(() =>
            this.#wrote(
              this.#clientWithBody(token, utf8Text(outline), (body) =>
                this.#logs.insertScanned(body, bytes, scanned.summary, scanned.custom),
              ),
            ),
          ),
        ),
      )
    return withBytes(json, (bytes) =>
      this.#commits.run(() =>
        this.#wrote(this.#clientWithBody(token, utf8Text(bytes), (body) => this.#logs.insert(body, bytes))),
      ),
    )
  }

  /**
   * GET /logs: its tag, and the listing unless `ifNoneMatch` names the tag. The tag is of the
   * project's logs and their revisions: known without reading one.
   */
  logsJson(token: string, ifNoneMatch?: string): Tagged<LogBody> | Problem {
    return this.#client(token, () => {
      const projectId = this.#projects.active?.row.id
      const logs = projectId === undefined ? [] : this.#store.revisions(projectId)
      const etag = tagOf('logs', projectId ?? '', ...logs.map(({ id, revision }) => `${id}\u0000${revision}`).sort())
      return namesTag(ifNoneMatch, etag) ? { etag } : { etag, body: this.#logs.listing() }
    })
  }

  /**
   * GET /log/{id}: its tag, and the log as stored unless `ifNoneMatch` names the tag. The tag is
   * the log's revision (unique to each write of any log of the store) and its project.
   */
  logJson(token: string, id: string, ifNoneMatch?: string): Tagged<LogBody> | Problem {
    return this.#client(token, () => {
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

  /**
   * A patch as text is parsed here; one over PIECEWISE_BYTES comes as bytes (or, past RPC's limit,
   * a stream of them) and is merged into the stored log without being parsed whole.
   */
  patchLog(
    token: string,
    id: string,
    patch: string | Uint8Array | ReadableStream<Uint8Array>,
  ): Promise<LogBody | Problem> {
    if (typeof patch === 'string')
      return this.#commits.run(() =>
        this.#wrote(this.#clientWithBody(token, patch, (body) => this.#logs.patch(id, body))),
      )
    return withBytes(patch, (bytes) =>
      this.#commits.run(() =>
        this.#wrote(
          answer(() => {
            const members = membersOf(bytes)
            this.#caller(token)
            return this.#logs.patch(id, members)
          }),
        ),
      ),
    )
  }

  /**
   * An offload's files, read by the worker, merged into a log (created when it does not exist).
   * The read day comes as JSON bytes (import/transfer.ts), as a stream past RPC's limit.
   */
  importLog(token: string, day: Uint8Array | ReadableStream<Uint8Array>, keys: ImportKeys) {
    return withBytes(day, (bytes) =>
      this.#commits.run(() => this.#wrote(this.#client(token, () => this.#logs.import(dayOf(bytes), keys)))),
    )
  }

  /** What a read-back found, or a volume renamed or taken off a day (copies/edits.ts). */
  editLog(token: string, id: string, edit: LogEdit) {
    return this.#commits.run(() => this.#wrote(this.#client(token, () => this.#logs.edit(id, edit))))
  }

  /** As editLog, for the operator's console (the worker has checked the operator's session). */
  operatorEditLog(id: string, edit: LogEdit) {
    return this.#commits.run(() => this.#wrote(answer(() => this.#logs.edit(id, edit))))
  }

  deleteLog(token: string, id: string) {
    return this.#commits.run(() => this.#wrote(this.#client(token, () => this.#logs.delete(id))))
  }

  /** A log of any project as stored: reports and mails read the logs of a range one call each. */
  storedLog(projectId: string, id: string): LogBody | Problem {
    return answer(() => this.#logs.read(projectId, id))
  }

  /**
   * What a report needs besides its logs, once every log asked for exists. Logs are named
   * (`logIds`) or taken from a range of day numbers or dates, both ends included; a range holding
   * no log is 404 `Log not found`, as a named log that does not exist is.
   */
  reportPlan(token: string, presetId: string, days: { logIds: string[] } | DayRange) {
    return this.#client(token, () => this.#reportPlan(presetId, days))
  }

  /** As reportPlan, for the operator's console (the worker has checked the operator's session). */
  operatorReportPlan(presetId: string, days: { logIds: string[] } | DayRange) {
    return answer(() => this.#reportPlan(presetId, days))
  }

  #reportPlan(presetId: string, days: { logIds: string[] } | DayRange): ReportPlan {
    const projectId = this.#projects.requireForLogs()
    const ids = 'logIds' in days ? days.logIds : this.#logs.idsIn(projectId, days)
    if (!ids.length) throw notFound('Log')
    const summaries = this.#logs.summaries(projectId, ids)
    const settings = this.#projects.active!.settings
    const preset = settings.pdfs?.find((p) => p.id === presetId)
    if (!preset) throw notFound('Preset')
    const etag = weakTagOf(
      'pdf',
      this.#started,
      projectId,
      this.#settingsDigest(projectId),
      presetId,
      ...this.#written(projectId, ids),
    )
    return { settings, preset, projectId, summaries, etag }
  }

  /**
   * What the checks of some days need besides the days' clips: the project's `match_sound` and the
   * days' summaries, in day order. Days are named (`logIds`, every one must exist) or taken from a
   * range of day numbers or dates, both ends included.
   */
  checkPlan(token: string, days: { logIds: string[] } | DayRange) {
    return this.#client(token, (): CheckPlan => {
      const projectId = this.#projects.requireForLogs()
      const ids = 'logIds' in days ? days.logIds : this.#logs.idsIn(projectId, days)
      const matchSound = this.#projects.active!.settings.match_sound !== false
      const summaries = this.#logs.summaries(projectId, ids)
      // The checks read the days and `match_sound`, nothing else of the settings.
      const etag = tagOf('checks', this.#started, projectId, matchSound, ...this.#written(projectId, ids))
      return { projectId, matchSound, summaries, versions: this.#versionsOf(projectId, ids), etag }
    })
  }

  /**
   * The console's Days view (the worker checks the operator first): the active project's settings
   * and every log's stored summary and revision, in log order; null with no project loaded.
   */
  daysPlan() {
    return answer(() => {
      const active = this.#projects.active
      if (!active) return null
      const projectId = active.row.id
      const ids = this.#logs.idsIn(projectId, {})
      return {
        projectId,
        settings: active.settings,
        summaries: this.#logs.summaries(projectId, ids),
        revisions: ids.map((id) => this.#revisionOf(projectId, id)),
        etag: tagOf(
          'days',
          this.#started,
          projectId,
          this.#settingsDigest(projectId),
          ...this.#written(projectId, ids),
        ),
      }
    })
  }

  /** One day of the Days view: as daysPlan, for one log of the active project (404 when none). */
  dayPlan(id: string) {
    return answer(() => {
      const projectId = this.#projects.requireForLogs()
      const [summary] = this.#logs.summaries(projectId, [id])
      const revision = this.#revisionOf(projectId, id)
      return {
        projectId,
        settings: this.#projects.active!.settings,
        summary: summary!,
        revision,
        versions: this.#versionsOf(projectId, [id])[0]!,
        etag: tagOf('day', this.#started, projectId, this.#settingsDigest(projectId), id, revision),
      }
    })
  }

  /**
   * How many versions of each log are kept (two or more: in conflict, a check finding); a change
   * of them is a write of the log, so the tags that name its revision follow.
   */
  #versionsOf(projectId: string, ids: string[]): number[] {
    const conflicted = new Map(this.#store.conflicted(projectId).map(({ id, leaves }) => [id, leaves]))
    return ids.map((id) => conflicted.get(id) ?? 1)
  }

  /** Each log with the revision of its last write, as a tag takes them. */
  #written(projectId: string, ids: string[]): string[] {
    return ids.map((id) => `${id}\u0000${this.#revisionOf(projectId, id)}`)
  }

  /** What a log's last write is known by (the revision its cached checks are kept under). */
  #revisionOf(projectId: string, id: string): number {
    return this.#store.revision(projectId, id) ?? 0
  }

  /**
   * The cached check counts of some logs (null where not computed since their last write), and
   * how many versions of each are kept (a conflict is counted where the counts are shown).
   */
  cachedChecks(projectId: string, ids: string[]) {
    const versions = this.#versionsOf(projectId, ids)
    return ids.map((id, i) => ({
      ...(this.#store.cachedChecks(projectId, id) ?? { revision: -1, checks: null }),
      versions: versions[i]!,
    }))
  }

  /** How many versions of each log are kept, for a report or a message drawn from them. */
  logVersions(projectId: string, ids: string[]): number[] {
    return this.#versionsOf(projectId, ids)
  }

  /** Caches a log's check counts, unless it was written again since `revision`. */
  cacheChecks(projectId: string, id: string, revision: number, checks: string) {
    this.#store.cacheChecks(projectId, id, revision, checks)
  }

  // ---- connection approval (the worker checks the operator first)

  /** Held open until the operator decides or the request expires. */
  /**
   * POST /auth. On a production, only with a link code made for the application (`linkCode`),
   * which answers its token at once; elsewhere it waits for the operator's decision.
   */
  requestAccess(ask: AccessAsk, requestId?: string, linkCode?: string) {
    if (this.#store.production) {
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
    return answerLater(
      this.#approvals.request(ask, requestId).then((outcome) => {
        if ('failure' in outcome) throw outcome.failure
        return { token: outcome.token }
      }),
    )
  }

  /**
   * 403 unless a production's POST /auth brings a live link code: asked before the request's body
   * is read. Elsewhere none is needed.
   */
  admitLinkCode(code: string | undefined): true | Problem {
    if (!this.#store.production) return true
    return code !== undefined && this.#linkCodes.find(code) ? true : noLinkCode()
  }

  makeLinkCode(name: string, unit: boolean) {
    if (!this.#store.production) return notAProduction()
    return answerLater(
      this.#linkCodes.make(name, unit).then((made) => {
        this.#changes.changed()
        return made
      }),
    )
  }

  linkCodes(): LinkCodeListing[] | Problem {
    if (!this.#store.production) return notAProduction()
    return this.#linkCodes.list()
  }

  revokeLinkCode(id: string) {
    return answer(() => {
      this.#linkCodes.revoke(id)
      this.#changes.changed()
    })
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
    return answer(() => {
      this.#tokens.revoke(id)
      this.#changes.changed()
    })
  }

  /**
   * The console's long poll, in one call: as soon as the state's version differs from `since` (or
   * after `timeoutMs`), everything the console shows at that version.
   */
  async consoleState(since: number, timeoutMs: number): Promise<ConsoleState> {
    const version = await this.#changes.after(since, timeoutMs)
    const settings = this.#projects.active?.settings
    return {
      version,
      requests: this.#approvals.list(),
      tokens: this.#tokens.list(),
      windows: this.#sendWindows(),
      project: settings ? { name: settings.project_name, timeZone: settings.time_zone ?? 'UTC' } : null,
      sync: this.#units.status(this.#projects.active?.row.id),
      ...(this.#store.production && { linkCodes: this.#linkCodes.list() }),
    }
  }

  // ---- send windows (SPEC §9): kept here; composed, rendered and sent by the worker

  /** What opening a window needs besides its logs: the settings, the e-mail preset if any. */
  mailSource(token: string, logIds: string[], presetId?: string) {
    return this.#client(token, () => this.#mailSource(logIds, presetId))
  }

  /** As mailSource, for the operator's console (the worker has checked the operator's session). */
  operatorMailSource(logIds: string[], presetId?: string) {
    return answer(() => this.#mailSource(logIds, presetId))
  }

  #mailSource(logIds: string[], presetId?: string): MailSource {
    const projectId = this.#projects.requireForLogs()
    const summaries = this.#logs.summaries(projectId, logIds)
    const settings = this.#projects.active!.settings
    const emails = settings.emails ?? []
    const preset = presetId === undefined ? emails.find(isEnabled) : emails.find((p) => p.id === presetId)
    if (presetId !== undefined && !preset) throw notFound('Preset')
    return { projectId, settings, preset: preset ?? null, summaries, source: this.#sourceOf(projectId, logIds) }
  }

  openSendWindow(draft: NewSendWindow) {
    return answer(() => {
      const record = this.#windows.open(draft)
      this.#windowSources.set(record.id, this.#sourceOf(record.projectId, record.logIds))
      return this.#listing(record)
    })
  }

  sendWindows() {
    return answer(() => this.#sendWindows())
  }

  #sendWindows(): SendWindowListing[] {
    this.#windows.expireStaleSends()
    return this.#windows.list().map((record) => this.#listing(record))
  }

  sendWindow(id: string) {
    return answer(() => {
      this.#windows.expireStaleSends()
      return this.#listing(this.#windows.get(id))
    })
  }

  /** The window with its project's settings, for rendering attachments and the message. */
  windowSource(id: string) {
    return answer(() => this.#windowSource(this.#windows.get(id)))
  }

  editSendWindow(id: string, changes: WindowEdit) {
    return answer(() => {
      const record = this.#windows.edit(id, changes)
      return this.#listing(record)
    })
  }

  /** Starts a send: the window is locked as `sending` until finishSendWindow reports the outcome. */
  claimSendWindow(id: string) {
    return answer((): WindowSource => {
      this.#windows.expireStaleSends()
      const record = this.#windows.get(id)
      requireEditable(record)
      let source: WindowSource
      try {
        source = this.#windowSource(record)
      } catch (err) {
        // A log deleted or renamed since the window opened: the draft stays, with the reason.
        this.#windows.fail(id, 'A log of this message no longer exists; discard the window and open a new one.')
        throw err
      }
      const claimed = this.#windows.claim(id)
      return { ...source, window: this.#listing(claimed) }
    })
  }

  /**
   * A window's figures drawn again by the worker from its logs at `source`: kept only if nothing
   * was written to them since (the source has not moved), so a figure never names a version it
   * was not drawn from. No change is announced: the answer being made carries it.
   */
  refreshSendWindow(id: string, source: string, updatedAt: string, summary: string, attachments: WindowAttachment[]) {
    return answer(() => {
      const record = this.#windows.get(id)
      if (this.#sourceOf(record.projectId, record.logIds) === source)
        this.#windows.refresh(id, { source, updatedAt }, summary, attachments)
      return this.#listing(this.#windows.get(id))
    })
  }

  /**
   * The message of a window as the worker composed it (its key) from the draft of `updatedAt` and
   * the figures of `summarySource`; ignored when either moved since. The answer has `composedAt`.
   */
  noteWindowContent(id: string, contentKey: string, updatedAt: string, summarySource: string | null) {
    return answer(() => {
      this.#windows.noteContent(id, contentKey, { updatedAt, summarySource })
      return this.#listing(this.#windows.get(id))
    })
  }

  /** The operator has looked at the window as drawn from `source`: it no longer says "updated". */
  acknowledgeSendWindow(id: string, source: string) {
    return answer(() => {
      this.#windows.acknowledge(id, source)
      return this.#listing(this.#windows.get(id))
    })
  }

  /** A send stopped before the provider was asked, because the message had changed: a draft again. */
  releaseSendWindow(id: string) {
    return answer(() => {
      const record = this.#windows.release(id)
      return this.#listing(record)
    })
  }

  finishSendWindow(id: string, outcome: SendOutcome) {
    return answer(() => {
      const record = this.#windows.finish(id, outcome)
      return this.#listing(record)
    })
  }

  discardSendWindow(id: string) {
    return answer(() => {
      this.#windows.discard(id)
    })
  }

  #windowSource(record: SendWindowRecord): WindowSource {
    return {
      window: this.#listing(record),
      settings: this.#projects.settingsOf(record.projectId),
      summaries: this.#logs.summaries(record.projectId, record.logIds),
    }
  }

  #listing(record: SendWindowRecord): SendWindowListing {
    return listingOf(
      record,
      this.#projects.settingsOf(record.projectId),
      this.#sourceOf(record.projectId, record.logIds),
    )
  }

  /** The source key of some logs of a project and its settings (SourceKey): revisions as the store keeps them. */
  #sourceOf(projectId: string, logIds: string[]): string {
    const key: SourceKey = {
      logs: logIds.map((id) => [id, this.#store.revision(projectId, id) ?? null]),
      settings: this.#settingsDigest(projectId),
    }
    return JSON.stringify(key)
  }

  #settingsDigest(projectId: string): string {
    const active = this.#projects.active
    const text = active?.row.id === projectId ? active.row.settings : (this.#store.project(projectId)?.settings ?? '')
    const known = this.#settingsDigests.get(projectId)
    if (known?.text === text) return known.digest
    const digest = hex.encode(sha256Sync(text))
    this.#settingsDigests.set(projectId, { text, digest })
    return digest
  }

  /** A log write's outcome, noted: the console hears of the group once it is committed. */
  #wrote<T>(outcome: T | Problem): T | Problem {
    if (!(outcome instanceof Problem)) this.#logsMoved = true
    return outcome
  }

  /**
   * A change of what the console shows (a project created or loaded), once it happened. A linked
   * project loaded again syncs at once, not after the wait its paused rounds built up.
   */
  #moved<T>(outcome: T | Problem): T | Problem {
    if (!(outcome instanceof Problem)) {
      this.#changes.changed()
      this.#syncSoon(0)
    }
    return outcome
  }

  /**
   * After each group of log writes: the Days view hears of any log written, and the send windows
   * look at what moved (#followWindows).
   */
  #afterWrites() {
    if (this.#logsMoved) {
      this.#logsMoved = false
      this.#changes.changed()
      this.#syncSoon(SYNC_AFTER_WRITE_MS)
    }
    this.#followWindows()
  }

  /**
   * After log writes and settings changes: the console hears of it when an unsent window's logs or
   * settings moved. Only the active project's are written to, so only its windows are looked at:
   * with none open this costs nothing, with some a query per log they name.
   */
  #followWindows() {
    const active = this.#projects.active?.row.id
    const sources = new Map<string, string>()
    let moved = false
    for (const { id, projectId, logIds } of this.#windows.watched()) {
      const known = this.#windowSources.get(id)
      const source = projectId !== active && known !== undefined ? known : this.#sourceOf(projectId, logIds)
      sources.set(id, source)
      if (known !== source) moved = true
    }
    this.#windowSources = sources
    if (moved) this.#changes.changed()
  }

  // ---- units: revisions exchanged with other carts through a production (docs/units.md)

  /**
   * The project a sync call is for: the active one, which must be the one the caller names (a cart
   * names the production's project it linked to: another loaded since is not synced into).
   */
  #syncProject(project: string | undefined): string {
    const active = this.#projects.requireActive().row.id
    if (project !== undefined && project !== active)
      throw conflict('The project this cart is linked to is not the one loaded here: load it again')
    return active
  }

  /** The project's logs changed after `since` (the feed's place), each with its leaves. */
  syncChanges(token: string, project: string | undefined, since: number, limit: number) {
    return this.#client(token, () => this.#store.changes(this.#syncProject(project), since, limit), true)
  }

  /** Of the revisions named per log, those this store has neither received nor seen replaced. */
  syncMissing(token: string, project: string | undefined, logs: Array<{ id: string; revs: string[] }>) {
    return this.#client(
      token,
      () => {
        const projectId = this.#syncProject(project)
        const missing = logs.flatMap(({ id, revs }) => {
          const leaves = this.#store.leaves(projectId, id)
          const unknown = revs.filter((rev) => !knows(leaves, rev))
          return unknown.length ? [{ id, revs: unknown }] : []
        })
        return { missing }
      },
      true,
    )
  }

  /** One version of a log as stored, the winner or one in conflict (404 for a tombstone or none). */
  syncVersion(token: string, project: string | undefined, id: string, rev: string): LogBody | Problem {
    return this.#client(
      token,
      () => {
        const projectId = this.#syncProject(project)
        const leaf = this.#store.leaves(projectId, id).find((held) => held.rev === rev)
        if (!leaf || leaf.deleted) throw notFound('Revision')
        return bytesOrStream(this.#store.versionPieces(projectId, id, leaf))
      },
      true,
    )
  }

  /**
   * A version another unit wrote, checked as a new log is, then taken as the revision rules say.
   * On a production the sender is a cart, known by the unit its token was approved as: it may
   * not write over another unit's days (Store.receive).
   */
  syncReceive(
    token: string,
    project: string | undefined,
    id: string,
    leaf: Leaf,
    sent?: { json: Uint8Array | ReadableStream<Uint8Array>; read: LogRead },
  ) {
    const work = (bytes?: Uint8Array, skeleton?: string) =>
      this.#commits.run(() =>
        this.#wrote(
          this.#client(
            token,
            ({ appName }) => ({
              outcome: this.#received(
                this.#syncProject(project),
                id,
                leaf,
                bytes && { bytes, read: sent!.read, skeleton },
                { ...(this.#store.production && { unit: appName }) },
              ),
            }),
            true,
          ),
        ),
      )
    if (!sent) return work()
    const { scanned } = sent.read
    return withBytes(sent.json, (bytes) =>
      scanned ? withBytes(scanned.skeleton, (outline) => work(bytes, utf8Text(outline))) : work(bytes),
    )
  }

  /**
   * Into project `projectId`, the active one (its custom schemas check the version); `sent` as
   * Store.receive takes it. A production merges two versions written from the one it kept where
   * they cannot contradict.
   */
  #received(projectId: string, id: string, leaf: Leaf, version?: SentVersion, sent?: { unit?: string }) {
    const body = version && this.#logs.checkedVersion(id, version)
    const outcome = this.#transaction(() => this.#store.receive(projectId, id, leaf, body, sent))
    if (outcome !== 'known' && this.#store.production) this.#mergeVersions(projectId, id)
    return outcome
  }

  /**
   * Two live versions of a log written from the version kept as its base (their newest common
   * ancestor, and no other: an older one would undo what came between), merged three ways
   * (src/shared/three-way.ts). Left in conflict when they contradict, are too large to parse whole,
   * are two units' (only the production's operator chooses between units), or the merge is no
   * valid log: a merge that cannot be made is never the receive's failure.
   */
  #mergeVersions(projectId: string, id: string) {
    const leaves = this.#store.leaves(projectId, id)
    if (leaves.length !== 2 || leaves.some((held) => held.deleted) || leaves[0]!.owner !== leaves[1]!.owner) return
    const base = this.#store.baseRevision(projectId, id)
    if (base === undefined || newestCommon(leaves[0]!, leaves[1]!) !== base || !this.#store.mergeable(projectId, id))
      return
    try {
      const parsed = (bytes: Uint8Array) => parseObject(utf8Text(bytes))
      const [ours, theirs] = leaves.map((held) =>
        parsed(concatBytes([...this.#store.versionPieces(projectId, id, held)])),
      )
      const merged = mergedVersions(parsed(this.#store.base(projectId, id)!.bytes), ours!, theirs!)
      if (!merged) return
      const body = this.#logs.checkedVersion(id, { bytes: utf8Bytes(JSON.stringify(merged)), read: {} })
      this.#transaction(() => this.#store.merge(projectId, id, body))
    } catch {
      // Left in conflict: the operator keeps one.
    }
  }

  /** The active project's name and id, for a link (409 with none loaded, or linked already). */
  linkable() {
    return answer(() => {
      this.#units.requireUnlinked()
      const { row, settings } = this.#projects.requireActive()
      return { projectId: row.id, name: settings.project_name }
    })
  }

  /**
   * Links project `projectId` (the active one when the link was asked for, and still) to the
   * production's project at `url`, with the token its operator approved.
   */
  linkProduction(projectId: string, link: { url: string; project: string; unit: string; token: string }) {
    return answer(() => {
      if (this.#projects.active?.row.id !== projectId)
        throw conflict('Another project was loaded while the production was asked: link again')
      this.#transaction(() => {
        this.#units.link(projectId, link.url, link.project, link.unit, link.token)
        this.#store.linkAs({ projectId, unit: link.unit }, { claim: true })
      })
      this.#syncSoon(0)
      this.#changes.changed()
      return this.#units.status(projectId)
    })
  }

  unlinkProduction() {
    return answer(() => {
      if (!this.#units.unlink()) throw notFound('Link')
      this.#store.linkAs(undefined)
      this.#changes.changed()
    })
  }

  /** The active project's logs in conflict, each version with its owner and what its summary says of it. */
  conflicts() {
    return answer(() => {
      const projectId = this.#projects.active?.row.id
      if (projectId === undefined) return []
      return this.#store.conflicted(projectId).map(({ id }) => {
        const { versions, keptHere } = this.#store.versions(projectId, id)
        return {
          id,
          keptHere,
          versions: versions.map(({ rev, deleted, served, owner, summary }) => {
            const said = summary === null ? undefined : (JSON.parse(summary) as LogSummary)
            return {
              rev,
              deleted,
              served,
              owner,
              ...(said && { day: said.day, date: said.date, unit: said.unit ?? null, clips: said.clips }),
            }
          }),
        }
      })
    })
  }

  /** The operator keeps version `keep` of a log in conflict; the others go, on every replica. */
  resolveConflict(id: string, keep: string) {
    return this.#commits.run(() =>
      this.#wrote(
        answer(() => {
          const projectId = this.#projects.requireForLogs()
          return this.#transaction(() => this.#store.resolve(projectId, id, keep))
        }),
      ),
    )
  }

  /** GET /sync/status: the link, last sync, what waits to go, the last error, conflicts. */
  syncStatus(token: string): SyncStatus | Problem {
    return this.#client(token, () => this.#units.status(this.#projects.active?.row.id), true)
  }

  operatorSyncStatus(): SyncStatus {
    return this.#units.status(this.#projects.active?.row.id)
  }

  /** Runs a sync round when due; the next is set after it: soon again, or later after failures. */
  override async alarm() {
    this.#roundAt = undefined
    const link = this.#units.get()
    if (!link) return
    const linkedActive = () => this.#projects.active?.row.id === link.project
    const done = linkedActive()
      ? await this.#units.round(productionAt(link.url, link.token, link.production_project), (id, leaf, bytes) => {
          // Checked at every version: another project may have been loaded while the round waited.
          if (!linkedActive()) throw new Error(NOT_ACTIVE)
          this.#received(link.project, id, leaf, bytes && { bytes, read: {} })
          this.#logsMoved = true
          this.#afterWrites()
        })
      : this.#units.paused(link, NOT_ACTIVE)
    // The console hears of a round that changed what it shows: not of every quiet one.
    const shown = this.#syncShown()
    if (shown !== this.#syncShownBefore) this.#changes.changed()
    this.#syncShownBefore = shown
    const failures = this.#units.failures()
    this.#syncSoon(done ? SYNC_POLL_MS : Math.min(SYNC_BACKOFF_MAX_MS, 1000 * 2 ** Math.min(failures, 10)))
  }

  #syncShownBefore = ''

  /** What the console shows of syncing, but the time of the last round. */
  #syncShown(): string {
    const { conflicts, ...link } = this.#units.status(this.#projects.active?.row.id)
    const { lastSync: _, ...rest } = { lastSync: null, ...link }
    return JSON.stringify({ conflicts, rest })
  }

  /** Sets the next round `ms` from now, unless one is due sooner. */
  #syncSoon(ms: number) {
    if (!this.#units.linked()) return
    const at = Date.now() + ms
    if (this.#roundAt !== undefined && this.#roundAt <= at) return
    this.#roundAt = at
    void this.ctx.storage.setAlarm(at)
  }

  #transaction<T>(work: () => T): T {
    return this.ctx.storage.transactionSync(work)
  }

  // ---- the caller's token

  /**
   * Token check and work in one synchronous step: no await, so no other request in between.
   * `syncs`: the call is one a unit's cart makes to its production (#caller).
   */
  #client<T>(token: string, work: (caller: Caller) => T, syncs = false): T | Problem {
    return answer(() => work(this.#caller(token, syncs)))
  }

  /** A request body's own mistakes answer first, before the token is looked at, as for every endpoint. */
  #clientWithBody<T>(token: string, text: string, work: (body: Record<string, unknown>) => T): T | Problem {
    return answer(() => {
      const body = parseObject(text)
      this.#caller(token)
      return work(body)
    })
  }

  /**
   * Who the token is (401 unless approved). On a production a unit's cart's token syncs and does
   * nothing else: its unit's days go through POST /sync/logs, which holds it to them, never
   * through the routes the production office's applications write with.
   */
  #caller(token: string, syncs = false): Caller {
    const caller = this.#tokens.verify(token)
    if (caller.unit && this.#store.production && !syncs)
      throw forbidden(`${caller.appName} is a unit's cart: here it syncs, and does nothing else`)
    return caller
  }
}

const NOT_ACTIVE = 'The linked project is not the active one: load it to sync'

/** A local write goes to the production this soon: writes in a burst go in one round. */
const SYNC_AFTER_WRITE_MS = 1000
/** Between rounds, to hear of other units' writes. */
const SYNC_POLL_MS = 5000
/** The longest wait after failed rounds (1 s, 2 s, 4 s, … up to this). */
const SYNC_BACKOFF_MAX_MS = 60_000

/** The work's value, or the Problem it threw; anything else it threw is thrown on (a 500). */
const notAProduction = () =>
  conflict('Link codes are a production’s: on this machine applications ask in the console and are approved there')

function answer<T>(work: () => T): T | Problem {
  try {
    return work()
  } catch (err) {
    if (err instanceof Problem) return err
    throw err
  }
}

/**
 * The work on a body's bytes: at once when they came as bytes, and once read when RPC brought them
 * as a stream (over RPC_VALUE_BYTES). Small bodies get no extra turn before their write is queued.
 */
const withBytes = <T>(json: Uint8Array | ReadableStream<Uint8Array>, work: (bytes: Uint8Array) => Promise<T>) =>
  json instanceof Uint8Array ? work(json) : bytesOf(json).then(work)

/** `answer` for work that waits. */
const answerLater = <T>(work: Promise<T>): Promise<T | Problem> =>
  work.catch((err: unknown) => (err instanceof Problem ? err : Promise.reject(err)))

function positive(text: string | undefined, fallback: number): number {
  const n = Number(text)
  return Number.isFinite(n) && n > 0 ? n : fallback
}

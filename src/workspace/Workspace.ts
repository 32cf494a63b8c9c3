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
import { ConsoleFacade } from './ConsoleFacade'
import { parseObject } from '../schemas/json'
import { Problem, conflict, forbidden, unauthorized } from '../shared/problem'
import { utf8Text } from '../shared/utf8'
import { membersOf } from '../large-logs/scan'
import type { Leaf } from '../shared/revisions'
import type { ImportKeys } from '../import/merge'
import { dayOf } from '../import/transfer'
import type { LogEdit } from '../copies/edits'
import { OPERATOR, type Caller, type Who } from './access'
import { answer, bytesNow, withBytes, type Bytes, type Tagged } from './answers'
import { GroupCommit } from './group-commit'
import type { LogBody, LogRead } from './logs'
import type { Days } from './plans'
import { SYNC_AFTER_WRITE_MS, type NewLink } from './sync'
import type { SyncStatus } from './units'

export type { ReportPlan } from './plans'

export class Workspace extends ConsoleFacade {
  readonly #commits = new GroupCommit(() => this.#afterWrites())
  /** Whether a log was written in the group being committed (#afterWrites). */
  #logsMoved = false

  // ---- projects and settings

  createProject(token: string, projectName: string) {
    const made = this.#read(
      token,
      ({ unit }) => {
        // A unit's cart gives a production its project when it has none (workspace/production.ts).
        if (unit && this.production && this.parts.projects.active)
          throw conflict('This production has its project: carts link to it')
        return this.parts.projects.create(projectName)
      },
      true,
    )
    return this.#moved(made)
  }
  loadProject(token: string, path: string) {
    return this.#moved(this.#read(token, () => this.parts.projects.load(path)))
  }
  listProjects(token: string) {
    return this.#read(token, () => this.parts.projects.list())
  }
  /** GET /project; a unit's cart on a production reads which project it syncs, no settings. */
  projectDetails(token: string) {
    const identity = (caller?: Caller) => caller?.unit && this.production
    return this.#read(
      token,
      (c) => (identity(c) ? this.parts.projects.identity() : this.parts.projects.details()),
      true,
    )
  }
  settings(token: string) {
    return this.#read(token, () => this.parts.projects.requireActive().settings)
  }
  patchSettings(token: string, patch: Record<string, unknown>) {
    return this.#read(token, () => {
      const settings = this.parts.projects.patchSettings(patch)
      // The days' check counts follow `match_sound`, and the unit: the console draws them again.
      this.changes.changed()
      this.parts.desk.follow()
      return settings
    })
  }
  listPresets(token: string, kind: 'pdfs' | 'emails', enabled?: boolean) {
    return this.#read(token, () => this.parts.projects.presets(kind, enabled))
  }
  /** GET /ping (no token): whether a project is loaded. */
  hasActiveProject(): boolean {
    return this.parts.projects.active !== undefined
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
      if (checked) return this.#write(token, () => this.parts.logs.insertChecked(bytes, checked, checked.summary))
      const outline = utf8Text(scanned ? await bytesNow(scanned.skeleton) : bytes)
      return this.#write(
        token,
        (_, body) =>
          scanned
            ? this.parts.logs.insertScanned(body!, bytes, scanned.summary, scanned.custom)
            : this.parts.logs.insert(body!, bytes),
        outline,
      )
    })
  }
  /** GET /logs; its tag is of the project's logs and their revisions, known without reading one. */
  logsJson(token: string, ifNoneMatch?: string): Tagged<LogBody> | Problem {
    return this.#read(token, () => this.parts.logs.taggedListing(ifNoneMatch))
  }
  /** GET /log/{id}; its tag is the log's revision (unique to each write in the store) and project. */
  logJson(token: string, id: string, ifNoneMatch?: string): Tagged<LogBody> | Problem {
    return this.#read(token, () => this.parts.logs.tagged(id, ifNoneMatch))
  }
  /** A patch as text is parsed here; a large one comes as bytes, merged without being parsed whole. */
  patchLog(token: string, id: string, patch: string | Bytes): Promise<LogBody | Problem> {
    if (typeof patch === 'string') return this.#write(token, (_, body) => this.parts.logs.patch(id, body!), patch)
    return withBytes(patch, (bytes) => {
      // The body's own mistakes answer first, as a small patch's do.
      const members = answer(() => membersOf(bytes))
      if (members instanceof Problem) return Promise.resolve(members)
      return this.#write(token, () => this.parts.logs.patch(id, members))
    })
  }
  /** An offload's files, read by the worker, merged into a log (created when it does not exist). */
  importLog(token: string, day: Bytes, keys: ImportKeys) {
    return withBytes(day, (bytes) => this.#write(token, () => this.parts.logs.import(dayOf(bytes), keys)))
  }
  /** What a read-back found, or a volume renamed or taken off a day (copies/edits.ts). */
  editLog(who: Who, id: string, edit: LogEdit) {
    return this.#write(who, () => this.parts.logs.edit(id, edit))
  }
  deleteLog(token: string, id: string) {
    return this.#write(token, () => this.parts.logs.delete(id))
  }
  /** A log of any project as stored: reports and mails read the logs of a range one call each. */
  storedLog(projectId: string, id: string): LogBody | Problem {
    return answer(() => this.parts.logs.read(projectId, id))
  }

  // ---- what reports, checks and the Days view are drawn from (plans.ts)

  reportPlan(who: Who, presetId: string, days: Days) {
    return this.#read(who, () => this.parts.plans.report(presetId, days))
  }
  checkPlan(token: string, days: Days) {
    return this.#read(token, () => this.parts.plans.checks(days))
  }
  daysPlan() {
    return answer(() => this.parts.plans.days())
  }
  dayPlan(id: string) {
    return answer(() => this.parts.plans.day(id))
  }
  cachedChecks(projectId: string, ids: string[]) {
    return this.parts.plans.cachedChecks(projectId, ids)
  }
  logVersions(projectId: string, ids: string[]): number[] {
    return this.parts.plans.versions(projectId, ids)
  }
  /** Caches a log's check counts, unless it was written again since `revision`. */
  cacheChecks(projectId: string, id: string, revision: number, checks: string) {
    this.parts.store.cacheChecks(projectId, id, revision, checks)
  }

  // ---- send windows: what an application opens one from (the rest: ConsoleFacade.ts)

  mailSource(who: Who, logIds: string[], presetId?: string) {
    return this.#read(who, () => this.parts.desk.mailSource(logIds, presetId))
  }

  // ---- units (sync.ts, docs/units.md): the calls other units make, then this one's link

  syncChanges(token: string, project: string | undefined, since: number, limit: number) {
    return this.#read(token, () => this.parts.sync.feed(project, since, limit), true)
  }
  syncMissing(token: string, project: string | undefined, logs: Array<{ id: string; revs: string[] }>) {
    return this.#read(token, () => this.parts.sync.missing(project, logs), true)
  }
  syncVersion(token: string, project: string | undefined, id: string, rev: string): LogBody | Problem {
    return this.#read(token, () => this.parts.sync.version(project, id, rev), true)
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
          const from = this.production ? { unit: appName } : {}
          return { outcome: this.parts.sync.receive(this.parts.sync.project(project), id, leaf, version, from) }
        },
        undefined,
        true,
      )
    if (!sent) return receive()
    const { scanned } = sent.read
    return withBytes(sent.json, async (bytes) => receive(bytes, scanned && utf8Text(await bytesNow(scanned.skeleton))))
  }
  linkable() {
    return answer(() => this.parts.sync.linkable())
  }
  linkProduction(projectId: string, link: NewLink) {
    return answer(() => this.parts.sync.link(projectId, link))
  }
  unlinkProduction() {
    return answer(() => this.parts.sync.unlink())
  }
  conflicts() {
    return answer(() => this.parts.sync.conflicts())
  }
  resolveConflict(id: string, keep: string) {
    return this.#write(OPERATOR, () => this.parts.sync.resolve(id, keep))
  }
  syncStatus(who: Who): SyncStatus | Problem {
    return this.#read(who, () => this.parts.sync.status(), true)
  }
  override async alarm() {
    await this.parts.sync.round(() => {
      this.#logsMoved = true
      this.#afterWrites()
    })
  }

  // ---- the two wrappers: who may call, and whether the call writes

  /**
   * Work for `who`, checked and done in one synchronous step: no await, so no other request in
   * between. A body (`text`) is parsed before the token is looked at: its own mistakes answer first,
   * as for every endpoint. On a production a unit's cart's token syncs (`syncs`) and does nothing else.
   */
  #read<T>(who: Who, work: (caller: Caller, body?: Record<string, unknown>) => T, syncs = false, text?: string) {
    return answer(() => {
      const body = text === undefined ? undefined : parseObject(text)
      if (typeof who !== 'string') {
        // Only OPERATOR itself: anything else a caller might pass is nobody.
        if (who?.operator !== true) throw unauthorized()
        return work({ appName: 'operator', unit: false }, body)
      }
      const caller = this.parts.tokens.verify(who)
      if (caller.unit && this.production && !syncs)
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
      this.changes.changed()
      this.parts.sync.soon(0)
    }
    return outcome
  }

  /** After each group of log writes: the Days view and the sync hear of any log written; windows follow. */
  #afterWrites() {
    if (this.#logsMoved) {
      this.#logsMoved = false
      this.changes.changed()
      this.parts.sync.soon(SYNC_AFTER_WRITE_MS)
    }
    this.parts.desk.follow()
  }
}

/**
 * The workspace's methods that applications and other units reach, each declared once: who may
 * call it, whether it writes, and its work, handed to the module of its concern. The console's
 * methods: console-calls.ts.
 */
import { parseObject } from '../schemas/json'
import { conflict } from '../shared/problem'
import { bytesOrStream, utf8Text } from '../shared/utf8'
import { membersOf } from '../large-logs/scan'
import type { Leaf } from '../shared/revisions'
import type { ImportKeys } from '../import/merge'
import { dayOf } from '../import/transfer'
import type { LogEdit } from '../copies/edits'
import { bytesNow, type Bytes } from './answers'
import { declare, declareTaking } from './declare'
import type { LogBody, LogRead, SentVersion } from './logs'
import type { Days } from './plans'
import type { NewLink } from './sync'
import type { WatcherReport } from '../schemas/watchers'

export const CALLS = {
  // ---- projects and settings

  createProject: declare({
    who: 'application',
    moves: true,
    work: ({ projects, store }, { unit }, projectName: string) => {
      // A unit's cart gives a production its project when it has none (workspace/production.ts).
      if (unit && store.role === 'production' && projects.active)
        throw conflict('This production has its project: carts link to it')
      return projects.create(projectName)
    },
    syncs: true,
  }),
  loadProject: declare({
    who: 'application',
    moves: true,
    work: ({ projects }, _, path: string) => projects.load(path),
  }),
  listProjects: declare({ who: 'application', work: ({ projects }) => projects.list() }),
  /** GET /project; a unit's cart on a production reads which project it syncs, no settings. */
  projectDetails: declare({
    who: 'application',
    syncs: true,
    work: ({ projects, store }, { unit }) =>
      unit && store.role === 'production' ? projects.identity() : projects.details(),
  }),
  settings: declare({ who: 'application', work: ({ projects }) => projects.requireActive().settings }),
  patchSettings: declare({
    who: 'application',
    work: ({ projects, changes, desk }, _, patch: Record<string, unknown>) => {
      const settings = projects.patchSettings(patch)
      // The days' check counts follow `match_sound`, and the unit: the console draws them again.
      changes.changed()
      desk.follow()
      return settings
    },
  }),
  listPresets: declare({
    who: 'application',
    work: ({ projects }, _, kind: 'pdfs' | 'emails', enabled?: boolean) => projects.presets(kind, enabled),
  }),
  /** GET /ping (no token): whether a project is loaded. */
  hasActiveProject: declare({ who: 'worker', work: ({ projects }) => projects.active !== undefined }),
  /** Asked before a large body is read. */
  checkToken: declare({ who: 'application', work: () => {} }),
  /** As checkToken, for the sync routes: the only ones a unit's cart calls on a production. */
  checkSyncToken: declare({ who: 'application', syncs: true, work: () => {} }),

  // ---- logs; writes committed in groups

  /**
   * A new log, as the bytes sent. How the worker read it (flows/sent-log.ts) decides what is left:
   * `checked` is stored as it is; `valid`'s custom entries and `scanned`'s skeleton's are checked
   * here, where the project's custom schemas are known.
   */
  createLog: declareTaking({
    who: 'application',
    writes: true,
    take: async (json: Bytes, read: LogRead = {}) => {
      const bytes = await bytesNow(json)
      const { checked, scanned } = read
      if (checked) return [bytes, read, undefined] as const
      return [bytes, read, parseObject(utf8Text(scanned ? await bytesNow(scanned.skeleton) : bytes))] as const
    },
    work: ({ logs }, _, bytes: Uint8Array, { checked, valid, scanned }: LogRead, body?: Record<string, unknown>) => {
      if (checked) return logs.insertChecked(bytes, checked, checked.summary)
      if (valid) return logs.insertValid(body!, bytes, valid.summary)
      return scanned ? logs.insertScanned(body!, bytes, scanned.summary, scanned.custom) : logs.insert(body!, bytes)
    },
  }),
  /** GET /logs; its tag is of the project's logs and their revisions, known without reading one. */
  logsJson: declare({
    who: 'application',
    work: ({ logs }, _, ifNoneMatch?: string) => logs.taggedListing(ifNoneMatch),
  }),
  /**
   * GET /log/{id}; its tag is the log's revision (unique to each write in the store) and project.
   * `kept`: the tag of the text the worker keeps (http/kept-logs.ts).
   */
  logJson: declare({
    who: 'application',
    work: ({ logs }, _, id: string, ifNoneMatch?: string, kept?: string) => logs.tagged(id, ifNoneMatch, kept),
  }),
  /** A patch as text is parsed here; a large one comes as bytes, merged without being parsed whole. */
  patchLog: declareTaking({
    who: 'application',
    writes: true,
    take: async (id: string, patch: string | Bytes) =>
      [id, typeof patch === 'string' ? parseObject(patch) : membersOf(await bytesNow(patch))] as const,
    work: ({ logs }, _, id: string, patch: Parameters<typeof logs.patch>[1]) => logs.patch(id, patch),
  }),
  /** An offload's files, read by the worker, merged into a log (created when it does not exist). */
  importLog: declareTaking({
    who: 'application',
    writes: true,
    take: async (day: Bytes, keys: ImportKeys) => [dayOf(await bytesNow(day)), keys] as const,
    work: ({ logs }, _, day: ReturnType<typeof dayOf>, keys: ImportKeys) => logs.import(day, keys),
  }),
  /** The same, into the log of the date the files name (POST /import, media-log watch). */
  importDay: declareTaking({
    who: 'application',
    writes: true,
    take: async (day: Bytes, keys: Omit<ImportKeys, 'id'>) => [dayOf(await bytesNow(day)), keys] as const,
    work: ({ logs }, _, day: ReturnType<typeof dayOf>, keys: Omit<ImportKeys, 'id'>) => logs.importToDay(day, keys),
  }),
  /** What a read-back found, or a volume renamed or taken off a day (copies/edits.ts). */
  editLog: declare({
    who: 'either',
    writes: true,
    work: ({ logs }, _, id: string, edit: LogEdit) => logs.edit(id, edit),
  }),
  deleteLog: declare({ who: 'application', writes: true, work: ({ logs }, _, id: string) => logs.delete(id) }),
  /** A log of any project as stored: reports and mails read the logs of a range one call each. */
  storedLog: declare({ who: 'worker', work: ({ logs }, _, projectId: string, id: string) => logs.read(projectId, id) }),

  // ---- what reports, checks and the Days view are drawn from (plans.ts)

  reportPlan: declare({
    who: 'either',
    work: ({ plans }, _, presetId: string, days: Days) => plans.report(presetId, days),
  }),
  checkPlan: declare({ who: 'application', work: ({ plans }, _, days: Days) => plans.checks(days) }),
  daysPlan: declare({ who: 'worker', work: ({ plans }) => plans.days() }),
  dayPlan: declare({ who: 'worker', work: ({ plans }, _, id: string) => plans.day(id) }),
  cachedChecks: declare({
    who: 'worker',
    work: ({ plans }, _, projectId: string, ids: string[]) => plans.cachedChecks(projectId, ids),
  }),
  logVersions: declare({
    who: 'worker',
    work: ({ plans }, _, projectId: string, ids: string[]) => plans.versions(projectId, ids),
  }),
  /** Caches a log's check counts, unless it was written again since `revision`. */
  cacheChecks: declare({
    who: 'worker',
    work: ({ store }, _, projectId: string, id: string, revision: number, checks: string) =>
      store.cacheChecks(projectId, id, revision, checks),
  }),

  // ---- a send window opened by an application (the rest: console-calls.ts)

  mailSource: declare({
    who: 'either',
    work: ({ desk }, _, logIds: string[], presetId?: string) => desk.mailSource(logIds, presetId),
  }),

  // ---- units (sync.ts, docs/units.md): the calls other units make, then this one's link

  syncChanges: declare({
    who: 'application',
    syncs: true,
    work: ({ sync }, _, project: string | undefined, since: number, limit: number) => sync.feed(project, since, limit),
  }),
  syncMissing: declare({
    who: 'application',
    syncs: true,
    work: ({ sync }, _, project: string | undefined, logs: Array<{ id: string; revs: string[] }>) =>
      sync.missing(project, logs),
  }),
  syncVersion: declare({
    who: 'application',
    syncs: true,
    work: ({ sync }, _, project: string | undefined, id: string, rev: string) => sync.version(project, id, rev),
  }),
  /** A version another unit wrote; on a production its sender is a cart, held to its own unit's days. */
  syncReceive: declareTaking({
    who: 'application',
    syncs: true,
    writes: true,
    take: async (project: string | undefined, id: string, leaf: Leaf, sent?: { json: Bytes; read: LogRead }) => {
      if (!sent) return [project, id, leaf, undefined] as const
      const bytes = await bytesNow(sent.json)
      const { scanned } = sent.read
      const skeleton = scanned && utf8Text(await bytesNow(scanned.skeleton))
      return [project, id, leaf, { bytes, read: sent.read, skeleton }] as const
    },
    work: (
      { sync, store },
      { appName },
      project: string | undefined,
      id: string,
      leaf: Leaf,
      version?: SentVersion,
    ) => {
      const from = store.role === 'production' ? { unit: appName } : {}
      return { outcome: sync.receive(sync.project(project), id, leaf, version, from) }
    },
  }),
  /** Before GET /sync/live's socket is opened (Workspace.fetch): the token, the project, room for one more. */
  listen: declare({
    who: 'application',
    syncs: true,
    work: ({ sync, listeners }, _, project: string | undefined) => {
      sync.project(project)
      listeners.admit()
    },
  }),
  syncStatus: declare({ who: 'either', syncs: true, work: ({ sync }) => sync.status() }),
  linkable: declare({ who: 'worker', work: ({ sync }) => sync.linkable() }),
  linkProduction: declare({
    who: 'worker',
    work: ({ sync }, _, projectId: string, link: NewLink) => sync.link(projectId, link),
  }),
  unlinkProduction: declare({ who: 'worker', work: ({ sync }) => sync.unlink() }),
  conflicts: declare({ who: 'worker', work: ({ sync }) => sync.conflicts() }),
  /** A log's versions resolutions did not keep (set-aside.ts), the latest first. */
  setAsideVersions: declare({
    who: 'either',
    work: ({ projects, store }, _, id: string) => store.revisions.setAside.list(projects.requireActive().row.id, id),
  }),
  /** One of them, as it was. */
  setAsideVersion: declare({
    who: 'either',
    work: ({ projects, store }, _, id: string, rev: string): LogBody =>
      bytesOrStream(store.revisions.setAside.body(projects.requireActive().row.id, id, rev)),
  }),
  /** Whether the active project's checks match sound to picture (`match_sound`). */
  matchesSound: declare({
    who: 'worker',
    work: ({ projects }) => projects.requireActive().settings.match_sound !== false,
  }),
  /** A version of a log of the active project as stored, served or in conflict, for the operator's comparison. */
  conflictVersion: declare({
    who: 'worker',
    work: ({ sync }, _, id: string, rev: string) => sync.version(undefined, id, rev),
  }),
  resolveConflict: declare({
    who: 'worker',
    writes: true,
    work: ({ sync }, _, id: string, keep: string) => sync.resolve(id, keep),
  }),

  // ---- the watchers of offload folders (watchers.ts, docs/watch.md)

  /** PUT /watchers/{id}: a `media-log watch` saying what it watches and what it took. */
  reportWatcher: declare({
    who: 'application',
    work: ({ watchers }, { tokenId, appName }, id: string, report: WatcherReport) =>
      watchers.report(tokenId, appName, id, report),
  }),
  /** DELETE /watchers/{id}: it stopped itself. */
  stopWatcher: declare({
    who: 'application',
    work: ({ watchers }, { tokenId }, id: string) => watchers.stop(tokenId, id),
  }),
}

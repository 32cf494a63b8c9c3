/**
 * What the worker needs to draw a report, the checks, or the console's Days view besides the
 * days' clips (which it reads a log at a time), each with the tag that names it: the logs' last
 * writes, the settings' digest, and this object's start (what computed the answer may differ after
 * a deploy or a restart). Used in the workspace's single thread.
 */
import { notFound } from '../shared/problem'
import { tagOf, weakTagOf } from '../shared/etag'
import type { PdfPreset, Settings } from '../schemas/settings'
import type { LogSummary } from '../summary/summary'
import type { DayRange, Logs } from './logs'
import type { Projects } from './projects'
import type { Store } from './store'

/** Days named (every one must exist), or a range of day numbers or dates, both ends included. */
export type Days = { logIds: string[] } | DayRange

/** What a report needs besides its logs' clips, which the worker reads one log at a time (storedLog). */
export type ReportPlan = {
  settings: Settings
  preset: PdfPreset
  projectId: string
  summaries: LogSummary[]
  /** Weak: a report drawn again says another time it was made. */
  etag: string
}

/** What the checks of some days need besides their clips; `versions` kept of each day. */
export type CheckPlan = {
  projectId: string
  matchSound: boolean
  summaries: LogSummary[]
  versions: number[]
  etag: string
}

export class Plans {
  constructor(
    private readonly store: Store,
    private readonly projects: Projects,
    private readonly logs: Logs,
    /** This object's start: computed answers' tags hold it. */
    private readonly started: string,
  ) {}

  /** A range holding no log is 404 `Log not found`, as a named log that does not exist is. */
  report(presetId: string, days: Days): ReportPlan {
    const projectId = this.projects.requireForLogs()
    const ids = this.#ids(projectId, days)
    if (!ids.length) throw notFound('Log')
    const summaries = this.logs.summaries(projectId, ids)
    const settings = this.projects.active!.settings
    const preset = settings.pdfs?.find((p) => p.id === presetId)
    if (!preset) throw notFound('Preset')
    const digest = this.projects.settingsDigest(projectId)
    const etag = weakTagOf('pdf', this.started, projectId, digest, presetId, ...this.#written(projectId, ids))
    return { settings, preset, projectId, summaries, etag }
  }

  /** The project's `match_sound` and the days' summaries, in day order. */
  checks(days: Days): CheckPlan {
    const projectId = this.projects.requireForLogs()
    const ids = this.#ids(projectId, days)
    const matchSound = this.projects.active!.settings.match_sound !== false
    const summaries = this.logs.summaries(projectId, ids)
    // The checks read the days and `match_sound`, nothing else of the settings.
    const etag = tagOf('checks', this.started, projectId, matchSound, ...this.#written(projectId, ids))
    return { projectId, matchSound, summaries, versions: this.versions(projectId, ids), etag }
  }

  /** The active project's settings and every log's summary and revision, in log order; null with none loaded. */
  days() {
    const active = this.projects.active
    if (!active) return null
    const projectId = active.row.id
    const ids = this.logs.idsIn(projectId, {})
    const digest = this.projects.settingsDigest(projectId)
    return {
      projectId,
      settings: active.settings,
      summaries: this.logs.summaries(projectId, ids),
      revisions: ids.map((id) => this.#revisionOf(projectId, id)),
      etag: tagOf('days', this.started, projectId, digest, ...this.#written(projectId, ids)),
    }
  }

  /** As days, for one log of the active project (404 when none). */
  day(id: string) {
    const projectId = this.projects.requireForLogs()
    const [summary] = this.logs.summaries(projectId, [id])
    const revision = this.#revisionOf(projectId, id)
    return {
      projectId,
      settings: this.projects.active!.settings,
      summary: summary!,
      revision,
      versions: this.versions(projectId, [id])[0]!,
      etag: tagOf('day', this.started, projectId, this.projects.settingsDigest(projectId), id, revision),
    }
  }

  /**
   * How many versions of each log are kept (two or more: in conflict, a check finding); a change
   * of them is a write of the log, so the tags that name its revision follow.
   */
  versions(projectId: string, ids: string[]): number[] {
    const conflicted = new Map(this.store.revisions.conflicted(projectId).map(({ id, leaves }) => [id, leaves]))
    return ids.map((id) => conflicted.get(id) ?? 1)
  }

  /**
   * The cached check counts of some logs (null where not computed since their last write), and
   * how many versions of each are kept (a conflict is counted where the counts are shown).
   */
  cachedChecks(projectId: string, ids: string[]) {
    const versions = this.versions(projectId, ids)
    return ids.map((id, i) => ({
      ...(this.store.cachedChecks(projectId, id) ?? { revision: -1, checks: null }),
      versions: versions[i]!,
    }))
  }

  #ids(projectId: string, days: Days): string[] {
    return 'logIds' in days ? days.logIds : this.logs.idsIn(projectId, days)
  }

  /** Each log with the revision of its last write, as a tag takes them. */
  #written(projectId: string, ids: string[]): string[] {
    return ids.map((id) => `${id}\u0000${this.#revisionOf(projectId, id)}`)
  }

  /** What a log's last write is known by (the revision its cached checks are kept under). */
  #revisionOf(projectId: string, id: string): number {
    return this.store.revision(projectId, id) ?? 0
  }
}

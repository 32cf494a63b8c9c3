/**
 * The logs a report or a message is drawn from, and each day's check counts: what the reports,
 * the mail and the checks routes share.
 */
import { checkDay } from '../checks/day'
import { countsOf, type Checked, type Counts } from '../checks/findings'
import type { Range } from '../reports'
import type { Settings } from '../schemas/settings'
import type { LogSummary } from '../summary/summary'
import { logReader, type WorkspaceClient } from '../workspace/client'

/**
 * Each day's check counts, for a data report's status column: cached beside the log once computed
 * (with `match_sound` on, by kind, so either setting reads them), computed from the log where its
 * last write left none, or counted from the `findings` a message's body computed. A wrap report
 * over a project reads the counts, not the clips, after the first time.
 */
export const dayChecks =
  (ws: WorkspaceClient, projectId: string, matchSound: boolean, findings: Map<string, Checked>) =>
  async (summaries: LogSummary[]): Promise<Map<string, Counts>> => {
    const ids = summaries.map((s) => s.id)
    const cached = await ws.cachedChecks(projectId, ids)
    const read = logReader(ws, projectId)
    const counts = new Map<string, Counts>()
    for (const [i, id] of ids.entries()) {
      const { revision, checks, versions } = cached[i]!
      let kinds = checks === null ? undefined : (JSON.parse(checks) as Record<string, number>)
      const known = findings.get(id)
      if (!kinds && known) {
        // The message's body computed them from the log as it was then: drawn, not cached, since
        // the revision read above may be a later write's.
        kinds = known.summary.kinds
      } else if (!kinds) {
        kinds = (await checkDay(await read(id), { matchSound: true })).summary.kinds
        await ws.cacheChecks(projectId, id, revision, JSON.stringify(kinds))
      }
      // A day in conflict (docs/units.md) counts it among its errors: found by the store, not cached.
      if (versions > 1) kinds = { ...kinds, 'versions-in-conflict': 1 }
      // Cached counts are by kind with `match_sound` on; a message's findings are the project's own.
      counts.set(id, countsOf(kinds, matchSound))
    }
    return counts
  }

/**
 * The logs of a report or a message: summaries, each log read when drawn, each day's check counts
 * and versions kept.
 */
export const rangeOf = (ws: WorkspaceClient, projectId: string, settings: Settings, summaries: LogSummary[]): Range => {
  const findings = new Map<string, Checked>()
  let versions: Promise<Map<string, number>> | undefined
  const versionsOf = async () => {
    const ids = summaries.map((s) => s.id)
    const counts = await ws.logVersions(projectId, ids)
    return new Map(ids.map((id, i) => [id, counts[i]!]))
  }
  return {
    summaries,
    readLog: logReader(ws, projectId),
    dayChecks: dayChecks(ws, projectId, settings.match_sound !== false, findings),
    findings,
    versions: () => (versions ??= versionsOf()),
  }
}

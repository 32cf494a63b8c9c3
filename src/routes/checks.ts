import type { IRequest } from 'itty-router'
import { checkDay } from '../checks/day'
import { countsOf, summaryOf, type Counts, type Finding } from '../checks/findings'
import { checkRange } from '../checks/range'
import { apiToken } from '../http/guards'
import { ChecksQuerySchema, parseOrThrow } from '../schemas/requests'
import { logReader, workspace, type WorkspaceClient } from '../workspace/client'
import type { LogSummary } from '../summary/summary'
import type { Range } from '../reports'
import type { Settings } from '../schemas/settings'
import { logIdOf } from './logs'

/** The checks of one day: run here in the worker, its log read like a report reads it. */
export async function logChecks(request: IRequest, env: Env) {
  const token = apiToken(request)
  const id = logIdOf(request)
  const ws = workspace(env)
  const { projectId, matchSound } = await ws.checkPlan(token, { logIds: [id] })
  const checks = await checkDay(await logReader(ws, projectId)(id), { matchSound })
  return { checks, summary: summaryOf(checks) }
}

/** The checks of a range of days, and what shows only across them (reel gaps, clips on two days). */
export async function rangeChecks(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { from, to } = parseOrThrow(ChecksQuerySchema, { ...request.query })
  const ws = workspace(env)
  const { projectId, matchSound, summaries } = await ws.checkPlan(token, {
    ...(from !== undefined && { from }),
    ...(to !== undefined && { to }),
  })
  const read = logReader(ws, projectId)
  return checkRange(
    summaries.map((summary) => ({ summary, log: () => read(summary.id) })),
    { matchSound },
  )
}

/**
 * Each day's check counts, for a data report's status column: cached beside the log once computed
 * (with `match_sound` on, by kind, so either setting reads them), computed from the log where its
 * last write left none, or counted from the `findings` a message's body computed. A wrap report
 * over a project reads the counts, not the clips, after the first time.
 */
const dayChecks =
  (ws: WorkspaceClient, projectId: string, matchSound: boolean, findings: Map<string, Finding[]>) =>
  async (summaries: LogSummary[]): Promise<Map<string, Counts>> => {
    const ids = summaries.map((s) => s.id)
    const cached = await ws.cachedChecks(projectId, ids)
    const read = logReader(ws, projectId)
    const counts = new Map<string, Counts>()
    for (const [i, id] of ids.entries()) {
      const { revision, checks } = cached[i]!
      let kinds = checks === null ? undefined : (JSON.parse(checks) as Record<string, number>)
      const known = findings.get(id)
      if (!kinds && known) {
        // The message's body computed them from the log as it was then: drawn, not cached, since
        // the revision read above may be a later write's.
        kinds = summaryOf(known).kinds
      } else if (!kinds) {
        kinds = summaryOf(await checkDay(await read(id), { matchSound: true })).kinds
        await ws.cacheChecks(projectId, id, revision, JSON.stringify(kinds))
      }
      // Cached counts are by kind with `match_sound` on; a message's findings are the project's own.
      counts.set(id, countsOf(kinds, matchSound))
    }
    return counts
  }

/** The logs of a report or a message: summaries, each log read when drawn, each day's check counts. */
export const rangeOf = (ws: WorkspaceClient, projectId: string, settings: Settings, summaries: LogSummary[]): Range => {
  const findings = new Map<string, Finding[]>()
  return {
    summaries,
    readLog: logReader(ws, projectId),
    dayChecks: dayChecks(ws, projectId, settings.match_sound !== false, findings),
    findings,
  }
}

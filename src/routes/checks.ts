import type { IRequest } from 'itty-router'
import { checkDay } from '../checks/day'
import { countsOf, unlistedOf, type Checked, type Counts } from '../checks/findings'
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
  const { findings, summary } = await checkDay(await logReader(ws, projectId)(id), { matchSound })
  return withUnlisted({ checks: findings, summary })
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
  const { checks, summary, days } = await checkRange(
    summaries.map((summary) => ({ summary, log: () => read(summary.id) })),
    { matchSound },
  )
  return withUnlisted({
    checks,
    summary,
    days: days.map(({ log, day, date, summary }) => ({ log, day, date, summary })),
  })
}

/**
 * An answer's findings are listed to a limit per kind (LISTED_PER_KIND); where one kind has more,
 * `unlisted` says how many were left out, so a client never takes the list for the whole.
 */
function withUnlisted<T extends Pick<Checked, 'summary'> & { checks: Checked['findings'] }>(answer: T) {
  const unlisted = unlistedOf({ findings: answer.checks, summary: answer.summary })
  return Object.keys(unlisted).length ? { ...answer, unlisted } : answer
}

/**
 * Each day's check counts, for a data report's status column: cached beside the log once computed
 * (with `match_sound` on, by kind, so either setting reads them), computed from the log where its
 * last write left none, or counted from the `findings` a message's body computed. A wrap report
 * over a project reads the counts, not the clips, after the first time.
 */
const dayChecks =
  (ws: WorkspaceClient, projectId: string, matchSound: boolean, findings: Map<string, Checked>) =>
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
        kinds = known.summary.kinds
      } else if (!kinds) {
        kinds = (await checkDay(await read(id), { matchSound: true })).summary.kinds
        await ws.cacheChecks(projectId, id, revision, JSON.stringify(kinds))
      }
      // Cached counts are by kind with `match_sound` on; a message's findings are the project's own.
      counts.set(id, countsOf(kinds, matchSound))
    }
    return counts
  }

/** The logs of a report or a message: summaries, each log read when drawn, each day's check counts. */
export const rangeOf = (ws: WorkspaceClient, projectId: string, settings: Settings, summaries: LogSummary[]): Range => {
  const findings = new Map<string, Checked>()
  return {
    summaries,
    readLog: logReader(ws, projectId),
    dayChecks: dayChecks(ws, projectId, settings.match_sound !== false, findings),
    findings,
  }
}

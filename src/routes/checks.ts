import type { IRequest } from 'itty-router'
import { checkDay } from '../checks/day'
import { summaryOf } from '../checks/findings'
import { checkRange } from '../checks/range'
import { apiToken } from '../http/guards'
import { ChecksQuerySchema, parseOrThrow } from '../schemas/requests'
import { logReader, workspace } from '../workspace/client'
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

import { base64 } from '@scure/base'
import type { IRequest } from 'itty-router'
import { readObject } from '../http/body'
import { apiToken } from '../http/guards'
import { namesEtag } from '../http/conditional'
import { download, notModified, tagged } from '../http/headers'
import { logIdOf, pathParam } from '../http/params'
import { renderReport, reportFilename, type ReportSource } from '../reports'
import { ChecksQuerySchema, GeneratePdfSchema, logIdsOf, parseOrThrow } from '../schemas/requests'
import { OPERATOR, workspace, type WorkspaceClient } from '../workspace/client'
import type { ReportPlan } from '../workspace/Workspace'
import type { DayRange } from '../workspace/logs'
import { rangeOf } from '../flows/range'

/** Seed endpoint 10: the report is drawn here in the worker, not in the workspace's single thread. */
export async function generatePdf(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { presetId, logId } = parseOrThrow(GeneratePdfSchema, await readObject(request))
  const ws = workspace(env)
  const { filename, pdf } = await drawReport(ws, await ws.reportPlan(token, presetId, { logIds: logIdsOf(logId) }))
  return {
    success: true,
    data: { filename, mimeType: 'application/pdf', base64: base64.encode(pdf) },
  }
}

/** GET /log/{id}/pdf/{presetId}: one day's report as the file itself, for applications without base64. */
export async function logPdf(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { presetId, days } = dayOf(request)
  const ws = workspace(env)
  return fileOf(request, ws, await ws.reportPlan(token, presetId, days))
}

/** GET /pdf/{presetId}?from=&to=: the report of a range of days (as GET /checks takes it), as a file. */
export async function rangePdf(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { presetId, days } = rangeOfDays(request)
  const ws = workspace(env)
  return fileOf(request, ws, await ws.reportPlan(token, presetId, days))
}

// ---- the same files for the console (behind withOperator)

/** GET /approve/days/{id}/pdf/{presetId} */
export async function dayPdf(request: IRequest, env: Env) {
  const { presetId, days } = dayOf(request)
  const ws = workspace(env)
  return fileOf(request, ws, await ws.reportPlan(OPERATOR, presetId, days))
}

/** GET /approve/days/pdf/{presetId}?from=&to= */
export async function rangeOfDaysPdf(request: IRequest, env: Env) {
  const { presetId, days } = rangeOfDays(request)
  const ws = workspace(env)
  return fileOf(request, ws, await ws.reportPlan(OPERATOR, presetId, days))
}

const dayOf = (request: IRequest) => ({
  presetId: pathParam(request, 'presetId'),
  days: { logIds: [logIdOf(request)] },
})

function rangeOfDays(request: IRequest) {
  const presetId = pathParam(request, 'presetId')
  const { from, to } = parseOrThrow(ChecksQuerySchema, { ...request.query })
  const days: DayRange = { ...(from !== undefined && { from }), ...(to !== undefined && { to }) }
  return { presetId, days }
}

/** A report as a file under its plan's tag; 304, the report not drawn, when the request names the tag. */
async function fileOf(request: IRequest, ws: WorkspaceClient, plan: ReportPlan) {
  if (namesEtag(request, plan.etag)) return notModified(plan.etag)
  const { filename, pdf } = await drawReport(ws, plan)
  return tagged(download(pdf, 'application/pdf', filename), plan.etag)
}

async function drawReport(ws: WorkspaceClient, { settings, preset, projectId, summaries }: ReportPlan) {
  const source: ReportSource = { settings, preset, ...rangeOf(ws, projectId, settings, summaries) }
  const pdf = await renderReport(source)
  return { filename: reportFilename(source), pdf }
}

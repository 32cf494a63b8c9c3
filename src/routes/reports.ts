import { base64 } from '@scure/base'
import type { IRequest } from 'itty-router'
import { readObject } from '../http/body'
import { apiToken } from '../http/guards'
import { download } from '../http/headers'
import { logIdOf, pathParam } from '../http/params'
import { renderReport, reportFilename, type ReportSource } from '../reports'
import { ChecksQuerySchema, GeneratePdfSchema, logIdsOf, parseOrThrow } from '../schemas/requests'
import { workspace } from '../workspace/client'
import type { DayRange } from '../workspace/logs'
import { rangeOf } from '../flows/range'

/** Seed endpoint 10: the report is drawn here in the worker, not in the workspace's single thread. */
export async function generatePdf(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { presetId, logId } = parseOrThrow(GeneratePdfSchema, await readObject(request))
  const { filename, pdf } = await drawReport(env, token, presetId, { logIds: logIdsOf(logId) })
  return {
    success: true,
    data: { filename, mimeType: 'application/pdf', base64: base64.encode(pdf) },
  }
}

/** GET /log/{id}/pdf/{presetId}: one day's report as the file itself, for applications without base64. */
export async function logPdf(request: IRequest, env: Env) {
  const token = apiToken(request)
  const id = logIdOf(request)
  const { filename, pdf } = await drawReport(env, token, pathParam(request, 'presetId'), { logIds: [id] })
  return download(pdf, 'application/pdf', filename)
}

/** GET /pdf/{presetId}?from=&to=: the report of a range of days (as GET /checks takes it), as a file. */
export async function rangePdf(request: IRequest, env: Env) {
  const token = apiToken(request)
  const presetId = pathParam(request, 'presetId')
  const { from, to } = parseOrThrow(ChecksQuerySchema, { ...request.query })
  const days: DayRange = { ...(from !== undefined && { from }), ...(to !== undefined && { to }) }
  const { filename, pdf } = await drawReport(env, token, presetId, days)
  return download(pdf, 'application/pdf', filename)
}

async function drawReport(env: Env, token: string, presetId: string, days: { logIds: string[] } | DayRange) {
  const ws = workspace(env)
  const { settings, preset, projectId, summaries } = await ws.reportPlan(token, presetId, days)
  const source: ReportSource = { settings, preset, ...rangeOf(ws, projectId, settings, summaries) }
  const pdf = await renderReport(source)
  return { filename: reportFilename(source), pdf }
}

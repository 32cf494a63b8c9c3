import { base64 } from '@scure/base'
import type { Handler } from '../api/call'
import { download } from '../http/headers'
import { renderReport, reportFilename, type ReportSource } from '../reports'
import { logIdsOf } from '../schemas/requests'
import { OPERATOR, workspace, type WorkspaceClient } from '../workspace/client'
import type { ReportPlan } from '../workspace/Workspace'
import type { DayRange } from '../workspace/logs'
import { rangeOf } from '../flows/range'

/** Seed endpoint 10: the report is drawn here in the worker, not in the workspace's single thread. */
export const generatePdf: Handler<'generatePdf'> = async ({ env, token, body }) => {
  const { presetId, logId } = await body()
  const ws = workspace(env)
  const { filename, pdf } = await drawReport(ws, await ws.reportPlan(token, presetId, { logIds: logIdsOf(logId) }))
  return { success: true, data: { filename, mimeType: 'application/pdf', base64: base64.encode(pdf) } }
}

/** GET /log/{id}/pdf/{presetId}: one day's report as the file itself, for applications without base64. */
export const logPdf: Handler<'logPdf'> = async ({ env, token, params: { id, presetId } }) => {
  const ws = workspace(env)
  return fileOf(ws, await ws.reportPlan(token, presetId!, { logIds: [id!] }))
}

/** GET /pdf/{presetId}?from=&to=: the report of a range of days (as GET /checks takes it), as a file. */
export const rangePdf: Handler<'rangePdf'> = async ({ env, token, params, query }) => {
  const ws = workspace(env)
  return fileOf(ws, await ws.reportPlan(token, params.presetId!, daysOf(query)))
}

// ---- the same files for the console (behind withOperator)

/** GET /approve/days/{id}/pdf/{presetId} */
export const dayPdf: Handler<'dayPdf'> = async ({ env, params: { id, presetId } }) => {
  const ws = workspace(env)
  return fileOf(ws, await ws.reportPlan(OPERATOR, presetId!, { logIds: [id!] }))
}

/** GET /approve/days/pdf/{presetId}?from=&to= */
export const rangeOfDaysPdf: Handler<'rangeOfDaysPdf'> = async ({ env, params, query }) => {
  const ws = workspace(env)
  return fileOf(ws, await ws.reportPlan(OPERATOR, params.presetId!, daysOf(query)))
}

const daysOf = ({ from, to }: { from?: number | string; to?: number | string }): DayRange => ({
  ...(from !== undefined && { from }),
  ...(to !== undefined && { to }),
})

/** A report as a file under its plan's tag: drawn only when the request does not name the tag. */
const fileOf = (ws: WorkspaceClient, plan: ReportPlan) => ({
  etag: plan.etag,
  answer: async () => {
    const { filename, pdf } = await drawReport(ws, plan)
    return download(pdf, 'application/pdf', filename)
  },
})

async function drawReport(ws: WorkspaceClient, { settings, preset, projectId, summaries }: ReportPlan) {
  const source: ReportSource = { settings, preset, ...rangeOf(ws, projectId, settings, summaries) }
  const pdf = await renderReport(source)
  return { filename: reportFilename(source), pdf }
}

import { base64 } from '@scure/base'
import type { IRequest } from 'itty-router'
import { readObject } from '../http/body'
import { apiToken } from '../http/guards'
import { renderReport, reportFilename, type ReportSource } from '../reports'
import { GeneratePdfSchema, logIdsOf, parseOrThrow } from '../schemas/requests'
import { workspace } from '../workspace/client'
import { rangeOf } from '../flows/range'

/** Seed endpoint 10: the report is drawn here in the worker, not in the workspace's single thread. */
export async function generatePdf(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { presetId, logId } = parseOrThrow(GeneratePdfSchema, await readObject(request))
  const ws = workspace(env)
  const logIds = logIdsOf(logId)
  const { settings, preset, projectId, summaries } = await ws.reportPlan(token, presetId, logIds)
  const source: ReportSource = { settings, preset, ...rangeOf(ws, projectId, settings, summaries) }
  const pdf = await renderReport(source)
  return {
    success: true,
    data: { filename: reportFilename(source), mimeType: 'application/pdf', base64: base64.encode(pdf) },
  }
}

import type { IRequest } from 'itty-router'
import { readObject } from '../http/body'
import { apiToken } from '../http/guards'
import { renderReport, reportFilename } from '../reports'
import { GeneratePdfSchema, logIdsOf, parseOrThrow } from '../schemas/requests'
import { toBase64 } from '../shared/base64'
import { unwrap, workspace } from '../workspace/client'
import type { ReportSource } from '../workspace/Workspace'

/** Seed endpoint 10: the report is drawn here in the worker, not in the workspace's single thread. */
export async function generatePdf(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { presetId, logId } = parseOrThrow(GeneratePdfSchema, await readObject(request))
  // RPC's type mapping loses the shape of valibot's loose objects; the value is exactly this.
  const source = (await unwrap(workspace(env).reportSource(token, presetId, logIdsOf(logId)))) as ReportSource
  const pdf = await renderReport(source)
  return {
    success: true,
    data: { filename: reportFilename(source), mimeType: 'application/pdf', base64: toBase64(pdf) },
  }
}

import { StatusError } from 'itty-router'
import type { ReportSource } from '../workspace/Workspace'

export async function renderReport(_source: ReportSource): Promise<Uint8Array> {
  throw new StatusError(501, { error: 'Reports are not built yet' })
}

export const reportFilename = (source: ReportSource) => source.preset.output_name

/** PDF reports (SPEC §8), drawn with pdf-lib in the worker's isolate. */
import { reportOf } from '../schemas/settings'
import { inLogOrder, rangeTitle } from '../shared/log-order'
import { fillTags } from '../shared/tags'
import type { LogOutput } from '../schemas/log'
import type { PdfPreset, Settings } from '../schemas/settings'
import { clipsReport } from './clips-report'
import { dataReport } from './data-report'
import { ReportDocument } from './document'
import { summarize } from './model'

/** A report's input: the project's settings, the preset and the logs of the range. */
export type ReportSource = { settings: Settings; preset: PdfPreset; logs: LogOutput[] }

export async function renderReport(source: ReportSource): Promise<Uint8Array> {
  const { settings, preset } = source
  // A log named twice is reported once: totals must not count its clips twice.
  const logs = [...new Map(source.logs.map((log) => [log.id, log])).values()].sort(inLogOrder)
  const options = preset.options ?? {}
  const kind = reportOf(preset)
  const report = await ReportDocument.create({
    size: options.page_size ?? 'A4',
    orientation: options.orientation ?? 'landscape',
  })
  const project = settings.project_name
  const summaries = logs.map((log) => summarize(log, settings.unit))
  const context = { settings, label: preset.label, columns: options.columns }
  if (kind === 'data-report') await dataReport(report, project, summaries, context)
  else await clipsReport(report, project, summaries, context)

  const created = new Date()
  const range = rangeTitle(logs)
  const stamp = created.toISOString().slice(0, 16).replace('T', ' ')
  return report.save(`${project} · ${preset.label} · generated ${stamp} UTC`, {
    title: `${project} — ${preset.label} — ${range}`,
    subject: kind === 'data-report' ? 'Data report' : 'Clips report',
    keywords: logs.map((l) => l.id),
    created,
  })
}

/** `output_name` with its tags filled in; a path separator from a tag value would make a folder of it. */
export function reportFilename(source: ReportSource): string {
  const name = fillTags(source.preset.output_name, {
    projectName: source.settings.project_name,
    unit: source.settings.unit,
    logs: source.logs,
  })
  return name.replace(/[/\\]/g, '-').replace(/[\u0000-\u001f\u007f]/g, '')
}

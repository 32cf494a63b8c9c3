/** PDF reports (SPEC §8), drawn with pdf-lib in the worker's isolate. */
import { localStamp } from '../shared/time-zone'
import type { Checked, Counts } from '../checks/findings'
import type { LazyLog } from '../large-logs/read'
import { reportOf, type PdfPreset, type Settings } from '../schemas/settings'
import { inLogOrder, rangeTitle } from '../shared/log-order'
import { fillTags } from '../shared/tags'
import type { LogSummary } from '../summary/summary'
import { clipsReport } from './clips-report'
import { dataReport } from './data-report'
import { ReportDocument } from './document'

/**
 * The logs of a report or an e-mail: their stored summaries, a way to read one log, and the days'
 * check counts (cached beside the logs). A data report reads no log; a clips report reads one day
 * at a time.
 */
export type Range = {
  summaries: LogSummary[]
  readLog: (id: string) => Promise<LazyLog>
  dayChecks?: (summaries: LogSummary[]) => Promise<Map<string, Counts>>
  /** Each day's own findings once computed for this range (a message's body): its clips PDF draws them. */
  findings?: Map<string, Checked>
  /**
   * How many versions of each day are kept (two or more: in conflict, docs/units.md), asked once
   * for the range, so a message's body and its clips PDF say the same; 1 where absent. (The data
   * report's column reads them with the days' check counts.)
   */
  versions?: () => Promise<Map<string, number>>
}

/**
 * A report's input: the project's settings, the preset and the range. `created`: the date it
 * states (a message's PDFs carry the message's, so that the same message is the same bytes).
 */
export type ReportSource = Range & { settings: Settings; preset: PdfPreset; created?: Date }

export async function renderReport(source: ReportSource): Promise<Uint8Array> {
  const { settings, preset, readLog } = source
  // A log named twice is reported once: totals must not count its clips twice.
  const summaries = [...new Map(source.summaries.map((s) => [s.id, s])).values()].sort(inLogOrder)
  const options = preset.options ?? {}
  const kind = reportOf(preset)
  const report = await ReportDocument.create({
    size: options.page_size ?? 'A4',
    orientation: options.orientation ?? 'landscape',
  })
  const project = settings.project_name
  const context = { settings, label: preset.label, columns: options.columns }
  if (kind === 'data-report') await dataReport(report, project, summaries, context, await source.dayChecks?.(summaries))
  else {
    const versions = await source.versions?.()
    await clipsReport(
      report,
      project,
      summaries.map((summary) => ({
        summary,
        log: () => readLog(summary.id),
        checks: source.findings?.get(summary.id),
        versions: versions?.get(summary.id) ?? 1,
      })),
      context,
    )
  }

  const created = source.created ?? new Date()
  const range = rangeTitle(summaries)
  const stamp = localStamp(created, settings.time_zone)
  return report.save(`${project} · ${preset.label} · generated ${stamp}`, {
    title: `${project} — ${preset.label} — ${range}`,
    subject: kind === 'data-report' ? 'Data report' : 'Clips report',
    keywords: summaries.map((s) => s.id),
    created,
  })
}

/** `output_name` with its tags filled in; a path separator from a tag value would make a folder of it. */
export function reportFilename(source: Pick<ReportSource, 'settings' | 'preset' | 'summaries'>): string {
  const name = fillTags(source.preset.output_name, {
    projectName: source.settings.project_name,
    unit: source.settings.unit,
    logs: source.summaries,
  })
  return name.replace(/[/\\]/g, '-').replace(/[\u0000-\u001f\u007f]/g, '')
}

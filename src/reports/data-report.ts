/** `data-report`: one row per log and the totals across them, with the date range (SPEC §8). */
import { rangeTitle, spanOf } from '../shared/log-order'
import { weekdayOf } from '../shared/tags'
import { cards, copiesLine, heading, infoGrid, runningHeader, titleBlock } from './blocks'
import { countsText } from './checks-block'
import { infoPairs, summaryCards, type ReportContext } from './clips-report'
import type { ReportDocument } from './document'
import { total, unitOf, type LogSummary, type Media, type VolumeCount } from '../summary/summary'
import { formatBytes, formatCount, mergeReels } from './model'
import { chipOf, problemWords, sizeWords } from '../copies/words'
import { drawTable, type Column } from './table'
import type { Counts } from '../checks/findings'

type Row = Record<
  | 'day'
  | 'date'
  | 'unit'
  | 'duration'
  | 'ocfFiles'
  | 'ocfSize'
  | 'proxyFiles'
  | 'proxySize'
  | 'soundFiles'
  | 'soundSize'
  | 'reels'
  | 'copies'
  | 'soundCopies'
  | 'checks',
  string
>

const files = (m: Media | undefined) => (m ? formatCount(m.files) : '—')
const size = (m: Media | undefined) => (m ? sizeWords(m, formatBytes) : '—')
/** Each volume as its chip says it, short: `SHUTTLE_C 2/3 ✕ (1 clip not found on read-back)`. */
const copies = (counts: VolumeCount[]) =>
  counts
    .map((c) => {
      const { held, clips, mark } = chipOf(c)
      const notes = [c.days ? `${formatCount(c.days)} ${c.days === 1 ? 'day' : 'days'}` : '', problemWords(c)].filter(
        Boolean,
      )
      return `${c.volume} ${formatCount(held)}/${formatCount(clips)} ${mark}${notes.length ? ` (${notes.join(', ')})` : ''}`
    })
    .join(', ')

/** The cells a log's row and the totals row share. */
const figures = (
  f: Pick<LogSummary, 'duration' | 'ocf' | 'proxy' | 'sound' | 'reels' | 'copies' | 'soundCopies'>,
): Omit<Row, 'day' | 'date' | 'unit' | 'checks'> => ({
  duration: f.duration?.text ?? '—',
  ocfFiles: files(f.ocf),
  ocfSize: size(f.ocf),
  proxyFiles: files(f.proxy),
  proxySize: size(f.proxy),
  soundFiles: files(f.sound),
  soundSize: size(f.sound),
  reels: mergeReels(f.reels) || '—',
  copies: copies(f.copies) || '—',
  soundCopies: copies(f.soundCopies) || '—',
})

/** A day's checks in a cell: `OK` when nothing was found, else the counts most serious first. */
const status = (counts: Counts | undefined) => (counts ? countsText(counts) || 'OK' : '—')

/**
 * `checks`: each day's check counts (its own findings; the range's reel gaps are for GET /checks).
 * Without them (a caller that has none) the column is left out.
 */
export async function dataReport(
  report: ReportDocument,
  project: string,
  summaries: LogSummary[],
  ctx: ReportContext,
  checks?: Map<string, Counts>,
) {
  const { firstDate, lastDate } = spanOf(summaries)
  const single = summaries.length === 1
  const title = rangeTitle(summaries)
  const unitsOf = summaries.map((s) => unitOf(s, ctx.settings.unit))
  const units = [...new Set(unitsOf.filter(Boolean))]
  const unit = units.length === 1 ? units[0]! : units.length ? `${units.length} units` : ''
  await report.section(runningHeader(project, unit ? `${title} · ${unit}` : title, ctx.label))
  titleBlock(report, {
    project,
    title,
    subtitle: `${single ? '1 log' : `${summaries.length} logs`} · ${weekdayOf(firstDate)}${firstDate === lastDate ? '' : ` to ${weekdayOf(lastDate)}`}`,
    report: 'Data report',
    label: ctx.label,
    unit,
  })
  infoGrid(report, infoPairs(ctx.settings))
  const totals = total(summaries)
  cards(report, summaryCards(totals))
  copiesLine(report, 'OCF copies', totals.copies)
  copiesLine(report, 'Sound copies', totals.soundCopies)

  const rows: Row[] = summaries.map((s, i) => ({
    day: String(s.day),
    date: s.date,
    unit: unitsOf[i]!,
    ...figures(s),
    checks: status(checks?.get(s.id)),
  }))
  const footer: Row = {
    day: 'Total',
    date: firstDate === lastDate ? firstDate : `${firstDate} – ${lastDate}`,
    unit: units.length === 1 ? units[0]! : '',
    ...figures(totals),
    checks: checks ? status(sum([...checks.values()]) ?? { errors: 0, warnings: 0, info: 0 }) : '',
  }
  const columns: Array<Column<Row> & { key: keyof Row }> = [
    { key: 'day', label: 'Day', value: (r) => r.day },
    { key: 'date', label: 'Date', wrap: true, value: (r) => r.date },
    { key: 'unit', label: 'Unit', wrap: true, value: (r) => r.unit },
    { key: 'duration', label: 'Duration', align: 'right', value: (r) => r.duration },
    { key: 'ocfFiles', label: 'OCF files', align: 'right', value: (r) => r.ocfFiles },
    { key: 'ocfSize', label: 'OCF size', align: 'right', value: (r) => r.ocfSize },
    { key: 'proxyFiles', label: 'Proxy files', align: 'right', value: (r) => r.proxyFiles },
    { key: 'proxySize', label: 'Proxy size', align: 'right', value: (r) => r.proxySize },
    { key: 'soundFiles', label: 'Sound files', align: 'right', value: (r) => r.soundFiles },
    { key: 'soundSize', label: 'Sound size', align: 'right', value: (r) => r.soundSize },
    { key: 'reels', label: 'Reels', wrap: true, value: (r) => r.reels },
    { key: 'copies', label: 'OCF copies', wrap: true, value: (r) => r.copies },
    { key: 'soundCopies', label: 'Sound copies', wrap: true, value: (r) => r.soundCopies },
    { key: 'checks', label: 'Checks', wrap: true, value: (r) => r.checks },
  ]
  const shown = columns.filter(
    (c) =>
      (c.key !== 'unit' || units.length) &&
      (c.key !== 'checks' || checks) &&
      (c.key !== 'soundCopies' || totals.soundCopies.length),
  )
  await heading(report, 'Shooting days', summaries.length === 1 ? '1 log' : `${summaries.length} logs`)
  await drawTable(report, shown, rows, { footer })
  if (units.length > 1) await perUnit(report, summaries, unitsOf, shown, checks)
}

/**
 * A wrap of several units: each unit's days added up, a row per unit in the order units first
 * appear, under the same columns as the days (reels and copies per day above stay there).
 */
async function perUnit(
  report: ReportDocument,
  summaries: LogSummary[],
  unitsOf: string[],
  shown: Array<Column<Row> & { key: keyof Row }>,
  checks?: Map<string, Counts>,
) {
  const byUnit = new Map<string, LogSummary[]>()
  summaries.forEach((s, i) => {
    const unit = unitsOf[i] || 'No unit'
    byUnit.set(unit, [...(byUnit.get(unit) ?? []), s])
  })
  const rows: Row[] = [...byUnit].map(([unit, days]) => ({
    day: `${formatCount(days.length)} ${days.length === 1 ? 'day' : 'days'}`,
    date: '',
    unit,
    ...figures(total(days)),
    checks: checks ? status(sum(days.map((s) => checks.get(s.id)))) : '',
  }))
  const columns = shown
    .filter((c) => !['date', 'reels', 'copies', 'soundCopies'].includes(c.key))
    .map((c) => (c.key === 'day' ? { ...c, label: 'Days' } : c))
  // The unit first: it is what each row is.
  columns.sort((a, b) => Number(b.key === 'unit') - Number(a.key === 'unit'))
  await heading(report, 'Per unit', `${formatCount(byUnit.size)} units`)
  await drawTable(report, columns, rows)
}

/** The check counts of several days, added up; undefined when none has any. */
function sum(all: Array<Counts | undefined>): Counts | undefined {
  const known = all.filter((c): c is Counts => c !== undefined)
  if (!known.length) return undefined
  return {
    errors: known.reduce((n, c) => n + c.errors, 0),
    warnings: known.reduce((n, c) => n + c.warnings, 0),
    info: known.reduce((n, c) => n + c.info, 0),
  }
}

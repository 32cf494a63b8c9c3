/** The parts of a report page above and between tables: title, info lines, summary cards, copies. */
import { ACCENT, BAD, CARD, FAINT, GOOD, INK, MUTED, RULE, WARN } from './canvas'
import type { ReportDocument, RunningHeader } from './document'
import { printable } from './fonts'
import { chipOf } from '../copies/words'
import type { VolumeCount } from '../summary/summary'
import { clip, wrap } from './text'

export type Title = { project: string; title: string; subtitle: string; report: string; label: string; unit: string }

/** The first page's head: project, day and date, unit, report name, and an accent rule. */
export function titleBlock(report: ReportDocument, t: Title) {
  const { canvas, fonts } = report
  const { regular, bold } = fonts
  const top = report.y
  const rightWidth = report.contentWidth * 0.34
  const leftWidth = report.contentWidth - rightWidth - 12
  canvas.text(bold, 17, INK, report.left, top + 15, clip(bold, printable(t.project), 17, leftWidth))
  canvas.text(bold, 12.5, ACCENT, report.left, top + 33, clip(bold, printable(t.title), 12.5, leftWidth))
  canvas.text(regular, 8.5, MUTED, report.left, top + 46, clip(regular, printable(t.subtitle), 8.5, leftWidth))
  canvas.text(regular, 7, FAINT, report.right, top + 9, regular.run(t.report.toUpperCase()), 'right')
  canvas.text(bold, 10.5, INK, report.right, top + 22, clip(bold, printable(t.label), 10.5, rightWidth), 'right')
  if (t.unit)
    canvas.text(regular, 9.5, INK, report.right, top + 36, clip(regular, printable(t.unit), 9.5, rightWidth), 'right')
  report.y = top + 54
  canvas.line(report.left, report.y, report.right, report.y, ACCENT, 1.4)
  report.y += 10
}

/** Top band of the pages after a section's first: where this page belongs. */
export function runningHeader(project: string, context: string, label: string): RunningHeader {
  return (report: ReportDocument) => {
    const { canvas, fonts } = report
    const { regular, bold } = fonts
    const top = report.y
    const labelRun = clip(regular, printable(label), 8, report.contentWidth * 0.3)
    const projectRun = clip(bold, printable(project), 8.5, report.contentWidth * 0.35)
    canvas.text(bold, 8.5, INK, report.left, top + 9, projectRun)
    const contextLeft = report.left + projectRun.width * 8.5 + 8
    const contextWidth = report.right - labelRun.width * 8 - 16 - contextLeft
    canvas.text(regular, 8.5, MUTED, contextLeft, top + 9, clip(regular, printable(context), 8.5, contextWidth))
    canvas.text(regular, 8, MUTED, report.right, top + 9, labelRun, 'right')
    canvas.line(report.left, top + 15, report.right, top + 15, RULE, 0.6)
    report.y = top + 24
  }
}

/** Free key/value lines (project `custom_info`, custom-schema log fields), a few to a row. */
export function infoGrid(report: ReportDocument, pairs: Array<[string, string]>) {
  if (!pairs.length) return
  const { regular, bold } = report.fonts
  const perRow = report.contentWidth > 700 ? 5 : 3
  const cell = report.contentWidth / perRow
  for (let i = 0; i < pairs.length; i += perRow) {
    const row = pairs.slice(i, i + perRow)
    row.forEach(([key, value], k) => {
      const x = report.left + k * cell
      // The row's last pair may use the empty cells after it.
      const width = (k === row.length - 1 ? report.right - x : cell) - 10
      report.canvas.text(regular, 6.5, MUTED, x, report.y + 7, clip(regular, printable(key).toUpperCase(), 6.5, width))
      report.canvas.text(bold, 8.5, INK, x, report.y + 18, clip(bold, printable(value), 8.5, width))
    })
    report.y += 24
  }
  report.y += 4
}

const VALUE_SIZES = [13, 11.5, 10]

export type Card = { label: string; value: string; detail: string; span?: number }

/** A row of summary cards; a card's value wraps onto a second, smaller line when it is long. */
export function cards(report: ReportDocument, list: Card[]) {
  const { canvas, fonts } = report
  const { regular, bold } = fonts
  const gap = 8
  const units = list.reduce((n, c) => n + (c.span ?? 1), 0)
  // A card spanning two units also spans the gap between them.
  const unit = (report.contentWidth - gap * (units - 1)) / units
  const height = 46
  let x = report.left
  for (const card of list) {
    const w = unit * (card.span ?? 1) + gap * ((card.span ?? 1) - 1)
    const inner = w - 18
    canvas.rect(x, report.y, w, height, CARD)
    canvas.rect(x, report.y, 2.2, height, ACCENT)
    canvas.text(regular, 6.5, MUTED, x + 10, report.y + 11, clip(regular, card.label.toUpperCase(), 6.5, inner))
    const value = printable(card.value)
    const size = VALUE_SIZES.find((sz) => bold.run(value).width * sz <= inner)
    if (size) {
      canvas.text(bold, size, INK, x + 10, report.y + 27, bold.run(value))
    } else {
      const lines = wrap(bold, value, 8.5, inner, 2)
      lines.forEach((run, i) =>
        canvas.text(bold, 8.5, INK, x + 10, report.y + 22 + i * 9.5 - (lines.length - 1) * 2, run),
      )
    }
    canvas.text(regular, 7.5, MUTED, x + 10, report.y + 39, clip(regular, printable(card.detail), 7.5, inner))
    x += w + gap
  }
  report.y += height + 10
}

/**
 * Copies per volume as chips in the one account's words (src/copies/words.ts), `SSD_01: 120 clips,
 * all verified (read back) ✓`: green with ✓ when nothing is wrong or wanting, amber with ! for a
 * warning (copies without a checksum), red with ✕ for an error (missing, not found or different on
 * read-back, a checksum that differs).
 */
export function copiesLine(report: ReportDocument, label: string, counts: VolumeCount[]) {
  if (!counts.length) return
  const { canvas, fonts } = report
  const { regular, bold } = fonts
  const size = 8
  const lineHeight = 10.5
  const labelRun = regular.run(label.toUpperCase())
  const start = report.left + Math.max(60, labelRun.width * 6.5 + 10)
  const row = report.right - start
  canvas.text(regular, 6.5, MUTED, report.left, report.y + 10, labelRun)
  let x = start
  let rowHeight = 0
  for (const c of counts) {
    const chip = chipOf(c)
    const name = clip(bold, printable(c.volume), size, row * 0.4)
    const mark = bold.run(chip.mark)
    // The words whole, never cut: a chip too wide for what is left of the row starts a row, and
    // one too wide for a row wraps its words inside it.
    const fixed = 8 + name.width * size + 4 + mark.width * size + 8
    const words = wrap(regular, printable(`: ${chip.words}`), size, row - fixed, 6)
    const w = fixed + Math.max(...words.map((line) => line.width * size))
    const height = 15 + (words.length - 1) * lineHeight
    if (x + w > report.right && x > start) {
      x = start
      report.y += rowHeight + 4
      rowHeight = 0
    }
    const [fill, ink] = CHIP_COLOURS[chip.verdict]
    canvas.rect(x, report.y, w, height, fill)
    let at = x + 8
    canvas.text(bold, size, INK, at, report.y + 10.5, name)
    at += name.width * size
    words.forEach((line, i) => canvas.text(regular, size, INK, at, report.y + 10.5 + i * lineHeight, line))
    const last = words.at(-1)!
    canvas.text(bold, size, ink, at + last.width * size + 4, report.y + 10.5 + (words.length - 1) * lineHeight, mark)
    x += w + 6
    rowHeight = Math.max(rowHeight, height)
  }
  report.y += rowHeight + 8
}

/** A chip's fill and mark by its verdict. */
const CHIP_COLOURS = {
  ok: ['0.91 0.96 0.92', GOOD],
  warning: ['0.995 0.95 0.87', WARN],
  error: ['0.99 0.90 0.90', BAD],
} as const

/** A section title over a table, kept on the page together with the table's first rows. */
export async function heading(report: ReportDocument, title: string, detail: string) {
  await report.ensure(60)
  const { bold, regular } = report.fonts
  const run = bold.run(printable(title))
  report.canvas.text(bold, 9.5, INK, report.left, report.y + 10, run)
  report.canvas.text(
    regular,
    8,
    MUTED,
    report.left + run.width * 9.5 + 8,
    report.y + 10,
    clip(regular, printable(detail), 8, report.contentWidth * 0.6),
  )
  report.y += 16
}

export function note(report: ReportDocument, text: string) {
  report.canvas.text(
    report.fonts.regular,
    8.5,
    MUTED,
    report.left,
    report.y + 10,
    report.fonts.regular.run(printable(text)),
  )
  report.y += 18
}

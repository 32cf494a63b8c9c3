/**
 * Tables: column widths fitted to their content, long values wrapped (or clipped with `…`) inside
 * their cell, zebra rows, and the header row repeated at the top of every page the table runs onto.
 */
import { BAD, ERROR_FILL, HEADER_FILL, INK, RULE, WHITE, ZEBRA, type Align } from './canvas'
import type { ReportDocument } from './document'
import { printable, type Run, type TextFont } from './fonts'
import { clip, FIT_SLACK, wrap } from './text'

export type Column<R> = {
  label: string
  align?: Align
  /** Long values continue on further lines; otherwise they are cut with `…`. */
  wrap?: boolean
  /** Points a wrap column keeps before others give up theirs (the clip name reads best on one line). */
  min?: number
  /** Left out when no row has a value for it (a log without lens metadata prints no Lens column). */
  optional?: boolean
  value: (row: R) => string
}

type Fonts = { regular: TextFont; bold: TextFont }

/** Text size when everything fits; a wide table first shrinks its text down to MIN_SIZE, then wraps. */
const SIZE = 7
const MIN_SIZE = 6
const PAD_X = 3.6
const PAD_Y = 2.5
const MAX_LINES = 3
const MIN_WRAP_WIDTH = 34
const MAX_GROW = 1.7

export type Layout<R> = { columns: Column<R>[]; size: number; header: number; line: number; widths: number[] }

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)

/**
 * Natural widths are the widest value or label of each column (measured at 1 pt). If they fit,
 * the columns grow to the page (a little); if they fit at a smaller size, the text shrinks; else
 * fixed columns keep their width and wrap columns share the rest, narrowest needs served first.
 * Rows are gone through once here (and once more to draw them): a large log's clips are parsed
 * each time.
 */
function fitLayout<R>(fonts: Fonts, offered: Column<R>[], rows: Iterable<R>, available: number, footer?: R): Layout<R> {
  const widest = offered.map(() => 0)
  const filled = offered.map((c) => !c.optional)
  for (const row of rows) {
    for (let i = 0; i < offered.length; i++) {
      const text = offered[i]!.value(row)
      if (text === '') continue
      filled[i] = true
      const w = fonts.regular.run(printable(text)).width
      if (w > widest[i]!) widest[i] = w
    }
  }
  const columns = offered.filter((_, i) => filled[i])
  const value = widest.filter((_, i) => filled[i])
  const label = columns.map((c) => fonts.bold.run(c.label).width)
  const word = columns.map((c) => Math.max(...c.label.split(' ').map((w) => fonts.bold.run(w).width)))
  if (footer)
    for (let i = 0; i < columns.length; i++)
      value[i] = Math.max(value[i]!, fonts.bold.run(printable(columns[i]!.value(footer))).width)
  const natural = columns.map((_, i) => Math.max(label[i]!, value[i]!))
  const padding = 2 * PAD_X * columns.length
  const fitting = (available - padding) / sum(natural)
  const size = Math.max(MIN_SIZE, Math.min(SIZE, fitting))
  const line = size * 1.23
  const layout = (widths: number[]): Layout<R> => ({ columns, size, header: size * 0.97, line, widths })
  const want = natural.map((w) => w * size + 2 * PAD_X)
  if (sum(want) <= available + 0.01) {
    // Spread over the page, but a table of a few short columns stays compact rather than gappy.
    const grow = Math.min(MAX_GROW, available / sum(want))
    return layout(want.map((w) => w * grow))
  }
  // A wrap column can narrow down to its longest header word (headers never break inside a word).
  const least = columns.map((c, i) =>
    c.wrap
      ? Math.min(want[i]!, Math.max(MIN_WRAP_WIDTH, c.min ?? 0, word[i]! * size * 0.97 + 2 * PAD_X + 1))
      : want[i]!,
  )
  if (sum(least) > available) {
    // Even at their narrowest the columns overflow: everything shrinks alike and cells clip.
    const scale = available / sum(least)
    return layout(least.map((w) => w * scale))
  }
  const widths = [...least]
  let spare = available - sum(least)
  const flexible = columns.map((_, i) => i).filter((i) => want[i]! > least[i]!)
  while (spare > 0.01 && flexible.length) {
    const share = spare / flexible.length
    spare = 0
    for (let k = flexible.length - 1; k >= 0; k--) {
      const i = flexible[k]!
      const grow = Math.min(share, want[i]! - widths[i]!)
      widths[i]! += grow
      spare += share - grow
      if (widths[i]! >= want[i]! - 0.01) flexible.splice(k, 1)
    }
  }
  return layout(widths)
}

export type TableOptions<R> = {
  /** A row drawn in bold under a rule after the last one (totals). */
  footer?: R
  /**
   * Rows to mark: tinted, with a ✕ in the left margin, so that a row still reads as marked on a
   * page printed in grey (and `pdftotext` shows the mark at the start of its line).
   */
  marked?: (row: R) => boolean
}

type Cell = { lines: Run[] }

/** Draws the table from the document's cursor down, over as many pages as it needs. */
export async function drawTable<R>(
  report: ReportDocument,
  offered: Column<R>[],
  rows: Iterable<R>,
  options: TableOptions<R> = {},
) {
  const { regular, bold } = report.fonts
  const {
    columns,
    size,
    header: headerSize,
    line,
    widths,
  } = fitLayout(report.fonts, offered, rows, report.contentWidth, options.footer)
  const lefts: number[] = []
  let x = report.left
  for (const w of widths) {
    lefts.push(x)
    x += w
  }
  const width = x - report.left
  // Capitals and digits sit optically centred in a line when the baseline is this far down.
  const baselineIn = (top: number, n: number) => top + PAD_Y + n * line + (line + 0.72 * size) / 2
  const anchor = (align: Align | undefined, i: number) =>
    align === 'right'
      ? lefts[i]! + widths[i]! - PAD_X
      : align === 'center'
        ? lefts[i]! + widths[i]! / 2
        : lefts[i]! + PAD_X
  const heightOf = (cells: Cell[]) => {
    let lines = 1
    for (const cell of cells) if (cell.lines.length > lines) lines = cell.lines.length
    return lines * line + 2 * PAD_Y
  }

  const headerCells = columns.map((c, i) => wrap(bold, c.label, headerSize, widths[i]! - 2 * PAD_X, 2))
  const headerHeight = heightOf(headerCells.map((lines) => ({ lines }))) + 1
  const drawHeader = () => {
    const canvas = report.canvas
    canvas.rect(report.left, report.y, width, headerHeight, HEADER_FILL)
    columns.forEach((c, i) => {
      headerCells[i]!.forEach((run, n) =>
        canvas.text(bold, headerSize, WHITE, anchor(c.align, i), baselineIn(report.y + 0.5, n), run, c.align),
      )
    })
    report.y += headerHeight
  }

  const layout = (row: R, font: TextFont): Cell[] =>
    columns.map((c, i) => {
      const text = printable(c.value(row))
      const inner = widths[i]! - 2 * PAD_X
      const run = font.run(text)
      if (run.width * size <= inner + FIT_SLACK) return { lines: [run] }
      return { lines: c.wrap ? wrap(font, text, size, inner, MAX_LINES) : [clip(font, text, size, inner)] }
    })

  const drawRow = (cells: Cell[], font: TextFont, fill: string | undefined, height: number) => {
    const canvas = report.canvas
    if (fill) canvas.rect(report.left, report.y, width, height, fill)
    for (let i = 0; i < cells.length; i++) {
      const lines = cells[i]!.lines
      const align = columns[i]!.align
      const at = anchor(align, i)
      for (let n = 0; n < lines.length; n++) canvas.text(font, size, INK, at, baselineIn(report.y, n), lines[n]!, align)
    }
    report.y += height
  }

  const cross = bold.run('✕')
  // Never a header alone at the foot of a page.
  await report.ensure(headerHeight + line + 2 * PAD_Y)
  drawHeader()
  let index = 0
  for (const row of rows) {
    const cells = layout(row, regular)
    const height = heightOf(cells)
    if (await report.ensure(height)) drawHeader()
    const marked = options.marked?.(row)
    if (marked) report.canvas.text(bold, size + 1, BAD, report.left - 9, baselineIn(report.y, 0), cross)
    drawRow(cells, regular, marked ? ERROR_FILL : index % 2 === 1 ? ZEBRA : undefined, height)
    index++
  }
  if (options.footer) {
    const cells = layout(options.footer, bold)
    const height = heightOf(cells) + 1
    if (await report.ensure(height)) drawHeader()
    report.canvas.line(report.left, report.y + 0.4, report.left + width, report.y + 0.4, INK, 0.8)
    report.y += 1
    drawRow(cells, bold, undefined, height - 1)
  }
  report.canvas.line(report.left, report.y, report.left + width, report.y, RULE, 0.6)
}

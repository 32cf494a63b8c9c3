/**
 * The "Checks" block of a clips report, after a day's cards: one green line when nothing was
 * found, else the findings as lines (checks/groups.ts), most serious first: each kind and volume
 * with how many and the first clips by name, the words the console, e-mail and `media-log checks`
 * say too.
 */
import type { Checked, Counts } from '../checks/findings'
import { groupsOf } from '../checks/groups'
import { BAD, GOOD, INK, MUTED, WARN } from './canvas'
import type { ReportDocument } from './document'
import { printable } from './fonts'
import { plural } from './model'
import { wrap } from './text'

const MARK = { error: ['✕', BAD], warning: ['!', WARN], info: ['i', MUTED] } as const

/** `1 error · 2 warnings · 1 note`, most serious first; empty when there are none. */
export const countsText = ({ errors, warnings, info }: Counts) =>
  [errors && plural(errors, 'error'), warnings && plural(warnings, 'warning'), info && plural(info, 'note')]
    .filter(Boolean)
    .join(' · ')

/** `rowsMarked`: whether the tables below mark rows of clips with an error (the block says so). */
export async function checksBlock(report: ReportDocument, checked: Checked, rowsMarked: boolean) {
  const { canvas, fonts } = report
  const { regular, bold } = fonts
  await report.ensure(40)
  if (!checked.findings.length) {
    const text = bold.run('✓  Checks: nothing found. Copies, hashes, clip numbers, proxies, sound and sizes agree.')
    canvas.text(bold, 8.5, GOOD, report.left, report.y + 10, text)
    report.y += 20
    return
  }
  const title = bold.run('Checks')
  canvas.text(bold, 9.5, INK, report.left, report.y + 10, title)
  canvas.text(
    regular,
    8,
    MUTED,
    report.left + title.width * 9.5 + 8,
    report.y + 10,
    regular.run(countsText(checked.summary)),
  )
  report.y += 16
  for (const { severity, words } of groupsOf(checked)) {
    const lines = wrap(regular, printable(words), 8, report.contentWidth - 24, 4)
    await report.ensure(4 + lines.length * 10.5)
    const [mark, color] = MARK[severity]
    canvas.text(bold, 8.5, color, report.left + 2, report.y + 8, bold.run(mark))
    for (const line of lines) {
      canvas.text(regular, 8, INK, report.left + 14, report.y + 8, line)
      report.y += 10.5
    }
    report.y += 2
  }
  if (rowsMarked) {
    canvas.text(
      regular,
      7.5,
      MUTED,
      report.left + 14,
      report.y + 7,
      regular.run('Clips with an error are marked ✕ in the tables below.'),
    )
    report.y += 12
  }
  report.y += 6
}

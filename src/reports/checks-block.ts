/**
 * The "Checks" block of a clips report, after a day's cards: one green line when nothing was
 * found, else each kind of finding on a line of its own, most serious first, with what it is
 * about: the volumes, how many clips each misses and the first of them by name, or the first
 * clips and how many more.
 */
import { byKind, KIND_TITLES, type Checked, type Counts, type Finding } from '../checks/findings'
import { BAD, GOOD, INK, MUTED, WARN } from './canvas'
import type { ReportDocument } from './document'
import { printable } from './fonts'
import { formatCount, plural } from './model'
import { wrap } from './text'

const MARK = { error: ['✕', BAD], warning: ['!', WARN], info: ['i', MUTED] } as const
const SHOWN = 4
/** Clips named a volume in a kind that is counted by volume (copies missing, not verified). */
const CLIPS_NAMED = 6

/** `1 error · 2 warnings · 1 note`, most serious first; empty when there are none. */
export const countsText = ({ errors, warnings, info }: Counts) =>
  [errors && plural(errors, 'error'), warnings && plural(warnings, 'warning'), info && plural(info, 'note')]
    .filter(Boolean)
    .join(' · ')

/** Kinds whose every finding is worth its words: a copy that is wrong, not one that is missing. */
const CLIP_BY_CLIP: ReadonlySet<string> = new Set(['hash-mismatch', 'verification-failed'])

/** What a kind's findings are about, in a line; `count` how many there are, listed or not. */
function detailOf(findings: Finding[], count: number, volumes: Checked['volumes']): string {
  const kind = findings[0]!.kind
  if (findings.every((f) => f.volume !== undefined && f.clip !== undefined) && !CLIP_BY_CLIP.has(kind)) {
    const perVolume = new Map<string, number>()
    for (const v of volumes) if (v.kind === kind) perVolume.set(v.volume, (perVolume.get(v.volume) ?? 0) + v.count)
    // The clips by name, a few a volume: what the DIT copies again is a clip, not a count.
    const named = new Map<string, string[]>()
    for (const f of findings) {
      const names = named.get(f.volume!) ?? named.set(f.volume!, []).get(f.volume!)!
      if (names.length < CLIPS_NAMED) names.push(f.clip!)
    }
    return [...perVolume]
      .map(([volume, n]) => {
        const names = named.get(volume) ?? []
        const more = n - names.length
        const list = names.length ? ` (${names.join(', ')}${more ? `, and ${formatCount(more)} more` : ''})` : ''
        return `${volume}: ${plural(n, 'clip')}${list}`
      })
      .join(' · ')
  }
  const shown = findings.slice(0, SHOWN).map((f) => f.message)
  const more = count - shown.length
  return shown.join(' · ') + (more ? ` · and ${formatCount(more)} more` : '')
}

/** `rowsMarked`: whether the tables below mark rows of clips with an error (the block says so). */
export async function checksBlock(
  report: ReportDocument,
  { findings, summary, volumes }: Checked,
  rowsMarked: boolean,
) {
  const { canvas, fonts } = report
  const { regular, bold } = fonts
  await report.ensure(40)
  if (!findings.length) {
    const text = bold.run('✓  Checks: nothing found. Copies, hashes, clip numbers, proxies, sound and sizes agree.')
    canvas.text(bold, 8.5, GOOD, report.left, report.y + 10, text)
    report.y += 20
    return
  }
  const counts = countsText(summary)
  const title = bold.run('Checks')
  canvas.text(bold, 9.5, INK, report.left, report.y + 10, title)
  canvas.text(regular, 8, MUTED, report.left + title.width * 9.5 + 8, report.y + 10, regular.run(counts))
  report.y += 16
  for (const { kind, severity, findings: group } of byKind(findings)) {
    const count = summary.kinds[kind] ?? group.length
    const lines = wrap(regular, printable(detailOf(group, count, volumes)), 7.5, report.contentWidth - 24, 4)
    await report.ensure(12 + lines.length * 9.5)
    const [mark, color] = MARK[severity]
    canvas.text(bold, 8.5, color, report.left + 2, report.y + 9, bold.run(mark))
    const head = bold.run(`${KIND_TITLES[kind]}: ${formatCount(count)}`)
    canvas.text(bold, 8.5, INK, report.left + 14, report.y + 9, head)
    report.y += 12
    for (const line of lines) {
      canvas.text(regular, 7.5, MUTED, report.left + 14, report.y + 7, line)
      report.y += 9.5
    }
    report.y += 3
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

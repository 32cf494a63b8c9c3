import { escapeHtml } from '../shared/html'
import { describeCopies, formatSize, type DayFigures, type MailFigures } from './figures'
import { sizeWords } from '../copies/words'
import type { Media } from '../summary/summary'

export type Body = { html: string; text: string }

/**
 * The message body in both forms a mail client may show: the operator's message, and for
 * `day-summary` the figures of each shooting day. Everything interpolated into the HTML is escaped.
 */
export function renderBody(template: string, subject: string, message: string, summary: MailFigures): Body {
  const summaryParts = template === 'day-summary' ? daySummary(summary) : { html: '', text: '' }
  const text = [message.replace(/\r\n?/g, '\n').trimEnd(), summaryParts.text].filter(Boolean).join('\n\n') + '\n'
  const html = page(subject, messageHtml(message) + summaryParts.html)
  return { html, text }
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif"

function page(subject: string, content: string) {
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${escapeHtml(subject)}</title>\n</head>\n` +
    `<body style="margin:0;padding:24px;background:#ffffff;color:#1d2329;font-family:${FONT};font-size:14px;line-height:1.5">\n` +
    `<div style="max-width:640px">\n${content}</div>\n</body>\n</html>\n`
  )
}

/** Blank lines separate paragraphs; single line breaks stay line breaks. */
function messageHtml(message: string): string {
  return message
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p style="margin:0 0 12px">${p.split('\n').map(escapeHtml).join('<br>\n')}</p>\n`)
    .join('')
}

type Row = [label: string, value: string[]]

const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`
/** Files and size; where no report stated some clips' sizes, they are counted, never taken for 0 bytes. */
const media = (m: Media) => `${files(m.files)} · ${sizeWords(m, formatSize)}`

function rowsOf(day: DayFigures): Row[] {
  const rows: Row[] = []
  if (day.ocf)
    rows.push(['OCF', [[media(day.ocf), day.duration ? `duration ${day.duration}` : ''].filter(Boolean).join(' · ')]])
  if (day.reels) rows.push(['Reels', [day.reels]])
  if (day.copies.length) rows.push(['OCF copies', describeCopies(day.copies)])
  if (day.verification) rows.push(['Verification', day.verification])
  if (day.proxy) rows.push(['Proxy', [media(day.proxy)]])
  if (day.sound) rows.push(['Sound', [media(day.sound)]])
  if (day.soundCopies.length) rows.push(['Sound copies', describeCopies(day.soundCopies)])
  if (day.soundVerification) rows.push(['Sound verification', day.soundVerification])
  if (day.checks) rows.push(['Checks', day.checks])
  if (!rows.length) rows.push(['Media', ['nothing logged yet']])
  return rows
}

function daySummary(summary: MailFigures): Body {
  const days = summary.total ? [...summary.days, summary.total] : summary.days
  const sections = days.map((day) => ({
    title: day.unit ? `${day.title} · ${day.unit}` : day.title,
    rows: rowsOf(day),
  }))

  const width = sections.reduce((most, s) => s.rows.reduce((m, [label]) => Math.max(m, label.length), most), 0) + 2
  const text = [
    summary.projectName,
    ...sections.map(({ title, rows }) =>
      [
        title,
        ...rows.flatMap(([label, values]) => values.map((v, i) => `  ${(i ? '' : `${label}:`).padEnd(width)}${v}`)),
      ].join('\n'),
    ),
  ].join('\n\n')

  const cell = 'padding:4px 12px 4px 0;vertical-align:top;border-top:1px solid #e3e7eb'
  const html =
    `<h1 style="font-size:18px;margin:24px 0 4px;color:#1d2329">${escapeHtml(summary.projectName)}</h1>\n` +
    sections
      .map(
        ({ title, rows }) =>
          `<h2 style="font-size:15px;margin:20px 0 6px;color:#1d2329">${escapeHtml(title)}</h2>\n` +
          '<table role="presentation" cellspacing="0" cellpadding="0" style="border-collapse:collapse;font-size:14px">\n' +
          rows
            .map(
              ([label, values]) =>
                `<tr><th align="left" style="${cell};color:#5b6670;font-weight:600;white-space:nowrap;width:120px">${escapeHtml(label)}</th><td style="${cell}">${values.map(escapeHtml).join('<br>')}</td></tr>\n`,
            )
            .join('') +
          '</table>\n',
      )
      .join('')
  return { html, text }
}

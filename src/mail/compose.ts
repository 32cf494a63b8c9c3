import { checkRange } from '../checks/range'
import { conflict, notFound, Problem } from '../shared/problem'
import { renderReport, reportFilename, type Range, type ReportSource } from '../reports'
import { bodyOf, type Settings } from '../schemas/settings'
import { fillTags } from '../shared/tags'
import type { LogSummary } from '../summary/summary'
import type { MailSource, NewSendWindow, SendWindowListing, WindowAttachment } from '../workspace/windows'
import type { Mailbox } from './address'
import { renderBody } from './body'
import type { OutgoingAttachment, OutgoingMessage } from './mime'
import { figuresOf, type MailFigures } from './figures'

/** Without a preset the window still opens, with the day's figures and a subject to edit. */
const DEFAULT_SUBJECT = '<project> – Day <d> – <yyyy-mm-dd>'
const DEFAULT_TEMPLATE = 'day-summary'

const tagContext = (settings: Settings, summaries: LogSummary[]) => ({
  projectName: settings.project_name,
  unit: settings.unit,
  logs: summaries,
})

/** A subject is one header line: line breaks and other controls from a template become spaces. */
const oneLine = (text: string) =>
  text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()

/** The window as the preset fills it for these logs (their summaries), tags replaced (SPEC §5, §9). */
export function draftFrom(source: MailSource, summaries: LogSummary[], summary: MailFigures): NewSendWindow {
  const { settings, preset } = source
  const context = tagContext(settings, summaries)
  return {
    projectId: source.projectId,
    logIds: summaries.map((s) => s.id),
    presetId: preset?.id ?? null,
    template: preset ? bodyOf(preset) : DEFAULT_TEMPLATE,
    recipients: [...new Set((preset?.recipients ?? []).map((r) => r.trim()))],
    subject:
      oneLine(fillTags(preset?.subject ?? DEFAULT_SUBJECT, context)) || oneLine(fillTags(DEFAULT_SUBJECT, context)),
    message: fillTags(preset?.message ?? '', context),
    attachments: attachmentsFor(settings, summaries, preset?.attachments ?? []),
    summary: JSON.stringify(summary),
    summarySource: source.source,
  }
}

function presetOf(settings: Settings, presetId: string) {
  const preset = settings.pdfs?.find((p) => p.id === presetId)
  if (!preset) throw notFound('Preset')
  return preset
}

/**
 * The `day-summary` figures of a range of days, with their checks as computed now: each day's
 * log read in turn, as a report reads them.
 */
export async function mailFigures(settings: Settings, range: Range): Promise<MailFigures> {
  const versions = await range.versions?.()
  const checks = await checkRange(
    range.summaries.map((summary) => ({
      summary,
      log: () => range.readLog(summary.id),
      versions: versions?.get(summary.id) ?? 1,
    })),
    { matchSound: settings.match_sound !== false },
    (id, findings) => range.findings?.set(id, findings),
  )
  return figuresOf(settings.project_name, settings.unit, range.summaries, checks)
}

/** PDF presets to attach, each with the file name its `output_name` gives; names made unique. */
export function attachmentsFor(settings: Settings, summaries: LogSummary[], presetIds: string[]): WindowAttachment[] {
  const taken = new Set<string>()
  return [...new Set(presetIds)].map((presetId) => {
    const filename = uniqueName(reportFilename({ settings, preset: presetOf(settings, presetId), summaries }), taken)
    taken.add(filename.toLowerCase())
    return { presetId, filename }
  })
}

/**
 * A window's attachments with the names they take now (a log's date or the preset's `output_name`
 * may have changed since they were named); one whose PDF preset is gone keeps its name, and Send
 * says it is gone.
 */
export function currentAttachments(
  settings: Settings,
  summaries: LogSummary[],
  attachments: WindowAttachment[],
): WindowAttachment[] {
  const present = attachments.filter((a) => settings.pdfs?.some((p) => p.id === a.presetId))
  const named = new Map(
    attachmentsFor(
      settings,
      summaries,
      present.map((a) => a.presetId),
    ).map((a) => [a.presetId, a]),
  )
  return attachments.map((a) => named.get(a.presetId) ?? a)
}

function uniqueName(filename: string, taken: Set<string>): string {
  if (!taken.has(filename.toLowerCase())) return filename
  const dot = filename.lastIndexOf('.')
  const [stem, ext] = dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, '']
  for (let n = 2; ; n++) {
    const candidate = `${stem}-${n}${ext}`
    if (!taken.has(candidate.toLowerCase())) return candidate
  }
}

/**
 * Renders one attachment, dated `created` (the message's date); a failure names the file, so the
 * window can say which one.
 */
export async function renderAttachment(
  settings: Settings,
  range: Range,
  attachment: WindowAttachment,
  created: Date,
): Promise<OutgoingAttachment> {
  const source: ReportSource = { settings, preset: presetOf(settings, attachment.presetId), ...range, created }
  try {
    return { filename: attachment.filename, contentType: 'application/pdf', content: await renderReport(source) }
  } catch (err) {
    const reason = err instanceof Problem ? err.error : undefined
    if (!reason) console.error('report failed', err)
    throw new Problem('failed', `The attachment ${attachment.filename} could not be made${reason ? `: ${reason}` : ''}`)
  }
}

/** A message with its body and its attachments' names as they read now; the PDFs not yet drawn. */
export type ComposedMessage = {
  message: Omit<OutgoingMessage, 'attachments'>
  attachments: WindowAttachment[]
  summary: MailFigures
}

/**
 * The message as it would leave now: the operator's recipients, subject and message, the body from
 * the template with today's figures of the logs. Its PDFs are drawn by `withPdfs` once the
 * message's date is known.
 */
export async function composeMessage(
  window: SendWindowListing,
  settings: Settings,
  range: Range,
  from: Mailbox | null,
): Promise<ComposedMessage> {
  const summary = await mailFigures(settings, range)
  const gone = window.attachments.find((a) => !settings.pdfs?.some((p) => p.id === a.presetId))
  if (gone) throw conflict(`The PDF preset of ${gone.filename} no longer exists: remove that attachment`)
  const attachments = attachmentsFor(
    settings,
    range.summaries,
    window.attachments.map((a) => a.presetId),
  )
  const body = renderBody(window.template, window.subject, window.message, summary)
  return {
    message: { from, to: window.recipients, subject: window.subject, text: body.text, html: body.html },
    attachments,
    summary,
  }
}

/** The composed message with its PDFs, drawn now from the same logs and dated `created`. */
export async function withPdfs(
  composed: ComposedMessage,
  settings: Settings,
  range: Range,
  created: Date,
): Promise<OutgoingMessage> {
  const rendered: OutgoingAttachment[] = []
  // One after another: each report can be large, and the isolate's memory is shared.
  for (const attachment of composed.attachments)
    rendered.push(await renderAttachment(settings, range, attachment, created))
  return { ...composed.message, attachments: rendered }
}

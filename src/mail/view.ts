import type { SendWindowListing, WindowStatus } from '../workspace/windows'
import { renderBody, type Body } from './body'
import { deliveryOf, type Delivery, type MailConfig } from './config'
import type { MailSummary } from './summary'

/** A send window as the operator console receives it (GET /approve/windows and the edit answers). */
export type WindowView = {
  id: string
  createdAt: string
  updatedAt: string
  project: string
  logIds: string[]
  presetId: string | null
  presetLabel: string | null
  template: string
  recipients: string[]
  subject: string
  message: string
  preview: Body
  /**
   * The days' checks as computed when the window opened: counts, and per day (and the total) the
   * verification and findings in words; null for a window opened before checks.
   */
  checks: { errors: number; warnings: number; info: number; days: Array<{ title: string; lines: string[] }> } | null
  /** Said when the preset names a template of the user's: the built-in body is shown instead. */
  bodyNote: string | null
  /** `note`: said when the preset names a template of the user's, which the built-in report replaces. */
  attachments: Array<{ presetId: string; label: string; note: string | null; filename: string; url: string }>
  pdfPresets: Array<{ id: string; label: string }>
  status: WindowStatus
  error: string | null
  sentAt: string | null
  delivery: Delivery
  emlUrl: string
  mailto: string
}

/** Mail clients and browsers cut longer mailto: links; the .eml carries the full message. */
const MAILTO_BODY_LIMIT = 1800

export function windowView(window: SendWindowListing, config: MailConfig): WindowView {
  const summary = JSON.parse(window.summary) as MailSummary
  const preview = renderBody(window.template, window.subject, window.message, summary)
  const base = `/approve/windows/${encodeURIComponent(window.id)}`
  const presets = new Map(window.pdfPresets.map((p) => [p.id, p]))
  return {
    id: window.id,
    createdAt: window.createdAt,
    updatedAt: window.updatedAt,
    project: window.projectName,
    logIds: window.logIds,
    presetId: window.presetId,
    presetLabel: window.presetLabel,
    template: window.template,
    recipients: window.recipients,
    subject: window.subject,
    message: window.message,
    preview,
    checks: summary.findings
      ? {
          ...summary.findings,
          days: [...summary.days, ...(summary.total ? [summary.total] : [])].map((day) => ({
            title: day.title,
            lines: [
              ...(day.verification ?? []),
              ...(day.soundVerification ?? []).map((line) => `Sound: ${line}`),
              ...(day.checks ?? []),
            ],
          })),
        }
      : null,
    bodyNote: window.bodyReplaces
      ? `The built-in ${window.template === 'plain' ? 'plain' : 'day summary'} body, in place of ${window.bodyReplaces}`
      : null,
    attachments: window.attachments.map((a) => {
      const replaces = presets.get(a.presetId)?.replaces
      return {
        ...a,
        label: presets.get(a.presetId)?.label ?? a.presetId,
        note: replaces ? `the built-in clips report, in place of ${replaces}` : null,
        url: `${base}/attachments/${encodeURIComponent(a.presetId)}`,
      }
    }),
    pdfPresets: window.pdfPresets.map(({ id, label }) => ({ id, label })),
    status: window.status,
    error: window.error,
    sentAt: window.sentAt,
    delivery: deliveryOf(config),
    emlUrl: `${base}/message.eml`,
    mailto: mailtoLink(
      window.recipients,
      window.subject,
      preview.text,
      window.attachments.map((a) => a.filename),
    ),
  }
}

/**
 * RFC 6068: addresses, subject and the text body; line breaks as %0D%0A. Attachments cannot travel.
 * Text stored before lone surrogates were refused is made well-formed first (one U+FFFD each):
 * encodeURIComponent throws on them, and one such name took the console down for good.
 */
export function mailtoLink(recipients: string[], subject: string, text: string, attachments: string[]): string {
  let body = text.trimEnd()
  if (body.length > MAILTO_BODY_LIMIT) body = `${body.slice(0, MAILTO_BODY_LIMIT).trimEnd()}\n…`
  if (attachments.length) body += `\n\nAttach: ${attachments.join(', ')}`
  const encode = (s: string) => encodeURIComponent(s.toWellFormed().replace(/\r?\n/g, '\r\n'))
  return `mailto:${recipients.map((r) => encodeURIComponent(r.toWellFormed()).replace(/%40/g, '@')).join(',')}?subject=${encode(subject)}&body=${encode(body)}`
}

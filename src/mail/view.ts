import { finding, KIND_TITLES, type Kind } from '../checks/findings'
import type { SendWindowListing, SourceKey, WindowStatus } from '../workspace/windows'
import { renderBody, type Body } from './body'
import { deliveryOf, type Delivery, type MailConfig } from './config'
import type { MailFigures } from './figures'

type CheckKind = { kind: Kind; title: string; severity: 'error' | 'warning' | 'info'; count: number }

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
   * The days' checks as the logs read now: counts, each kind found (most serious first), and per
   * day (and the total) the verification and findings in words; null for a window opened before checks.
   */
  checks: {
    errors: number
    warnings: number
    info: number
    kinds: CheckKind[]
    days: Array<{ title: string; lines: string[] }>
  } | null
  /**
   * The message as it would be sent now, named: `POST …/send {fingerprint}` sends only this message
   * and answers 409 with the window as it reads now when it differs (SPEC §11).
   */
  fingerprint: string
  /** The version of the logs and settings the window is drawn from: it moves with every write to them. */
  version: string
  /**
   * What changed in the window's logs or settings since the operator last looked at it (since it
   * opened, or since `PATCH {seen}`); null when nothing did.
   */
  updated: { logIds: string[]; settings: boolean; text: string } | null
  /** The window's logs that were deleted or renamed: it cannot be sent. */
  missingLogs: string[]
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

/** The body as the window's figures give it. */
export const previewOf = (window: SendWindowListing): Body =>
  renderBody(window.template, window.subject, window.message, JSON.parse(window.summary) as MailFigures)

export function windowView(window: SendWindowListing, config: MailConfig, fingerprint: string): WindowView {
  const summary = JSON.parse(window.summary) as MailFigures
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
          errors: summary.findings.errors,
          warnings: summary.findings.warnings,
          info: summary.findings.info,
          kinds: kindsOf(summary.findings.kinds ?? {}),
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
    fingerprint,
    version: window.source,
    updated: window.status === 'sent' ? null : updatedOf(window, summary),
    missingLogs: window.missingLogs,
    bodyNote: window.bodyReplaces
      ? `The built-in ${window.template === 'plain' ? 'plain' : 'day summary'} body, in place of ${window.bodyReplaces}`
      : null,
    attachments: window.attachments.map((a) => {
      const preset = presets.get(a.presetId)
      return {
        ...a,
        label: preset?.label ?? a.presetId,
        note: !preset
          ? window.status === 'sent'
            ? null
            : 'its PDF preset no longer exists: remove it to send'
          : preset.replaces
            ? `the built-in clips report, in place of ${preset.replaces}`
            : null,
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

/** Every kind found, most serious first, in the order the checks list them. */
function kindsOf(kinds: Partial<Record<Kind, number>>): CheckKind[] {
  const rank = { error: 0, warning: 1, info: 2 }
  return (Object.keys(KIND_TITLES) as Kind[])
    .filter((kind) => kinds[kind])
    .map((kind) => ({ kind, title: KIND_TITLES[kind], severity: finding(kind, '').severity, count: kinds[kind]! }))
    .sort((a, b) => rank[a.severity] - rank[b.severity])
}

const listed = (words: string[]) =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '')

/** The logs and settings that moved between what the operator last looked at and now, in words. */
function updatedOf(window: SendWindowListing, summary: MailFigures): WindowView['updated'] {
  if (!window.seenSource || window.seenSource === window.source) return null
  const seen = JSON.parse(window.seenSource) as SourceKey
  const now = JSON.parse(window.source) as SourceKey
  const before = new Map(seen.logs)
  const logIds = now.logs.filter(([id, revision]) => before.get(id) !== revision).map(([id]) => id)
  const settings = seen.settings !== now.settings
  if (!logIds.length && !settings) return null
  const titles = new Map(summary.days.map((day) => [day.log, day.title]))
  const gone = logIds.filter((id) => window.missingLogs.includes(id))
  const changed = [
    ...logIds
      .filter((id) => !gone.includes(id))
      .map((id) => (now.logs.length === 1 ? 'the day' : (titles.get(id) ?? `log ${id}`))),
    ...(settings ? ['the project settings'] : []),
  ]
  const parts = [
    ...(changed.length ? [`${listed(changed)} changed`] : []),
    ...(gone.length ? [`${gone.length === 1 ? 'log' : 'logs'} ${listed(gone)} deleted or renamed`] : []),
  ]
  const since = window.seenAt ? 'since you last looked at this e-mail' : 'since you opened this window'
  return { logIds, settings, text: `Updated: ${parts.join(', and ')} ${since}.` }
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

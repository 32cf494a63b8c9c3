import { base64 } from '@scure/base'
import type { MailConfig, ProviderName } from './config'
import { formatMailbox } from './config'
import type { OutgoingMessage } from './mime'

/** One HTTP request to a provider, as plain data: what is sent is exactly what tests compare. */
type ProviderRequest = { url: string; method: 'POST'; headers: Record<string, string>; body: string }
export type DeliveryResult = { ok: true } | { ok: false; error: string }

const RESEND_URL = 'https://api.resend.com/emails'
const POSTMARK_URL = 'https://api.postmarkapp.com/email'
const SENDGRID_URL = 'https://api.sendgrid.com'
const TIMEOUT_MS = 30_000
const USER_AGENT = 'media-log-service'

const LABELS: Record<ProviderName, string> = {
  resend: 'Resend',
  postmark: 'Postmark',
  sendgrid: 'SendGrid',
  custom: 'The mail service',
}

/**
 * The provider's own documented request (Resend POST /emails, Postmark POST /email, SendGrid v3
 * POST /v3/mail/send, or the custom JSON shape): HTML and text bodies, attachments in base64.
 */
function providerRequest(config: MailConfig, message: OutgoingMessage): ProviderRequest {
  const from = config.from ? formatMailbox(config.from) : ''
  const json = { 'content-type': 'application/json', accept: 'application/json', 'user-agent': USER_AGENT }
  const attachments = message.attachments.map((a) => ({ ...a, base64: base64.encode(a.content) }))
  switch (config.provider) {
    case 'resend':
      return {
        url: RESEND_URL,
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${config.apiKey}` },
        body: JSON.stringify({
          from,
          to: message.to,
          subject: message.subject,
          html: message.html,
          text: message.text,
          ...(attachments.length && {
            attachments: attachments.map((a) => ({
              filename: a.filename,
              content: a.base64,
              content_type: a.contentType,
            })),
          }),
        }),
      }
    case 'postmark':
      return {
        url: POSTMARK_URL,
        method: 'POST',
        headers: { ...json, 'x-postmark-server-token': config.apiKey },
        body: JSON.stringify({
          From: from,
          To: message.to.join(', '),
          Subject: message.subject,
          HtmlBody: message.html,
          TextBody: message.text,
          MessageStream: 'outbound',
          ...(attachments.length && {
            Attachments: attachments.map((a) => ({ Name: a.filename, Content: a.base64, ContentType: a.contentType })),
          }),
        }),
      }
    case 'sendgrid':
      return {
        url: sendgridUrl(config.apiUrl),
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${config.apiKey}` },
        body: JSON.stringify({
          personalizations: [{ to: message.to.map((email) => ({ email })) }],
          from: config.from?.name
            ? { email: config.from.address, name: config.from.name }
            : { email: config.from?.address },
          subject: message.subject,
          // SendGrid requires text/plain first, then text/html.
          content: [
            { type: 'text/plain', value: message.text },
            { type: 'text/html', value: message.html },
          ],
          ...(attachments.length && {
            attachments: attachments.map((a) => ({
              content: a.base64,
              filename: a.filename,
              type: a.contentType,
              disposition: 'attachment',
            })),
          }),
        }),
      }
    case 'custom':
      return {
        url: config.apiUrl,
        method: 'POST',
        headers: { ...json, ...(config.apiKey && { authorization: `Bearer ${config.apiKey}` }) },
        body: JSON.stringify({
          from: { name: config.from?.name ?? '', address: config.from?.address ?? '' },
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          attachments: attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.base64,
          })),
        }),
      }
    default:
      throw new Error('no e-mail provider configured')
  }
}

/** EMAIL_API_URL for SendGrid is a regional host (https://api.eu.sendgrid.com) or the full URL. */
function sendgridUrl(apiUrl: string): string {
  const base = (apiUrl || SENDGRID_URL).replace(/\/+$/, '')
  return base.endsWith('/v3/mail/send') ? base : `${base}/v3/mail/send`
}

/** Sends and turns every outcome into words the operator can act on; never throws. */
export async function deliver(config: MailConfig, message: OutgoingMessage): Promise<DeliveryResult> {
  const label = LABELS[config.provider!]
  const request = providerRequest(config, message)
  let response: Response
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch (err) {
    const reason =
      (err as Error)?.name === 'TimeoutError'
        ? `no answer within ${TIMEOUT_MS / 1000} seconds`
        : (err as Error)?.message || 'network error'
    return { ok: false, error: redact(`Could not reach ${label}: ${reason}`, config.apiKey) }
  }
  const text = await response.text().catch(() => '')
  if (response.ok) {
    // Postmark reports some refusals inside a 200 answer.
    const code = config.provider === 'postmark' ? (parse(text) as { ErrorCode?: number } | undefined)?.ErrorCode : 0
    if (!code) return { ok: true }
  }
  const detail = detailOf(config.provider!, text) || response.statusText || 'no details given'
  return {
    ok: false,
    error: redact(`${label} refused the message (HTTP ${response.status}): ${detail}`, config.apiKey),
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The provider's own explanation: Resend `message`, Postmark `Message`, SendGrid `errors[].message`. */
function detailOf(provider: ProviderName, text: string): string {
  const body = parse(text) as Record<string, unknown> | undefined
  let detail: unknown
  if (body && typeof body === 'object') {
    if (provider === 'sendgrid' && Array.isArray(body.errors)) {
      detail = body.errors
        .map((e: { message?: unknown; field?: unknown }) =>
          typeof e?.message === 'string'
            ? typeof e.field === 'string' && e.field && e.field !== 'null'
              ? `${e.field}: ${e.message}`
              : e.message
            : '',
        )
        .filter(Boolean)
        .join('; ')
    } else {
      detail = body.message ?? body.Message ?? body.error ?? body.detail
      if (detail && typeof detail === 'object') detail = (detail as { message?: unknown }).message
    }
  } else if (!/^\s*</.test(text)) {
    // A plain-text answer is quoted; an HTML error page from a proxy is not worth showing.
    detail = text
  }
  return typeof detail === 'string' ? detail.replace(/\s+/g, ' ').trim().slice(0, 500) : ''
}

// Real keys are long; a key of a few characters would blank out ordinary words of the message.
const redact = (text: string, secret: string) =>
  secret.length >= 8 ? text.split(secret).join('[EMAIL_API_KEY]') : text

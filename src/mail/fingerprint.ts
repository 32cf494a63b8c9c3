import { hex } from '@scure/base'
import type { WindowAttachment } from '../workspace/windows'
import type { Mailbox } from './address'
import { formatMailbox } from './config'

/**
 * SPEC §11, what the operator approves is what is sent: a window's message is named by its
 * fingerprint, a hash of exactly what would leave. Its content key covers the sender, recipients,
 * subject, both bodies and the attachments' names; the PDFs' bytes are covered by the source key
 * they are drawn from (the revisions of the window's logs and the settings' digest), not hashed:
 * drawing them on every look would cost a report per window per change. The fingerprint adds the
 * time the message came to read so (`composedAt`), which dates the message and its PDFs.
 */
export type MessageContent = {
  windowId: string
  from: Mailbox | null
  to: string[]
  subject: string
  text: string
  html: string
  attachments: WindowAttachment[]
  /** The window's source key; it counts only when PDFs are attached. */
  source: string
}

const encoder = new TextEncoder()

const sha256Hex = async (text: string) =>
  hex.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))))

export function contentKeyOf(content: MessageContent): Promise<string> {
  const { windowId, from, to, subject, text, html, attachments, source } = content
  return sha256Hex(
    JSON.stringify([
      windowId,
      from && formatMailbox(from),
      to,
      subject,
      text,
      html,
      attachments.map((a) => [a.presetId, a.filename]),
      attachments.length ? source : null,
    ]),
  )
}

/** 64 hex digits; a message never composed (no `composedAt`) has the content key's alone. */
export const fingerprintOf = (contentKey: string, composedAt: string | null) =>
  sha256Hex(`${contentKey}\n${composedAt ?? ''}`)

/**
 * What a .eml makes up besides the content, derived from the fingerprint so the same message is
 * the same bytes however often it is drawn: the Message-ID and the two MIME boundaries.
 */
export function envelopeOf(fingerprint: string, from: Mailbox | null) {
  const domain = from?.address.split('@')[1] ?? 'media-log.localhost'
  return {
    messageId: `<${fingerprint.slice(0, 32)}@${domain}>`,
    boundaries: [`=_mls_${fingerprint.slice(32, 64)}`, `=_mls_${fingerprint.slice(0, 32)}`] as [string, string],
  }
}

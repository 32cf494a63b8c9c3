/**
 * A send window as it reads now (SPEC §11: a window follows its days' logs): its figures redrawn
 * when its logs moved, its fingerprint, and the message that fingerprint names, for the console,
 * Send and the .eml download alike.
 */
import { composeMessage, currentAttachments, mailFigures, withPdfs } from '../mail/compose'
import type { MailConfig } from '../mail/config'
import { contentKeyOf, envelopeOf, fingerprintOf } from '../mail/fingerprint'
import { toEml, type OutgoingMessage } from '../mail/mime'
import type { MailFigures } from '../mail/figures'
import { previewOf, windowView, type WindowView } from '../mail/view'
import type { Settings } from '../schemas/settings'
import { Problem } from '../shared/problem'
import type { LogSummary } from '../summary/summary'
import type { WorkspaceClient } from '../workspace/client'
import type { SendWindowListing } from '../workspace/windows'
import { rangeOf } from './range'

export type LiveWindow = { listing: SendWindowListing; view: WindowView }

export const editable = (window: SendWindowListing) => window.status === 'draft' || window.status === 'failed'

/**
 * The window with its figures drawn from its logs as they are now. They are drawn again only when
 * a write moved the logs or settings since they were last drawn (the source key), not on every
 * look: a console polls all day, and the checks of a big day read every clip.
 */
async function refreshed(ws: WorkspaceClient, listing: SendWindowListing): Promise<SendWindowListing> {
  if (!editable(listing) || listing.missingLogs.length || listing.summarySource === listing.source) return listing
  try {
    const { window, settings, summaries } = await ws.windowSource(listing.id)
    const range = rangeOf(ws, window.projectId, settings, summaries)
    const summary = await mailFigures(settings, range)
    const attachments = currentAttachments(settings, summaries, window.attachments)
    return await ws.refreshSendWindow(listing.id, window.source, window.updatedAt, JSON.stringify(summary), attachments)
  } catch (err) {
    // A log deleted meanwhile: the next look sees it missing. The figures shown stay the last drawn.
    if (!(err instanceof Problem)) console.error('send window not redrawn', err)
    return listing
  }
}

const contentOf = (window: SendWindowListing, config: MailConfig) => ({
  windowId: window.id,
  from: config.from,
  to: window.recipients,
  subject: window.subject,
  ...previewOf(window),
  attachments: window.attachments,
  source: window.source,
})

/**
 * The window as the operator sees it now, with its fingerprint. The message's content key is
 * recorded when it changed, which dates the message (`composedAt`); a record changed meanwhile by
 * another request (an edit, a redraw) is composed again from the newer one.
 */
export async function liveWindow(
  ws: WorkspaceClient,
  listing: SendWindowListing,
  config: MailConfig,
): Promise<LiveWindow> {
  let current = await refreshed(ws, listing)
  for (let attempt = 1; ; attempt++) {
    const key = await contentKeyOf(contentOf(current, config))
    if (!editable(current) || current.contentKey === key || attempt > 3) {
      const fingerprint = await fingerprintOf(key, current.contentKey === key ? current.composedAt : null)
      return { listing: current, view: windowView(current, config, fingerprint) }
    }
    current = await ws.noteWindowContent(current.id, key, current.updatedAt, current.summarySource)
  }
}

/** The windows as the console shows them, with the titles of their shooting days. */
export async function consoleWindows(ws: WorkspaceClient, listings: SendWindowListing[], config: MailConfig) {
  const windows = []
  // One after another: a redraw reads its days' logs, and the isolate's memory is shared.
  for (const listing of listings) {
    const { listing: current, view } = await liveWindow(ws, listing, config)
    windows.push({ ...view, days: (JSON.parse(current.summary) as MailFigures).days.map((day) => day.title) })
  }
  return windows
}

/**
 * The window's message as the fingerprint names it, its PDFs drawn and dated with it; undefined
 * when the message reads differently now (its logs, settings or draft moved since it was shown).
 */
export async function messageAsShown(
  ws: WorkspaceClient,
  source: { window: SendWindowListing; settings: Settings; summaries: LogSummary[] },
  config: MailConfig,
  fingerprint: string,
) {
  const { window, settings, summaries } = source
  const range = rangeOf(ws, window.projectId, settings, summaries)
  const composed = await composeMessage(window, settings, range, config.from)
  const key = await contentKeyOf({
    windowId: window.id,
    ...composed.message,
    attachments: composed.attachments,
    source: window.source,
  })
  if (key !== window.contentKey || !window.composedAt || (await fingerprintOf(key, window.composedAt)) !== fingerprint)
    return undefined
  const message = await withPdfs(composed, settings, range, new Date(window.composedAt))
  // PDFs are drawn from the logs as read while drawing: none may have been written meanwhile.
  if (composed.attachments.length && (await ws.sendWindow(window.id)).source !== window.source) return undefined
  return { message, composed, composedAt: window.composedAt }
}

/**
 * The .eml of a message: dated when it came to read so, on the project's clocks; its Message-ID
 * and boundaries from its fingerprint.
 */
export const emlOf = (message: OutgoingMessage, fingerprint: string, composedAt: string | null, zone?: string) =>
  toEml(message, {
    ...envelopeOf(fingerprint, message.from),
    ...(composedAt && { date: new Date(composedAt) }),
    ...(zone && { zone }),
    unsent: true,
  })

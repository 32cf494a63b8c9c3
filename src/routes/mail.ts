import { StatusError, type IRequest } from 'itty-router'
import { readObject } from '../http/body'
import { apiToken } from '../http/guards'
import { jsonAnswer } from '../http/headers'
import { pathParam } from '../http/params'
import {
  attachmentsFor,
  composeMessage,
  currentAttachments,
  draftFrom,
  mailFigures,
  renderAttachment,
  withPdfs,
} from '../mail/compose'
import { mailConfig, type MailConfig } from '../mail/config'
import { contentKeyOf, envelopeOf, fingerprintOf } from '../mail/fingerprint'
import { toEml, type OutgoingMessage } from '../mail/mime'
import { deliver } from '../mail/providers'
import { WindowEditSchema, WindowSendSchema } from '../mail/schemas'
import type { MailFigures } from '../mail/figures'
import { previewOf, windowView, type WindowView } from '../mail/view'
import { logIdsOf, OpenEmailWindowSchema, parseOrThrow } from '../schemas/requests'
import type { Settings } from '../schemas/settings'
import { conflict, invalid, notFound, Problem } from '../shared/problem'
import type { LogSummary } from '../summary/summary'
import { workspace, type WorkspaceClient } from '../workspace/client'
import type { SendOutcome, SendWindowListing, WindowEdit } from '../workspace/windows'
import { rangeOf } from './checks'

const windowIdOf = (request: IRequest) => pathParam(request, 'id')

/**
 * Seed endpoint 11: checks the logs and the preset, composes the window (tags replaced, file names
 * of the attachments) and leaves it for the operator, whose console shows it at once.
 */
export async function openEmailWindow(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { logId, presetId } = parseOrThrow(OpenEmailWindowSchema, await readObject(request))
  const ws = workspace(env)
  // The same day named twice is one day of the message.
  const logIds = [...new Set(logIdsOf(logId))]
  const source = await ws.mailSource(token, logIds, presetId)
  const range = rangeOf(ws, source.projectId, source.settings, source.summaries)
  await ws.openSendWindow(draftFrom(source, source.summaries, await mailFigures(source.settings, range)))
  return { success: true }
}

// ---- a window as it reads now (SPEC §11: a send window follows its days' logs)

type LiveWindow = { listing: SendWindowListing; view: WindowView }

const editable = (window: SendWindowListing) => window.status === 'draft' || window.status === 'failed'

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
async function liveWindow(ws: WorkspaceClient, listing: SendWindowListing, config: MailConfig): Promise<LiveWindow> {
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

/** 409 with the window as it reads now: the message differs from the one the caller saw. */
const changed = (error: string, window: WindowView) => jsonAnswer(JSON.stringify({ error, window }), 409)

const CHANGED_BEFORE_SEND = 'The e-mail changed since it was shown: nothing was sent. Look at it again, then send it.'

/**
 * The window's message as the fingerprint names it, its PDFs drawn and dated with it; undefined
 * when the message reads differently now (its logs, settings or draft moved since it was shown).
 */
async function messageAsShown(
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

/** The .eml of a message: dated when it came to read so, its Message-ID and boundaries from its fingerprint. */
const emlOf = (message: OutgoingMessage, fingerprint: string, composedAt: string | null) =>
  toEml(message, {
    ...envelopeOf(fingerprint, message.from),
    ...(composedAt && { date: new Date(composedAt) }),
    unsent: true,
  })

// ---- operator (behind withOperator)

export async function listWindows(_request: IRequest, env: Env) {
  const config = mailConfig(env)
  const ws = workspace(env)
  const windows = []
  for (const listing of await ws.sendWindows()) windows.push((await liveWindow(ws, listing, config)).view)
  return { windows }
}

export async function getWindow(request: IRequest, env: Env) {
  const ws = workspace(env)
  const { view } = await liveWindow(ws, await ws.sendWindow(windowIdOf(request)), mailConfig(env))
  return { window: view }
}

/**
 * Recipients, subject, message and which PDFs go along; attachment names come from the presets.
 * `{seen: fingerprint}` alone: the operator has looked at the window as that fingerprint names it,
 * so it no longer says it was updated (409 with the window when it reads differently by now).
 */
export async function editWindow(request: IRequest, env: Env) {
  const id = windowIdOf(request)
  const edit = parseOrThrow(WindowEditSchema, await readObject(request))
  const config = mailConfig(env)
  const ws = workspace(env)
  const { seen, ...rest } = edit
  const changes: WindowEdit = { ...rest, attachments: undefined }
  for (const key of Object.keys(changes) as Array<keyof WindowEdit>) if (changes[key] === undefined) delete changes[key]
  if (seen !== undefined) {
    if (Object.keys(changes).length || edit.attachments)
      throw invalid([{ prop: 'seen', message: 'must be sent alone, not with changes' }])
    const shown = await liveWindow(ws, await ws.sendWindow(id), config)
    if (shown.view.fingerprint !== seen)
      return changed('The e-mail changed again since it was shown: look at it again.', shown.view)
    const looked = await ws.acknowledgeSendWindow(id, shown.listing.summarySource ?? shown.listing.source)
    return { success: true, window: (await liveWindow(ws, looked, config)).view }
  }
  if (edit.attachments) {
    const { settings, summaries } = await ws.windowSource(id)
    changes.attachments = attachmentsFor(settings, summaries, edit.attachments)
  }
  const window = await ws.editSendWindow(id, changes)
  return { success: true, window: (await liveWindow(ws, window, config)).view }
}

/**
 * Sends through the configured provider the message the operator saw: `{fingerprint}` names it,
 * and a message that would differ now is refused with 409 and the window as it reads now, nothing
 * sent (SPEC §11). The window is locked while the request is out; a refusal keeps the draft with
 * the provider's reason. The send goes on even if the console disconnects.
 */
export async function sendWindow(request: IRequest, env: Env, ctx?: ExecutionContext) {
  const id = windowIdOf(request)
  const { fingerprint } = parseOrThrow(WindowSendSchema, await readObject(request))
  const config = mailConfig(env)
  if (!config.provider && !config.problem)
    throw conflict(
      'No e-mail provider is configured: download the .eml file instead, or set EMAIL_PROVIDER in .dev.vars',
    )
  if (config.problem) throw conflict(config.problem)
  const ws = workspace(env)
  // Checked first against the figures as last drawn: a stale fingerprint costs no PDF.
  const shown = await liveWindow(ws, await ws.sendWindow(id), config)
  if (editable(shown.listing) && shown.view.fingerprint !== fingerprint) return changed(CHANGED_BEFORE_SEND, shown.view)
  const claimed = await ws.claimSendWindow(id)
  // 502 when the provider refused or could not be reached; a message that could not even be
  // composed (a PDF preset gone, a report failing) answers with that failure's own status.
  const work = (async (): Promise<{ outcome: SendOutcome; status: number } | undefined> => {
    try {
      // Composed again from the logs as they are: what leaves is what was shown, or nothing.
      const shown = await messageAsShown(ws, claimed, config, fingerprint)
      if (!shown) return undefined
      const result = await deliver(config, shown.message)
      if (result.ok) {
        const summary = JSON.stringify(shown.composed.summary)
        return { outcome: { sent: true, summary, attachments: shown.composed.attachments }, status: 200 }
      }
      return { outcome: { sent: false, error: result.error }, status: 502 }
    } catch (err) {
      return { outcome: { sent: false, error: reasonOf(err) }, status: err instanceof StatusError ? err.status : 500 }
    }
  })().then(async (result) =>
    result
      ? { ...result, window: await ws.finishSendWindow(id, result.outcome) }
      : { window: await ws.releaseSendWindow(id) },
  )
  ctx?.waitUntil(work)
  const done = await work
  if (!('outcome' in done)) return changed(CHANGED_BEFORE_SEND, (await liveWindow(ws, done.window, config)).view)
  if (!done.outcome.sent) throw new StatusError(done.status, { error: done.outcome.error })
  return { success: true, window: (await liveWindow(ws, done.window, config)).view }
}

export async function discardWindow(request: IRequest, env: Env) {
  await workspace(env).discardSendWindow(windowIdOf(request))
  return { success: true }
}

/** One PDF as the message would carry it: the same name and bytes (dated with the message). */
export async function downloadAttachment(request: IRequest, env: Env) {
  const presetId = pathParam(request, 'presetId')
  const ws = workspace(env)
  const { listing } = await liveWindow(ws, await ws.sendWindow(windowIdOf(request)), mailConfig(env))
  const { window, settings, summaries } = await ws.windowSource(listing.id)
  const attachment = currentAttachments(settings, summaries, window.attachments).find((a) => a.presetId === presetId)
  if (!attachment) throw notFound('Attachment')
  if (!settings.pdfs?.some((p) => p.id === presetId)) throw notFound('Preset')
  const range = rangeOf(ws, window.projectId, settings, summaries)
  const created = listing.composedAt ? new Date(listing.composedAt) : new Date()
  const pdf = await renderAttachment(settings, range, attachment, created)
  return download(pdf.content, 'application/pdf', pdf.filename)
}

/**
 * The complete message as a .eml file for any mail client: byte for byte what Send would send now
 * (409 with the window should it change while being made). A sent window's is drawn from the logs
 * as they are now.
 */
export async function downloadEml(request: IRequest, env: Env) {
  const config = mailConfig(env)
  const ws = workspace(env)
  const { listing, view } = await liveWindow(ws, await ws.sendWindow(windowIdOf(request)), config)
  const source = await ws.windowSource(listing.id)
  let message: OutgoingMessage
  if (editable(listing)) {
    const shown = await messageAsShown(ws, source, config, view.fingerprint)
    if (!shown)
      return changed(
        'The e-mail changed while the file was being made: download it again.',
        (await liveWindow(ws, await ws.sendWindow(listing.id), config)).view,
      )
    message = shown.message
  } else {
    const range = rangeOf(ws, listing.projectId, source.settings, source.summaries)
    const composed = await composeMessage(source.window, source.settings, range, config.from)
    message = await withPdfs(composed, source.settings, range, new Date(listing.composedAt ?? listing.updatedAt))
  }
  return download(
    emlOf(message, view.fingerprint, listing.composedAt),
    'message/rfc822',
    `${safeFilename(listing.subject) || 'message'}.eml`,
  )
}

function download(body: BodyInit, type: string, filename: string) {
  return new Response(body, { headers: { 'content-type': type, 'content-disposition': contentDisposition(filename) } })
}

/** RFC 6266: an ASCII fallback and the exact UTF-8 name (a lone surrogate as U+FFFD, see mailtoLink). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  const exact = encodeURIComponent(filename.toWellFormed()).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`
}

/** A subject as a file name: no path separators or characters file systems refuse. */
const safeFilename = (text: string) =>
  text
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .trim()

function reasonOf(err: unknown): string {
  if (err instanceof StatusError) {
    const message = (err as StatusError & { error?: unknown }).error
    if (typeof message === 'string') return message
  }
  console.error('send failed', err)
  return 'The message could not be prepared; nothing was sent.'
}

import { StatusError } from 'itty-router'
import type { Handler } from '../api/call'
import { statusOf } from '../http/errors'
import { download, refusal } from '../http/headers'
import {
  attachmentsFor,
  composeMessage,
  currentAttachments,
  draftFrom,
  mailFigures,
  renderAttachment,
  withPdfs,
} from '../mail/compose'
import { mailConfig } from '../mail/config'
import type { OutgoingMessage } from '../mail/mime'
import { deliver } from '../mail/providers'
import type { WindowView } from '../mail/view'
import { logIdsOf } from '../schemas/requests'
import { conflict, invalid, notFound, Problem } from '../shared/problem'
import { OPERATOR, workspace, type WorkspaceClient } from '../workspace/client'
import type { MailSource, SendOutcome, WindowEdit } from '../workspace/windows'
import { rangeOf } from '../flows/range'
import { editable, emlOf, liveWindow, messageAsShown } from '../flows/windows'

/**
 * Seed endpoint 11: checks the logs and the preset, composes the window (tags replaced, file names
 * of the attachments) and leaves it for the operator, whose console shows it at once.
 */
export const openEmailWindow: Handler<'openEmailWindow'> = async ({ env, token, body }) => {
  await openDraft(await body(), env, (ws, logIds, presetId) => ws.mailSource(token, logIds, presetId))
  return { success: true }
}

/**
 * POST /approve/windows: as POST /open-email-window, from the console's Days view; the answer is the
 * window as the console shows it, so the operator goes straight to it.
 */
export const openWindow: Handler<'openWindow'> = async ({ env, body }) => {
  const { ws, listing } = await openDraft(await body(), env, (ws, logIds, presetId) =>
    ws.mailSource(OPERATOR, logIds, presetId),
  )
  const { view } = await liveWindow(ws, listing, mailConfig(env))
  return { window: view }
}

/** Both ways to open a window: the days and preset looked up by `sourceOf`, the draft composed. */
async function openDraft(
  { logId, presetId }: { logId: string | string[]; presetId?: string | undefined },
  env: Env,
  sourceOf: (ws: WorkspaceClient, logIds: string[], presetId?: string) => Promise<MailSource>,
) {
  const ws = workspace(env)
  // The same day named twice is one day of the message.
  const logIds = [...new Set(logIdsOf(logId))]
  const source = await sourceOf(ws, logIds, presetId)
  const range = rangeOf(ws, source.projectId, source.settings, source.summaries)
  const listing = await ws.openSendWindow(
    draftFrom(source, source.summaries, await mailFigures(source.settings, range)),
  )
  return { ws, listing }
}

/** 409 with the window as it reads now: the message differs from the one the caller saw. */
const changed = (error: string, window: WindowView) => refusal(409, { error, window })

const CHANGED_BEFORE_SEND = 'The e-mail changed since it was shown: nothing was sent. Look at it again, then send it.'

// ---- operator (behind withOperator)

export const listWindows: Handler<'listWindows'> = async ({ env }) => {
  const config = mailConfig(env)
  const ws = workspace(env)
  const windows = []
  for (const listing of await ws.sendWindows()) windows.push((await liveWindow(ws, listing, config)).view)
  return { windows }
}

export const getWindow: Handler<'getWindow'> = async ({ env, params }) => {
  const ws = workspace(env)
  const { view } = await liveWindow(ws, await ws.sendWindow(params.id!), mailConfig(env))
  return { window: view }
}

/**
 * Recipients, subject, message and which PDFs go along; attachment names come from the presets.
 * `{seen: fingerprint}` alone: the operator has looked at the window as that fingerprint names it,
 * so it no longer says it was updated (409 with the window when it reads differently by now).
 */
export const editWindow: Handler<'editWindow'> = async ({ env, params, body }) => {
  const id = params.id!
  const edit = await body()
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
export const sendWindow: Handler<'sendWindow'> = async ({ env, ctx, params, body }) => {
  const id = params.id!
  const { fingerprint } = await body()
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
      return { outcome: { sent: false, error: reasonOf(err) }, status: err instanceof Problem ? statusOf(err) : 500 }
    }
  })().then(async (result) =>
    result
      ? { ...result, window: await ws.finishSendWindow(id, result.outcome) }
      : { window: await ws.releaseSendWindow(id) },
  )
  ctx.waitUntil(work)
  const done = await work
  if (!('outcome' in done)) return changed(CHANGED_BEFORE_SEND, (await liveWindow(ws, done.window, config)).view)
  if (!done.outcome.sent) throw new StatusError(done.status, { error: done.outcome.error })
  return { success: true, window: (await liveWindow(ws, done.window, config)).view }
}

export const discardWindow: Handler<'discardWindow'> = async ({ env, params }) => {
  await workspace(env).discardSendWindow(params.id!)
  return { success: true }
}

/** One PDF as the message would carry it: the same name and bytes (dated with the message). */
export const downloadAttachment: Handler<'downloadAttachment'> = async ({ env, params: { id, presetId } }) => {
  const ws = workspace(env)
  const { listing } = await liveWindow(ws, await ws.sendWindow(id!), mailConfig(env))
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
export const downloadEml: Handler<'downloadEml'> = async ({ env, params }) => {
  const config = mailConfig(env)
  const ws = workspace(env)
  const { listing, view } = await liveWindow(ws, await ws.sendWindow(params.id!), config)
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
    emlOf(message, view.fingerprint, listing.composedAt, source.settings.time_zone),
    'message/rfc822',
    `${safeFilename(listing.subject) || 'message'}.eml`,
  )
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
  if (err instanceof Problem) return err.error
  console.error('send failed', err)
  return 'The message could not be prepared; nothing was sent.'
}

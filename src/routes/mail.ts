import { StatusError, type IRequest } from 'itty-router'
import { readObject } from '../http/body'
import { apiToken } from '../http/guards'
import { pathParam } from '../http/params'
import { attachmentsFor, draftFrom, mailSummary, outgoingMessage, renderAttachment } from '../mail/compose'
import { mailConfig } from '../mail/config'
import { toEml } from '../mail/mime'
import { deliver } from '../mail/providers'
import { WindowEditSchema } from '../mail/schemas'
import { windowView } from '../mail/view'
import { logIdsOf, OpenEmailWindowSchema, parseOrThrow } from '../schemas/requests'
import { conflict, notFound } from '../shared/problem'
import { workspace } from '../workspace/client'
import { rangeOf } from './checks'
import type { SendOutcome, WindowEdit } from '../workspace/windows'

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
  await ws.openSendWindow(draftFrom(source, source.summaries, await mailSummary(source.settings, range)))
  return { success: true }
}

// ---- operator (behind withOperator)

export async function listWindows(_request: IRequest, env: Env) {
  const config = mailConfig(env)
  const windows = await workspace(env).sendWindows()
  return { windows: windows.map((w) => windowView(w, config)) }
}

export async function getWindow(request: IRequest, env: Env) {
  const window = await workspace(env).sendWindow(windowIdOf(request))
  return { window: windowView(window, mailConfig(env)) }
}

/** Recipients, subject, message and which PDFs go along; attachment names come from the presets. */
export async function editWindow(request: IRequest, env: Env) {
  const id = windowIdOf(request)
  const edit = parseOrThrow(WindowEditSchema, await readObject(request))
  const ws = workspace(env)
  const changes: WindowEdit = { ...edit, attachments: undefined }
  for (const key of Object.keys(changes) as Array<keyof WindowEdit>) if (changes[key] === undefined) delete changes[key]
  if (edit.attachments) {
    const { settings, summaries } = await ws.windowSource(id)
    changes.attachments = attachmentsFor(settings, summaries, edit.attachments)
  }
  const window = await ws.editSendWindow(id, changes)
  return { success: true, window: windowView(window, mailConfig(env)) }
}

/**
 * Sends through the configured provider. The window is locked while the request is out; a refusal
 * keeps the draft with the provider's reason. The send goes on even if the console disconnects.
 */
export async function sendWindow(request: IRequest, env: Env, ctx?: ExecutionContext) {
  const id = windowIdOf(request)
  const config = mailConfig(env)
  if (!config.provider && !config.problem)
    throw conflict(
      'No e-mail provider is configured: download the .eml file instead, or set EMAIL_PROVIDER in .dev.vars',
    )
  if (config.problem) throw conflict(config.problem)
  const ws = workspace(env)
  const { window, settings, summaries } = await ws.claimSendWindow(id)
  // 502 when the provider refused or could not be reached; a message that could not even be
  // composed (a PDF preset gone, a report failing) answers with that failure's own status.
  const work = (async (): Promise<{ outcome: SendOutcome; status: number }> => {
    try {
      const range = rangeOf(ws, window.projectId, settings, summaries)
      const composed = await outgoingMessage(window, settings, range, config.from)
      const result = await deliver(config, composed.message)
      if (result.ok)
        return { outcome: { sent: true, summary: composed.summary, attachments: composed.attachments }, status: 200 }
      return { outcome: { sent: false, error: result.error }, status: 502 }
    } catch (err) {
      return { outcome: { sent: false, error: reasonOf(err) }, status: err instanceof StatusError ? err.status : 500 }
    }
  })().then(async (result) => ({ ...result, window: await ws.finishSendWindow(id, result.outcome) }))
  ctx?.waitUntil(work)
  const { outcome, status, window: after } = await work
  if (!outcome.sent) throw new StatusError(status, { error: outcome.error })
  return { success: true, window: windowView(after, config) }
}

export async function discardWindow(request: IRequest, env: Env) {
  await workspace(env).discardSendWindow(windowIdOf(request))
  return { success: true }
}

export async function downloadAttachment(request: IRequest, env: Env) {
  const presetId = pathParam(request, 'presetId')
  const ws = workspace(env)
  const { window, settings, summaries } = await ws.windowSource(windowIdOf(request))
  const attachment = window.attachments.find((a) => a.presetId === presetId)
  if (!attachment) throw notFound('Attachment')
  // The name as it would be sent now: the logs may have changed since the window opened.
  const [current] = attachmentsFor(settings, summaries, [presetId])
  const range = rangeOf(ws, window.projectId, settings, summaries)
  const pdf = await renderAttachment(settings, range, current!)
  return download(pdf.content, 'application/pdf', pdf.filename)
}

/** The complete message as a .eml file for any mail client: what Send would send. */
export async function downloadEml(request: IRequest, env: Env) {
  const config = mailConfig(env)
  const ws = workspace(env)
  const { window, settings, summaries } = await ws.windowSource(windowIdOf(request))
  const range = rangeOf(ws, window.projectId, settings, summaries)
  const { message } = await outgoingMessage(window, settings, range, config.from)
  return download(
    toEml(message, { unsent: true }),
    'message/rfc822',
    `${safeFilename(window.subject) || 'message'}.eml`,
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

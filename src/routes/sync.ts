/**
 * Units (docs/units.md): what a cart and its production exchange, on either end the same service.
 * A cart is an application of the production, approved there by the production's operator; the
 * operator of the cart links it (POST /approve/link) and the workspace syncs in the background.
 */
import type { IRequest } from 'itty-router'
import { StatusError } from 'itty-router'
import { readJsonBody, readObject } from '../http/body'
import { apiToken } from '../http/guards'
import { jsonAnswer } from '../http/headers'
import { logIdOf } from '../http/params'
import {
  LinkSchema,
  ResolveSchema,
  SyncChangesQuerySchema,
  SyncLeafQuerySchema,
  SyncMissingSchema,
  SyncVersionQuerySchema,
  parseOrThrow,
} from '../schemas/requests'
import { invalid } from '../shared/problem'
import { rpcSafe } from '../shared/utf8'
import { workspace } from '../workspace/client'
import { tokenForBody } from '../flows/token'

/** GET /sync/changes: the logs written after `since`, each with its versions, in the order written. */
export async function syncChanges(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { since, limit } = parseOrThrow(SyncChangesQuerySchema, { ...request.query })
  return workspace(env).syncChanges(token, since, limit)
}

/** POST /sync/missing: of the revisions named, those this service lacks. */
export async function syncMissing(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { logs } = parseOrThrow(SyncMissingSchema, await readObject(request, MISSING_BODY_BYTES))
  return workspace(env).syncMissing(token, logs)
}

/** GET /sync/logs/{id}?rev=…: one version of a log, exactly as stored. */
export async function getVersion(request: IRequest, env: Env) {
  const token = apiToken(request)
  const id = logIdOf(request)
  const { rev } = parseOrThrow(SyncVersionQuerySchema, { ...request.query })
  return jsonAnswer(await workspace(env).syncVersion(token, id, rev))
}

/** POST /sync/logs/{id}?rev=…&ancestors=…: a version another unit wrote (no body for a deletion). */
export async function sendVersion(request: IRequest, env: Env) {
  const id = logIdOf(request)
  const token = await tokenForBody(request, env)
  const { rev, ancestors, deleted, owner } = parseOrThrow(SyncLeafQuerySchema, { ...request.query })
  const leaf = { rev, ancestors, deleted: deleted === 'true', ...(owner !== undefined && { owner }) }
  const sent = await readJsonBody(request).catch((err: unknown) => {
    if (leaf.deleted) return undefined
    throw err
  })
  if (leaf.deleted && sent?.bytes.length) throw invalid([{ prop: '', message: 'a deletion has no body' }])
  return workspace(env).syncReceive(token, id, leaf, sent && !leaf.deleted ? rpcSafe(sent.bytes) : undefined)
}

/** GET /sync/status: whether this service is linked to a production, and how syncing goes. */
export async function syncStatus(request: IRequest, env: Env) {
  return workspace(env).syncStatus(apiToken(request))
}

/** GET /approve/link: as GET /sync/status, for the operator's console. */
export async function linkStatus(_request: IRequest, env: Env) {
  return workspace(env).operatorSyncStatus()
}

/**
 * POST /approve/link: asks the production for a token as the unit named (its operator approves
 * it in the production's console; this request waits as an application's POST /auth does), gives
 * the production the cart's project when it has none, and links the active project to it.
 */
export async function link(request: IRequest, env: Env) {
  const { url, unit } = parseOrThrow(LinkSchema, await readObject(request))
  const base = productionBase(url)
  const ws = workspace(env)
  const name = await ws.activeProjectName()
  const token = await askProduction(base, unit, request.signal)
  await ensureProject(base, token, name)
  return ws.linkProduction(base, unit, token)
}

/** DELETE /approve/link: stops syncing; every log stays as it is. */
export async function unlink(_request: IRequest, env: Env) {
  await workspace(env).unlinkProduction()
  return { success: true }
}

/** GET /approve/conflicts: the logs whose versions are in conflict, each version described. */
export async function listConflicts(_request: IRequest, env: Env) {
  return { conflicts: await workspace(env).conflicts() }
}

/** POST /approve/conflicts/{id}: keeps one version; the others go, on every unit once synced. */
export async function resolveConflict(request: IRequest, env: Env) {
  const id = logIdOf(request)
  const { keep } = parseOrThrow(ResolveSchema, await readObject(request))
  const revision = await workspace(env).resolveConflict(id, keep)
  return { success: true, rev: revision.rev }
}

/** Revisions per log a POST /sync/missing names: 1000 logs of 1000 revisions, with room. */
const MISSING_BODY_BYTES = 32 * 1024 * 1024

/** A production's URL as kept: HTTPS, or plain HTTP to this machine; no query, user or fragment. */
function productionBase(text: string): string {
  const url = new URL(text)
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  const refuse = (message: string) => invalid([{ prop: 'url', message }])
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw refuse('must be https:// (plain http:// only to this machine)')
  if (url.username || url.password || url.search || url.hash)
    throw refuse('must not hold a user, a password, a query or a fragment')
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/** The production's POST /auth, answered once its operator decides. */
async function askProduction(base: string, unit: string, signal: AbortSignal): Promise<string> {
  const response = await reach(base, '/auth', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ appName: unit }),
    signal,
  })
  const body = await answerOf(response)
  if (response.status !== 200 || typeof body.token !== 'string')
    throw new StatusError(502, { error: `The production did not approve this cart: ${said(response, body)}` })
  return body.token
}

/** The production's project: the first cart linked gives it its own project's name. */
async function ensureProject(base: string, token: string, name: string) {
  const headers = { 'x-api-token': token, 'content-type': 'application/json' }
  const current = await reach(base, '/project', { headers })
  await answerOf(current)
  if (current.ok) return
  const created = await reach(base, '/project/create', {
    method: 'POST',
    headers,
    body: JSON.stringify({ project_name: name }),
  })
  const body = await answerOf(created)
  if (!created.ok) throw new StatusError(502, { error: `The production has no project: ${said(created, body)}` })
}

async function reach(base: string, path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(base + path, init)
  } catch {
    throw new StatusError(502, { error: `The production at ${base} did not answer` })
  }
}

async function answerOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text()
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

const said = (response: Response, body: Record<string, unknown>) =>
  `${response.status} ${typeof body.error === 'string' ? body.error : response.statusText}`

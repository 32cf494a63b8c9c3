/**
 * Units (docs/units.md): what a cart and its production exchange, on either end the same service.
 * A cart is an application of the production, approved there by the production's operator; the
 * operator of the cart links it (POST /approve/link) and the workspace syncs in the background.
 */
import type { IRequest } from 'itty-router'
import { StatusError } from 'itty-router'
import { readJsonBody, readObject } from '../http/body'
import { LOOPBACK, apiToken } from '../http/guards'
import { jsonAnswer } from '../http/headers'
import { logIdOf } from '../http/params'
import {
  LinkSchema,
  ResolveSchema,
  SyncChangesQuerySchema,
  SyncLeafQuerySchema,
  SyncMissingSchema,
  SyncProjectQuerySchema,
  SyncVersionQuerySchema,
  parseOrThrow,
} from '../schemas/requests'
import { invalid } from '../shared/problem'
import { rpcSafe } from '../shared/utf8'
import { OPERATOR, workspace } from '../workspace/client'
import { ProductionError, askProduction, productionProject } from '../workspace/production'
import { baseOf } from '../http/productions'
import { tokenForBody } from '../flows/token'
import { readSentLog } from '../flows/sent-log'

/** GET /sync/changes: the logs written after `since`, each with its versions, in the order written. */
export async function syncChanges(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { project, since, limit } = parseOrThrow(SyncChangesQuerySchema, { ...request.query })
  return workspace(env).syncChanges(token, project, since, limit)
}

/** POST /sync/missing: of the revisions named, those this service lacks. */
export async function syncMissing(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { project } = parseOrThrow(SyncProjectQuerySchema, { ...request.query })
  const { logs } = parseOrThrow(SyncMissingSchema, await readObject(request, MISSING_BODY_BYTES))
  return workspace(env).syncMissing(token, project, logs)
}

/** GET /sync/logs/{id}?rev=…: one version of a log, exactly as stored. */
export async function getVersion(request: IRequest, env: Env) {
  const token = apiToken(request)
  const id = logIdOf(request)
  const { project, rev } = parseOrThrow(SyncVersionQuerySchema, { ...request.query })
  return jsonAnswer(await workspace(env).syncVersion(token, project, id, rev))
}

/** POST /sync/logs/{id}?rev=…&ancestors=…: a version another unit wrote (no body for a deletion). */
export async function sendVersion(request: IRequest, env: Env) {
  const id = logIdOf(request)
  const token = await tokenForBody(request, env, true)
  const { project, rev, ancestors, deleted, owner } = parseOrThrow(SyncLeafQuerySchema, { ...request.query })
  const leaf = { rev, ancestors, deleted: deleted === 'true', ...(owner !== undefined && { owner }) }
  const sent = await readJsonBody(request).catch((err: unknown) => {
    if (leaf.deleted) return undefined
    throw err
  })
  if (leaf.deleted) {
    if (sent?.bytes.length) throw invalid([{ prop: '', message: 'a deletion has no body' }])
    return workspace(env).syncReceive(token, project, id, leaf)
  }
  // Checked here as a new log is, so an invalid version never holds the workspace.
  const { read } = await readSentLog(sent!, () => workspace(env).checkToken(token, true))
  return workspace(env).syncReceive(token, project, id, leaf, { json: rpcSafe(sent!.bytes), read })
}

/** GET /sync/status: whether this service is linked to a production, and how syncing goes. */
export async function syncStatus(request: IRequest, env: Env) {
  return workspace(env).syncStatus(apiToken(request))
}

/** GET /approve/link: as GET /sync/status, for the operator's console. */
export async function linkStatus(_request: IRequest, env: Env) {
  return workspace(env).syncStatus(OPERATOR)
}

/**
 * POST /approve/link: asks the production for a token as the unit named, with the link code its
 * operator made for that unit (answered at once), finds the production's project (giving it this
 * one's name when it has none), and links the active project to it.
 */
export async function link(request: IRequest, env: Env) {
  const { url, unit, linkCode } = parseOrThrow(LinkSchema, await readObject(request))
  // A production links to nothing: its own applications write every unit's days.
  if (baseOf(env)) throw new StatusError(409, { error: 'This is a production: carts link to it' })
  const base = productionBase(url)
  const ws = workspace(env)
  const { projectId, name } = await ws.linkable()
  try {
    const token = await askProduction(base, unit, linkCode, request.signal)
    const project = await productionProject(base, token, name)
    return await ws.linkProduction(projectId, { url: base, project, unit, token })
  } catch (err) {
    if (err instanceof ProductionError) throw new StatusError(502, { error: err.message })
    throw err
  }
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

/** A POST /sync/missing's revisions: 1,000 logs of 10 versions is far beyond a page (50 logs). */
const MISSING_BODY_BYTES = 1024 * 1024

/** A production's URL as kept: HTTPS, or plain HTTP to this machine; no query, user or fragment. */
function productionBase(text: string): string {
  const url = new URL(text)
  const loopback = LOOPBACK.has(url.hostname)
  const refuse = (message: string) => invalid([{ prop: 'url', message }])
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw refuse('must be https:// (plain http:// only to this machine)')
  if (url.username || url.password || url.search || url.hash)
    throw refuse('must not hold a user, a password, a query or a fragment')
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

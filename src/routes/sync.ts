/**
 * Units (docs/units.md): what a cart and its production exchange, on either end the same service.
 * A cart is an application of the production, approved there by the production's operator; the
 * operator of the cart links it (POST /approve/link) and the workspace syncs in the background.
 */
import { StatusError } from 'itty-router'
import type { Handler } from '../api/call'
import { LOOPBACK } from '../http/guards'
import { jsonAnswer } from '../http/headers'
import type { LogSchema } from '../schemas/log'
import type * as v from 'valibot'
import { checkRead, readDay, type ReadDay } from '../checks/day'
import { compareDays, volumesOf } from '../checks/compare'
import { lazyLog } from '../large-logs/read'
import { invalid, notFound, unauthorized } from '../shared/problem'
import { tooManyListening } from '../workspace/live'
import { concatBytes, rpcSafe } from '../shared/utf8'
import { PIECEWISE_BYTES } from '../large-logs/check'
import { OPERATOR, workspace, workspaceStub } from '../workspace/client'
import { ProductionError, askProduction, productionProject } from '../workspace/production'
import { baseOf } from '../http/productions'
import { readSentLog } from '../flows/sent-log'

/** GET /sync/changes: the logs written after `since`, each with its versions, in the order written. */
export const syncChanges: Handler<'syncChanges'> = ({ env, token, query: { project, since, limit } }) =>
  workspace(env).syncChanges(token, project, since, limit)

/** POST /sync/missing: of the revisions named, those this service lacks. */
export const syncMissing: Handler<'syncMissing'> = async ({ env, token, query, body }) =>
  workspace(env).syncMissing(token, query.project, (await body()).logs)

/** GET /sync/logs/{id}?rev=…: one version of a log, exactly as stored. */
export const getVersion: Handler<'getVersion'> = async ({ env, token, params, query: { project, rev } }) =>
  jsonAnswer<v.InferInput<typeof LogSchema>>(await workspace(env).syncVersion(token, project, params.id!, rev))

/** POST /sync/logs/{id}?rev=…&ancestors=…: a version another unit wrote (no body for a deletion). */
export const sendVersion: Handler<'sendVersion'> = async ({ env, token, params, query, body }) => {
  const { project, rev, ancestors, deleted, owner } = query
  const leaf = { rev, ancestors, deleted: deleted === 'true', ...(owner !== undefined && { owner }) }
  const sent = await body().catch((err: unknown) => {
    if (leaf.deleted) return undefined
    throw err
  })
  const ws = workspace(env)
  if (leaf.deleted) {
    if (sent?.bytes.length) throw invalid([{ prop: '', message: 'a deletion has no body' }])
    return ws.syncReceive(token, project, params.id!, leaf)
  }
  // Checked here as a new log is, so an invalid version never holds the workspace.
  const { read } = await readSentLog(sent!, () => ws.checkSyncToken(token))
  return ws.syncReceive(token, project, params.id!, leaf, { json: rpcSafe(sent!.bytes), read })
}

/**
 * GET /sync/live: the WebSocket on which this service says `changed` when a log is written
 * (workspace/live.ts). The workspace checks the token and project first, then takes the socket.
 */
export const syncLive: Handler<'syncLive'> = async ({ request, env, token, query }) => {
  if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket')
    throw new StatusError(426, { error: 'Upgrade Required: GET /sync/live is a WebSocket' })
  await workspace(env).listen(token, query.project)
  const accepted = await workspaceStub(env).fetch(request)
  // The token revoked, or the last place taken, since `listen` answered.
  if (accepted.status !== 101) throw accepted.status === 429 ? tooManyListening() : unauthorized()
  return new Response(null, { status: 101, webSocket: accepted.webSocket })
}

/** GET /sync/status: whether this service is linked to a production, and how syncing goes. */
export const syncStatus: Handler<'syncStatus'> = ({ env, token }) => workspace(env).syncStatus(token)

/** GET /approve/link: as GET /sync/status, for the operator's console. */
export const linkStatus: Handler<'linkStatus'> = ({ env }) => workspace(env).syncStatus(OPERATOR)

/**
 * POST /approve/link: asks the production for a token as the unit named, with the link code its
 * operator made for that unit (answered at once), finds the production's project (giving it this
 * one's name when it has none), and links the active project to it.
 */
export const link: Handler<'link'> = async ({ request, env, body }) => {
  const { url, unit, linkCode } = await body()
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
export const unlink: Handler<'unlink'> = async ({ env }) => {
  await workspace(env).unlinkProduction()
  return { success: true }
}

/** GET /approve/conflicts: the logs whose versions are in conflict, each version described. */
export const listConflicts: Handler<'listConflicts'> = async ({ env }) => ({
  conflicts: await workspace(env).conflicts(),
})

/** A version compared is read whole: at most this large (PIECEWISE_BYTES, as a log parsed whole). */
const COMPARED_BYTES = PIECEWISE_BYTES

/** A stream's bytes, or undefined (the stream let go) once they pass `limit`. */
async function bytesUpTo(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | undefined> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return concatBytes(chunks)
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
}

/**
 * GET /approve/conflicts/{id}: the versions side by side. Each is read and checked here in the
 * worker, as a day's detail is; a log has at most 16 versions.
 */
export const compareConflict: Handler<'compareConflict'> = async ({ env, params }) => {
  const id = params.id!
  const ws = workspace(env)
  const conflict = (await ws.conflicts()).find((held) => held.id === id)
  if (!conflict) throw notFound('Conflict')
  const read = new Map<string, ReadDay>()
  for (const { rev, deleted } of conflict.versions) {
    if (deleted) continue
    const body = await ws.conflictVersion(id, rev)
    const bytes = body instanceof ReadableStream ? await bytesUpTo(body, COMPARED_BYTES) : body
    // A version past the limit is listed, not compared: 16 such days held at once would not fit.
    if (bytes !== undefined) read.set(rev, await readDay(lazyLog(bytes)))
  }
  const served = read.get(conflict.versions.find((version) => version.served)!.rev)
  const matchSound = await ws.matchesSound()
  const versions = []
  for (const version of conflict.versions) {
    const day = read.get(version.rev)
    if (!day) {
      versions.push(version)
      continue
    }
    const { summary } = await checkRead(day, { matchSound })
    versions.push({
      ...version,
      soundClips: day.sound.length,
      volumes: [...volumesOf(day)].sort(),
      checks: { errors: summary.errors, warnings: summary.warnings, info: summary.info },
      ...(!version.served && served && { differs: compareDays(served, day) }),
    })
  }
  return { id, keptHere: conflict.keptHere, versions }
}

/** POST /approve/conflicts/{id}: keeps one version; the others go, on every unit once synced. */
export const resolveConflict: Handler<'resolveConflict'> = async ({ env, params, body }) => {
  const revision = await workspace(env).resolveConflict(params.id!, (await body()).keep)
  return { success: true, rev: revision.rev }
}

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

import type { IRequest } from 'itty-router'
import { parseObject, readJsonBody } from '../http/body'
import { apiToken } from '../http/guards'
import { jsonAnswer } from '../http/headers'
import { pathParam } from '../http/params'
import { LogIdSchema } from '../schemas/log'
import { certainlyValidLog } from '../schemas/plain-log'
import { parseOrThrow } from '../schemas/requests'
import { framedStream, rpcSafe } from '../shared/utf8'
import { unwrapBare, workspace } from '../workspace/client'
import type { LogBody } from '../workspace/Workspace'
import { tokenForBody } from './token'

/** The `{id}` of /log/{id}, decoded and held to the seed's 1–50 characters (valibot words the refusal). */
function logIdOf(request: IRequest): string {
  const id = pathParam(request, 'id')
  return id.length >= 1 && id.length <= 50 ? id : parseOrThrow(LogIdSchema, id, 'id')
}

export async function createLog(request: IRequest, env: Env) {
  const token = await tokenForBody(request, env)
  const { bytes, text } = await readJsonBody(request)
  const log = parseObject(text)
  // Checked here, outside the single-threaded workspace, when no project state is needed: the
  // workspace then stores the bytes as they came. Anything else it parses and checks itself.
  const ws = workspace(env)
  const body = rpcSafe(bytes)
  await unwrapBare(certainlyValidLog(log) ? ws.createCheckedLog(token, body, log.id, log.day, log.date) : ws.createLog(token, body))
  return jsonAnswer('{"success":true}', 201)
}

export async function listLogs(request: IRequest, env: Env) {
  return jsonAnswer(await unwrapBare<Uint8Array | ReadableStream<Uint8Array>>(workspace(env).logsJson(apiToken(request))))
}

export async function getLog(request: IRequest, env: Env) {
  const token = apiToken(request)
  return jsonAnswer(await unwrapBare<LogBody>(workspace(env).logJson(token, logIdOf(request))))
}

export async function patchLog(request: IRequest, env: Env) {
  const id = logIdOf(request)
  const token = await tokenForBody(request, env)
  const { bytes, text } = await readJsonBody(request)
  const sent = rpcSafe(bytes)
  const merged = await unwrapBare<string | ReadableStream<Uint8Array>>(workspace(env).patchLog(token, id, sent instanceof Uint8Array ? text : sent))
  return jsonAnswer(typeof merged === 'string' ? `{"success":true,"data":${merged}}` : framedStream('{"success":true,"data":', merged, '}'))
}

export async function deleteLog(request: IRequest, env: Env) {
  const token = apiToken(request)
  await unwrapBare(workspace(env).deleteLog(token, logIdOf(request)))
  return { success: true }
}

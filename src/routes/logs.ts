import type { IRequest } from 'itty-router'
import { readObject } from '../http/body'
import { apiToken } from '../http/guards'
import { pathParam } from '../http/params'
import { LogIdSchema } from '../schemas/log'
import { parseOrThrow } from '../schemas/requests'
import { unwrap, workspace } from '../workspace/client'
import { jsonText } from './respond'

/** The `{id}` of /log/{id}, decoded and held to the seed's 1–50 characters. */
const logIdOf = (request: IRequest) => parseOrThrow(LogIdSchema, pathParam(request, 'id'), 'id')

export async function createLog(request: IRequest, env: Env) {
  const token = apiToken(request)
  const body = await readObject(request)
  await unwrap(workspace(env).createLog(token, body))
  return jsonText('{"success":true}', 201)
}

export async function listLogs(request: IRequest, env: Env) {
  return jsonText(await unwrap(workspace(env).logsText(apiToken(request))))
}

export async function getLog(request: IRequest, env: Env) {
  const token = apiToken(request)
  return jsonText(await unwrap(workspace(env).logText(token, logIdOf(request))))
}

export async function patchLog(request: IRequest, env: Env) {
  const token = apiToken(request)
  const id = logIdOf(request)
  const patch = await readObject(request)
  const text = await unwrap(workspace(env).patchLog(token, id, patch))
  return jsonText(`{"success":true,"data":${text}}`)
}

export async function deleteLog(request: IRequest, env: Env) {
  const token = apiToken(request)
  await unwrap(workspace(env).deleteLog(token, logIdOf(request)))
  return { success: true }
}

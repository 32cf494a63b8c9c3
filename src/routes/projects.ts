import type { IRequest } from 'itty-router'
import { BODY_LIMIT_BYTES, readObject } from '../http/body'
import { apiToken } from '../http/guards'
import { jsonAnswer } from '../http/headers'
import { CreateProjectSchema, LoadProjectSchema, parseOrThrow } from '../schemas/requests'
import { workspace } from '../workspace/client'
import { tokenForBody } from '../flows/token'

export async function createProject(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { project_name } = parseOrThrow(CreateProjectSchema, await readObject(request))
  return jsonAnswer(JSON.stringify(await workspace(env).createProject(token, project_name)), 201)
}

export async function loadProject(request: IRequest, env: Env) {
  const token = apiToken(request)
  const { path } = parseOrThrow(LoadProjectSchema, await readObject(request))
  await workspace(env).loadProject(token, path)
  return { success: true }
}

/** SPEC §6: the reference application's shape, a bare array `[{label, path, active}]`, with `project_name` beside `label`. */
export async function listProjects(request: IRequest, env: Env) {
  return workspace(env).listProjects(apiToken(request))
}

/**
 * SPEC §6: the active project's settings and `activeLog`, as the reference application answers,
 * plus our `id`, `path` and `created_at`. This service has no log that it is filling from
 * folders as the reference application's "active log" is, so `activeLog` is null.
 */
export async function getProject(request: IRequest, env: Env) {
  return workspace(env).projectDetails(apiToken(request))
}

export async function getConfig(request: IRequest, env: Env) {
  return workspace(env).settings(apiToken(request))
}

export async function patchConfig(request: IRequest, env: Env) {
  const token = await tokenForBody(request, env)
  const patch = await readObject(request, BODY_LIMIT_BYTES)
  return { success: true, data: await workspace(env).patchSettings(token, patch) }
}

const enabledFilter = (request: IRequest) => {
  const enabled = request.query.enabled
  return enabled === 'true' ? true : enabled === 'false' ? false : undefined
}

export async function listPdfPresets(request: IRequest, env: Env) {
  return workspace(env).listPresets(apiToken(request), 'pdfs', enabledFilter(request))
}

export async function listEmailPresets(request: IRequest, env: Env) {
  return workspace(env).listPresets(apiToken(request), 'emails', enabledFilter(request))
}

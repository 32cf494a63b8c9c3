import type { Handler } from '../api/call'
import { workspace } from '../workspace/client'

export const createProject: Handler<'createProject'> = async ({ env, token, body }) => {
  const { project_name } = await body()
  return workspace(env).createProject(token, project_name)
}

export const loadProject: Handler<'loadProject'> = async ({ env, token, body }) => {
  await workspace(env).loadProject(token, (await body()).path)
  return { success: true }
}

/** SPEC §6: the reference application's shape, a bare array `[{label, path, active}]`, with `project_name` beside `label`. */
export const listProjects: Handler<'listProjects'> = ({ env, token }) => workspace(env).listProjects(token)

/**
 * SPEC §6: the active project's settings and `activeLog`, as the reference application answers,
 * plus our `id`, `path` and `created_at`. This service has no log that it is filling from
 * folders as the reference application's "active log" is, so `activeLog` is null.
 */
export const getProject: Handler<'getProject'> = ({ env, token }) => workspace(env).projectDetails(token)

export const getConfig: Handler<'getConfig'> = ({ env, token }) => workspace(env).settings(token)

/** Settings are checked whole once the patch is merged: a patch's field may be valid only beside the stored ones. */
export const patchConfig: Handler<'patchConfig'> = async ({ env, token, body }) => ({
  success: true,
  data: await workspace(env).patchSettings(token, await body()),
})

const enabledOf = (enabled: 'true' | 'false' | undefined) => (enabled === undefined ? undefined : enabled === 'true')

export const listPdfPresets: Handler<'listPdfPresets'> = ({ env, token, query }) =>
  workspace(env).listPresets(token, 'pdfs', enabledOf(query.enabled))

export const listEmailPresets: Handler<'listEmailPresets'> = ({ env, token, query }) =>
  workspace(env).listPresets(token, 'emails', enabledOf(query.enabled))

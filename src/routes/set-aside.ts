/**
 * The versions of a day a resolution did not keep (docs/units.md, conflicts): listed under the
 * day and retrievable as they were, by applications and in the console.
 */
import type * as v from 'valibot'
import type { Handler } from '../api/call'
import { download, jsonAnswer } from '../http/headers'
import type { LogSchema } from '../schemas/log'
import { OPERATOR, workspace } from '../workspace/client'

/** GET /log/{id}/set-aside */
export const listSetAside: Handler<'listSetAside'> = async ({ env, token, params }) => ({
  versions: await workspace(env).setAsideVersions(token, params.id!),
})

/** GET /log/{id}/set-aside/{rev}: the version's bytes as they were stored. */
export const getSetAside: Handler<'getSetAside'> = async ({ env, token, params: { id, rev } }) =>
  jsonAnswer<v.InferInput<typeof LogSchema>>(await workspace(env).setAsideVersion(token, id!, rev!))

/** GET /approve/days/{id}/set-aside */
export const daySetAside: Handler<'daySetAside'> = async ({ env, params }) => ({
  versions: await workspace(env).setAsideVersions(OPERATOR, params.id!),
})

/** GET /approve/days/{id}/set-aside/{rev}: the same bytes, as a file named after the day and revision. */
export const daySetAsideVersion: Handler<'daySetAsideVersion'> = async ({ env, params: { id, rev } }) =>
  download(await workspace(env).setAsideVersion(OPERATOR, id!, rev!), 'application/json', `${id}-${rev}.json`)

/**
 * The watchers of offload folders (docs/watch.md): a running `media-log watch` reports itself,
 * says when it stopped, and the operator dismisses one from the console (workspace/watchers.ts).
 */
import type * as v from 'valibot'
import type { Handler } from '../api/call'
import type { SuccessSchema } from '../api/shapes'
import { jsonAnswer } from '../http/headers'
import { parseOrThrow } from '../schemas/requests'
import { WatcherIdSchema } from '../schemas/watchers'
import { workspace } from '../workspace/client'

const watcherId = (id: string | undefined) => parseOrThrow(WatcherIdSchema, id, 'id')
const SUCCESS = JSON.stringify({ success: true })

/** PUT /watchers/{id}: 201 for its first report, then 200. */
export const reportWatcher: Handler<'reportWatcher'> = async ({ env, token, params, body }) => {
  const id = watcherId(params.id)
  const { created } = await workspace(env).reportWatcher(token, id, await body())
  return jsonAnswer<v.InferInput<typeof SuccessSchema>>(SUCCESS, created ? 201 : 200)
}

/** DELETE /watchers/{id} */
export const stopWatcher: Handler<'stopWatcher'> = async ({ env, token, params }) => {
  await workspace(env).stopWatcher(token, watcherId(params.id))
  return { success: true }
}

/** DELETE /approve/watchers/{id} */
export const dismissWatcher: Handler<'dismissWatcher'> = async ({ env, params }) => {
  await workspace(env).dismissWatcher(watcherId(params.id))
  return { success: true }
}

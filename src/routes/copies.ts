/**
 * A day's copies changed apart from its log: what a read-back of a volume found (`media-log
 * verify`), and a volume renamed or taken off the day, by an application or from the console.
 * The change itself is src/copies/edits.ts, made in the workspace.
 */
import type { Handler } from '../api/call'
import { OPERATOR, workspace } from '../workspace/client'

const answered = (outcome: { copies: number; unknown: string[] }) => ({ success: true as const, ...outcome })

/** POST /log/{id}/read-back: up to 20,000 clips, read once the token is known to be good where it is large. */
export const readBack: Handler<'readBack'> = async ({ env, token, params, body }) =>
  answered(await workspace(env).editLog(token, params.id!, { kind: 'read-back', ...(await body()) }))

/** PATCH /log/{id}/volumes/{volume} */
export const renameVolume: Handler<'renameVolume'> = async ({ env, token, params: { id, volume }, body }) =>
  answered(
    await workspace(env).editLog(token, id!, { kind: 'rename-volume', volume: volume!, to: (await body()).name }),
  )

/** DELETE /log/{id}/volumes/{volume} */
export const removeVolume: Handler<'removeVolume'> = async ({ env, token, params: { id, volume } }) =>
  answered(await workspace(env).editLog(token, id!, { kind: 'remove-volume', volume: volume! }))

/** PATCH /approve/days/{id}/volumes/{volume} */
export const renameDayVolume: Handler<'renameDayVolume'> = async ({ env, params: { id, volume }, body }) =>
  answered(
    await workspace(env).editLog(OPERATOR, id!, { kind: 'rename-volume', volume: volume!, to: (await body()).name }),
  )

/** DELETE /approve/days/{id}/volumes/{volume} */
export const removeDayVolume: Handler<'removeDayVolume'> = async ({ env, params: { id, volume } }) =>
  answered(await workspace(env).editLog(OPERATOR, id!, { kind: 'remove-volume', volume: volume! }))

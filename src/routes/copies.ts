/**
 * A day's copies changed apart from its log: what a read-back of a volume found (`media-log
 * verify`), and a volume renamed or taken off the day, by an application or from the console.
 * The change itself is src/copies/edits.ts, made in the workspace.
 */
import type { IRequest } from 'itty-router'
import type { LogEdit } from '../copies/edits'
import { tokenForBody } from '../flows/token'
import { readJsonBody, readObject } from '../http/body'
import { apiToken } from '../http/guards'
import { logIdOf, pathParam } from '../http/params'
import { parseObject } from '../schemas/json'
import { ReadBackSchema, VolumeRenameSchema, parseOrThrow } from '../schemas/requests'
import { OPERATOR, workspace } from '../workspace/client'

/** A read-back's body: up to 20,000 clips, read once the token is known to be good where it is large. */
const readBackBody = async (request: IRequest) =>
  parseOrThrow(ReadBackSchema, parseObject((await readJsonBody(request)).text))

const volumeOf = (request: IRequest) => pathParam(request, 'volume')

const answered = (outcome: { copies: number; unknown: string[] }) => ({ success: true as const, ...outcome })

/** POST /log/{id}/read-back */
export async function readBack(request: IRequest, env: Env) {
  const token = await tokenForBody(request, env)
  const id = logIdOf(request)
  const body = await readBackBody(request)
  return answered(await workspace(env).editLog(token, id, { kind: 'read-back', ...body }))
}

/** The rename a request asks for: the volume of its path, the name of its body (a command's: 1 MiB at most). */
async function renameOf(request: IRequest): Promise<LogEdit> {
  const volume = volumeOf(request)
  const { name } = parseOrThrow(VolumeRenameSchema, await readObject(request))
  return { kind: 'rename-volume', volume, to: name }
}

/** PATCH /log/{id}/volumes/{volume} */
export async function renameVolume(request: IRequest, env: Env) {
  const token = apiToken(request)
  const id = logIdOf(request)
  return answered(await workspace(env).editLog(token, id, await renameOf(request)))
}

/** DELETE /log/{id}/volumes/{volume} */
export async function removeVolume(request: IRequest, env: Env) {
  const token = apiToken(request)
  const id = logIdOf(request)
  return answered(await workspace(env).editLog(token, id, { kind: 'remove-volume', volume: volumeOf(request) }))
}

/** PATCH /approve/days/{id}/volumes/{volume} */
export async function renameDayVolume(request: IRequest, env: Env) {
  const id = logIdOf(request)
  return answered(await workspace(env).editLog(OPERATOR, id, await renameOf(request)))
}

/** DELETE /approve/days/{id}/volumes/{volume} */
export async function removeDayVolume(request: IRequest, env: Env) {
  const id = logIdOf(request)
  return answered(await workspace(env).editLog(OPERATOR, id, { kind: 'remove-volume', volume: volumeOf(request) }))
}

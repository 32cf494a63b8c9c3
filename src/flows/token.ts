import type { IRequest } from 'itty-router'
import { LARGE_BODY_BYTES, declaredLength } from '../http/body'
import { apiToken } from '../http/guards'
import { workspace } from '../workspace/client'

/**
 * The token of a request that sends a log or settings. A body over LARGE_BODY_BYTES, or of unknown
 * size, is read and parsed only after the workspace has accepted the token: no one unapproved can
 * make the service read and parse 64 MiB. A small body costs no extra call; its mistakes are
 * answered before the token is looked at, as everywhere.
 */
export async function tokenForBody(request: IRequest, env: Env, syncs = false): Promise<string> {
  const token = apiToken(request)
  if (!(declaredLength(request) <= LARGE_BODY_BYTES)) await workspace(env).checkToken(token, syncs)
  return token
}

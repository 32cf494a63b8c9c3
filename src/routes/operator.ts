import type { IRequest } from 'itty-router'
import { readObject } from '../http/body'
import { pathParam } from '../http/params'
import { DecisionSchema, parseOrThrow } from '../schemas/requests'
import { workspace } from '../workspace/client'

export async function listRequests(_request: IRequest, env: Env) {
  return { requests: await workspace(env).pendingRequests() }
}

export async function decideRequest(request: IRequest, env: Env) {
  const { decision } = parseOrThrow(DecisionSchema, await readObject(request))
  await workspace(env).decide(pathParam(request, 'id'), decision)
  return { success: true }
}

export async function listTokens(_request: IRequest, env: Env) {
  return { tokens: await workspace(env).connectedApps() }
}

export async function revokeToken(request: IRequest, env: Env) {
  await workspace(env).revokeToken(pathParam(request, 'id'))
  return { success: true }
}

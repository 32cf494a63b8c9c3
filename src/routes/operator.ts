import type { IRequest } from 'itty-router'
import { readObject } from '../http/body'
import { jsonAnswer } from '../http/headers'
import { pathParam } from '../http/params'
import { DecisionSchema, LinkCodeRequestSchema, parseOrThrow } from '../schemas/requests'
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

/** POST /approve/link-codes: a production's code admitting the application named, once. */
export async function makeLinkCode(request: IRequest, env: Env) {
  const { name, unit } = parseOrThrow(LinkCodeRequestSchema, await readObject(request))
  return jsonAnswer(JSON.stringify(await workspace(env).makeLinkCode(name, unit)), 201)
}

export async function listLinkCodes(_request: IRequest, env: Env) {
  return { codes: await workspace(env).linkCodes() }
}

export async function revokeLinkCode(request: IRequest, env: Env) {
  await workspace(env).revokeLinkCode(pathParam(request, 'id'))
  return { success: true }
}

import type { Handler } from '../api/call'
import { workspace } from '../workspace/client'

export const listRequests: Handler<'listRequests'> = async ({ env }) => ({
  requests: await workspace(env).pendingRequests(),
})

export const decideRequest: Handler<'decideRequest'> = async ({ env, params, body }) => {
  await workspace(env).decide(params.id!, (await body()).decision)
  return { success: true }
}

export const listTokens: Handler<'listTokens'> = async ({ env }) => ({ tokens: await workspace(env).connectedApps() })

export const revokeToken: Handler<'revokeToken'> = async ({ env, params }) => {
  await workspace(env).revokeToken(params.id!)
  return { success: true }
}

/** POST /approve/link-codes: a production's code admitting the application named, once. */
export const makeLinkCode: Handler<'makeLinkCode'> = async ({ env, body }) => {
  const { name, unit } = await body()
  return workspace(env).makeLinkCode(name, unit)
}

export const listLinkCodes: Handler<'listLinkCodes'> = async ({ env }) => ({ codes: await workspace(env).linkCodes() })

export const revokeLinkCode: Handler<'revokeLinkCode'> = async ({ env, params }) => {
  await workspace(env).revokeLinkCode(params.id!)
  return { success: true }
}

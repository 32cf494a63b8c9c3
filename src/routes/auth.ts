import type { IRequest } from 'itty-router'
import { OPEN_BODY_BYTES, readObject } from '../http/body'
import { AuthRequestSchema, parseOrThrow } from '../schemas/requests'
import { workspace } from '../workspace/client'

/**
 * Seed endpoint 1: opens a connection request and holds this HTTP request until the operator
 * approves (200 {token}), denies (403) or lets it expire (408).
 */
export async function requestToken(request: IRequest, env: Env) {
  const { appName, code, unit } = parseOrThrow(AuthRequestSchema, await readObject(request, OPEN_BODY_BYTES))
  const userAgent = userAgentOf(request)
  const ws = workspace(env)
  const id = crypto.randomUUID()
  // Where the runtime reports a client that hung up (enable_request_signal; not the local
  // runtime as of workerd 1.20260426), its request leaves the console.
  const withdraw = () => void ws.withdrawAccess(id).catch(() => {})
  request.signal?.addEventListener('abort', withdraw)
  try {
    return await ws.requestAccess({ appName, code, userAgent, ...(unit && { unit }) }, id)
  } finally {
    request.signal?.removeEventListener('abort', withdraw)
  }
}

/** The User-Agent as the console shows it: printable, one line, at most 200 characters. */
function userAgentOf(request: Request): string | undefined {
  const header = request.headers.get('user-agent')
  const text = header
    ?.replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .slice(0, 200)
  return text || undefined
}

import type { Handler } from '../api/call'
import { holdsProductions } from '../http/productions'
import { workspace } from '../workspace/client'

/**
 * Seed endpoint 1: opens a connection request and holds this HTTP request until the operator
 * approves (200 {token}), denies (403) or lets it expire (408). On a production, with a link code.
 */
export const requestToken: Handler<'requestToken'> = async ({ request, env, body }) => {
  const ws = workspace(env)
  // A production admits only an application its operator made a link code for (docs/units.md):
  // asked before the body is read, and the token answered at once.
  const linkCode = request.headers.get('x-link-code') ?? undefined
  if (holdsProductions(env)) await ws.admitLinkCode(linkCode)
  const { appName, code, unit } = await body()
  const userAgent = userAgentOf(request)
  const id = crypto.randomUUID()
  // Where the runtime reports a client that hung up (enable_request_signal; not the local
  // runtime as of workerd 1.20260426), its request leaves the console.
  const withdraw = () => void ws.withdrawAccess(id).catch(() => {})
  request.signal?.addEventListener('abort', withdraw)
  try {
    return await ws.requestAccess({ appName, code, userAgent, ...(unit && { unit }) }, id, linkCode)
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

// Calls to a running service as the units' end-to-end tests make them: a route answered as sent and
// parsed where it is JSON, and an application's token approved in the service's console.
import { expect } from 'vitest'

export type Answer = { status: number; text: string; body: any }

/** A call to one service, answered as sent (`text`) and parsed where it is JSON. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; operatorKey?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {}
  if (options.token) headers['x-api-token'] = options.token
  if (options.operatorKey) headers['x-operator-key'] = options.operatorKey
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(base + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: response.status, text, body }
}

/** Approves the first pending request from `appName` in a service's console. */
async function approve(base: string, operatorKey: string, appName: string) {
  for (let i = 0; i < 400; i++) {
    const { body } = await call(base, 'GET', '/approve/requests', { operatorKey })
    const found = body.requests?.find((r: { appName: string }) => r.appName === appName)
    if (found) {
      const decided = await call(base, 'POST', `/approve/requests/${found.id}`, {
        operatorKey,
        body: { decision: 'approve' },
      })
      expect(decided.status).toBe(200)
      return
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`no request from ${appName}`)
}

/** An application's token on a service, approved there. */
export async function tokenOn(base: string, operatorKey: string, appName: string): Promise<string> {
  const asked = call(base, 'POST', '/auth', { body: { appName } })
  await approve(base, operatorKey, appName)
  const { status, body } = await asked
  expect(status).toBe(200)
  return body.token
}

import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { approvedClient } from '../src/client'
import worker from '../src/index'

// A clip and a log as the tests build them, for tests in Node too.
export { clip, makeLog } from './log-fixtures'

export const BASE = 'http://localhost:5252'
export const OPERATOR_KEY = 'test-operator-key-0123456789abcdef'

export type Answer<T = any> = { status: number; body: T; headers: Headers }

/**
 * The worker's own fetch handler, called in-process with the test bindings. Not SELF.fetch: in
 * vitest-pool-workers 0.15 each SELF.fetch is slower than the one before (workers-sdk#15446).
 */
export async function fetchWorker(request: Request): Promise<Response> {
  const ctx = createExecutionContext()
  const response = await worker.fetch(request, env, ctx)
  await waitOnExecutionContext(ctx)
  return response
}

// Keeps a byte order mark as U+FEFF and throws on invalid UTF-8: the text stands for the bytes exactly.
const exactUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** A GET's answer exactly as the service sent it: the status and the body, not parsed. */
export async function getAsSent(path: string, token: string): Promise<{ status: number; text: string }> {
  const response = await fetchWorker(new Request(`${BASE}${path}`, { headers: { 'x-api-token': token } }))
  return { status: response.status, text: exactUtf8.decode(await response.arrayBuffer()) }
}

export const utf8 = (text: string) => new TextEncoder().encode(text)

/** One call through the worker's fetch handler; the body is always read (isolated storage needs it). */
export async function call<T = any>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; raw?: BodyInit; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers['x-api-token'] = options.token
  let body: BodyInit | undefined = options.raw
  if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers['content-type'] ??= 'application/json'
  } else if (options.raw !== undefined) headers['content-type'] ??= 'application/json'
  const response = await fetchWorker(new Request(`${BASE}${path}`, { method, headers, body }))
  const text = await response.text()
  let parsed: unknown = text
  if ((response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text)
  return { status: response.status, body: parsed as T, headers: response.headers }
}

export const operator = (method: string, path: string, body?: unknown) =>
  call(method, path, { body, headers: { 'x-operator-key': OPERATOR_KEY } })

/** Waits until the console lists a pending request from `appName`, and returns its id. */
export async function pendingRequestOf(appName: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const { body } = await operator('GET', '/approve/requests')
    const found = body.requests.find((r: { appName: string }) => r.appName === appName)
    if (found) return found.id
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`no pending request from ${appName}`)
}

/** The worker's fetch handler as a `fetch`, for the typed client. */
export const viaWorker = ((input: RequestInfo | URL, init?: RequestInit) =>
  fetchWorker(new Request(input, init))) as typeof fetch

/** The whole approval flow, through the typed client: ask, let the operator approve, return the token. */
export async function approvedToken(appName = 'Offload Tool'): Promise<string> {
  const client = await approvedClient({ baseUrl: BASE, appName, operatorKey: OPERATOR_KEY, fetch: viaWorker })
  return client.token!
}

/** A token and a freshly created, loaded project. */
export async function withProject(name = 'Feature Film') {
  const token = await approvedToken()
  const created = await call('POST', '/project/create', { token, body: { project_name: name } })
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`)
  return { token, project: created.body }
}

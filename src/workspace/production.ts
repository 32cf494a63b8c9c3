/**
 * The production as a cart reaches it (docs/units.md): the same service deployed. Linking asks its
 * POST /auth as the unit and finds its project; the rounds call its sync routes with the token its
 * operator approved, naming that project. Redirects are never followed (they would carry the
 * token elsewhere). A refusal or a network failure rejects with what the status shows.
 */
import type { Leaf } from '../shared/revisions'
import type { Production } from './units'

/** A request that has not answered by then is given up: the round fails and is tried again later. */
const REQUEST_MS = 60_000

/** A failure of the production, said as the status and the console show it; `status` when it answered. */
export class ProductionError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
  }
}

type Answer = { response: Response; body: Record<string, unknown> }

async function call(url: string, method: string, path: string, init: RequestInit = {}): Promise<Response> {
  let response: Response
  // The deadline's timer is cleared once the call ends: AbortSignal.timeout's lives on for its full
  // minute, and some 10,000 calls within one (a cart of 11,000 small days) reached workerd's limit
  // of 10,000 timers, after which no timer of the object could be set and its writes hung.
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(new Error('no answer within 60 s')), REQUEST_MS)
  const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal
  try {
    response = await fetch(url + path, { method, redirect: 'manual', ...init, signal })
  } catch (err) {
    throw new ProductionError(`${url} did not answer (${err instanceof Error ? err.message : String(err)})`)
  } finally {
    clearTimeout(timer)
  }
  if (response.ok) return response
  const { body } = await parsed(response)
  // A validation error says which field: its first detail goes with it into the status.
  const detail = Array.isArray(body.details) ? (body.details[0] as { prop?: unknown; message?: unknown }) : undefined
  const why =
    typeof detail?.message === 'string'
      ? `${typeof detail.prop === 'string' && detail.prop ? `${detail.prop} ` : ''}${detail.message}`
      : ''
  const said = (typeof body.error === 'string' ? body.error : response.statusText) + (why ? ` (${why})` : '')
  throw new ProductionError(
    `${url} answered ${response.status} to ${method} ${path.split('?')[0]}: ${said}`,
    response.status,
  )
}

async function parsed(response: Response): Promise<Answer> {
  const text = await response.text()
  try {
    const value: unknown = JSON.parse(text)
    return { response, body: value && typeof value === 'object' ? (value as Record<string, unknown>) : {} }
  } catch {
    return { response, body: { error: text.slice(0, 200) } }
  }
}

/**
 * The production's token for this cart: its POST /auth as the unit, answered once the production's
 * operator decides (the cart's operator compares `code` with the card).
 */
export async function askProduction(url: string, unit: string, code: string, signal: AbortSignal): Promise<string> {
  const response = await call(url, 'POST', '/auth', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ appName: unit, code, unit: true }),
    signal,
  })
  const { body } = await parsed(response)
  if (typeof body.token !== 'string') throw new ProductionError(`${url} answered no token`)
  return body.token
}

/**
 * The production's project, whose id every round names. The first cart linked gives it its own
 * project's name: only a production with no project loaded gets one.
 */
export async function productionProject(url: string, token: string, name: string): Promise<string> {
  const headers = { 'x-api-token': token, 'content-type': 'application/json' }
  try {
    const { body } = await parsed(await call(url, 'GET', '/project', { headers }))
    if (typeof body.id === 'string') return body.id
  } catch (err) {
    if (!(err instanceof ProductionError && err.message.endsWith('No Project Loaded'))) throw err
  }
  const created = await call(url, 'POST', '/project/create', {
    headers,
    body: JSON.stringify({ project_name: name }),
  })
  const { body } = await parsed(created)
  if (typeof body.id !== 'string') throw new ProductionError(`${url} created no project`)
  return body.id
}

/** The sync routes of the production's project `project`, called with the cart's token. */
export function productionAt(url: string, token: string, project: string): Production {
  const named = `project=${encodeURIComponent(project)}`
  const sync = (method: string, path: string, body?: BodyInit) =>
    call(url, method, path + (path.includes('?') ? '&' : '?') + named, {
      headers: { 'x-api-token': token, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body,
    })
  return {
    async changes(since, limit) {
      const response = await sync('GET', `/sync/changes?since=${since}&limit=${limit}`)
      return response.json<{ changes: Array<{ id: string; leaves: Leaf[] }>; last: number }>()
    },
    async missing(logs) {
      const asked = [...logs].map(([id, revs]) => ({ id, revs }))
      const response = await sync('POST', '/sync/missing', JSON.stringify({ logs: asked }))
      const { missing } = await response.json<{ missing: Array<{ id: string; revs: string[] }> }>()
      return new Map(missing.map(({ id, revs }) => [id, revs]))
    },
    async leaf(id, rev) {
      const response = await sync('GET', `/sync/logs/${encodeURIComponent(id)}?rev=${rev}`)
      return new Uint8Array(await response.arrayBuffer())
    },
    async send(id, leaf, body) {
      const query =
        `rev=${leaf.rev}&ancestors=${leaf.ancestors.join(',')}` +
        (leaf.deleted ? '&deleted=true' : '') +
        (leaf.owner === undefined ? '' : `&owner=${encodeURIComponent(leaf.owner)}`)
      const response = await sync('POST', `/sync/logs/${encodeURIComponent(id)}?${query}`, body ?? '')
      await response.body?.cancel()
    },
  }
}

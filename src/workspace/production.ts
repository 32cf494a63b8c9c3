/**
 * The production as a cart reaches it: the sync routes of the same service deployed (docs/units.md),
 * called with the token the production's operator approved for the cart's unit. A refusal or a
 * network failure rejects with what the status shows; the next round tries again.
 */
import type { Production } from './units'
import type { Leaf } from '../shared/revisions'

/** A request that has not answered by then is given up: the round fails and is tried again later. */
const REQUEST_MS = 60_000

export function productionAt(url: string, token: string): Production {
  const call = async (method: string, path: string, body?: BodyInit, type = 'application/json') => {
    let response: Response
    try {
      response = await fetch(url + path, {
        method,
        headers: { 'x-api-token': token, ...(body !== undefined && { 'content-type': type }) },
        body,
        signal: AbortSignal.timeout(REQUEST_MS),
      })
    } catch (err) {
      throw new Error(`${url} did not answer (${err instanceof Error ? err.message : String(err)})`)
    }
    if (response.ok) return response
    const text = await response.text()
    let said = text.slice(0, 200)
    try {
      const { error } = JSON.parse(text) as { error?: unknown }
      if (typeof error === 'string') said = error
    } catch {
      // not the service's JSON: said as it came
    }
    throw new Error(`${url} answered ${response.status} to ${method} ${path.split('?')[0]}: ${said}`)
  }
  return {
    async changes(since, limit) {
      const response = await call('GET', `/sync/changes?since=${since}&limit=${limit}`)
      return response.json<{ changes: Array<{ id: string; leaves: Leaf[] }>; last: number }>()
    },
    async missing(logs) {
      const response = await call('POST', '/sync/missing', JSON.stringify({ logs }))
      return (await response.json<{ missing: Record<string, string[]> }>()).missing
    },
    async leaf(id, rev) {
      const response = await call('GET', `/sync/logs/${encodeURIComponent(id)}?rev=${rev}`)
      return new Uint8Array(await response.arrayBuffer())
    },
    async send(id, leaf, body) {
      const query =
        `rev=${leaf.rev}&ancestors=${leaf.ancestors.join(',')}` +
        (leaf.deleted ? '&deleted=true' : '') +
        (leaf.owner === undefined ? '' : `&owner=${encodeURIComponent(leaf.owner)}`)
      const response = await call('POST', `/sync/logs/${encodeURIComponent(id)}?${query}`, body ?? '')
      await response.body?.cancel()
    },
  }
}

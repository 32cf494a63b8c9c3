// POST /log over 8 MiB through the service: stored as sent, refused with the one bad clip named,
// custom entries dropped as for any log. The clip-at-a-time check on its own, against the
// whole-log check, is in large-log-check.node.test.ts.
import { describe, expect, it } from 'vitest'
import { BASE, call, clip, fetchWorker, makeLog, withProject } from './helpers'

describe('POST /log over 8 MiB', () => {
  const big = (overrides: Record<string, unknown> = {}) =>
    makeLog('D001', 0, {
      ocf: { clips: Array.from({ length: 12_000 }, (_, i) => clip(i, { notes: 'n'.repeat(400) })) },
      ...overrides,
    })

  it('stores it as sent, with version 1 added, and its summary', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    const { version: _, ...log } = big()
    const raw = JSON.stringify(log)
    expect(raw.length).toBeGreaterThan(8 * 1024 * 1024)
    expect(await call('POST', '/log', { token, raw })).toEqual(expect.objectContaining({ status: 201 }))
    const read = await fetchWorker(new Request(`${BASE}/log/D001`, { headers: { 'x-api-token': token } }))
    expect(await read.text()).toBe(`${raw.slice(0, -1)},"version":1}`)
  })

  it('names the one bad clip deep inside, and stores nothing', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    const log = big()
    ;(log.ocf.clips[9000] as Record<string, unknown>).size = -5
    const answer = await call('POST', '/log', { token, body: log })
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'Validation Error', details: [{ prop: 'ocf.clips.9000.size', message: 'must not be negative' }] },
    })
    expect((await call('GET', '/logs', { token })).body).toEqual({ logs: [] })
  })

  it('drops custom entries of schemas the project does not have, as for any log', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    const log = big({ custom: [{ schema: 'gone', log: { a: 1 } }] })
    expect((await call('POST', '/log', { token, body: log })).status).toBe(201)
    const { custom, ...rest } = (await call('GET', '/log/D001', { token })).body
    expect(custom).toEqual([])
    const { custom: _, ...sent } = log as typeof log & { custom: unknown }
    expect(rest).toEqual(sent)
  })
})

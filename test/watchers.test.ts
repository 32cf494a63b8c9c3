// The watchers of offload folders as the console lists them: a running `media-log watch` reports
// itself (PUT /watchers/{id}), says when it stopped, and the operator dismisses one.
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Workspace } from '../src/workspace/Workspace'
import { ROUTES } from '../src/api/routes'
import { approvedToken, call, operator } from './helpers'

const ID = '0f8c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b'
const OTHER = '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d'

/** The document's example of a report, with a problem met (a report the service refused). */
const REPORT = {
  ...ROUTES.reportWatcher.example.request,
  problems: [{ at: '2026-11-28T18:29:00.000Z', message: 'not taken /Volumes/SHUTTLE_01/x.csv: 400 Validation Error' }],
}

/** The watchers' rows as stored, whatever the console lists. */
const rows = () =>
  runInDurableObject(env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace')), (_: Workspace, state) =>
    Number(state.storage.sql.exec('SELECT COUNT(*) AS n FROM watchers').one().n),
  )
const report = (token: string, body: unknown, id = ID) => call('PUT', `/watchers/${id}`, { token, body })
const watchersShown = async () => {
  const state = await operator('GET', '/approve/state')
  expect(state.status).toBe(200)
  return state.body as { watchers: Array<Record<string, unknown>>; now: string; version: number }
}

describe('PUT /watchers/{id}', () => {
  it('lists a watcher with what it said, who runs it and when it was heard; a report again moves the console', async () => {
    const token = await approvedToken('media-log')
    const before = Date.now()
    expect(await report(token, REPORT)).toMatchObject({ status: 201, body: { success: true } })
    const first = await watchersShown()
    expect(first.watchers).toEqual([
      {
        id: ID,
        appName: 'media-log',
        ...REPORT,
        startedAt: expect.any(String),
        heardAt: expect.any(String),
        quietAt: expect.any(String),
        stoppedAt: null,
      },
    ])
    const heard = Date.parse(first.watchers[0]!.heardAt as string)
    // Quiet after three of the intervals it said it reports at.
    expect(Date.parse(first.watchers[0]!.quietAt as string) - heard).toBe(3 * REPORT.everySeconds * 1000)
    expect(heard).toBeGreaterThanOrEqual(before - 1)
    expect(Date.parse(first.now)).toBeGreaterThanOrEqual(heard)

    await new Promise((r) => setTimeout(r, 5))
    const again = { ...REPORT, taken: 2, problems: [] }
    expect(await report(token, again)).toMatchObject({ status: 200, body: { success: true } })
    const second = await watchersShown()
    expect(second.version).not.toBe(first.version)
    expect(second.watchers).toEqual([
      {
        ...first.watchers[0],
        ...again,
        heardAt: expect.any(String),
        quietAt: expect.any(String),
        startedAt: first.watchers[0]!.startedAt,
      },
    ])
    expect(Date.parse(second.watchers[0]!.heardAt as string)).toBeGreaterThan(heard)
  })

  it('refuses a report that is not one, an id that is not a UUID, and another application’s watcher; the list unchanged', async () => {
    const token = await approvedToken('media-log')
    expect(await report(token, REPORT)).toMatchObject({ status: 201 })
    const shown = (await watchersShown()).watchers

    const bad = await report(token, { ...REPORT, folders: [], everySeconds: 1, problems: 'none' })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({
      error: 'Validation Error',
      details: [
        { prop: 'folders', message: 'must name 1 to 16 folders' },
        { prop: 'everySeconds', message: 'must be 5 to 300 seconds' },
        { prop: 'problems', message: 'must be an array of problems' },
      ],
    })
    expect(await report(token, REPORT, 'NOT-A-UUID')).toEqual({
      status: 400,
      body: { error: 'Validation Error', details: [{ prop: 'id', message: 'must be a UUID in lower case' }] },
      headers: expect.anything(),
    })
    const other = await approvedToken('Another watcher')
    expect(await report(other, REPORT)).toMatchObject({
      status: 409,
      body: { error: 'This watcher is another application’s' },
    })
    expect(await call('DELETE', `/watchers/${ID}`, { token: other })).toMatchObject({ status: 409 })
    expect(await report('mls_not-a-token', REPORT)).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
    expect((await watchersShown()).watchers).toEqual(shown)
  })

  it('shows a stopped watcher stopped until the operator dismisses it; a stopped one reports no more', async () => {
    const token = await approvedToken('media-log')
    expect(await report(token, REPORT)).toMatchObject({ status: 201 })
    expect(await call('DELETE', `/watchers/${ID}`, { token })).toMatchObject({ status: 200, body: { success: true } })
    const [stopped] = (await watchersShown()).watchers
    expect(Date.parse(stopped!.stoppedAt as string)).toBeGreaterThanOrEqual(Date.parse(stopped!.heardAt as string))
    expect(await report(token, REPORT)).toMatchObject({
      status: 409,
      body: { error: 'This watcher has stopped: a watcher that starts again takes a new id' },
    })
    expect(await call('DELETE', `/watchers/${OTHER}`, { token })).toMatchObject({
      status: 404,
      body: { error: 'Watcher not found' },
    })

    // Only the operator dismisses: an application's token reaches no /approve route.
    expect(await call('DELETE', `/approve/watchers/${ID}`, { headers: { 'x-api-token': token } })).toMatchObject({
      status: 401,
    })
    expect((await watchersShown()).watchers).toHaveLength(1)
    expect(await operator('DELETE', `/approve/watchers/${ID}`)).toMatchObject({ status: 200, body: { success: true } })
    expect((await watchersShown()).watchers).toEqual([])
    expect(await operator('DELETE', `/approve/watchers/${ID}`)).toMatchObject({
      status: 404,
      body: { error: 'Watcher not found' },
    })
  })

  it('keeps 32, 16 of one application: a stopped one makes room, and with none stopped or quiet the next is refused', async () => {
    const first = await approvedToken('media-log')
    const second = await approvedToken('Offload Tool')
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
    for (let n = 0; n < 16; n++) expect((await report(first, REPORT, id(n))).status).toBe(201)
    expect(await report(first, REPORT, id(99))).toMatchObject({
      status: 429,
      body: { error: '16 watchers of this application are running: stop one, or dismiss it in the console' },
    })
    for (let n = 16; n < 32; n++) expect((await report(second, REPORT, id(n))).status).toBe(201)
    expect(await report(await approvedToken('Third'), REPORT, id(32))).toMatchObject({
      status: 429,
      body: { error: '32 watchers are running: stop one, or dismiss it in the console' },
    })
    expect((await watchersShown()).watchers).toHaveLength(32)

    // One of the first application's stopped: it makes room for that application's next.
    expect((await call('DELETE', `/watchers/${id(5)}`, { token: first })).status).toBe(200)
    expect((await report(first, REPORT, id(32))).status).toBe(201)
    const ids = (await watchersShown()).watchers.map((w) => w.id)
    expect(ids).toHaveLength(32)
    expect(ids).toContain(id(32))
    expect(ids).not.toContain(id(5))
  })

  describe('as time passes', () => {
    afterEach(() => void vi.useRealTimers())
    const id = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`

    it('lets a quiet watcher make room: unheard for three of its intervals, it is listed quiet and the next takes its place', async () => {
      const token = await approvedToken('media-log')
      for (let n = 0; n < 16; n++) expect((await report(token, REPORT, id(n))).status).toBe(201)
      vi.useFakeTimers({ now: Date.now() + 3 * REPORT.everySeconds * 1000 + 1000, toFake: ['Date'] })
      // The fifteen others report again in time; the first does not.
      for (let n = 1; n < 16; n++) expect((await report(token, REPORT, id(n))).status).toBe(200)
      const { watchers, now } = await watchersShown()
      const quiet = watchers.filter((w) => Date.parse(w.quietAt as string) < Date.parse(now)).map((w) => w.id)
      expect(quiet).toEqual([id(0)])
      expect((await report(token, REPORT, id(16))).status).toBe(201)
      const ids = (await watchersShown()).watchers.map((w) => w.id)
      expect(ids).toHaveLength(16)
      expect(ids).toContain(id(16))
      expect(ids).not.toContain(id(0))
    })

    it('forgets a watcher stopped a week ago: no longer listed, and its row gone at the next report, not at a read', async () => {
      const token = await approvedToken('media-log')
      expect((await report(token, REPORT, id(0))).status).toBe(201)
      expect((await call('DELETE', `/watchers/${id(0)}`, { token })).status).toBe(200)
      vi.useFakeTimers({ now: Date.now() + 7 * 24 * 3600 * 1000 + 1000, toFake: ['Date'] })
      expect((await watchersShown()).watchers).toEqual([])
      expect(await rows()).toBe(1)
      // Its row went with the next report: the same id starts afresh rather than being refused as stopped.
      expect(await report(token, REPORT, id(0))).toMatchObject({ status: 201, body: { success: true } })
      expect((await watchersShown()).watchers).toMatchObject([{ id: id(0), stoppedAt: null }])
      expect(await rows()).toBe(1)
    })

    it('answers 404 for a week-old watcher stopped or dismissed: not brought back as stopped', async () => {
      const token = await approvedToken('media-log')
      for (const n of [0, 1]) expect((await report(token, REPORT, id(n))).status).toBe(201)
      vi.useFakeTimers({ now: Date.now() + 7 * 24 * 3600 * 1000 + 1000, toFake: ['Date'] })
      expect(await call('DELETE', `/watchers/${id(0)}`, { token })).toMatchObject({ status: 404 })
      expect(await operator('DELETE', `/approve/watchers/${id(1)}`)).toMatchObject({ status: 404 })
      expect((await watchersShown()).watchers).toEqual([])
      expect(await rows()).toBe(0)
    })
  })
})

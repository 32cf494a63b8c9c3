// Every log's summary is kept beside it when it is written (what the data report, the e-mail's day
// summary and tags read); it must always be what the whole log gives, after every POST, PATCH and
// rename, and a store written before summaries were kept gets them when first asked.
import { env } from 'cloudflare:workers'
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { summarize } from '../src/summary/summary'
import type { Workspace } from '../src/workspace/Workspace'
import { call, makeLog, OPERATOR_KEY, withProject } from './helpers'
import { logBody } from './log-arbitraries'

const stub = () => env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace'))

/** The summaries stored for the active project's logs, by id; null where none is stored yet. */
const storedSummaries = () =>
  runInDurableObject(stub(), (_: Workspace, state) =>
    Object.fromEntries(
      state.storage.sql
        .exec<{ id: string; summary: string | null }>('SELECT id, summary FROM logs ORDER BY id')
        .toArray()
        .map((row) => [row.id, row.summary === null ? null : JSON.parse(row.summary)]),
    ),
  )

describe('summaries kept beside the logs', () => {
  it('are what the whole log gives, after every POST and every PATCH', async () => {
    const { token } = await withProject()
    let n = 0
    await fc.assert(
      fc.asyncProperty(logBody, logBody, fc.boolean(), async (first, patch, withCustom) => {
        const id = `D${String(++n).padStart(3, '0')}`
        // A `custom` entry sends the log down the workspace's own check, not the worker's fast path.
        const log = { id, day: n, date: '2025-06-14', ...first, ...(withCustom ? { custom: [] } : {}) }
        const posted = await call('POST', '/log', { token, body: log })
        expect(posted.status, JSON.stringify(posted.body)).toBe(201)
        const stored = (await call('GET', `/log/${id}`, { token })).body
        expect((await storedSummaries())[id]).toEqual(summarize(stored))

        const patched = await call('PATCH', `/log/${id}`, { token, body: patch })
        expect(patched.status, JSON.stringify(patched.body)).toBe(200)
        expect((await storedSummaries())[id]).toEqual(summarize(patched.body.data))
      }),
      { numRuns: 100 },
    )
    // 300 requests: about 2 s alone, more on a machine busy with other test files.
  }, 30_000)

  it('follow a rename and a new day or date, and go with a deleted log', async () => {
    const { token } = await withProject()
    await call('POST', '/log', { token, body: makeLog('D001', 3) })
    const renamed = await call('PATCH', '/log/D001', { token, body: { id: 'D001B', day: 2, date: '2024-01-02' } })
    expect(renamed.status).toBe(200)
    const summaries = await storedSummaries()
    expect(Object.keys(summaries)).toEqual(['D001B'])
    expect(summaries.D001B).toEqual(summarize(renamed.body.data))
    expect(summaries.D001B).toMatchObject({ id: 'D001B', day: 2, date: '2024-01-02', clips: 3 })
    expect((await call('DELETE', '/log/D001B', { token })).status).toBe(200)
    expect(await storedSummaries()).toEqual({})
  })

  it('are made for the logs of a store kept before them, when a report first needs them', async () => {
    const { token } = await withProject()
    const pdfs = [{ id: 'WRAPS', label: 'Wrap', output_name: 'wrap.pdf', template: 'data-report', enabled: true }]
    expect((await call('PATCH', '/project/config', { token, body: { pdfs } })).status).toBe(200)
    const logs = [makeLog('D001', 2), makeLog('D002', 5, { day: 2, date: '2024-01-02' })]
    for (const log of logs) expect((await call('POST', '/log', { token, body: log })).status).toBe(201)
    await runInDurableObject(stub(), (_: Workspace, state) => {
      // The layout before summaries: no column for them, schema 2.
      state.storage.sql.exec(
        `ALTER TABLE logs DROP COLUMN summary; ALTER TABLE logs DROP COLUMN revision; ALTER TABLE logs DROP COLUMN checks; UPDATE meta SET value = '2' WHERE key = 'schema'`,
      )
    })
    await abortAllDurableObjects()

    expect(await storedSummaries()).toEqual({ D001: null, D002: null })
    const pdf = await call('POST', '/generate-pdf', { token, body: { presetId: 'WRAPS', logId: ['D001', 'D002'] } })
    expect(pdf.status, JSON.stringify(pdf.body)).toBe(200)
    expect(await storedSummaries()).toEqual({ D001: summarize(logs[0] as never), D002: summarize(logs[1] as never) })
    const schema = await runInDurableObject(
      stub(),
      (_: Workspace, state) =>
        state.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'").one().value,
    )
    expect(schema).toBe('6')
  })
  it('are made again for a store of schema 5, whose summaries counted checksums, not the states of copies', async () => {
    const { token } = await withProject()
    const day = makeLog('D001', 0, {
      ocf: {
        copies: ['RAID'],
        clips: [
          {
            clip: 'A001C001',
            size: 1,
            copies: [{ volume: 'RAID', hash: 'xxh64:00000000000000aa', action: 'verified' }],
          },
        ],
      },
    })
    expect((await call('POST', '/log', { token, body: day })).status).toBe(201)
    expect((await storedSummaries()).D001.copies).toEqual([{ volume: 'RAID', clips: 1, states: { verified: 1 } }])
    await runInDurableObject(stub(), (_: Workspace, state) => {
      // A schema-5 summary: checksums counted, no state of each copy; check counts of its kinds.
      const stale = {
        ...summarize(day as never),
        copies: [{ volume: 'RAID', copied: 1, total: 1, hashed: 1, verified: 1 }],
      }
      state.storage.sql.exec('UPDATE logs SET summary = ?, checks = ?', JSON.stringify(stale), '{"kinds":{}}')
      state.storage.sql.exec("UPDATE meta SET value = '5' WHERE key = 'schema'")
    })
    await abortAllDurableObjects()
    expect(await storedSummaries()).toEqual({ D001: null })
    const days = await call('GET', '/approve/days', { headers: { 'x-operator-key': OPERATOR_KEY } })
    expect(days.body.days[0].copies).toEqual([
      {
        part: 'ocf',
        volume: 'RAID',
        held: 1,
        clips: 1,
        verdict: 'ok',
        mark: '✓',
        words: '1 clip, all verified (read back)',
      },
    ])
    expect(await storedSummaries()).toEqual({ D001: summarize(day as never) })
  })
})

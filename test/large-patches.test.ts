// A PATCH of a log over 8 MiB, or with a body over 8 MiB, is merged in the log's bytes
// (src/large-logs/merge.ts) and checked a clip at a time: neither side is parsed whole. It must
// answer and store what the parsed merge `{...stored, ...patch}` gives.
// The merge on its own is in large-log-merge.node.test.ts.
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { LogOutput } from '../src/schemas/log'
import { summarize } from '../src/summary/summary'
import type { Workspace } from '../src/workspace/Workspace'
import { call, clip, getAsSent, makeLog, withProject } from './helpers'

const MiB = 1024 * 1024

const stub = () => env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace'))

const storedSummary = (id: string) =>
  runInDurableObject(stub(), (_: Workspace, state) => {
    const row = state.storage.sql.exec<{ summary: string }>('SELECT summary FROM logs WHERE id = ?', id).one()
    return JSON.parse(row.summary)
  })

/** A day of 12,000 clips, each with a note: over 8 MiB of JSON. */
const bigDay = (overrides: Record<string, unknown> = {}) =>
  makeLog('D001', 0, {
    ocf: {
      reels: ['A001'],
      copies: ['SSD_01', 'RAID_A'],
      clips: Array.from({ length: 12_000 }, (_, i) => clip(i, { notes: 'n'.repeat(400) })),
    },
    ...overrides,
  })

describe('PATCH /log/{id} of a log over 8 MiB', () => {
  it('answers and stores the merge, and keeps the summary of it', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    const day = bigDay()
    expect(JSON.stringify(day).length).toBeGreaterThan(8 * MiB)
    expect((await call('POST', '/log', { token, body: day })).status).toBe(201)

    const patch = {
      unit: 'Second Unit',
      ocf: { ...day.ocf, clips: day.ocf.clips.slice(0, 3000).map((c) => ({ ...c, lens: 'Zoom' })) },
    }
    const patched = await call('PATCH', '/log/D001', { token, body: patch })
    const expected = { ...day, ...patch }
    expect(patched).toMatchObject({ status: 200, body: { success: true, data: expected } })
    expect(patched.body).toEqual({ success: true, data: expected })
    expect((await getAsSent('/log/D001', token)).text).toBe(JSON.stringify(expected))
    expect(await storedSummary('D001')).toEqual(summarize(expected as LogOutput))
  })

  it(
    'renames it, refuses a taken id with 409, and a bad clip with 400, storing nothing',
    { tags: 'slow' },
    async () => {
      const { token } = await withProject()
      const day = bigDay()
      expect((await call('POST', '/log', { token, body: day })).status).toBe(201)
      expect((await call('POST', '/log', { token, body: makeLog('D002', 1, { day: 2 }) })).status).toBe(201)
      const before = await getAsSent('/log/D001', token)

      expect(await call('PATCH', '/log/D001', { token, body: { id: 'D002' } })).toEqual(
        expect.objectContaining({ status: 409, body: { error: 'Log already exists' } }),
      )
      const clips = day.ocf.clips.map((c, i) => (i === 7000 ? { ...c, size: -5 } : c))
      expect(await call('PATCH', '/log/D001', { token, body: { day: 1000, ocf: { ...day.ocf, clips } } })).toEqual(
        expect.objectContaining({
          status: 400,
          body: {
            error: 'Validation Error',
            details: [
              { prop: 'day', message: 'must be a whole number from 1 to 999' },
              { prop: 'ocf.clips.7000.size', message: 'must not be negative' },
            ],
          },
        }),
      )
      expect(await getAsSent('/log/D001', token)).toEqual(before)

      const renamed = await call('PATCH', '/log/D001', { token, body: { id: 'Day-01' } })
      expect(renamed.status).toBe(200)
      expect(renamed.body.data).toEqual({ ...day, id: 'Day-01' })
      expect((await call('GET', '/log/D001', { token })).status).toBe(404)
      expect((await getAsSent('/log/Day-01', token)).text).toBe(JSON.stringify({ ...day, id: 'Day-01' }))
      expect(await storedSummary('Day-01')).toMatchObject({ id: 'Day-01', clips: 12_000 })
    },
  )

  it('drops custom entries of schemas the project does not have, as for any log', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: bigDay() })).status).toBe(201)
    const patched = await call('PATCH', '/log/D001', {
      token,
      body: { custom: [{ schema: 'gone', log: { a: 1 } }], unit: 'B' },
    })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({ custom: [], unit: 'B' })
    expect((await call('GET', '/log/D001', { token })).body).toMatchObject({ custom: [], unit: 'B' })
  })
})

describe('PATCH /log/{id} with a body over 8 MiB', () => {
  it('puts the patch’s values in as sent, and refuses malformed JSON with 400', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    const small = makeLog('D001', 2)
    expect((await call('POST', '/log', { token, body: small })).status).toBe(201)
    const ocf = bigDay().ocf
    const ocfText = JSON.stringify(ocf, null, 1)
    const raw = `{ "ocf" : ${ocfText} }`
    expect(raw.length).toBeGreaterThan(8 * MiB)

    expect(await call('PATCH', '/log/D001', { token, raw: raw.slice(0, -1) })).toEqual(
      expect.objectContaining({ status: 400, body: expect.objectContaining({ error: 'Validation Error' }) }),
    )
    expect((await getAsSent('/log/D001', token)).text).toBe(JSON.stringify(small))

    const patched = await call('PATCH', '/log/D001', { token, raw })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toEqual({ ...small, ocf })
    const { text } = await getAsSent('/log/D001', token)
    expect(text).toBe(JSON.stringify({ ...small, ocf: '\u0000' }).replace('"\\u0000"', ocfText))
    expect(await storedSummary('D001')).toEqual(summarize({ ...small, ocf } as LogOutput))
  })
})

import { env } from 'cloudflare:workers'
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { CHUNK_UNITS, cut } from '../src/workspace/store'
import type { Workspace } from '../src/workspace/Workspace'
import { call, clip, makeLog, withProject } from './helpers'

const stub = () => env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace'))

describe('storage', () => {
  it('stores and returns a 20,000-clip log intact, in rows far below the 2 MB limit', async () => {
    const { token } = await withProject()
    const clips = Array.from({ length: 20_000 }, (_, i) => clip(i + 1, { lut: `Show LUT – ${i % 7} ✓`, ei: 800, gamma: 'LogC4', wb: '5600', tint: '+0.0', sensor_fps: '24.000', shutter: '172.8°', notes: `Take ${i} — ${'good '.repeat(60)}` }))
    const log = makeLog('D001', 0, { ocf: { reels: ['A001'], clips } })
    const text = JSON.stringify(log)
    expect(text.length).toBeGreaterThan(14_000_000)
    expect(await call('POST', '/log', { token, raw: text })).toMatchObject({ status: 201 })

    const read = await call('GET', '/log/D001', { token })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(log)

    const patched = await call('PATCH', '/log/D001', { token, body: { unit: 'Splinter' } })
    expect(patched.status).toBe(200)
    expect(patched.body.data.ocf.clips).toHaveLength(20_000)

    const largest = await runInDurableObject(stub(), (_: Workspace, state) =>
      state.storage.sql.exec<{ n: number }>('SELECT max(n) AS n FROM (SELECT length(CAST(head AS BLOB)) AS n FROM logs UNION ALL SELECT length(CAST(body AS BLOB)) FROM log_pieces)').one().n,
    )
    expect(largest).toBeLessThan(1_000_000)
  })

  it('never splits a surrogate pair between pieces', () => {
    const text = 'a' + '😀'.repeat(10)
    const pieces = cut(text, 4)
    expect(pieces.join('')).toBe(text)
    for (const piece of pieces) expect(piece).toBe(piece.toWellFormed())
    expect(cut('x'.repeat(CHUNK_UNITS))).toHaveLength(1)
  })

  it('keeps projects, the active project, logs and tokens across a restart of the object', async () => {
    const { token, project } = await withProject('Survivor')
    await call('POST', '/log', { token, body: makeLog('D001', 2) })
    await call('PATCH', '/project/config', { token, body: { unit: 'Main Unit' } })
    await abortAllDurableObjects()
    expect(await call('GET', '/project', { token })).toMatchObject({ status: 200, body: project })
    expect((await call('GET', '/project/config', { token })).body.unit).toBe('Main Unit')
    expect((await call('GET', '/log/D001', { token })).body).toEqual(makeLog('D001', 2))
  })
})

// Past 1 MiB, GET /logs and GET /log/:id stream what they answer from storage as it is read, and
// other requests run in between. Each log in an answer is whole and of one version: one replaced
// or deleted once the answer has started keeps, for that answer, the pieces it had.
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { LogBody } from '../src/workspace/logs'
import type { Workspace } from '../src/workspace/Workspace'
import { untagged, type Tagged } from '../src/workspace/answers'
import { call, clip, makeLog, withProject } from './helpers'

const stub = () => env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace'))
const decoder = new TextDecoder()

/** A log of about 1.3 MB: three stored pieces. */
const bigLog = (id: string, day: number, lens = 'Signature Prime 35mm') =>
  makeLog(id, 0, {
    day,
    ocf: { clips: Array.from({ length: 1500 }, (_, i) => clip(i, { lens, notes: 'n'.repeat(500) })) },
  })

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>, first: Uint8Array[] = []) {
  const chunks = first
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value)
  return chunks.map((c) => decoder.decode(c, { stream: true })).join('')
}

const retired = (state: DurableObjectState) =>
  state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM retired_pieces').one().n

describe('answers streamed from storage', () => {
  it('lists each log whole, in the version it had when the answer reached it', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    // Two big days, then 70 small ones: the heads of the first 64 are read with the first chunk.
    const logs: Record<string, unknown>[] = [bigLog('D001', 1), bigLog('D002', 2)]
    for (let day = 3; day <= 72; day++) logs.push(makeLog(`D${String(day).padStart(3, '0')}`, 2, { day }))
    for (const log of logs) expect((await call('POST', '/log', { token, body: log })).status).toBe(201)

    const seen = await runInDurableObject(stub(), async (workspace: Workspace, state) => {
      const listing = untagged(workspace.logsJson(token) as Tagged<LogBody>).body
      if (!(listing instanceof ReadableStream)) throw new Error('a listing over 1 MiB must stream')
      const reader = listing.getReader()
      const first = await reader.read()
      // D002 is being read; D070 not yet reached; D071 will be gone; D073 is new.
      await workspace.patchLog(token, 'D002', JSON.stringify({ ocf: bigLog('D002', 2, 'Zoom').ocf }))
      await workspace.patchLog(token, 'D070', JSON.stringify({ unit: 'Second Unit' }))
      await workspace.deleteLog(token, 'D071')
      await workspace.createLog(token, new TextEncoder().encode(JSON.stringify(makeLog('D073', 1, { day: 73 }))))
      const keptWhileRead = retired(state)
      const text = await readAll(reader, [first.value!])
      return { text, keptWhileRead, keptAfter: retired(state) }
    })
    const expected = logs
      .filter((log) => log.id !== 'D071')
      .map((log) => (log.id === 'D070' ? { ...log, unit: 'Second Unit' } : log))
    expect(JSON.parse(seen.text)).toEqual({ logs: expected })
    expect(seen.keptWhileRead).toBeGreaterThan(0)
    expect(seen.keptAfter).toBe(0)
    // The next listing has the new versions.
    const now = (await call('GET', '/logs', { token })).body.logs
    expect(now.map((log: { id: string }) => log.id)).toEqual([...expected.map((log) => log.id), 'D073'])
    expect(now[1].ocf.clips[0].lens).toBe('Zoom')
  })

  it('answers one log whole while it is replaced, then deleted, mid-answer', async () => {
    const { token } = await withProject()
    const log = bigLog('D001', 1)
    expect((await call('POST', '/log', { token, body: log })).status).toBe(201)
    const seen = await runInDurableObject(stub(), async (workspace: Workspace, state) => {
      const answer = untagged(workspace.logJson(token, 'D001') as Tagged<LogBody>).body
      if (!(answer instanceof ReadableStream)) throw new Error('a log over 1 MiB must stream')
      const reader = answer.getReader()
      const first = await reader.read()
      await workspace.patchLog(token, 'D001', JSON.stringify({ unit: 'Second Unit' }))
      await workspace.deleteLog(token, 'D001')
      const text = await readAll(reader, [first.value!])
      return { text, keptAfter: retired(state) }
    })
    expect(seen.text).toBe(JSON.stringify(log))
    expect(seen.keptAfter).toBe(0)
    expect((await call('GET', '/log/D001', { token })).status).toBe(404)
  })

  it('lets go of what it kept when the client stops reading', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: bigLog('D001', 1) })).status).toBe(201)
    const kept = await runInDurableObject(stub(), async (workspace: Workspace, state) => {
      const answer = untagged(workspace.logJson(token, 'D001') as Tagged<LogBody>).body as ReadableStream<Uint8Array>
      const reader = answer.getReader()
      await reader.read()
      await reader.cancel()
      // Nothing is reading the log any more: replacing it keeps no copy.
      await workspace.patchLog(token, 'D001', JSON.stringify({ unit: 'Second Unit' }))
      return retired(state)
    })
    expect(kept).toBe(0)
    expect((await call('GET', '/log/D001', { token })).body.unit).toBe('Second Unit')
  })
})

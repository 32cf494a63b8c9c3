import { env } from 'cloudflare:workers'
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { CHUNK_BYTES } from '../src/workspace/store'
import { cutBytes } from '../src/shared/utf8'
import type { Workspace } from '../src/workspace/Workspace'
import { call, clip, getAsSent, makeLog, utf8, withProject } from './helpers'

const stub = () => env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace'))

describe('storage', () => {
  it('stores and returns a 20,000-clip log intact, in rows far below the 2 MB limit', async () => {
    const { token } = await withProject()
    const clips = Array.from({ length: 20_000 }, (_, i) =>
      clip(i + 1, {
        lut: `Show LUT – ${i % 7} ✓`,
        ei: 800,
        gamma: 'LogC4',
        wb: '5600',
        tint: '+0.0',
        sensor_fps: '24.000',
        shutter: '172.8°',
        notes: `Take ${i} — ${'good '.repeat(60)}`,
      }),
    )
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

    const largest = await runInDurableObject(
      stub(),
      (_: Workspace, state) =>
        state.storage.sql
          .exec<{ n: number }>(
            'SELECT max(n) AS n FROM (SELECT length(CAST(head AS BLOB)) AS n FROM logs UNION ALL SELECT length(CAST(body AS BLOB)) FROM log_pieces)',
          )
          .one().n,
    )
    expect(largest).toBeLessThan(1_000_000)
  })

  it('cuts stored JSON only between characters', () => {
    const text = `a${'😀é'.repeat(10)}`
    const pieces = cutBytes(utf8(text), 5)
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
    // A strict decode of each piece throws on a character cut in two.
    expect(pieces.map((piece) => strict.decode(piece)).join('')).toBe(text)
    for (const piece of pieces) expect(piece.byteLength).toBeLessThanOrEqual(5)
    expect(cutBytes(new Uint8Array(CHUNK_BYTES), CHUNK_BYTES)).toHaveLength(1)
  })

  it('answers a log of many pieces with non-ASCII text byte for byte, however it is read', async () => {
    const { token } = await withProject()
    const clips = Array.from({ length: 3000 }, (_, i) =>
      clip(i + 1, { lut: `Nuit américaine ${i} 🎬`, notes: 'é'.repeat(i % 5) }),
    )
    const log = makeLog('D001', 0, { unit: 'Équipe B', ocf: { reels: ['A001'], clips } })
    const text = JSON.stringify(log)
    expect(await call('POST', '/log', { token, raw: text })).toMatchObject({ status: 201 })
    const pieces = await runInDurableObject(
      stub(),
      (_: Workspace, state) => state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM log_pieces').one().n,
    )
    expect(pieces).toBeGreaterThan(1)

    expect(await getAsSent('/log/D001', token)).toEqual({ status: 200, text })
    expect(await getAsSent('/logs', token)).toEqual({ status: 200, text: `{"logs":[${text}]}` })
    // A PATCH reads the pieces as text and stores the merged log again.
    expect((await call('PATCH', '/log/D001', { token, body: { unit: 'Équipe C' } })).status).toBe(200)
    expect(await getAsSent('/log/D001', token)).toEqual({
      status: 200,
      text: JSON.stringify({ ...log, unit: 'Équipe C' }),
    })
  })

  it('reads logs stored as text pieces of UTF-16 units, as stores written before kept them', async () => {
    const { token } = await withProject()
    const log = makeLog('D001', 2, { unit: 'Équipe 🎬' })
    const text = JSON.stringify(log)
    await runInDurableObject(stub(), (_: Workspace, state) => {
      // Cut right after a 4-byte character, in UTF-16 units.
      const cutAt = text.indexOf('🎬') + 2
      const [head, rest] = [text.slice(0, cutAt), text.slice(cutAt)]
      const project = state.storage.sql.exec<{ key: number }>('SELECT key FROM projects').one().key
      state.storage.sql.exec(
        "INSERT INTO logs (project, id, day, date, pieces, head, updated_at) VALUES (?, 'D001', 1, '2024-01-01', 2, ?, '2024-01-01T00:00:00.000Z')",
        project,
        head,
      )
      state.storage.sql.exec(
        "INSERT INTO log_pieces (project, log_id, seq, body) VALUES (?, 'D001', 1, ?)",
        project,
        rest,
      )
    })
    expect(await getAsSent('/log/D001', token)).toEqual({ status: 200, text })
    expect(await getAsSent('/logs', token)).toEqual({ status: 200, text: `{"logs":[${text}]}` })
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

  it('moves a store of the first layout (project ids in every log row) to project keys on start', async () => {
    const { token: tokenA } = await withProject('First Unit')
    const long = makeLog('D003', 3000, { day: 3 })
    for (const log of [makeLog('D002', 2, { day: 2 }), long, makeLog('D001', 1)])
      await call('POST', '/log', { token: tokenA, body: log })
    const { token } = await withProject('Second Unit')
    await call('POST', '/log', { token, body: makeLog('D001', 4, { unit: 'Second Unit' }) })
    const pieces = await runInDurableObject(stub(), (_: Workspace, state) => {
      // The first layout, as the service created it, filled with what the current one holds.
      state.storage.sql.exec(`
        CREATE TABLE projects_1 (id TEXT PRIMARY KEY, path TEXT NOT NULL UNIQUE COLLATE NOCASE, created_at TEXT NOT NULL, settings TEXT NOT NULL);
        INSERT INTO projects_1 SELECT id, path, created_at, settings FROM projects;
        CREATE TABLE logs_1 (project_id TEXT NOT NULL, id TEXT NOT NULL, day INTEGER NOT NULL, date TEXT NOT NULL, pieces INTEGER NOT NULL, head TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (project_id, id));
        INSERT INTO logs_1 SELECT p.id, l.id, l.day, l.date, l.pieces, l.head, l.updated_at FROM logs l JOIN projects p ON p.key = l.project;
        CREATE TABLE log_pieces_1 (project_id TEXT NOT NULL, log_id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (project_id, log_id, seq));
        INSERT INTO log_pieces_1 SELECT p.id, lp.log_id, lp.seq, lp.body FROM log_pieces lp JOIN projects p ON p.key = lp.project;
        DROP TABLE log_pieces; DROP TABLE logs; DROP TABLE projects;
        ALTER TABLE projects_1 RENAME TO projects; ALTER TABLE logs_1 RENAME TO logs; ALTER TABLE log_pieces_1 RENAME TO log_pieces;
        CREATE INDEX logs_in_order ON logs (project_id, day, date, id);
        DELETE FROM meta WHERE key = 'schema';
      `)
      return state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM log_pieces').one().n
    })
    expect(pieces).toBeGreaterThan(0)
    await abortAllDurableObjects()

    expect((await call('GET', '/log/D001', { token })).body).toEqual(makeLog('D001', 4, { unit: 'Second Unit' }))
    expect((await call('POST', '/project/load', { token, body: { path: 'projects/First Unit' } })).status).toBe(200)
    const listed = await call('GET', '/logs', { token })
    expect(listed.body.logs.map((l: { id: string }) => l.id)).toEqual(['D001', 'D002', 'D003'])
    expect(listed.body.logs[2]).toEqual(long)
    expect((await call('POST', '/log', { token, body: makeLog('D004', 1, { day: 4 }) })).status).toBe(201)
    const layout = await runInDurableObject(stub(), (_: Workspace, state) => ({
      schema: state.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'").one().value,
      rows: state.storage.sql
        .exec('SELECT p.path, l.id FROM logs l JOIN projects p ON p.key = l.project ORDER BY p.path, l.id')
        .toArray(),
      pieces: state.storage.sql
        .exec<{ n: number }>(
          'SELECT count(*) AS n FROM log_pieces WHERE project = (SELECT key FROM projects WHERE path = ?)',
          'projects/First Unit',
        )
        .one().n,
      indexes: state.storage.sql
        .exec("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'logs' AND sql IS NOT NULL")
        .toArray(),
    }))
    expect(layout).toEqual({
      schema: '6',
      rows: [
        { path: 'projects/First Unit', id: 'D001' },
        { path: 'projects/First Unit', id: 'D002' },
        { path: 'projects/First Unit', id: 'D003' },
        { path: 'projects/First Unit', id: 'D004' },
        { path: 'projects/Second Unit', id: 'D001' },
      ],
      pieces,
      // Only the primary key's: the listing order is sorted in code.
      indexes: [],
    })
  })
})

// POST /log/{id}/import does work and holds memory in proportion to the request, whatever its files
// hold: notes are listed to a limit and counted past it, ALE rows are limited per import, 100,000
// digests are read and a manifest of more refused, a body past 8 MiB is read from its bytes, the
// token is asked for before any file is read, and a chain of thousands of generations is matched in
// one pass.
import { describe, expect, it } from 'vitest'
import { call, makeLog, withProject } from './helpers'
import { ale, ascChain, ascManifest } from './offload-fixtures'
import { c4Of } from '../src/import/read'

const importInto = (token: string, id: string, body: unknown) =>
  call('POST', `/log/${encodeURIComponent(id)}/import`, { token, body })

const oneColumnAle = (rows: number, prefix = 'X') =>
  ale({ columns: ['Name'], rows: Array.from({ length: rows }, (_, i) => [`${prefix}${i}`]) })

describe('an import is bounded by its request', () => {
  it('sums its notes up a line per file, lists 100 of them in detail and counts the rest, however many rows name no clip', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1) })).status).toBe(201)
    // Long names, once each: the answer must not carry a name for every row.
    const long = (i: number) => `/Volumes/SHUTTLE_A/${'Reports/'.repeat(120)}camera_${i}.ale`
    const files = [0, 1, 2].map((i) => ({ name: long(i), content: oneColumnAle(5000, `F${i}_`) }))
    const answer = await importInto(token, 'D001', { files })
    expect(answer.status).toBe(200)
    expect(answer.body.unreadable).toEqual([])
    // A line per file: each camera list's 5,000 clips counted, the first five named.
    expect(answer.body.notes).toEqual(
      [0, 1, 2].map((i) => ({
        name: long(i),
        message: `5,000 clips kept as the camera's list, on no volume yet (F${i}_0, F${i}_1, F${i}_2, F${i}_3, F${i}_4, and 4,995 more): the checks name each until a copy of it comes`,
      })),
    )
    expect(answer.body.noteDetail).toHaveLength(101)
    expect(answer.body.noteDetail[0]).toEqual({ name: long(0), message: 'line 11: no camera clip F0_0 in the log' })
    expect(answer.body.noteDetail[100]).toEqual({ message: 'and 14,900 more notes like these' })
    expect(JSON.stringify(answer.body).length).toBeLessThan(150_000)
  })

  it('reads at most 200,000 ALE rows in one import, across its files', { timeout: 30_000 }, async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1) })).status).toBe(201)
    const files = ['A.ale', 'B.ale'].map((name, i) => ({ name, content: oneColumnAle(150_000, `R${i}_`) }))
    const answer = await importInto(token, 'D001', { files })
    expect(answer.status).toBe(200)
    expect(answer.body.files).toEqual([{ name: 'A.ale', format: 'ale', clips: 150_000 }])
    expect(answer.body.unreadable).toEqual([
      {
        name: 'B.ale',
        reason: 'more rows than the 50,000 left of the 200,000 one import reads: send it in an import of its own',
      },
    ])
    expect(answer.body.notes).toEqual([
      {
        name: 'A.ale',
        message:
          "150,000 clips kept as the camera's list, on no volume yet (R0_0, R0_1, R0_2, R0_3, R0_4, and 149,995 more): the checks name each until a copy of it comes",
      },
    ])
    expect(answer.body.noteDetail.at(-1)).toEqual({ message: 'and 149,900 more notes like these' })
  })

  it('reads 100,000 digests in one import: 20,000 files of five, not 100,000', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    const hex = (i: number, width: number) => i.toString(16).padStart(width, '0')
    const name = (i: number) => `A001C${String(i).padStart(6, '0')}_250614_R1AB`
    // One line a file, as tools that write no indentation do: 42 MiB for 100,000 files.
    const manifestOf = (files: number) => {
      const lines = Array.from({ length: files }, (_, i) => {
        const hashes = {
          c4: `c4${hex(i, 88).replace(/0/g, 'z')}`,
          sha1: hex(i, 40),
          md5: hex(i + 1, 32),
          xxh128: hex(i, 32),
          xxh64: hex(i, 16),
        }
        const digests = Object.entries(hashes).map(([alg, value]) => `<${alg} action="original">${value}</${alg}>`)
        return `<hash><path size="${1000 + i}">Clips/${name(i)}.mov</path>${digests.join('')}</hash>`
      })
      return `<?xml version="1.0" encoding="UTF-8"?>
<hashlist version="2.0" xmlns="urn:ASC:MHL:v2.0"><creatorinfo><creationdate>2025-06-14T10:00:00Z</creationdate></creatorinfo>
<hashes>
${lines.join('\n')}
</hashes></hashlist>`
    }
    const file = '/Volumes/SHUTTLE_A/ascmhl/0001_A_2025-06-14_100000Z.mhl'
    const refused = await importInto(token, 'D001', { files: [{ name: file, content: manifestOf(100_000) }] })
    expect(refused).toMatchObject({
      status: 400,
      body: {
        error: 'Validation Error',
        details: [{ prop: 'files.0', message: `${file}: lists more than 100,000 digests, what one import reads` }],
      },
    })
    expect((await call('GET', '/log/D001', { token })).status).toBe(404)

    const answer = await importInto(token, 'D001', { files: [{ name: file, content: manifestOf(20_000) }] })
    expect(answer.status).toBe(201)
    expect(answer.body.added).toHaveLength(20_000)
    const log = await call('GET', '/log/D001', { token })
    expect(log.body.ocf.clips).toHaveLength(20_000)
    expect(log.body.ocf.clips[19_999]).toEqual({
      clip: name(19_999),
      size: 20_999,
      copies: [{ volume: 'SHUTTLE_A', hash: `xxh64:${hex(19_999, 16)}`, action: 'original' }],
    })
  })

  it('makes at most 50,000 clips in one import, and says so of the manifest that would make more', async () => {
    const { token } = await withProject()
    const entries = Array.from({ length: 50_001 }, (_, i) => ({
      path: `Clips/C${String(i).padStart(6, '0')}.mov`,
      size: 1,
      hashes: { xxh64: (i + 1).toString(16).padStart(16, '0') },
    }))
    const name = '/Volumes/SHUTTLE_A/ascmhl/0001_A_2025-06-14_100000Z.mhl'
    const files = [{ name, content: ascManifest({ created: '2025-06-14T10:00:00Z', entries }) }]
    expect(await importInto(token, 'D001', { files })).toMatchObject({
      status: 400,
      body: { details: [{ prop: 'files.0', message: `${name}: makes more than 50,000 clips, what one import takes` }] },
    })
    expect((await call('GET', '/log/D001', { token })).status).toBe(404)
  })

  it('reads a body past 8 MiB from its bytes: escapes, base64 and all, as a small one', async () => {
    const { token } = await withProject()
    const created = '2025-06-14T10:00:00Z'
    const entries = Array.from({ length: 40_000 }, (_, i) => ({
      path: `Clips/A${String(Math.floor(i / 999) + 1).padStart(3, '0')}C${String((i % 999) + 1).padStart(3, '0')}_"Café"_R1AB.mov`,
      size: 1000 + i,
      hashes: { xxh64: (i + 1).toString(16).padStart(16, '0') },
    }))
    const manifest = ascManifest({ created, entries })
    const camera = ale({ columns: ['Name', 'Camera Type'], rows: [['A001C001_"Café"_R1AB', 'A — 𝒜']] })
    const files = [
      { name: '/Volumes/SHUTTLE_A/ascmhl/0001_A_2025-06-14_100000Z.mhl', content: manifest },
      { name: 'A001.ale', content: btoa(String.fromCharCode(...new TextEncoder().encode(camera))), encoding: 'base64' },
    ]
    const raw = JSON.stringify({ files })
    expect(raw.length).toBeGreaterThan(8 * 1024 * 1024)
    const answer = await call('POST', '/log/D001/import', { token, raw })
    expect(answer.status).toBe(201)
    expect(answer.body.added).toHaveLength(40_000)
    expect(answer.body.unreadable).toEqual([])
    const log = await call('GET', '/log/D001', { token })
    expect(log.body.ocf.clips[0]).toMatchObject({
      clip: 'A001C001_"Café"_R1AB',
      size: 1000,
      copies: [{ volume: 'SHUTTLE_A', hash: 'xxh64:0000000000000001', action: 'original' }],
    })
    expect(JSON.stringify(log.body.ocf.clips[0])).toContain('A — 𝒜')
  })

  it('asks for the token before it reads the body', async () => {
    await withProject()
    const files = [{ name: 'A.ale', content: oneColumnAle(10) }]
    const token = 'mls_0123456789abcdef_' + 'x'.repeat(43)
    expect(await importInto(token, 'D001', { files })).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
    const malformed = await call('POST', '/log/D001/import', { token, raw: '{"files": [' })
    expect(malformed).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
  })

  it('matches thousands of generations to their chain in one pass', async () => {
    const { token } = await withProject()
    const folder = '/Volumes/SHUTTLE_A/D001/ascmhl'
    const files: Array<{ name: string; content: string }> = []
    const links: Array<{ generation: number; path: string; c4: string }> = []
    for (let g = 1; g <= 3000; g++) {
      const name = `${String(g).padStart(4, '0')}_A_2025-06-14_100000Z.mhl`
      const content = ascManifest({
        created: '2025-06-14T10:00:00Z',
        entries: [
          {
            path: `Clips/A001C${String(g).padStart(4, '0')}.mov`,
            size: g,
            hashes: { xxh64: g.toString(16).padStart(16, '0') },
          },
        ],
        process: g === 1 ? 'transfer' : 'in-place',
      })
      files.push({ name: `${folder}/${name}`, content })
      links.push({ generation: g, path: name, c4: await c4Of(new TextEncoder().encode(content)) })
    }
    files.push({ name: `${folder}/ascmhl_chain.xml`, content: ascChain(links) })
    const answer = await importInto(token, 'D001', { files })
    expect(answer.status).toBe(201)
    expect(answer.body.unreadable).toEqual([])
    expect(answer.body.notes).toEqual([])
    expect(answer.body.added).toHaveLength(3000)
  }, 30_000)
})

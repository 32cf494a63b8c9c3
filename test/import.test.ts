// POST /log/{id}/import: offload files (ASC MHL histories, classic MHL, ALE) merged into a day's
// log, with what was added and changed and every file that could not be read. The readers of each
// format on their own are in import-readers.node.test.ts.
import { describe, expect, it } from 'vitest'
import { c4Of } from '../src/import/read'
import { approvedToken, call, makeLog, withProject } from './helpers'
import {
  CARD,
  ale,
  ascChain,
  ascManifest,
  base64,
  cardOffload,
  classicManifest,
  framesDigest,
  utf16,
  type OffloadFile,
} from './offload-fixtures'

const asSent = (files: OffloadFile[]) =>
  files.map((f) => ({ name: f.path, content: base64(f.bytes), encoding: 'base64' }))
const importInto = (token: string, id: string, body: Record<string, unknown>) =>
  call('POST', `/log/${encodeURIComponent(id)}/import`, { token, body })

/** A copy as an import stores it: read back (verified or failed) by the card's second generation. */
const copy = (volume: string, hash: string, action: string) => ({
  volume,
  hash: `xxh64:${hash}`,
  action,
  ...(action !== 'original' && { hashdate: '2025-06-14T18:30:00+02:00', tool: 'offload 1.0' }),
})

describe('POST /log/{id}/import', () => {
  it('makes the day from two shuttles’ ASC MHL histories and an ALE, with what each copy is', async () => {
    const { token } = await withProject()
    const files = await cardOffload(c4Of)
    const imported = await importInto(token, 'D012', { files: asSent(files) })
    expect(imported.status).toBe(201)
    const clipRefs = [...CARD.clips, CARD.sequence].map((clip) => ({ part: 'ocf', clip }))
    const ascmhl = (volume: string, g: number) =>
      files.filter((f) => f.path.includes(`${volume}/`) && /\/\d{4}_/.test(f.path))[g]!.path
    expect(imported.body).toEqual({
      success: true,
      created: true,
      added: clipRefs,
      changed: [],
      files: [
        { name: files[2]!.path, format: 'ascmhl-chain' },
        { name: files[5]!.path, format: 'ascmhl-chain' },
        { name: files[6]!.path, format: 'ale', clips: 3 },
        { name: ascmhl('SHUTTLE_A', 0), format: 'ascmhl', volume: 'SHUTTLE_A', clips: 4 },
        { name: ascmhl('SHUTTLE_A', 1), format: 'ascmhl', volume: 'SHUTTLE_A', clips: 4 },
        { name: ascmhl('SHUTTLE_B', 0), format: 'ascmhl', volume: 'SHUTTLE_B', clips: 4 },
        { name: ascmhl('SHUTTLE_B', 1), format: 'ascmhl', volume: 'SHUTTLE_B', clips: 4 },
      ],
      unreadable: [],
      notes: [
        { name: ascmhl('SHUTTLE_A', 1), message: '1 file that is not media left out (a sidecar)' },
        { name: ascmhl('SHUTTLE_B', 1), message: '1 file that is not media left out (a sidecar)' },
      ],
      noteDetail: [
        { name: ascmhl('SHUTTLE_A', 1), message: '1 file that is not media left out (a sidecar)' },
        { name: ascmhl('SHUTTLE_B', 1), message: '1 file that is not media left out (a sidecar)' },
      ],
    })

    const log = (await call('GET', '/log/D012', { token })).body
    const sequenceDigest = await framesDigest(
      [1, 2, 3].map((n) => [`${CARD.sequence}.000000${n}.ari`, (0xf000 + n).toString(16).padStart(16, '0')]),
    )
    expect(log).toMatchObject({ id: 'D012', day: 12, date: '2025-06-14', version: 1 })
    // Three clips of one file each, and the sequence's three frames.
    expect(log.ocf.files).toBe(6)
    expect(log.ocf.size).toBe(CARD.size(0) + CARD.size(1) + CARD.size(2) + 3 * CARD.frameSize)
    expect(log.ocf.copies).toEqual(['SHUTTLE_A', 'SHUTTLE_B'])
    expect(log.ocf.clips).toEqual([
      ...CARD.clips.map((clip, i) => ({
        clip,
        size: CARD.size(i),
        copies: [
          copy('SHUTTLE_A', CARD.hash(i), 'verified'),
          i === 2
            ? copy('SHUTTLE_B', (0xbad).toString(16).padStart(16, '0'), 'failed')
            : copy('SHUTTLE_B', CARD.hash(i), 'verified'),
        ],
        tc_start: `14:0${i}:00:00`,
        tc_end: `14:0${i}:30:00`,
        reel: 'A002',
        ...(i !== 1 && { camera_model: 'ALEXA 35' }),
        lens: 'Signature Prime 40mm',
        fps: 25,
      })),
      {
        clip: CARD.sequence,
        size: 3 * CARD.frameSize,
        // Its frames' digest: the same on both shuttles, so the copies compare.
        copies: ['SHUTTLE_A', 'SHUTTLE_B'].map((volume) => ({
          ...copy(volume, '', 'verified'),
          hash: sequenceDigest,
          files: 3,
        })),
      },
    ])

    // The checks: the failed verification is an error; the card's ALE, the camera's list of reel
    // A002, does not name the sequence, which is on both shuttles.
    const checks = (await call('GET', '/log/D012/checks', { token })).body
    expect(checks.checks).toEqual([
      {
        kind: 'verification-failed',
        severity: 'error',
        part: 'ocf',
        clip: CARD.clips[2],
        volume: 'SHUTTLE_B',
        tool: 'offload 1.0',
        hashdate: '2025-06-14T18:30:00+02:00',
        message: `${CARD.clips[2]} on SHUTTLE_B: read back and different (offload 1.0, 2025-06-14T18:30:00+02:00): found xxh64:0000000000000bad`,
      },
      {
        kind: 'not-in-camera-list',
        severity: 'warning',
        part: 'ocf',
        clip: CARD.sequence,
        reel: 'A002',
        message: `${CARD.sequence} is on SHUTTLE_A, SHUTTLE_B but in no camera list of reel A002`,
      },
    ])

    // The same files again change nothing: nothing added, nothing changed, the log as it was.
    const again = await importInto(token, 'D012', { files: asSent(files) })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ created: false, added: [], changed: [], unreadable: [] })
    expect((await call('GET', '/log/D012', { token })).body).toEqual(log)
  })

  it('adds a later generation’s copies and names what changed', async () => {
    const { token } = await withProject()
    const files = await cardOffload(c4Of)
    const shuttleA = files.filter((f) => f.path.includes('/SHUTTLE_A/') && f.path.includes('/0001_'))
    expect((await importInto(token, 'D012', { files: asSent(shuttleA) })).status).toBe(201)
    const later = files.filter((f) => f.path.includes('/SHUTTLE_B/') || f.path.includes('/0002_'))
    const merged = await importInto(token, 'D012', { files: asSent(later) })
    expect(merged.status).toBe(200)
    expect(merged.body.added).toEqual([])
    expect(merged.body.changed).toEqual(
      [...CARD.clips, CARD.sequence].map((clip) => ({ part: 'ocf', clip, fields: ['copies'] })),
    )
    const log = (await call('GET', '/log/D012', { token })).body
    expect(log.ocf.clips[0].copies).toEqual([
      copy('SHUTTLE_A', CARD.hash(0), 'verified'),
      copy('SHUTTLE_B', CARD.hash(0), 'verified'),
    ])
  })

  it('reads classic MHL in UTF-16 with the volume from its paths, and matches NFD names to an ALE', async () => {
    const { token } = await withProject()
    const nfd = 'Cafe\u0301_A001'
    const mhl = classicManifest({
      started: '2025-06-15T09:00:00Z',
      entries: [
        { file: `/Volumes/RAID_01/D013/${nfd}.mov`, size: 900, hashes: { xxhash64be: '12'.repeat(8) } },
        { file: '/Volumes/RAID_01/D013/Sound/S001_T01.WAV', size: 300, hashes: { md5: '34'.repeat(16) } },
      ],
      encoding: 'UTF-16',
    })
    const aleText = ale({ columns: ['Name', 'Tape', 'Lens'], rows: [['Caf\u00e9_A001', 'A001', '']] })
    const answer = await importInto(token, 'Day 13', {
      files: [
        { name: 'D013.mhl', content: base64(utf16(mhl)), encoding: 'base64' },
        { name: 'D013.ale', content: aleText },
      ],
    })
    expect(answer.status).toBe(201)
    const log = (await call('GET', '/log/Day%2013', { token })).body
    expect(log).toMatchObject({ day: 13, date: '2025-06-15' })
    // Stored composed (NFC), as the checks compare names: the same clip whichever way a drive wrote it.
    expect(log.ocf.clips).toEqual([
      {
        clip: 'Caf\u00e9_A001',
        size: 900,
        copies: [{ volume: 'RAID_01', hash: `xxhash64be:${'12'.repeat(8)}` }],
        reel: 'A001',
        fps: 25,
      },
    ])
    expect(log.sound.clips).toEqual([
      { clip: 'S001_T01', size: 300, copies: [{ volume: 'RAID_01', hash: `md5:${'34'.repeat(16)}` }] },
    ])
  })

  it('leaves out a generation whose C4 is not the chain’s, and imports the rest', async () => {
    const { token } = await withProject()
    const files = await cardOffload(c4Of)
    const tampered = files.map((f) =>
      f.path.includes('/SHUTTLE_B/') && f.path.includes('/0002_')
        ? { ...f, bytes: new TextEncoder().encode(new TextDecoder().decode(f.bytes).replace('failed', 'verified')) }
        : f,
    )
    const answer = await importInto(token, 'D012', { files: asSent(tampered) })
    expect(answer.status).toBe(201)
    const name = tampered.find((f) => f.path.includes('/SHUTTLE_B/') && f.path.includes('/0002_'))!.path
    expect(answer.body.unreadable).toEqual([
      {
        name,
        reason: expect.stringMatching(
          /^its C4 \(c4\w{88}\) is not the one ascmhl_chain\.xml recorded for generation 2: the manifest changed after it was written$/,
        ),
      },
    ])
    // Generation 1 of SHUTTLE_B still counts: its copies are there, as `original`, in doubt since
    // what generation 2 recorded (here: a failure) is not known.
    const doubt = `the chain lists generation 2 (${name.split('/').pop()}), which was not read: what it recorded is not known`
    expect(answer.body.notes).toContainEqual({ name: expect.stringContaining('/SHUTTLE_B/'), message: doubt })
    const log = (await call('GET', '/log/D012', { token })).body
    expect(log.ocf.clips[2].copies[1]).toEqual({ ...copy('SHUTTLE_B', CARD.hash(2), 'original'), doubt })
  })

  it('merges into a log an application wrote, keeping its fields and adding the copies', async () => {
    const { token } = await withProject()
    const written = makeLog('D001', 1)
    await call('POST', '/log', { token, body: written })
    const clip = written.ocf.clips[0]!.clip
    const mhl = classicManifest({
      started: '2024-01-01T20:00:00Z',
      entries: [
        { file: `${clip.toLowerCase()}.MXF`, size: written.ocf.clips[0]!.size, hashes: { xxhash64be: '0a'.repeat(8) } },
      ],
    })
    const answer = await importInto(token, 'D001', {
      files: [{ name: 'SHUTTLE.mhl', content: mhl }],
      volume: 'SHUTTLE_C',
    })
    expect(answer.status).toBe(200)
    // Named as the log names it, though the drive wrote it in lower case.
    expect(answer.body.changed).toEqual([{ part: 'ocf', clip, fields: ['copies'] }])
    const log = (await call('GET', '/log/D001', { token })).body
    expect(log.ocf.clips[0]).toEqual({
      ...written.ocf.clips[0],
      copies: [...written.ocf.clips[0]!.copies, { volume: 'SHUTTLE_C', hash: `xxhash64be:${'0a'.repeat(8)}` }],
    })
    expect(log.ocf.copies).toEqual(['SSD_01', 'RAID_A', 'SHUTTLE_C'])
  })

  it('answers 409 No Project Loaded with no project, as POST /log does, into a named log or a dated day', async () => {
    const token = await approvedToken()
    const body = { files: asSent(await cardOffload(c4Of)) }
    expect(await importInto(token, 'D020', body)).toMatchObject({ status: 409, body: { error: 'No Project Loaded' } })
    expect(await call('POST', '/import', { token, body })).toMatchObject({
      status: 409,
      body: { error: 'No Project Loaded' },
    })
    expect((await call('GET', '/logs', { token })).body).toEqual({ logs: [] })
  })

  it('refuses an import none of whose files can be read, and leaves the store unchanged', async () => {
    const { token } = await withProject()
    const answer = await importInto(token, 'D020', {
      files: [
        { name: 'notes.txt', content: 'hello' },
        { name: 'broken.mhl', content: '<hashlist version="2.0"><hashes>' },
      ],
      volume: 'SSD',
    })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({
      error: 'Validation Error',
      details: [
        { prop: 'files.0', message: 'notes.txt: not an MHL, ascmhl_chain.xml or ALE file' },
        { prop: 'files.1', message: 'broken.mhl: not well-formed XML (line 1, column 32: unclosed tag: hashes)' },
      ],
    })
    expect((await call('GET', '/log/D020', { token })).status).toBe(404)
  })

  it('reads base64 content with its padding or without it, as it always has', async () => {
    const { token } = await withProject()
    const clipsOf = async (day: string, started: string, padding: boolean) => {
      const mhl = classicManifest({
        started,
        entries: [{ file: `/Volumes/RAID_01/${day}/A001C001.mov`, size: 1, hashes: { md5: 'ab'.repeat(16) } }],
      })
      // A length a third of which leaves one byte over: its base64 ends in `==`.
      const bytes = new TextEncoder().encode(mhl + '\n'.repeat((3 - ((mhl.length + 2) % 3)) % 3))
      const content = base64(bytes)
      expect(content.endsWith('==')).toBe(true)
      const answer = await importInto(token, day, {
        files: [{ name: `${day}.mhl`, content: padding ? content : content.slice(0, -2), encoding: 'base64' }],
      })
      expect(answer.status).toBe(201)
      return (await call('GET', `/log/${day}`, { token })).body.ocf.clips
    }
    const unpadded = await clipsOf('D014', '2025-06-16T09:00:00Z', false)
    expect(unpadded).toHaveLength(1)
    expect(unpadded).toEqual(await clipsOf('D015', '2025-06-17T09:00:00Z', true))
  })

  it('leaves out any white space between base64 characters, and takes padding only at the end', async () => {
    const { token } = await withProject()
    const mhl = classicManifest({
      started: '2025-06-16T09:00:00Z',
      entries: [{ file: '/Volumes/RAID_01/D016/A001C001.mov', size: 1, hashes: { md5: 'ab'.repeat(16) } }],
    })
    const content = base64(new TextEncoder().encode(mhl))
    // Cut every 60 characters by form feeds, tabs, no-break spaces and line separators.
    const spaced = content.replace(/.{60}/g, (line, at: number) => line + ['\f', '\t', '\u00a0', '\u2028'][at % 4])
    const taken = await importInto(token, 'D016', {
      files: [{ name: 'D016.mhl', content: spaced, encoding: 'base64' }],
    })
    expect(taken.status).toBe(201)
    expect(taken.body.added).toEqual([{ part: 'ocf', clip: 'A001C001' }])
    const padded = await importInto(token, 'D017', {
      files: [{ name: 'D017.mhl', content: 'QQ==' + content, encoding: 'base64' }],
    })
    expect(padded).toMatchObject({
      status: 400,
      body: { details: [{ prop: 'files.0.content', message: 'must be base64, as its encoding says' }] },
    })
  })

  it('answers a body’s mistakes with 400 and every failing property', async () => {
    const { token } = await withProject()
    const bad = await importInto(token, 'D001', {
      files: [{ name: '', content: 1 }],
      kind: 'video',
      day: 0,
    })
    expect(bad.status).toBe(400)
    expect(bad.body.details).toEqual([
      { prop: 'files.0.name', message: 'must be 1 to 4096 characters' },
      { prop: 'files.0.content', message: 'must be a string' },
      { prop: 'kind', message: 'must be "ocf" or "sound"' },
      { prop: 'day', message: 'must be a whole number from 1 to 999' },
    ])
    const notBase64 = await importInto(token, 'D001', {
      files: [{ name: 'a.mhl', content: '%%%', encoding: 'base64' }],
    })
    expect(notBase64.status).toBe(400)
    expect(notBase64.body.details).toEqual([
      { prop: 'files.0.content', message: 'must be base64, as its encoding says' },
    ])
    const mhl = classicManifest({
      started: '',
      entries: [{ file: 'A.mov', size: 1, hashes: { md5: 'ab'.repeat(16) } }],
    })
    const undated = await importInto(token, 'Offload', { files: [{ name: 'a.mhl', content: mhl }], volume: 'SSD' })
    expect(undated.status).toBe(400)
    expect(undated.body.details).toEqual([
      { prop: 'day', message: 'is required: the log Offload does not exist and its id names no day number' },
      { prop: 'date', message: 'is required: the log Offload does not exist and no manifest is dated' },
    ])
    expect((await call('GET', '/logs', { token })).body).toEqual({ logs: [] })
    const noToken = await call('POST', '/log/D001/import', { body: { files: [] } })
    expect(noToken.status).toBe(401)
  })
})

describe('what the files do not agree on', () => {
  it('keeps two files whose names differ only in how they are composed (NFC, NFD) apart, and names them', async () => {
    const { token } = await withProject()
    const nfc = 'Café_A001C001.mov'.normalize('NFC')
    const nfd = nfc.normalize('NFD')
    const content = ascManifest({
      created: '2026-11-28T09:00:00Z',
      entries: [
        { path: `Clips/${nfc}`, size: 1000, hashes: { xxh64: '00000000000000a1' } },
        { path: `Clips/${nfd}`, size: 2000, hashes: { xxh64: '00000000000000b2' } },
      ],
    })
    const answer = await call('POST', '/log/D030/import', {
      token,
      body: {
        files: [{ name: 'SHUTTLE/ascmhl/0001_SHUTTLE_2026-11-28_090000Z.mhl', content, volume: 'SHUTTLE' }],
        day: 30,
      },
    })
    expect(answer.status).toBe(201)
    // One clip by name, both files named: neither size nor hash is silently lost.
    const { checks } = (await call('GET', '/log/D030/checks', { token })).body
    expect(checks).toEqual([
      expect.objectContaining({
        kind: 'name-collision',
        volume: 'SHUTTLE',
        message: `${nfc.slice(0, -4)} is 2 different files on SHUTTLE: SHUTTLE/Clips/${nfc} (1000 bytes), SHUTTLE/Clips/${nfd} (2000 bytes)`,
      }),
    ])
  })

  it('keeps two rows of a transfer report whose names differ only in how they are composed apart', async () => {
    const { token } = await withProject()
    const nfc = 'Café_A001C002.mov'.normalize('NFC')
    const csv = [
      'Volume,Path,Size,MD5',
      `SHUTTLE,/x/${nfc},10,${'a'.repeat(32)}`,
      `SHUTTLE,/x/${nfc.normalize('NFD')},20,${'b'.repeat(32)}`,
    ].join('\n')
    expect(
      (
        await call('POST', '/log/D031/import', {
          token,
          body: { files: [{ name: 'r.csv', content: csv }], day: 31, date: '2026-11-28' },
        })
      ).status,
    ).toBe(201)
    const { summary } = (await call('GET', '/log/D031/checks', { token })).body
    expect(summary.kinds).toEqual({ 'name-collision': 1 })
  })

  const created = '2025-06-14T10:00:00Z'
  const entry = (
    path: string,
    size: number,
    hash: string,
    action: 'original' | 'verified' | 'failed' = 'original',
  ) => ({
    path,
    size,
    hashes: { xxh64: hash },
    action,
  })
  const h = (n: number) => n.toString(16).padStart(16, '0')

  it('names files of one volume that are one clip by name, in the answer and the checks', async () => {
    const { token } = await withProject()
    const manifest = ascManifest({
      created,
      entries: [
        entry('Clips/A001C001.mov', 1000, h(1)),
        entry('Other/a001c001.MOV', 2000, h(2)),
        entry('Clips/A001C002.mov', 3000, h(3)),
        entry('Backup/A001C002.mov', 3000, h(3)),
      ],
    })
    const answer = await importInto(token, 'D001', {
      files: [{ name: '/Volumes/SHUTTLE_A/ascmhl/0001_A_2025-06-14_100000Z.mhl', content: manifest }],
    })
    expect(answer.status).toBe(201)
    expect(answer.body.added).toEqual([
      { part: 'ocf', clip: 'A001C001' },
      { part: 'ocf', clip: 'A001C002' },
    ])
    expect(answer.body.notes).toEqual([
      {
        message:
          'A001C001 is 2 files on SHUTTLE_A: /Volumes/SHUTTLE_A/Clips/A001C001.mov, /Volumes/SHUTTLE_A/Other/a001c001.MOV',
      },
      {
        message:
          'A001C002 is 2 files on SHUTTLE_A: /Volumes/SHUTTLE_A/Clips/A001C002.mov, /Volumes/SHUTTLE_A/Backup/A001C002.mov',
      },
    ])
    const checks = await call('GET', '/log/D001/checks', { token })
    expect(checks.body.checks.map((f: { kind: string; message: string }) => [f.kind, f.message])).toEqual([
      [
        'name-collision',
        'A001C001 is 2 different files on SHUTTLE_A: /Volumes/SHUTTLE_A/Clips/A001C001.mov (1000 bytes), /Volumes/SHUTTLE_A/Other/a001c001.MOV (2000 bytes)',
      ],
      [
        'copy-repeated',
        'A001C002 is on SHUTTLE_A 2 times: /Volumes/SHUTTLE_A/Clips/A001C002.mov, /Volumes/SHUTTLE_A/Backup/A001C002.mov',
      ],
    ])
  })

  it('keeps a failure when the chain’s generation numbers are not the files’ own, and says so', async () => {
    const { token } = await withProject()
    const folder = '/Volumes/SHUTTLE_A/ascmhl'
    const names = ['0001_A_2025-06-14_100000Z.mhl', '0002_A_2025-06-14_180000Z.mhl']
    const contents = [
      ascManifest({ created, entries: [entry('Clips/A001C001.mov', 1000, h(1))] }),
      ascManifest({ created, entries: [entry('Clips/A001C001.mov', 1000, h(9), 'failed')], process: 'in-place' }),
    ]
    const c4s = await Promise.all(contents.map((c) => c4Of(new TextEncoder().encode(c))))
    // The chain numbers the failing generation 1, which would let generation 0001's `original` stand.
    const chain = ascChain([
      { generation: 2, path: names[0]!, c4: c4s[0]! },
      { generation: 1, path: names[1]!, c4: c4s[1]! },
    ])
    const files = [
      ...names.map((name, i) => ({ name: `${folder}/${name}`, content: contents[i]! })),
      { name: `${folder}/ascmhl_chain.xml`, content: chain },
    ]
    const answer = await importInto(token, 'D001', { files })
    expect(answer.status).toBe(201)
    const doubt = `the chain records ${names[0]} as generation 2, ${names[1]} as generation 1: which generation came last is not known`
    expect(answer.body.notes).toEqual([{ name: `${folder}/${names[0]}`, message: doubt }])
    const log = (await call('GET', '/log/D001', { token })).body
    expect(log.ocf.clips[0].copies).toEqual([
      {
        volume: 'SHUTTLE_A',
        hash: `xxh64:${h(1)}`,
        action: 'failed',
        hashdate: '2025-06-14T10:00:00Z',
        tool: 'offload 1.0',
        doubt,
      },
    ])
    const kinds = (await call('GET', '/log/D001/checks', { token })).body.checks.map((f: { kind: string }) => f.kind)
    expect(kinds).toEqual(['verification-failed', 'copy-in-doubt'])
  })

  it('leaves out a digest that is not of its algorithm’s form, and says so', async () => {
    const { token } = await withProject()
    const manifest = ascManifest({
      created,
      entries: [
        { path: 'Clips/A001C001.mov', size: 1000, hashes: { md5: 'n/a', xxh64: h(1) }, action: 'original' },
        { path: 'Clips/A001C002.mov', size: 1000, hashes: { md5: 'n/a' }, action: 'original' },
      ],
    })
    const name = '/Volumes/SHUTTLE_A/ascmhl/0001_A_2025-06-14_100000Z.mhl'
    const answer = await importInto(token, 'D001', { files: [{ name, content: manifest }] })
    expect(answer.status).toBe(201)
    expect(answer.body.notes).toEqual([
      { name, message: '2 digests not of their algorithm’s form (the first: md5 "n/a") left out' },
    ])
    const clips = (await call('GET', '/log/D001', { token })).body.ocf.clips
    expect(clips.map((c: { copies: unknown[] }) => c.copies)).toEqual([
      [{ volume: 'SHUTTLE_A', hash: `xxh64:${h(1)}`, action: 'original' }],
      // Its only digest was left out, and with it what the generation did (`original`).
      [{ volume: 'SHUTTLE_A', hash: null }],
    ])
  })

  it('keeps when and by what tool a copy was hashed again, a date only as a date and a name only so long', async () => {
    const { token } = await withProject()
    const tool = 'v'.repeat(5000)
    const manifest = ascManifest({
      created: 'yesterday evening',
      entries: [{ path: 'Clips/A001C001.mov', size: 1000, hashes: { xxh64: h(1) }, action: 'verified' }],
    }).replace('<tool version="1.0">offload</tool>', `<tool>${tool}</tool>`)
    const name = '/Volumes/SHUTTLE_A/ascmhl/0002_A_2025-06-14_180000Z.mhl'
    expect((await importInto(token, 'D001', { files: [{ name, content: manifest }], date: '2025-06-14' })).status).toBe(
      201,
    )
    const verified = (await call('GET', '/log/D001', { token })).body.ocf.clips[0].copies
    // Neither the hash's `hashdate` nor the generation's `creationdate` is a date: none is kept.
    expect(verified).toEqual([
      { volume: 'SHUTTLE_A', hash: `xxh64:${h(1)}`, action: 'verified', tool: 'v'.repeat(100) },
    ])

    const failed = ascManifest({
      created: '2025-06-15T08:00:00+02:00',
      entries: [{ path: 'Clips/A001C001.mov', size: 1000, hashes: { xxh64: h(2) }, action: 'failed' }],
    })
    const later = '/Volumes/SHUTTLE_A/ascmhl/0003_A_2025-06-15_060000Z.mhl'
    expect((await importInto(token, 'D001', { files: [{ name: later, content: failed }] })).status).toBe(200)
    expect((await call('GET', '/log/D001', { token })).body.ocf.clips[0].copies).toEqual([
      {
        volume: 'SHUTTLE_A',
        hash: `xxh64:${h(2)}`,
        action: 'failed',
        hashdate: '2025-06-15T08:00:00+02:00',
        tool: 'offload 1.0',
        // The checksum it was copied with, beside the digest found.
        original: `xxh64:${h(1)}`,
      },
    ])
  })

  it('says a generation the chain lists and no file brought, and holds the copies in doubt', async () => {
    const { token } = await withProject()
    const folder = '/Volumes/SHUTTLE_A/ascmhl'
    const content = ascManifest({ created, entries: [entry('Clips/A001C001.mov', 1000, h(1))] })
    const chain = ascChain([
      { generation: 1, path: '0001_A_2025-06-14_100000Z.mhl', c4: await c4Of(new TextEncoder().encode(content)) },
      { generation: 2, path: '0002_A_2025-06-14_180000Z.mhl', c4: `c4${'1'.repeat(88)}` },
    ])
    const answer = await importInto(token, 'D001', {
      files: [
        { name: `${folder}/0001_A_2025-06-14_100000Z.mhl`, content },
        { name: `${folder}/ascmhl_chain.xml`, content: chain },
      ],
    })
    expect(answer.status).toBe(201)
    const doubt =
      'the chain lists generation 2 (0002_A_2025-06-14_180000Z.mhl), which was not read: what it recorded is not known'
    expect(answer.body.notes).toEqual([{ name: `${folder}/0001_A_2025-06-14_100000Z.mhl`, message: doubt }])
    const checks = (await call('GET', '/log/D001/checks', { token })).body
    expect(checks.summary.kinds).toEqual({ 'copy-in-doubt': 1 })
  })
})

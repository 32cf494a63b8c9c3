// POST /log/{id}/import of what DITs hand over besides MHL: the camera's own clip list (an ALE
// imported before or after the copies, kept in `ocf.recorded` and checked against the volumes),
// sequences named as editors and offload tools name them, hash-bearing ALE and CSV transfer
// reports read as copies, and files that are none of these named for what they look like.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clipKeys, sequenceOf } from '../src/shared/clip-names'
import { c4Of, readImport } from '../src/import/read'
import { call, utf8, withProject } from './helpers'
import {
  CARD,
  ale,
  base64,
  cardOffload,
  hashAle,
  reportedAsMhl,
  reportedCard,
  silverstackCsv,
  type OffloadFile,
} from './offload-fixtures'

const HEX = (n: number, width = 16) => n.toString(16).padStart(width, '0')

const asSent = (files: OffloadFile[]) =>
  files.map((f) => ({ name: f.path, content: base64(f.bytes), encoding: 'base64' }))
const importInto = (token: string, id: string, body: Record<string, unknown>) =>
  call('POST', `/log/${encodeURIComponent(id)}/import`, { token, body })

/** The camera's ALE of the card: its three clips, the sequence as Resolve names it, and a fifth clip. */
const UNCOPIED = 'A002C005_250614_R1AB'
const cameraAle = (sequenceName = `${CARD.sequence}.[0000001-0000003].ari`) =>
  ale({
    columns: ['Name', 'Start', 'End', 'Tape', 'Camera_Model', 'Lens_Type'],
    rows: [...CARD.clips, sequenceName, UNCOPIED].map((name, i) => [
      name,
      `14:0${i}:00:00`,
      `14:0${i}:30:00`,
      'A002',
      'ALEXA 35',
      `Signature Prime ${40 + i}mm`,
    ]),
  })

const copies = async () => (await cardOffload(c4Of)).filter((f) => !f.path.endsWith('.ale'))

describe('sequence names', () => {
  it('finds the sequence clip NAME by its range, a frame and the bare name', () => {
    const name = 'B001C001_220507_R6VL'
    for (const form of [`${name}.[0059556-0059713].arx`, `${name}.0059556.arx`, `${name}_0059556.arx`])
      expect([form, sequenceOf(form), clipKeys(form).at(-1)]).toEqual([form, name, name.toUpperCase()])
    expect(clipKeys(name)).toEqual([name.toUpperCase()])
    // A clip whose name ends in digits, with a movie's extension, is no frame of a sequence.
    expect(sequenceOf('A001C001_001.mov')).toBeUndefined()
    expect(clipKeys('A001C001.mov')).toEqual(['A001C001'])
  })
})

describe('the camera’s clip list', () => {
  it('gives the same log and checks whether its ALE comes before the copies or after', async () => {
    const { token } = await withProject()
    const list = { name: '/Volumes/SHUTTLE_A/D012/A002.ale', content: cameraAle() }

    const first = await importInto(token, 'D012', { files: [list], date: '2025-06-14' })
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({ created: true, added: [], changed: [], unreadable: [] })
    const held = (await call('GET', '/log/D012', { token })).body
    // Nothing on a volume yet: no clip in the clip list, every clip the camera recorded held apart.
    expect(held.ocf).toEqual({
      recorded: [...CARD.clips, CARD.sequence, UNCOPIED].map((clip, i) => ({
        clip,
        list: 'A002.ale',
        reel: 'A002',
        metadata: {
          tc_start: `14:0${i}:00:00`,
          tc_end: `14:0${i}:30:00`,
          reel: 'A002',
          camera_model: 'ALEXA 35',
          lens: `Signature Prime ${40 + i}mm`,
          fps: 25,
        },
      })),
    })
    const before = await importInto(token, 'D012', { files: asSent(await copies()) })
    expect(before.status).toBe(200)

    // The same day under another id, the copies first.
    expect((await importInto(token, 'D12', { files: asSent(await copies()) })).status).toBe(201)
    const after = await importInto(token, 'D12', { files: [list] })
    expect(after.status).toBe(200)

    const logBefore = (await call('GET', '/log/D012', { token })).body
    const logAfter = (await call('GET', '/log/D12', { token })).body
    expect({ ...logAfter, id: 'D012' }).toEqual(logBefore)
    // The sequence, named by its frames' range in the ALE, has the ALE's metadata.
    expect(logAfter.ocf.clips[3]).toMatchObject({ clip: CARD.sequence, lens: 'Signature Prime 43mm', reel: 'A002' })
    // What was copied keeps only what finds it; the clip on no volume keeps its metadata.
    expect(logAfter.ocf.recorded[0]).toEqual({ clip: CARD.clips[0], list: 'A002.ale', reel: 'A002' })
    expect(logAfter.ocf.recorded[4]).toMatchObject({ clip: UNCOPIED, metadata: { lens: 'Signature Prime 44mm' } })

    const checksBefore = (await call('GET', '/log/D012/checks', { token })).body
    const checksAfter = (await call('GET', '/log/D12/checks', { token })).body
    expect(checksAfter).toEqual(checksBefore)
    expect(checksAfter.checks).toContainEqual({
      kind: 'recorded-not-copied',
      severity: 'error',
      part: 'ocf',
      clip: UNCOPIED,
      reel: 'A002',
      message: `${UNCOPIED} was recorded (camera list in A002.ale) but is on no volume`,
    })
    expect(checksAfter.checks.filter((f: { kind: string }) => f.kind === 'not-in-camera-list')).toEqual([])

    // The same list again changes nothing.
    const again = await importInto(token, 'D12', { files: [list] })
    expect(again.body).toMatchObject({ added: [], changed: [] })
    expect((await call('GET', '/log/D12', { token })).body).toEqual(logAfter)
  })

  it('checks a camera list a client wrote by hand, whatever its entries hold', async () => {
    const { token } = await withProject()
    const log = {
      id: 'D001',
      day: 1,
      date: '2025-06-14',
      ocf: {
        clips: [{ clip: 'A001C001', size: 10, copies: [{ volume: 'SSD', hash: null }] }],
        recorded: [null, 5, 'A001C001', { clip: 3 }, { clip: '' }, { clip: 'A001C002', reel: 7 }, { clip: 'A001C001' }],
      },
    }
    expect((await call('POST', '/log', { token, body: log })).status).toBe(201)
    const checks = await call('GET', '/log/D001/checks', { token })
    expect(checks.status).toBe(200)
    expect(checks.body.checks.filter((f: { kind: string }) => f.kind !== 'not-verified')).toEqual([
      {
        kind: 'recorded-not-copied',
        severity: 'error',
        part: 'ocf',
        clip: 'A001C002',
        reel: 'A001',
        message: 'A001C002 was recorded (camera list) but is on no volume',
      },
    ])
  })

  it.each([
    ['its frames’ range', `${CARD.sequence}.[0000001-0000003].ari`],
    ['its first frame', `${CARD.sequence}.0000001.ari`],
    ['its first frame after _', `${CARD.sequence}_0000001.ari`],
    ['the bare name', CARD.sequence],
  ])('gives a sequence named by %s the ALE’s metadata', async (_, name) => {
    const { token } = await withProject()
    expect((await importInto(token, 'D012', { files: asSent(await copies()) })).status).toBe(201)
    const answer = await importInto(token, 'D012', { files: [{ name: 'A002.ale', content: cameraAle(name) }] })
    expect(answer.status).toBe(200)
    expect(answer.body.changed).toContainEqual({
      part: 'ocf',
      clip: CARD.sequence,
      fields: ['tc_start', 'tc_end', 'reel', 'camera_model', 'lens', 'fps'],
    })
    const log = (await call('GET', '/log/D012', { token })).body
    expect(log.ocf.clips[3]).toMatchObject({ clip: CARD.sequence, lens: 'Signature Prime 43mm' })
  })

  it('warns of a clip on a volume that its reel’s camera list does not name, and only then', async () => {
    const { token } = await withProject()
    expect((await importInto(token, 'D012', { files: asSent(await copies()) })).status).toBe(201)
    const checksOf = async () =>
      ((await call('GET', '/log/D012/checks', { token })).body.checks as Array<{ kind: string }>).filter(
        (f) => f.kind === 'not-in-camera-list' || f.kind === 'recorded-not-copied',
      )
    // No list of the reel: nothing to hold the clips to.
    const otherReel = ale({ columns: ['Name', 'Tape'], rows: [['B001C001_250614_R2CD', 'B001']] })
    await importInto(token, 'D012', { files: [{ name: 'B001.ale', content: otherReel }] })
    expect(await checksOf()).toEqual([
      {
        kind: 'recorded-not-copied',
        severity: 'error',
        part: 'ocf',
        clip: 'B001C001_250614_R2CD',
        reel: 'B001',
        message: 'B001C001_250614_R2CD was recorded (camera list in B001.ale) but is on no volume',
      },
    ])
    const partial = ale({ columns: ['Name', 'Tape'], rows: CARD.clips.map((clip) => [clip, 'A002R1AB']) })
    await importInto(token, 'D012', { files: [{ name: 'A002.ale', content: partial }] })
    expect(await checksOf()).toContainEqual({
      kind: 'not-in-camera-list',
      severity: 'warning',
      part: 'ocf',
      clip: CARD.sequence,
      reel: 'A002',
      message: `${CARD.sequence} is on SHUTTLE_A, SHUTTLE_B but in no camera list of reel A002`,
    })
  })
})

describe('transfer reports', () => {
  /** What the log takes of a read clip: its name, size, volume's copy and every labelled digest. */
  const shapeOf = (day: Awaited<ReturnType<typeof readImport>>['day']) =>
    day.clips.map(({ part, clip, path, size, copy, hashes }) => {
      const { action: _, ...rest } = copy
      return { part, clip, path, size, copy: rest, hashes }
    })

  it('reads a YoYotta hash ALE and a Silverstack CSV as the copies an equivalent MHL makes', async () => {
    const files = reportedCard()
    const mhl = await readImport([
      { name: '/Volumes/SHUTTLE_A/D012/ascmhl/0001_D012_2025-06-14_081500Z.mhl', bytes: utf8(reportedAsMhl(files)) },
    ])
    const ale = await readImport([{ name: '/Users/dit/Reports/D012_transfer.ale', bytes: utf8(hashAle(files)) }])
    const csv = await readImport([{ name: '/Users/dit/Reports/D012.csv', bytes: silverstackCsv(files) }])
    expect(mhl.unreadable).toEqual([])
    // The MHL's copies carry its generation's `action`; a report records none.
    expect(mhl.day.clips.every((c) => c.copy.action === 'original')).toBe(true)
    const expected = shapeOf(mhl.day)
    expect(expected.map((c) => c.clip)).toEqual([...CARD.clips, CARD.sequence])
    expect(expected[0]!.hashes).toEqual([`xxh64:${CARD.hash(0)}`, `md5:${HEX(0xd000, 32)}`])
    for (const report of [ale, csv]) {
      expect(report.unreadable).toEqual([])
      expect(report.notes.list()).toEqual([])
      expect(shapeOf(report.day)).toEqual(expected)
    }
    expect(ale.files).toEqual([
      { name: '/Users/dit/Reports/D012_transfer.ale', format: 'ale-transfer', volume: 'SHUTTLE_A', clips: 4 },
    ])
    expect(csv.files).toEqual([
      { name: '/Users/dit/Reports/D012.csv', format: 'csv-transfer', volume: 'SHUTTLE_A', clips: 4 },
    ])
  })

  it('makes the same log from a hash ALE as from the MHL, with the ALE’s camera metadata', async () => {
    const { token } = await withProject()
    const files = reportedCard()
    const viaMhl = await importInto(token, 'D012', {
      files: [
        { name: '/Volumes/SHUTTLE_A/D012/ascmhl/0001_D012_2025-06-14_081500Z.mhl', content: reportedAsMhl(files) },
      ],
    })
    expect(viaMhl.status).toBe(201)
    const viaAle = await importInto(token, 'D12', {
      files: [{ name: 'D012_transfer.ale', content: hashAle(files) }],
      date: '2025-06-14',
    })
    expect(viaAle.status).toBe(201)
    expect(viaAle.body.added).toEqual(viaMhl.body.added)
    const [a, b] = await Promise.all(
      ['D012', 'D12'].map(async (id) => (await call('GET', `/log/${id}`, { token })).body),
    )
    const withoutAction = (clips: Array<{ copies: Array<Record<string, unknown>> }>) =>
      clips.map((c) => ({ ...c, copies: c.copies.map(({ action: _, ...copy }) => copy) }))
    expect(withoutAction(b.ocf.clips)).toEqual(
      withoutAction(a.ocf.clips).map((c) => ({ ...c, camera_model: 'ALEXA 35', fps: 25 })),
    )
    expect({ ...b.ocf, clips: [] }).toEqual({ ...a.ocf, clips: [] })
    // A transfer log is no camera list: nothing is held as recorded.
    expect(b.ocf.recorded).toBeUndefined()
  })

  it('labels each hash column by its algorithm, and a little-endian xxHash column as such', async () => {
    const files = reportedCard().slice(0, 1)
    const le = HEX(0x1234).match(/../g)!.reverse().join('')
    const csv = [
      'File Name,Destination,File Size,SHA-1,xxHash64 LE,MD5 Checksum',
      `${files[0]!.path.split('/').pop()},SHUTTLE_A,${files[0]!.size},${'ab'.repeat(20)},${le},${'CD'.repeat(16)}`,
    ].join('\n')
    const read = await readImport([{ name: 'report.csv', bytes: utf8(csv) }])
    expect(read.day.clips[0]!.hashes).toEqual([`xxhash64:${le}`, `md5:${'cd'.repeat(16)}`, `sha1:${'ab'.repeat(20)}`])
  })

  it('names a digest not of its algorithm’s form, and rows that name no volume, in notes', async () => {
    const csv = ['File Name,File Size,MD5', 'A001C001.mov,100,n/a', 'A001C002.mov,100,' + '0'.repeat(32)].join('\n')
    const read = await readImport([{ name: '/Users/dit/report.csv', bytes: utf8(csv) }], { volume: 'RAID' })
    expect(read.notes.list()).toEqual([
      {
        name: '/Users/dit/report.csv',
        message: 'a digest not of the algorithm’s form left out (the first: MD5 "n/a")',
      },
    ])
    expect(read.day.clips.map((c) => c.copy)).toEqual([
      { volume: 'RAID', hash: null },
      { volume: 'RAID', hash: `md5:${'0'.repeat(32)}` },
    ])
    const none = await readImport([{ name: 'report.csv', bytes: utf8(csv) }])
    expect(none.unreadable).toEqual([
      {
        name: 'report.csv',
        reason: 'names no volume (no Destination column, no /Volumes/NAME in its paths): give the volume',
      },
    ])
  })

  it('marks a copy verified where the source’s digest and the copy’s agree, failed where not', async () => {
    const csv = [
      'File Name\tDestination\tSize\tSource xxHash\tDestination xxHash',
      `A001C001.mov\tRAID\t100\t${HEX(1, 16)}\t${HEX(1, 16)}`,
      `A001C002.mov\tRAID\t100\t${HEX(2, 16)}\t${HEX(0xbad, 16)}`,
    ].join('\n')
    const read = await readImport([{ name: 'verify.csv', bytes: utf8(csv) }])
    expect(read.day.clips.map((c) => c.copy)).toEqual([
      { volume: 'RAID', hash: `xxh64:${HEX(1, 16)}`, action: 'verified' },
      { volume: 'RAID', hash: `xxh64:${HEX(0xbad, 16)}`, action: 'failed' },
    ])
  })

  it('reads an ALE with a hash column but no volume as a camera list, as it was read before', async () => {
    const text = ale({ columns: ['Name', 'Tape', 'MD5'], rows: [[CARD.clips[0]!, 'A002', HEX(7, 32)]] })
    const read = await readImport([{ name: 'A002.ale', bytes: utf8(text) }])
    expect(read.unreadable).toEqual([])
    expect(read.files).toEqual([{ name: 'A002.ale', format: 'ale', clips: 1 }])
    expect(read.notes.list()).toEqual([
      { name: 'A002.ale', message: 'its hash columns name no volume: read as a camera list' },
    ])
    expect(read.day.metadata).toEqual([
      { file: 'A002.ale', rows: [{ line: 11, names: [CARD.clips[0]], fields: { reel: 'A002', fps: 25 } }] },
    ])
  })

  it('reads no more rows than the import has left, across ALEs and CSVs', async () => {
    const rows = Array.from({ length: 199_999 }, (_, i) => [`X${i}`])
    const csv = ['File Name,Destination,MD5', ...[1, 2].map((i) => `A00${i}.mov,RAID,${HEX(i, 32)}`)].join('\n')
    const read = await readImport([
      { name: 'big.ale', bytes: utf8(ale({ columns: ['Name'], rows })) },
      { name: 'report.csv', bytes: utf8(csv) },
    ])
    expect(read.unreadable).toEqual([
      {
        name: 'report.csv',
        reason: 'more rows than the 1 left of the 200,000 one import reads: send it in an import of its own',
      },
    ])
  })

  it('reads a CSV list of clips without copies as the camera’s list', async () => {
    const { token } = await withProject()
    const csv = ['Clip Name;Reel;Lens', `${CARD.clips[0]};A002;"Signature; 40mm"`].join('\r\n')
    const answer = await importInto(token, 'D012', { files: [{ name: 'clips.csv', content: csv }], date: '2025-06-14' })
    expect(answer.status).toBe(201)
    expect(answer.body.files).toEqual([{ name: 'clips.csv', format: 'csv', clips: 1 }])
    const log = (await call('GET', '/log/D012', { token })).body
    expect(log.ocf.recorded).toEqual([
      { clip: CARD.clips[0], list: 'clips.csv', reel: 'A002', metadata: { reel: 'A002', lens: 'Signature; 40mm' } },
    ])
    // A list naming clips by their files: each held as the clip a copy of it will make.
    const files = ['Source File,Tape', `${CARD.clips[1]}.mxf,A002`].join('\n')
    await importInto(token, 'D012', { files: [{ name: 'files.csv', content: files }] })
    const checks = (await call('GET', '/log/D012/checks', { token })).body.checks
    expect(checks.map((f: { message: string }) => f.message)).toEqual([
      `${CARD.clips[0]} was recorded (camera list in clips.csv) but is on no volume`,
      `${CARD.clips[1]} was recorded (camera list in files.csv) but is on no volume`,
    ])
  })

  it('refuses a CSV that is not well-formed, with the parser’s reason', async () => {
    const read = await readImport([{ name: 'bad.csv', bytes: utf8('File Name,MD5\n"A001C001.mov,abc\n') }])
    expect(read.unreadable).toEqual([{ name: 'bad.csv', reason: expect.stringMatching(/^not a well-formed CSV: /) }])
  })
})

describe('reports cut short or mangled', () => {
  it('each is read or named unreadable with a reason; nothing throws', async () => {
    const files = reportedCard()
    const reports = [
      { path: 'D012.csv', bytes: silverstackCsv(files) },
      { path: 'D012_transfer.ale', bytes: utf8(hashAle(files)) },
    ]
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...reports),
        fc.nat(),
        fc.string({ unit: 'binary', maxLength: 8 }),
        fc.constantFrom('cut', 'insert', 'bytes'),
        async (file, at, inserted, how) => {
          const cut = at % (file.bytes.length + 1)
          const bytes =
            how === 'cut'
              ? file.bytes.subarray(0, cut)
              : how === 'insert'
                ? new Uint8Array([...file.bytes.subarray(0, cut), ...utf8(inserted), ...file.bytes.subarray(cut)])
                : Uint8Array.from(file.bytes, (b, i) => (i === cut ? b ^ 0xff : b))
          const read = await readImport([{ name: file.path, bytes }], { volume: 'SSD' })
          const named = new Set([...read.files.map((f) => f.name), ...read.unreadable.map((u) => u.name)])
          expect([...named]).toEqual([file.path])
          for (const { reason } of read.unreadable) expect(reason).not.toMatch(/reader failed/)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('files that are none of these', () => {
  it.each([
    ['D012.avb', 'x', 'an Avid bin: export the clips as an ALE instead (File › Export, ALE)'],
    ['D012.drt', 'x', 'a Resolve timeline export: export the clips as an ALE instead from the media pool'],
    [
      'D012.xml',
      '<?xml version="1.0"?><!DOCTYPE xmeml><xmeml version="5"><sequence/></xmeml>',
      'a timeline export (Final Cut Pro 7 XML, as Resolve writes it): export the clips as an ALE instead',
    ],
    [
      'stills.txt',
      'A001C001_0001.jpg\nA001C002_0001.jpg\n',
      'a still image list, not a clip list: send the MHL or the transfer report (CSV) of the offload instead, or the clips’ ALE',
    ],
    ['notes.txt', 'hello', 'not an MHL, ascmhl_chain.xml or ALE file'],
  ])('names %s for what it looks like', async (name, content, reason) => {
    const read = await readImport([{ name, bytes: utf8(content) }])
    expect(read.unreadable).toEqual([{ name, reason }])
  })

  it('names a CSV list of stills', async () => {
    const read = await readImport([{ name: 'grabs.csv', bytes: utf8('File Name,Reel\nA001_grab1.jpg,A001\n') }])
    expect(read.unreadable).toEqual([
      {
        name: 'grabs.csv',
        reason:
          'a still image list, not a clip list: send the MHL or the transfer report (CSV) of the offload instead, or the clips’ ALE',
      },
    ])
  })
})

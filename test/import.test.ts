// POST /log/{id}/import: offload files (ASC MHL histories, classic MHL, ALE) merged into a day's
// log, with what was added and changed and every file that could not be read; the readers of each
// format on their own (encodings, one-element lists, sequences, blank cells); C4 against the
// specification's own value.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readAle } from '../src/import/ale'
import { clipsOf, type CopiedFile } from '../src/import/clips'
import { readManifest } from '../src/import/mhl'
import { c4Of, readImport } from '../src/import/read'
import { decodeText } from '../src/import/text'
import { call, makeLog, withProject } from './helpers'
import {
  CARD,
  ale,
  ascChain,
  ascManifest,
  base64,
  cardOffload,
  classicManifest,
  latin1,
  utf16,
  utf32,
  type OffloadFile,
} from './offload-fixtures'

const asSent = (files: OffloadFile[]) =>
  files.map((f) => ({ name: f.path, content: base64(f.bytes), encoding: 'base64' }))
const importInto = (token: string, id: string, body: Record<string, unknown>) =>
  call('POST', `/log/${encodeURIComponent(id)}/import`, { token, body })

const copy = (volume: string, hash: string, action: string) => ({ volume, hash: `xxh64:${hash}`, action })

describe('C4 (SMPTE ST 2114)', () => {
  it('gives the specification value for no bytes, and pads to 90 characters', async () => {
    expect(await c4Of(new Uint8Array())).toBe(
      'c459dsjfscH38cYeXXYogktxf4Cd9ibshE3BHUo6a58hBXmRQdZrAkZzsWcbWtDg5oQstpDuni4Hirj75GEmTc1sFT',
    )
    // SHA-512 of "foo" in Base58, computed apart from this code.
    expect(await c4Of(new TextEncoder().encode('foo'))).toBe(
      'c45xZeXwMSpqXjpDumcHMA6mhoAmGHkUo7r9WmN2UgSEQzj9KjgseaQdkEJ11fGb5S1WEENcV3q8RFWwEeVpC7Fjk2',
    )
  })
})

describe('text of any encoding', () => {
  const xml = '<?xml version="1.0"?><hashlist version="1.1"><hash><file>Café.mov</file></hash></hashlist>'
  it.each([
    ['utf-8 with a BOM', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(xml)]), 'utf-8'],
    ['utf-16le', utf16(xml, true), 'utf-16le'],
    ['utf-16be', utf16(xml, false), 'utf-16be'],
    ['utf-16le without a BOM', utf16(xml, true).subarray(2), 'utf-16le'],
    ['utf-32le', utf32(xml, true), 'utf-32le'],
    ['utf-32be', utf32(xml, false), 'utf-32be'],
  ])('%s', (_, bytes, encoding) => {
    expect(decodeText(bytes)).toEqual({ text: xml, encoding })
  })

  it('reads the legacy encoding an XML declaration names, and Windows-1252 without one', () => {
    const declared = xml.replace('version="1.0"', 'version="1.0" encoding="ISO-8859-1"')
    expect(decodeText(latin1(declared)).text).toBe(declared)
    expect(decodeText(latin1('Name\tSc\xe8ne\r\n'))).toEqual({ text: 'Name\tScène\r\n', encoding: 'windows-1252' })
  })

  it('refuses binary data, bytes that are not the encoding declared, and encodings it does not know', () => {
    expect(() => decodeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]))).toThrow(
      'not text: it holds binary data',
    )
    expect(() => decodeText(latin1('<?xml version="1.0" encoding="UTF-8"?><a>\xe9</a>'))).toThrow(
      'not valid UTF-8, as its XML declaration says it is',
    )
    expect(() => decodeText(latin1('<?xml version="1.0" encoding="x-no-such"?><a/>'))).toThrow(
      'its XML declaration names an encoding this service does not read (x-no-such)',
    )
  })
})

describe('manifests', () => {
  it('reads an ASC MHL generation with a single hash, its namespace and actions', () => {
    const text = ascManifest({
      created: '2025-06-14T10:15:00+02:00',
      entries: [{ path: 'Clips/A001C001.mov', size: 42, hashes: { xxh64: 'ab'.repeat(8), md5: 'cd'.repeat(16) } }],
    })
    expect(readManifest(text)).toEqual({
      format: 'ascmhl',
      created: '2025-06-14T10:15:00+02:00',
      files: [
        {
          path: 'Clips/A001C001.mov',
          size: 42,
          hashes: [
            { algorithm: 'xxh64', value: 'ab'.repeat(8), action: 'original' },
            { algorithm: 'md5', value: 'cd'.repeat(16), action: 'original' },
          ],
        },
      ],
      folders: [],
    })
  })

  it('reads classic MHL without a modification date, its hashes labelled by their element', () => {
    const text = classicManifest({
      started: '2025-06-14T10:15:00Z',
      entries: [
        { file: '/Volumes/RAID/S001.wav', size: 7, hashes: { xxhash64be: '01'.repeat(8), md5: 'ef'.repeat(16) } },
      ],
    })
    expect(readManifest(text)).toEqual({
      format: 'mhl',
      created: '2025-06-14T10:15:00Z',
      files: [
        {
          path: '/Volumes/RAID/S001.wav',
          size: 7,
          hashes: [
            { algorithm: 'xxhash64be', value: '01'.repeat(8) },
            { algorithm: 'md5', value: 'ef'.repeat(16) },
          ],
        },
      ],
      folders: [],
    })
  })

  it('reads elements by their local names, whatever namespace prefix the tool chose', () => {
    const prefixed = ascManifest({
      created: '2025-06-14T10:15:00Z',
      entries: [{ path: 'A.mov', size: 1, hashes: { xxh64: '12'.repeat(8) } }],
    })
      .replace('xmlns="urn:ASC:MHL:v2.0"', 'xmlns:a="urn:ASC:MHL:v2.0"')
      .replace(/<(\/?)(?!\?)/g, '<$1a:')
    expect(readManifest(prefixed).files).toEqual([
      { path: 'A.mov', size: 1, hashes: [{ algorithm: 'xxh64', value: '12'.repeat(8), action: 'original' }] },
    ])
  })

  it('refuses a manifest past the files one import reads', () => {
    const entries = [1, 2, 3].map((i) => ({ path: `C${i}.mov`, size: i, hashes: { xxh64: '00'.repeat(8) } }))
    const text = ascManifest({ created: '2025-06-14T10:15:00Z', entries })
    expect(readManifest(text, 3).files).toHaveLength(3)
    expect(() => readManifest(text, 2)).toThrow(
      'lists more than 2 files, what one import reads: send it in an import of its own, or split it',
    )
  })

  it('refuses elements nested past 64 levels, before their paths grow long', () => {
    const deep = `<hashlist version="1.1">${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</hashlist>`
    expect(() => readManifest(deep)).toThrow('elements nested deeper than 64')
  })

  it('expands no entity a document defines for itself', () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE hashlist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
      '<hashlist version="1.1"><hash><file>&b;</file></hash></hashlist>'
    expect(() => readManifest(laughs)).toThrow('not well-formed XML (line 1, column 144: undefined entity.)')
  })

  it('refuses XML that is not well-formed, and a hashlist version it does not know', () => {
    expect(() => readManifest('<hashlist version="1.1"><hash></hashlist>')).toThrow(
      'not well-formed XML (line 1, column 41: unexpected close tag.)',
    )
    expect(() => readManifest('<hashlist version="3.0"/>')).toThrow(
      'a hashlist of version 3.0, which this service does not read',
    )
  })
})

describe('clips of a volume', () => {
  const file = (path: string, size = 1, hash = '00'.repeat(8)): CopiedFile => ({
    path,
    size,
    hashes: [{ algorithm: 'xxh64', value: hash }],
    folder: path.slice(0, path.lastIndexOf('/')),
    name: path.slice(path.lastIndexOf('/') + 1),
  })

  it('gathers frames and segments into one clip each, and keeps numbered clips apart', async () => {
    const files = [
      file('/v/A001C001.mov'),
      file('/v/A001C002.mov'),
      file('/v/C001/A001C003_R1AB.0000001.ari', 10),
      file('/v/C001/A001C003_R1AB.0000002.ari', 10),
      file('/v/RDC/A001_C004_0101XY_001.R3D', 5),
      file('/v/RDC/A001_C004_0101XY_002.R3D', 5),
      file('/v/DNG/shot_000001.dng', 2),
      file('/v/DNG/take_000001.dng', 2),
      file('/v/Sidecar.txt'),
      file('/v/S001.WAV', 3),
      file('/v/Proxy/A001C001.mov'),
      file('/v/PROXIES/A001C002.mov'),
    ]
    const { clips, other, proxies } = await clipsOf(
      files,
      new Map([['/v/C001', [{ algorithm: 'xxh64', value: 'ff'.repeat(8) }]]]),
      'SSD',
    )
    expect(other).toBe(1)
    expect(proxies).toBe(2)
    const zero = '00'.repeat(8)
    const frames = async (...names: string[]) => framesDigest(names.map((name) => [name, zero]))
    expect(clips.map(({ part, clip, size, copy }) => ({ part, clip, size, copy }))).toEqual([
      { part: 'ocf', clip: 'A001C001', size: 1, copy: { volume: 'SSD', hash: `xxh64:${zero}` } },
      { part: 'ocf', clip: 'A001C002', size: 1, copy: { volume: 'SSD', hash: `xxh64:${zero}` } },
      { part: 'sound', clip: 'S001', size: 3, copy: { volume: 'SSD', hash: `xxh64:${zero}` } },
      {
        part: 'ocf',
        clip: 'A001C003_R1AB',
        size: 20,
        copy: {
          volume: 'SSD',
          hash: await frames('A001C003_R1AB.0000001.ari', 'A001C003_R1AB.0000002.ari'),
          files: 2,
        },
      },
      {
        part: 'ocf',
        clip: 'A001_C004_0101XY',
        size: 10,
        copy: { volume: 'SSD', hash: await frames('A001_C004_0101XY_001.R3D', 'A001_C004_0101XY_002.R3D'), files: 2 },
      },
      { part: 'ocf', clip: 'shot', size: 2, copy: { volume: 'SSD', hash: await frames('shot_000001.dng'), files: 1 } },
      { part: 'ocf', clip: 'take', size: 2, copy: { volume: 'SSD', hash: await frames('take_000001.dng'), files: 1 } },
    ])
    // The folder holds the sequence alone: its content hash stands behind the frames' digest.
    expect(clips[3]!.hashes[1]).toBe(`xxh64:${'ff'.repeat(8)}`)
  })

  it('gives a sequence the same digest from classic MHL’s little-endian XXH64 as from ASC MHL’s', async () => {
    const frame = (n: number, algorithm: string, value: string): CopiedFile => ({
      path: `/v/C/F.00${n}.dpx`,
      size: 1,
      hashes: [{ algorithm, value }],
      folder: '/v/C',
      name: `F.00${n}.dpx`,
    })
    const asc = await clipsOf(
      [frame(1, 'xxh64', '0123456789abcdef'), frame(2, 'xxh64', 'fedcba9876543210')],
      new Map(),
      'A',
    )
    const classic = await clipsOf(
      [frame(2, 'xxhash64', '1032547698BADCFE'), frame(1, 'xxhash64', 'EFCDAB8967452301')],
      new Map(),
      'B',
    )
    expect(classic.clips[0]!.copy.hash).toBe(asc.clips[0]!.copy.hash)
    expect(asc.clips[0]!.copy.hash).toBe(
      await framesDigest([
        ['F.001.dpx', '0123456789abcdef'],
        ['F.002.dpx', 'fedcba9876543210'],
      ]),
    )
  })
})

/** A sequence's digest as the README defines it: SHA-256 of `name<TAB>digest<LF>` lines in name order. */
async function framesDigest(frames: Array<[name: string, hex: string]>, algorithm = 'xxh64') {
  const lines = frames.map(([name, hex]) => `${name}\t${hex}\n`).join('')
  const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(lines)))
  return `${algorithm}-frames:${Array.from(sum, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

describe('ALE', () => {
  it('reads any header layout, tabs and blank cells; a bad value is a note, not a failure', () => {
    const text = ale({
      heading: { FPS: '23.976' },
      columns: ['Name', 'Tracks', 'Start', 'End', 'Reel Name', 'Camera Type', 'Sensor FPS', 'Sound Roll', 'Sound TC'],
      rows: [
        ['B001C001', 'V', '10:00:00:00', '10:00:10:00', 'B001', 'VENICE 2', '23.976', 'SR01', '10:00:00:05'],
        ['B001C002', 'V', '10:01:00:00', '', '', '', '48', '', ''],
        ['B001C003', 'V', '10:02:00:99x', '', '', '', '', '', ''],
      ],
    })
    expect(readAle(text)).toEqual({
      rows: [
        {
          line: 11,
          names: ['B001C001'],
          fields: {
            tc_start: '10:00:00:00',
            tc_end: '10:00:10:00',
            reel: 'B001',
            camera_model: 'VENICE 2',
            sensor_fps: 23.976,
            sound_roll: 'SR01',
            sound_tc: '10:00:00:05',
            fps: 23.976,
          },
        },
        { line: 12, names: ['B001C002'], fields: { tc_start: '10:01:00:00', sensor_fps: 48, fps: 23.976 } },
        { line: 13, names: ['B001C003'], fields: { fps: 23.976 } },
      ],
      notes: ['line 13: Start "10:02:00:99x" is not a timecode HH:MM:SS:FF'],
      unlisted: 0,
    })
  })

  it('refuses a file past 1,000 columns or 200,000 rows, and lists 100 notes', () => {
    const wide = ['Name', ...Array.from({ length: 1000 }, (_, i) => `C${i}`)]
    expect(() => readAle(ale({ columns: wide, rows: [] }))).toThrow('more than 1000 columns')
    const rows = (n: number, start = '') => Array.from({ length: n }, (_, i) => [`A${i}`, start])
    expect(() => readAle(ale({ columns: ['Name'], rows: rows(200_001) }))).toThrow(
      'more than 200,000 rows, what one import reads: split it',
    )
    expect(readAle(ale({ columns: ['Name'], rows: rows(200_000) })).rows).toHaveLength(200_000)
    const { notes, unlisted } = readAle(ale({ columns: ['Name', 'Start'], rows: rows(150, 'noon') }))
    expect(notes).toHaveLength(100)
    expect(notes[0]).toBe('line 11: Start "noon" is not a timecode HH:MM:SS:FF')
    expect(unlisted).toBe(50)
  })

  it('refuses a file without Column and Data sections, or without a name column', () => {
    expect(() => readAle('Heading\r\nFPS\t25\r\n')).toThrow('not an ALE')
    expect(() => readAle(ale({ columns: ['Start', 'End'], rows: [['10:00:00:00', '10:00:01:00']] }))).toThrow(
      'no Name or Source File column',
    )
  })
})

describe('files cut short or mangled', () => {
  it('each is read or named unreadable with a reason; nothing throws', async () => {
    const files = await cardOffload(c4Of)
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...files),
        fc.nat(),
        fc.string({ unit: 'binary', maxLength: 8 }),
        fc.constantFrom('cut', 'insert', 'bytes'),
        async (file, at, inserted, how) => {
          const text = new TextDecoder().decode(file.bytes)
          const cut = at % (text.length + 1)
          const bytes =
            how === 'cut'
              ? file.bytes.subarray(0, cut)
              : how === 'insert'
                ? new TextEncoder().encode(text.slice(0, cut) + inserted + text.slice(cut))
                : Uint8Array.from(file.bytes, (b, i) => (i === cut ? b ^ 0xff : b))
          const read = await readImport([{ name: file.path, bytes }], { volume: 'SSD' })
          const named = [...read.files.map((f) => f.name), ...read.unreadable.map((u) => u.name)]
          expect(named).toEqual([file.path])
          for (const { reason } of read.unreadable) expect(reason).not.toMatch(/reader failed/)
        },
      ),
      { numRuns: 300 },
    )
  })
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
          volume,
          hash: sequenceDigest,
          action: 'verified',
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
        message: `${CARD.clips[2]} on SHUTTLE_B failed verification (xxh64:0000000000000bad)`,
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
    expect(log.ocf.clips[0].copies).toEqual([{ volume: 'SHUTTLE_A', hash: `xxh64:${h(1)}`, action: 'failed', doubt }])
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

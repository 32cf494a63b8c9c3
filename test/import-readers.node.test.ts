// The readers of each offload format on their own, in plain Node (no service): encodings,
// one-element lists, sequences, blank cells, files cut short; C4 against the specification's own
// value. What an import does to a log, through the service, is in import.test.ts.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readAle } from '../src/import/ale'
import { Notes } from '../src/import/notes'
import { clipsOf, type CopiedFile } from '../src/import/clips'
import { readManifest } from '../src/import/mhl'
import { c4Of, readImport } from '../src/import/read'
import { decodeText } from '../src/import/text'
import { ale, ascManifest, cardOffload, classicManifest, framesDigest, latin1, utf16, utf32 } from './offload-fixtures'

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
  it('reads an ASC MHL generation with a single hash, its namespace, actions, hash dates and tool', () => {
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
            { algorithm: 'xxh64', value: 'ab'.repeat(8), action: 'original', date: '2025-06-14T10:15:00+02:00' },
            { algorithm: 'md5', value: 'cd'.repeat(16), action: 'original', date: '2025-06-14T10:15:00+02:00' },
          ],
        },
      ],
      folders: [],
      tool: 'offload 1.0',
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
      {
        path: 'A.mov',
        size: 1,
        hashes: [{ algorithm: 'xxh64', value: '12'.repeat(8), action: 'original', date: '2025-06-14T10:15:00Z' }],
      },
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
      // A sequence of one still is that file: its own digest first, the frames' digest beside it.
      { part: 'ocf', clip: 'shot', size: 2, copy: { volume: 'SSD', hash: `xxh64:${zero}`, files: 1 } },
      { part: 'ocf', clip: 'take', size: 2, copy: { volume: 'SSD', hash: `xxh64:${zero}`, files: 1 } },
    ])
    expect(clips[5]!.hashes).toEqual([`xxh64:${zero}`, await frames('shot_000001.dng')])
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
    const said = new Notes()
    expect(readAle(text, undefined, (note) => said.add(note))).toEqual({
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
    })
    expect(said.list()).toEqual([{ message: 'line 13: Start "10:02:00:99x" is not a timecode HH:MM:SS:FF' }])
    expect(said.summed()).toEqual([{ message: '1 value not read (line 13: Start "10:02:00:99x")' }])
  })

  it('refuses a file past 1,000 columns or 200,000 rows, and lists 100 notes', () => {
    const wide = ['Name', ...Array.from({ length: 1000 }, (_, i) => `C${i}`)]
    expect(() => readAle(ale({ columns: wide, rows: [] }))).toThrow('more than 1000 columns')
    const rows = (n: number, start = '') => Array.from({ length: n }, (_, i) => [`A${i}`, start])
    expect(() => readAle(ale({ columns: ['Name'], rows: rows(200_001) }))).toThrow(
      'more than 200,000 rows, what one import reads: split it',
    )
    expect(readAle(ale({ columns: ['Name'], rows: rows(200_000) })).rows).toHaveLength(200_000)
    const said = new Notes()
    readAle(ale({ columns: ['Name', 'Start'], rows: rows(150, 'noon') }), undefined, (note) => said.add(note))
    expect(said.listed).toHaveLength(100)
    expect(said.list()[0]).toEqual({ message: 'line 11: Start "noon" is not a timecode HH:MM:SS:FF' })
    expect(said.unlisted).toBe(50)
    // Summed up: one line for the 150, the first five named.
    expect(said.summed()).toEqual([
      {
        message:
          '150 values not read (line 11: Start "noon", line 12: Start "noon", line 13: Start "noon", line 14: Start "noon", line 15: Start "noon", and 145 more)',
      },
    ])
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

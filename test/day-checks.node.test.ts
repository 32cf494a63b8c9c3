// The checks of a shooting day on their own, in plain Node (no service): each kind on a day built
// to hold exactly that one problem, what an import records, the bounds, timecode overlap at frame
// boundaries and across midnight, hashes compared only where they can be, a property test that a
// day built without problems yields nothing, and days across a range. Through the service
// (GET /log/{id}/checks, GET /checks, reports and e-mail) they are in checks.test.ts.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkDay } from '../src/checks/day'
import { compareHashes } from '../src/shared/digests'
import { checkRange } from '../src/checks/range'
import { lazyLog } from '../src/large-logs/read'
import { summarize } from '../src/summary/summary'
import { cleanDay, hex16, tc, VOLUMES, type Clip, type Day } from './day-fixtures'

const check = async (day: Day, matchSound = true) =>
  (await checkDay(lazyLog(JSON.stringify(day)), { matchSound })).findings
const ocfClips = (day: Day) => day.ocf.clips as Clip[]
const kinds = async (day: Day) => (await check(day)).map((f) => f.kind)

describe('checks of one day', () => {
  it('find nothing in a day built without problems', async () => {
    expect(await check(cleanDay())).toEqual([])
  })

  it('copy-missing: a clip not on a volume the day names', async () => {
    const day = cleanDay()
    ocfClips(day)[2]!.copies = [{ volume: 'SSD_01', hash: `xxh64:${hex16(3)}` }]
    expect(await check(day)).toEqual([
      {
        kind: 'copy-missing',
        severity: 'error',
        part: 'ocf',
        clip: 'A001C003_240101_R1AB',
        volume: 'RAID_A',
        message: 'A001C003_240101_R1AB on RAID_A: missing',
      },
    ])
  })

  it('copy-missing: without a list of copies, the volumes any clip is on', async () => {
    const day = cleanDay()
    delete day.ocf.copies
    ocfClips(day)[0]!.copies = [{ volume: 'RAID_A', hash: `xxh64:${hex16(1)}` }]
    expect(await kinds(day)).toEqual(['copy-missing'])
  })

  it('not-verified: a copy whose hash is null or empty', async () => {
    const day = cleanDay()
    ocfClips(day)[1]!.copies = [
      { volume: 'SSD_01', hash: `xxh64:${hex16(2)}` },
      { volume: 'RAID_A', hash: null },
    ]
    expect(await check(day)).toEqual([
      {
        kind: 'not-verified',
        severity: 'warning',
        part: 'ocf',
        clip: 'A001C002_240101_R1AB',
        volume: 'RAID_A',
        message: 'A001C002_240101_R1AB on RAID_A: no checksum',
      },
    ])
  })

  it('hash-mismatch: two copies of one algorithm that disagree are both in doubt', async () => {
    const day = cleanDay()
    ocfClips(day)[0]!.copies = [
      { volume: 'SSD_01', hash: `xxh64:${hex16(1)}` },
      { volume: 'RAID_A', hash: `xxh64:${hex16(99)}` },
    ]
    // Neither agrees with anything: nobody can say which is the camera's file.
    expect(await check(day)).toEqual([
      {
        kind: 'hash-mismatch',
        severity: 'error',
        part: 'ocf',
        clip: 'A001C001_240101_R1AB',
        volume: 'SSD_01',
        message: `A001C001_240101_R1AB on SSD_01: checksum differs (xxh64:${hex16(1)}) from RAID_A’s (xxh64:${hex16(99)})`,
      },
      {
        kind: 'hash-mismatch',
        severity: 'error',
        part: 'ocf',
        clip: 'A001C001_240101_R1AB',
        volume: 'RAID_A',
        message: `A001C001_240101_R1AB on RAID_A: checksum differs (xxh64:${hex16(99)}) from SSD_01’s (xxh64:${hex16(1)})`,
      },
    ])
  })

  it('hash-mismatch: one bad copy among three is one finding, on the bad copy', async () => {
    const day = cleanDay()
    day.ocf.copies = ['SSD_01', 'RAID_A', 'LTO_0042']
    for (const [i, clip] of ocfClips(day).entries())
      clip.copies = ['SSD_01', 'RAID_A', 'LTO_0042'].map((volume) => ({
        volume,
        hash: i === 1 && volume === 'RAID_A' ? `xxh64:${hex16(99)}` : `xxh64:${hex16(i + 1)}`,
      }))
    expect((await check(day)).map(({ kind, clip, volume }) => [kind, clip, volume])).toEqual([
      ['hash-mismatch', 'A001C002_240101_R1AB', 'RAID_A'],
    ])
  })

  it('hash-not-comparable: different unlabelled strings, or two algorithms, said of each copy whatever their order', async () => {
    for (const [a, b] of [
      ['0123456789abcdef', 'fedcba9876543210'],
      [`xxh64:${hex16(1)}`, `md5:${'ab'.repeat(16)}`],
    ]) {
      const day = cleanDay()
      ocfClips(day)[0]!.copies = [
        { volume: 'SSD_01', hash: a },
        { volume: 'RAID_A', hash: b },
      ]
      expect((await check(day)).map((f) => [f.kind, f.severity, f.volume])).toEqual([
        ['hash-not-comparable', 'info', 'SSD_01'],
        ['hash-not-comparable', 'info', 'RAID_A'],
      ])
    }
    // Beside two copies that agree, an unlabelled one is said the same wherever it stands.
    for (const order of [
      ['LTO', 'SSD_01', 'RAID_A'],
      ['SSD_01', 'RAID_A', 'LTO'],
    ]) {
      const day = cleanDay()
      const hashOf: Record<string, string> = { LTO: 'foo', SSD_01: `xxh64:${hex16(1)}`, RAID_A: `xxh64:${hex16(1)}` }
      ocfClips(day)[0]!.copies = order.map((volume) => ({ volume, hash: hashOf[volume]! }))
      expect((await check(day)).map((f) => [f.kind, f.volume])).toEqual([['hash-not-comparable', 'LTO']])
    }
  })

  it('no-copy: a day that plans no volume and whose clips are on none', async () => {
    const day = cleanDay()
    delete day.ocf.copies
    for (const clip of ocfClips(day)) clip.copies = []
    const found = await check(day)
    expect(found.filter((f) => f.kind === 'no-copy').map((f) => f.message)).toEqual(
      ocfClips(day).map((c) => `${c.clip as string}: on no volume`),
    )
  })

  it('zero-size: a clip of 0 bytes (the day total follows it)', async () => {
    const day = cleanDay()
    ;(day.ocf as { size: number }).size -= ocfClips(day)[3]!.size as number
    ocfClips(day)[3]!.size = 0
    expect(await check(day)).toEqual([
      {
        kind: 'zero-size',
        severity: 'error',
        clip: 'A001C004_240101_R1AB',
        message: 'A001C004_240101_R1AB is 0 bytes',
      },
    ])
  })

  it("size-mismatch: a day's size that is not the sum of its clips'", async () => {
    const day = cleanDay()
    day.ocf.size = 1
    expect(await check(day)).toEqual([
      {
        kind: 'size-mismatch',
        severity: 'warning',
        message: "OCF: the day's size (1 bytes) is not the sum of its clips' (4006 bytes)",
      },
    ])
  })

  it('duplicate-clip: one clip listed twice', async () => {
    const day = cleanDay()
    const twice: Clip = { ...ocfClips(day)[1]!, clip: 'A001C002_240101_r1ab', tc_start: tc(40_000), tc_end: tc(40_010) }
    day.ocf.clips = [...ocfClips(day), twice]
    day.ocf.size = (day.ocf.size as number) + (twice.size as number)
    ;(day.proxy!.clips as Clip[]).push({
      clip: 'A001C002_240101_r1ab.mov',
      size: 10,
      format: 'mov',
      codec: 'x',
      resolution: 'HD',
    })
    ;(day.sound!.clips as Clip[]).push({
      clip: 'S9.wav',
      size: 5,
      tc_start: tc(40_000),
      tc_end: tc(40_010),
      copies: [],
    })
    ;(day.sound!.clips as Clip[]).at(-1)!.copies = VOLUMES.map((volume) => ({ volume, hash: null }))
    expect((await check(day)).filter((f) => f.kind === 'duplicate-clip')).toEqual([
      {
        kind: 'duplicate-clip',
        severity: 'error',
        clip: 'A001C002_240101_R1AB',
        message: 'A001C002_240101_R1AB is listed 2 times',
      },
    ])
  })

  it('clip-gap: numbers missing in a camera reel, one or a run', async () => {
    const day = cleanDay(8)
    day.ocf.clips = ocfClips(day).filter((_, i) => ![3, 5, 6].includes(i))
    day.ocf.size = ocfClips(day).reduce((a, c) => a + (c.size as number), 0)
    day.sound!.clips = (day.sound!.clips as Clip[]).filter((_, i) => ![3, 5, 6].includes(i))
    day.proxy!.clips = (day.proxy!.clips as Clip[]).filter((_, i) => ![3, 5, 6].includes(i))
    expect(await check(day)).toEqual([
      { kind: 'clip-gap', severity: 'warning', reel: 'A001', message: 'A001: C004 is missing between C003 and C005' },
      {
        kind: 'clip-gap',
        severity: 'warning',
        reel: 'A001',
        message: 'A001: C006–C007 are missing between C005 and C008',
      },
    ])
  })

  it('reads RED, Sony and Blackmagic numbering too, and leaves other names alone', async () => {
    const names = [
      'B002_C001_0101XY',
      'B002_C003_0101XY',
      'C003_01011230_C010',
      'C003_01011231_C012',
      'interview_1',
      'interview_3',
    ]
    const day = cleanDay(0)
    day.ocf.clips = names.map((clip) => ({ clip, size: 1, copies: VOLUMES.map((volume) => ({ volume, hash: 'h' })) }))
    delete day.ocf.size
    delete day.sound
    delete day.proxy
    expect((await check(day)).map((f) => f.message)).toEqual([
      'B002: C002 is missing between C001 and C003',
      'C003: C011 is missing between C010 and C012',
    ])
  })

  it('no-proxy and proxy-without-clip, names matched across Unicode forms, case and extension', async () => {
    const day = cleanDay()
    const nfd = 'Szene_Über'.normalize('NFD')
    ocfClips(day)[0]!.clip = 'Szene_Über'
    ;(day.proxy!.clips as Clip[])[0]!.clip = `${nfd.toLowerCase()}.MOV`
    ;(day.proxy!.clips as Clip[])[1]!.clip = 'A001C099.mov'
    expect((await check(day)).map(({ kind, clip }) => [kind, clip])).toEqual([
      ['no-proxy', 'A001C002_240101_R1AB'],
      ['proxy-without-clip', 'A001C099.mov'],
    ])
  })

  it('no proxy findings for a day that logs no proxies', async () => {
    const day = cleanDay()
    delete day.proxy
    expect(await check(day)).toEqual([])
  })

  it('no-sound and sound-without-clip by timecode, only with match_sound on', async () => {
    const day = cleanDay()
    ;(day.sound!.clips as Clip[])[2]!.tc_start = tc(50_000)
    ;(day.sound!.clips as Clip[])[2]!.tc_end = tc(50_010)
    expect(await check(day)).toEqual([
      {
        kind: 'no-sound',
        severity: 'info',
        clip: 'A001C003_240101_R1AB',
        message: 'A001C003_240101_R1AB has no sound running during it',
      },
      {
        kind: 'sound-without-clip',
        severity: 'info',
        clip: 'S003.wav',
        message: 'The sound clip S003.wav runs during no OCF clip',
      },
    ])
    expect(await check(day, false)).toEqual([])
  })

  it('matches nothing by timecode when no sound clip has one', async () => {
    const day = cleanDay()
    for (const clip of day.sound!.clips as Clip[]) delete clip.tc_start
    expect(await check(day)).toEqual([])
  })
})

describe('what an import records of a copy', () => {
  const withCopy = (extra: Record<string, unknown>) => {
    const day = cleanDay()
    const clip = ocfClips(day)[0]!
    clip.copies = (clip.copies as Clip[]).map((c) => (c.volume === 'RAID_A' ? { ...c, ...extra } : c))
    return day
  }
  const path = (p: string, size = 1000, hash = `xxh64:${hex16(1)}`) => ({ path: p, size, hash })

  it('copy-repeated: the same file at two paths of one volume', async () => {
    const day = withCopy({ duplicates: [path('A/A001C001.mxf'), path('Backup/A001C001.mxf')] })
    expect(await check(day)).toEqual([
      {
        kind: 'copy-repeated',
        severity: 'warning',
        part: 'ocf',
        clip: 'A001C001_240101_R1AB',
        volume: 'RAID_A',
        message: 'A001C001_240101_R1AB is on RAID_A 2 times: A/A001C001.mxf, Backup/A001C001.mxf',
      },
    ])
  })

  it('name-collision: different files that are one clip by name', async () => {
    const day = withCopy({ duplicates: [path('A/A001C001.mxf'), path('B/a001c001.MXF', 2000, `xxh64:${hex16(9)}`)] })
    expect(await check(day)).toEqual([
      {
        kind: 'name-collision',
        severity: 'error',
        part: 'ocf',
        clip: 'A001C001_240101_R1AB',
        volume: 'RAID_A',
        message:
          'A001C001_240101_R1AB is 2 different files on RAID_A: A/A001C001.mxf (1000 bytes), B/a001c001.MXF (2000 bytes)',
      },
    ])
  })

  it('copy-in-doubt: a copy whose history is missing a generation', async () => {
    const doubt = 'the chain lists generation 3 (0003_A.mhl), which was not read: what it recorded is not known'
    expect(await check(withCopy({ doubt }))).toEqual([
      {
        kind: 'copy-in-doubt',
        severity: 'warning',
        part: 'ocf',
        clip: 'A001C001_240101_R1AB',
        volume: 'RAID_A',
        message: `A001C001_240101_R1AB on RAID_A: ${doubt}`,
      },
    ])
  })
})

describe('checks bounded by the day, whatever it holds', () => {
  it('a clip on 10,000 volumes is checked copy by copy, once', async () => {
    const day = cleanDay(2)
    delete day.ocf.copies
    const clip = ocfClips(day)[0]!
    const copies = Array.from({ length: 10_000 }, (_, i) => ({ volume: `V${i}`, hash: `xxh64:${hex16(1)}` }))
    copies[9_999] = { volume: 'V9999', hash: `xxh64:${hex16(2)}` }
    clip.copies = copies
    ocfClips(day)[1]!.copies = [{ volume: 'V0', hash: `xxh64:${hex16(2)}` }]
    const { findings, summary } = await checkDay(lazyLog(JSON.stringify(day)), { matchSound: true })
    expect(summary).toEqual({
      errors: 10_000,
      warnings: 0,
      info: 0,
      kinds: { 'hash-mismatch': 1, 'copy-missing': 9_999 },
    })
    expect(findings.filter((f) => f.kind === 'hash-mismatch')).toEqual([
      {
        kind: 'hash-mismatch',
        severity: 'error',
        part: 'ocf',
        clip: 'A001C001_240101_R1AB',
        volume: 'V9999',
        message: `A001C001_240101_R1AB on V9999: checksum differs (xxh64:${hex16(2)}) from V0’s (xxh64:${hex16(1)})`,
      },
    ])
    expect(findings.filter((f) => f.kind === 'copy-missing')).toHaveLength(1000)
  })
})

describe('timecode overlap', () => {
  /** One camera clip and one sound clip; which findings the pair gives. */
  async function pair(camera: [string, string], sound: [string, string], fps = 24) {
    const day = cleanDay(1)
    Object.assign(ocfClips(day)[0]!, { tc_start: camera[0], tc_end: camera[1], fps })
    Object.assign((day.sound!.clips as Clip[])[0]!, { tc_start: sound[0], tc_end: sound[1] })
    return kinds(day)
  }

  it('meets at a frame boundary without overlapping; one frame more overlaps', async () => {
    expect(await pair(['10:00:00:00', '10:00:10:00'], ['10:00:10:00', '10:00:20:00'])).toEqual([
      'no-sound',
      'sound-without-clip',
    ])
    expect(await pair(['10:00:00:00', '10:00:10:01'], ['10:00:10:00', '10:00:20:00'])).toEqual([])
    expect(await pair(['10:00:10:00', '10:00:20:00'], ['10:00:00:00', '10:00:10:00'])).toEqual([
      'no-sound',
      'sound-without-clip',
    ])
    expect(await pair(['10:00:09:23', '10:00:20:00'], ['10:00:00:00', '10:00:10:00'])).toEqual([])
  })

  it('counts each clip at its own rate: frame 15 at 30 fps is frame 12 at 24', async () => {
    // The sound counts at the day's rate (24); the camera clip runs at 30.
    const day = cleanDay(2)
    Object.assign(ocfClips(day)[0]!, { tc_start: '10:00:00:00', tc_end: '10:00:10:00', fps: 24 })
    Object.assign(ocfClips(day)[1]!, { tc_start: '11:00:00:15', tc_end: '11:00:10:00', fps: 30 })
    Object.assign(ocfClips(day)[0]!, { fps: 24 })
    const sound = day.sound!.clips as Clip[]
    Object.assign(sound[0]!, { tc_start: '10:00:00:00', tc_end: '10:00:10:00' })
    Object.assign(sound[1]!, { tc_start: '11:00:00:00', tc_end: '11:00:00:12' })
    // 24 and 30 are tied for the day's rate: the first to lead (24) counts the sound.
    expect(await kinds(day)).toEqual(['no-sound', 'sound-without-clip'])
    Object.assign(sound[1]!, { tc_end: '11:00:00:13' })
    expect(await kinds(day)).toEqual([])
  })

  it('runs past midnight', async () => {
    expect(await pair(['23:59:50:00', '00:00:10:00'], ['00:00:05:00', '00:00:20:00'])).toEqual([])
    expect(await pair(['23:59:50:00', '00:00:10:00'], ['23:59:40:00', '23:59:45:00'])).toEqual([
      'no-sound',
      'sound-without-clip',
    ])
    expect(await pair(['00:00:00:00', '00:00:10:00'], ['23:59:55:00', '00:00:01:00'])).toEqual([])
  })
})

describe('hashes', () => {
  // XXH64 of no bytes, seed 0, as the xxHash reference writes it; classic MHL's `xxhash64` writes
  // the same 8 bytes little-endian.
  const EMPTY_XXH64 = 'ef46db3751d8e999'
  const EMPTY_XXH64_LE = '99e9d85137db46ef'

  it('compares classic MHL xxhash64 byte-reversed against xxh64 and xxhash64be', () => {
    expect(compareHashes(`xxhash64:${EMPTY_XXH64_LE}`, `xxh64:${EMPTY_XXH64}`)).toBe('agree')
    expect(compareHashes(`xxhash64:${EMPTY_XXH64_LE}`, `xxhash64be:${EMPTY_XXH64.toUpperCase()}`)).toBe('agree')
    expect(compareHashes(`xxhash64:${EMPTY_XXH64}`, `xxh64:${EMPTY_XXH64}`)).toBe('disagree')
    // Unlabelled, the two byte orders are only different strings.
    expect(compareHashes(EMPTY_XXH64_LE, EMPTY_XXH64)).toBe('cannot compare')
    expect(compareHashes(EMPTY_XXH64, EMPTY_XXH64)).toBe('agree')
  })

  it('takes an unlabelled hash at its word only where its form proves the algorithm', () => {
    const sha1 = 'da39a3ee5e6b4b0d3255bfef95601890afd80709'
    expect(compareHashes(sha1, `sha1:${sha1.toUpperCase()}`)).toBe('agree')
    expect(compareHashes(sha1, 'da39a3ee5e6b4b0d3255bfef95601890afd80708')).toBe('disagree')
    // 32 hex digits: MD5 or XXH128.
    expect(compareHashes('d41d8cd98f00b204e9800998ecf8427e', '99aa06d3014798d86001c324468d497f')).toBe('cannot compare')
    expect(compareHashes(`md5:d41d8cd98f00b204e9800998ecf8427e`, 'md5:d41d8cd98f00b204e9800998ecf8427f')).toBe(
      'disagree',
    )
    expect(compareHashes(`md5:d41d8cd98f00b204e9800998ecf8427e`, 'xxh128:d41d8cd98f00b204e9800998ecf8427e')).toBe(
      'cannot compare',
    )
    const c4 = `c4${'1'.repeat(88)}`
    expect(compareHashes(c4, `c4:${c4}`)).toBe('agree')
    expect(compareHashes(c4, `c4${'2'.repeat(88)}`)).toBe('disagree')
    // A label with a value of the wrong form is read as an unlabelled string.
    expect(compareHashes('xxh64:zz', 'xxh64:yy')).toBe('cannot compare')
    // A sequence's frames digest compares with its own kind only.
    const frames = (c: string) => `xxh64-frames:${c.repeat(64)}`
    expect(compareHashes(frames('a'), frames('A'))).toBe('agree')
    expect(compareHashes(frames('a'), frames('b'))).toBe('disagree')
    expect(compareHashes(frames('a'), `md5-frames:${'a'.repeat(64)}`)).toBe('cannot compare')
    expect(compareHashes(frames('a'), `xxh64:${'a'.repeat(16)}`)).toBe('cannot compare')
  })
})

describe('a day built without problems', () => {
  const RATES = [23.976, 24, 25, 29.97, 30, 50]
  const LABELS = ['xxh64', 'xxhash64be', 'md5', 'sha1', 'c4', 'none'] as const
  const valueFor = (label: (typeof LABELS)[number], n: number) => {
    switch (label) {
      case 'xxh64':
      case 'xxhash64be':
        return [`${label}:${hex16(n)}`, `xxhash64:${hex16(n).match(/../g)!.reverse().join('')}`]
      case 'md5':
        return [`md5:${hex16(n)}${hex16(n)}`, `MD5:${(hex16(n) + hex16(n)).toUpperCase()}`]
      case 'sha1':
        return [`${hex16(n)}${hex16(n)}abcdef01`, `sha1:${hex16(n)}${hex16(n)}abcdef01`]
      case 'c4':
        return [
          `c4${String(n).padStart(88, '1').replace(/0/g, '2')}`,
          `c4:${String(n).padStart(88, '1').replace(/0/g, '2')}`,
        ]
      case 'none':
        return [`h${n}`, `h${n}`]
    }
  }

  it('yields no findings, whatever its rates, reels, hashes, start times and forms of names', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...RATES),
        fc.integer({ min: 0, max: 86_399 }),
        fc.constantFrom(...LABELS),
        fc.boolean(),
        fc.boolean(),
        async (reelSizes, fps, start, label, listCopies, nfd) => {
          const clips: Clip[] = []
          const sound: Clip[] = []
          const proxies: Clip[] = []
          let at = start
          reelSizes.forEach((count, r) => {
            for (let i = 1; i <= count; i++) {
              const name = `${'ABC'[r]}00${r + 1}C${String(i).padStart(3, '0')}_Ü`
              const [a, b] = valueFor(label, clips.length + 1)
              clips.push({
                clip: name,
                size: 10 + i,
                fps,
                tc_start: tc(at),
                tc_end: tc((at + 30) % 86_400),
                copies: [
                  { volume: 'SSD_01', hash: a },
                  { volume: 'RAID_A', hash: b },
                ],
              })
              sound.push({
                clip: `S${clips.length}.wav`,
                size: 5,
                tc_start: tc(at + 1),
                tc_end: tc((at + 29) % 86_400),
                copies: [],
              })
              proxies.push({
                clip: `${nfd ? name.normalize('NFD') : name}.mov`,
                size: 1,
                format: 'mov',
                codec: 'x',
                resolution: 'HD',
              })
              at = (at + 60) % 86_400
            }
          })
          const day: Day = {
            id: 'D001',
            day: 1,
            date: '2024-01-01',
            ocf: { ...(listCopies && { copies: VOLUMES }), clips },
            sound: { clips: sound },
            proxy: { clips: proxies },
          }
          expect(await check(day)).toEqual([])
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('checks across days', () => {
  const range = (days: Day[]) =>
    checkRange(
      days.map((day) => ({ summary: summarize(day as never), log: async () => lazyLog(JSON.stringify(day)) })),
      { matchSound: true },
    )

  it('find a reel never logged between two that were, and a clip logged on two days', async () => {
    const days = [cleanDay(2, 'D001', 'A001'), cleanDay(2, 'D002', 'A003'), cleanDay(2, 'D003', 'A004')]
    days[2]!.ocf.clips = [...ocfClips(days[2]!), { ...ocfClips(days[0]!)[1]! }]
    days[2]!.ocf.size = ocfClips(days[2]!).reduce((a, c) => a + (c.size as number), 0)
    ;(days[2]!.proxy!.clips as Clip[]).push({ ...(days[0]!.proxy!.clips as Clip[])[1]! })
    ;(days[2]!.sound!.clips as Clip[])[0]!.tc_end = tc(36_300)
    const answer = await range(days)
    expect(answer.checks).toEqual([
      {
        kind: 'reel-gap',
        severity: 'warning',
        reel: 'A002',
        message: 'A002 was never logged between A001 (log D001) and A003 (log D002)',
      },
      {
        kind: 'duplicate-across-days',
        severity: 'warning',
        log: 'D003',
        clip: 'A001C002_240101_R1AB',
        message: 'A001C002_240101_R1AB is also in log D001',
      },
    ])
    expect(answer.summary).toEqual({
      errors: 0,
      warnings: 2,
      info: 0,
      kinds: { 'reel-gap': 1, 'duplicate-across-days': 1 },
    })
    expect(answer.days.map((d) => [d.log, d.summary.warnings])).toEqual([
      ['D001', 0],
      ['D002', 0],
      ['D003', 1],
    ])
  })
})

// `media-log verify` as a DIT runs it against `npm start` before a shuttle drive leaves set: two
// drives offloaded with ASC MHL (a generation each, the checksums recorded at copy time, imported),
// then read back. What it reads and says is compared with what the files are (digests made here,
// by other code: hash-wasm and node:crypto); what it records is read back from the log, the checks
// and the e-mail the operator would send.
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createServer, request as httpRequest } from 'node:http'
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createXXHash64, xxhash64 } from 'hash-wasm'
import { MediaLogClient, MediaLogOperator, approvedClient } from 'media-log-service/client'
import { ascManifest, type AscEntry } from '../offload-fixtures'
import { COMMAND, runCommand } from './command'
import { launch, type Launched } from './launch'

const PORT = 5743
const dir = mkdtempSync(join(tmpdir(), 'media-log-verify-'))
const drives = join(dir, 'drives')
const config = join(dir, 'config')
const GIB = 1024 ** 3
let service: Launched
let app: MediaLogClient
let operator: MediaLogOperator

/** The command as a shell runs it; `onStarted` gets the child as soon as it runs. */
const run = (args: string[], onStarted?: (child: ChildProcess) => void) =>
  runCommand(args, { base: service.base, configDir: config, ...(onStarted && { onStarted }) })

/** Bytes that are nobody's pattern: a counter through SHA-256. */
function bytesOf(seed: string, size: number): Buffer {
  const out = Buffer.alloc(size)
  for (let i = 0, block = 0; i < size; block++) {
    const digest = createHash('sha256').update(`${seed}:${block}`).digest()
    i += digest.copy(out, i)
  }
  return out
}

/** A day on a drive: camera clips, a clip of frames, a sound file, and a 1 GiB clip (sparse: no disk). */
const CLIPS = ['A001C001_261126_R1AB.mov', 'A001C002_261126_R1AB.mov', 'A001C003_261126_R1AB.mxf']
const SEQUENCE = 'A001C004_261126_R1AB'
const LARGE = 'A001C005_261126_R1AB.mov'
const GONE = 'A001C006_261126_R1AB.mov'
const RED = 'A002_C001_1126AB'

type Written = { path: string; size: number; hashes: Record<string, string> }

/** The day's files on `drive` under `day`/, each with the digests of its bytes, as a manifest names them. */
async function writeDay(drive: string, day: string, algorithm: (name: string) => 'xxh64' | 'md5' = () => 'xxh64') {
  const written: Written[] = []
  const put = async (path: string, bytes: Buffer) => {
    const full = join(drive, path)
    mkdirSync(dirname(full), { recursive: true })
    writeFileSync(full, bytes)
    const kind = algorithm(path)
    const hash = kind === 'md5' ? createHash('md5').update(bytes).digest('hex') : await xxhash64(bytes)
    written.push({ path, size: bytes.length, hashes: { [kind]: hash } })
  }
  for (const [i, name] of CLIPS.entries()) await put(`${day}/A001/${name}`, bytesOf(name, (i + 1) * 1024 * 1024 + 17))
  for (let frame = 1; frame <= 5; frame++)
    await put(`${day}/A001/${SEQUENCE}/${SEQUENCE}.000000${frame}.ari`, bytesOf(`${SEQUENCE}${frame}`, 65536))
  // A RED clip: its segments beside the clip's RMD (no media), one clip as the import makes it.
  for (let segment = 1; segment <= 2; segment++)
    await put(`${day}/RED/${RED}.RDC/${RED}_00${segment}.R3D`, bytesOf(`${RED}${segment}`, 100_000))
  writeFileSync(join(drive, `${day}/RED/${RED}.RDC/${RED}.RMD`), '<rmd/>')
  await put(`${day}/SOUND/S001T01.wav`, bytesOf('S001T01', 200_000))
  return written
}

/** A sparse file of `size` zero bytes, and its XXH64, hashed here in 8 MiB steps. */
async function sparse(path: string, size: number): Promise<Written['hashes']> {
  closeSync(openSync(path, 'w'))
  truncateSync(path, size)
  const hash = await createXXHash64()
  hash.init()
  const zeros = new Uint8Array(8 * 1024 * 1024)
  for (let done = 0; done < size; done += zeros.length) hash.update(zeros)
  return { xxh64: hash.digest('hex') }
}

/** A drive's offload manifest, imported as `media-log import` sends it. */
async function importDrive(log: string, drive: string, volume: string, entries: Written[]) {
  const content = ascManifest({
    created: '2026-11-26T09:00:00Z',
    entries: entries.map((e): AscEntry => ({ ...e, action: 'original' })),
  })
  const name = `${volume}/ascmhl/0001_${volume}_2026-11-26_090000Z.mhl`
  const answer = await app.importFiles(log, { files: [{ name, content, volume }], date: '2026-11-26' })
  expect(answer.unreadable).toEqual([])
  writeFileSync(join(drive, 'ascmhl-imported'), name)
}

const copiesOn = async (log: string, volume: string) => {
  const day = await app.log(log)
  return Object.fromEntries(
    [...day.ocf!.clips, ...(day.sound?.clips ?? [])].map((clip) => [
      clip.clip,
      clip.copies.find((c) => c.volume === volume),
    ]),
  )
}

/** The verification lines of the e-mail the operator would send for `log` (camera files, sound). */
async function emailVerification(log: string, presetId: string) {
  await app.openEmailWindow({ logId: log, presetId })
  const { windows } = await operator.windows()
  const text = windows.find((w) => w.logIds.includes(log))!.preview.text
  return text
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => /^(Sound v|V)erification:/.test(line))
}

beforeAll(async () => {
  service = await launch('start', { port: PORT, state: join(dir, 'state') })
  app = await approvedClient({ baseUrl: service.base, appName: 'Setup', operatorKey: service.operatorKey })
  operator = new MediaLogOperator({ baseUrl: service.base, key: service.operatorKey })
  await app.createProject('Verify Film')
  // The command's token, kept as its first run keeps it: the approval is import's test's concern.
  const command = await approvedClient({
    baseUrl: service.base,
    appName: 'media-log',
    operatorKey: service.operatorKey,
  })
  mkdirSync(config, { recursive: true })
  writeFileSync(join(config, 'tokens.json'), JSON.stringify({ [service.base]: command.token }))
}, 120_000)

afterAll(async () => {
  await service?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('media-log verify', () => {
  it('reads back copies whose checksums were only recorded: the e-mail then says verified', async () => {
    const a = join(drives, 'D013', 'SHUTTLE_01')
    const b = join(drives, 'D013', 'SHUTTLE_02')
    for (const [drive, volume] of [
      [a, 'SHUTTLE_01'],
      [b, 'SHUTTLE_02'],
    ] as const)
      await importDrive('D013', drive, volume, await writeDay(drive, 'D013'))
    const [preset] = await app.emailPresets()
    expect(await emailVerification('D013', preset!.id)).toEqual([
      'Verification: 2 copies, checksums match (not read back)',
      'Sound verification: 2 copies, checksums match (not read back)',
    ])

    const verified = await run(['verify', a, b, '--log', 'D013'])
    expect(verified.stderr).toBe(`service: ${service.base} (from MEDIA_LOG_URL)\n`)
    expect(verified.status).toBe(0)
    const lines = verified.stdout.split('\n')
    // Whole kB and MB, GB with one decimal: a warm page cache reads these 7 MB at over 1 GB/s.
    expect(lines[0]).toMatch(/^SHUTTLE_01: 11 files read back, 7 MB in \d+\.\d s \((\d+ (kB|MB)|\d+\.\d (GB|TB))\/s\)$/)
    expect(lines.slice(1)).toEqual([
      '  verified: 6 clips',
      expect.stringMatching(/^SHUTTLE_02: 11 files read back, 7 MB in/),
      '  verified: 6 clips',
      'recorded in D013: 12 clips (22 files) as read back',
      // Each volume in the service's words, as media-log checks, the console and the e-mail say it.
      'copies:',
      '  ✓ SHUTTLE_01 5/5: 5 clips, all verified (read back)',
      '  ✓ SHUTTLE_02 5/5: 5 clips, all verified (read back)',
      '  ✓ sound SHUTTLE_01 1/1: 1 clip, all verified (read back)',
      '  ✓ sound SHUTTLE_02 1/1: 1 clip, all verified (read back)',
      '',
    ])
    expect(await emailVerification('D013', preset!.id)).toEqual([
      'Verification: 2 copies, all verified (read back)',
      'Sound verification: 2 copies, all verified (read back)',
    ])

    // Each copy says what read it back, and when; the frames' digest is the one the import made,
    // the RED clip's segments' too.
    const before = await copiesOn('D013', 'SHUTTLE_02')
    expect(before[SEQUENCE]).toEqual({
      volume: 'SHUTTLE_02',
      hash: expect.stringMatching(/^xxh64-frames:[0-9a-f]{64}$/),
      files: 5,
      action: 'verified',
      hashdate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      tool: 'media-log 0.1.0',
    })
    expect(new Date(before[SEQUENCE]!.hashdate as string).getTime()).toBeGreaterThan(Date.now() - 120_000)
    const day = await app.log('D013')
    const sequence = day.ocf!.clips.find((c) => c.clip === SEQUENCE)!
    expect(sequence.copies[0]!.hash).toBe(sequence.copies[1]!.hash)
    expect(before[RED]).toMatchObject({ hash: expect.stringMatching(/^xxh64-frames:/), files: 2, action: 'verified' })
    // Nothing of the run is left behind once it is recorded.
    expect(readdirSync(join(config, 'verify'))).toEqual([])
  })

  describe('a drive with a flipped byte, a deleted clip and clips the log does not know', () => {
    const drive = join(drives, 'D012', 'SHUTTLE_01')
    let offloaded: Written[] = []
    beforeAll(async () => {
      const written = (offloaded = await writeDay(drive, 'D012', (path) => (path.endsWith('.mxf') ? 'md5' : 'xxh64')))
      writeFileSync(join(drive, 'D012/A001', GONE), 'a clip deleted after the offload')
      written.push({
        path: `D012/A001/${GONE}`,
        size: 32,
        hashes: { xxh64: await xxhash64('a clip deleted after the offload') },
      })
      written.push({
        path: `D012/A001/${LARGE}`,
        size: GIB,
        hashes: await sparse(join(drive, 'D012/A001', LARGE), GIB),
      })
      await importDrive('D012', drive, 'SHUTTLE_01', written)
      rmSync(join(drive, 'D012/A001', GONE))
      // One byte of the MXF flipped since it was copied.
      const mxf = join(drive, 'D012/A001', CLIPS[2]!)
      const bytes = readFileSync(mxf)
      bytes[123_456] ^= 0x01
      writeFileSync(mxf, bytes)
      // A clip the offload missed, beside the day's; another day's clip in its own folder.
      writeFileSync(join(drive, 'D012/A001/A001C009_261126_R1AB.mov'), 'not in the log')
      mkdirSync(join(drive, 'D011/A000'), { recursive: true })
      writeFileSync(join(drive, 'D011/A000/A000C001_261125_R1AB.mov'), 'the day before')
    })

    it('finds the flipped byte and the deleted clip, records the failure, and exits 1', async () => {
      const verified = await run(['verify', drive, '--log', 'D012'])
      expect(verified.status).toBe(1)
      const mxf = readFileSync(join(drive, 'D012/A001', CLIPS[2]!))
      const found = createHash('md5').update(mxf).digest('hex')
      mxf[123_456] ^= 0x01
      const recorded = createHash('md5').update(mxf).digest('hex')
      const lines = verified.stdout.split('\n')
      expect(lines[0]).toMatch(/^SHUTTLE_01: 12 files read back, 1\.1 GB in \d+\.\d s \((\d+ MB|\d+\.\d (GB|TB))\/s\)$/)
      expect(lines.slice(1)).toEqual([
        '  verified: 6 clips',
        `  READ BACK AND DIFFERENT: A001C003_261126_R1AB: md5 ${found} read back, ${recorded} recorded`,
        `  NOT FOUND ON READ-BACK: A001C006_261126_R1AB: the log has a copy on SHUTTLE_01; no file of it in ${drive}`,
        '  not in D012: D012/A001/A001C009_261126_R1AB.mov',
        "  1 other clip in folders without D012's clips (other days')",
        'recorded in D012: 7 clips (12 files) as read back, 1 clip as not found on read-back',
        // The clip the drive lost is a fact of the day: the volume is not verified, and says why.
        'copies:',
        '  ✕ SHUTTLE_01 5/7: 7 clips: 1 not found on read-back, 1 read back and different, 5 verified (read back)',
        '  ✓ sound SHUTTLE_01 1/1: 1 clip, all verified (read back)',
        '',
      ])
      const copies = await copiesOn('D012', 'SHUTTLE_01')
      // ASC MHL's way: a failed copy keeps the digest found, and the checks say it failed.
      expect(copies['A001C003_261126_R1AB']).toMatchObject({
        action: 'failed',
        hash: `md5:${found}`,
        tool: 'media-log 0.1.0',
      })
      expect(copies[GONE.replace('.mov', '')]).toMatchObject({
        action: 'missing',
        hash: expect.stringMatching(/^xxh64:/),
        tool: 'media-log 0.1.0',
      })
      expect(copies[LARGE.replace('.mov', '')]).toMatchObject({ action: 'verified' })
      const { checks } = await app.checks('D012')
      expect(checks.filter((f) => f.kind === 'verification-failed').map((f) => f.message)).toEqual([
        expect.stringContaining('A001C003_261126_R1AB'),
      ])
      expect(checks.filter((f) => f.kind === 'copy-not-found').map((f) => f.clip)).toEqual(['A001C006_261126_R1AB'])
    })

    it('compares a failed copy again with the checksum it was copied with, and says so in JSON too', async () => {
      const verified = await run(['verify', drive, '--log', 'D012', '--json'])
      expect(verified.status).toBe(1)
      const mxfBytes = readFileSync(join(drive, 'D012/A001', CLIPS[2]!))
      const found = createHash('md5').update(mxfBytes).digest('hex')
      mxfBytes[123_456] ^= 0x01
      const copiedWith = createHash('md5').update(mxfBytes).digest('hex')
      const sizes = [
        ...CLIPS.map((_, i) => (i + 1) * 1024 * 1024 + 17),
        ...Array(5).fill(65536),
        100_000,
        100_000,
        200_000,
        GIB,
      ]
      expect(JSON.parse(verified.stdout)).toEqual({
        log: 'D012',
        // Where xxhash-addon ships a binary for the platform, as on every machine this runs on.
        xxhash: ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64', 'win32-x64', 'win32-arm64'].includes(
          `${process.platform}-${process.arch}`,
        )
          ? 'native'
          : 'wasm',
        volumes: [
          {
            volume: 'SHUTTLE_01',
            folders: [drive],
            read: {
              files: 12,
              bytes: sizes.reduce((a, b) => a + b, 0),
              seconds: expect.any(Number),
              resumed: 0,
            },
            verified: [
              'A001C001_261126_R1AB',
              'A001C002_261126_R1AB',
              SEQUENCE,
              LARGE.replace('.mov', ''),
              RED,
              'S001T01',
            ],
            failed: [
              { clip: 'A001C003_261126_R1AB', algorithm: 'md5', found, recorded: copiedWith, against: 'md5, recorded' },
            ],
            recorded: [],
            missing: [{ part: 'ocf', clip: 'A001C006_261126_R1AB' }],
            unreadable: [],
            uncompared: [],
            unknown: ['D012/A001/A001C009_261126_R1AB.mov'],
            unknownElsewhere: 1,
            empty: false,
            unreadableFolders: [],
            notLookedFor: 0,
          },
        ],
        written: { clips: 7, files: 12, missing: 1 },
        copies: [
          {
            part: 'ocf',
            volume: 'SHUTTLE_01',
            clips: 7,
            held: 5,
            states: { 'not-found': 1, failed: 1, verified: 5 },
            verdict: 'error',
            mark: '✕',
            words: '7 clips: 1 not found on read-back, 1 read back and different, 5 verified (read back)',
          },
          {
            part: 'sound',
            volume: 'SHUTTLE_01',
            clips: 1,
            held: 1,
            states: { verified: 1 },
            verdict: 'ok',
            mark: '✓',
            words: '1 clip, all verified (read back)',
          },
        ],
      })
    })

    it('finds the same where the native xxHash cannot load, in WASM, and says so', async () => {
      // A machine whose xxHash binary cannot be opened, as one built for another platform would not be.
      const preload = join(dir, 'unloadable-xxhash.cjs')
      writeFileSync(
        preload,
        `const dlopen = process.dlopen
process.dlopen = (module, filename, ...rest) => {
  if (filename.includes('xxhash-addon')) throw new Error(filename + ': invalid ELF header')
  return dlopen(module, filename, ...rest)
}
`,
      )
      const args = ['verify', drive, '--log', 'D012', '--json']
      const native = await run(args)
      const fallback = await runCommand(args, {
        base: service.base,
        configDir: config,
        env: { NODE_OPTIONS: `--require ${preload}` },
      })
      expect(fallback.stderr).toContain(
        'xxHash in WASM, at 30–65% of the native speed: its native binary did not load (',
      )
      expect(fallback.stderr).toContain('invalid ELF header)')
      expect([native.status, fallback.status]).toEqual([1, 1])
      const [first, second] = [native, fallback].map((r) => JSON.parse(r.stdout) as Record<string, unknown>)
      expect(second!.xxhash).toBe('wasm')
      const timeless = (answer: Record<string, unknown>) =>
        JSON.stringify(answer.volumes, (key, value: unknown) => (key === 'seconds' ? 0 : value))
      expect(timeless(second!)).toBe(timeless(first!))
      expect(second!.copies).toEqual(first!.copies)
      // Its 1 GiB clip is an xxh64 one: read whole both ways.
      expect((first!.volumes as Array<{ verified: string[] }>)[0]!.verified).toContain(LARGE.replace('.mov', ''))
    })

    it('keeps what it found through an import of the offload again', async () => {
      await importDrive('D012', drive, 'SHUTTLE_01', offloaded)
      const copies = await copiesOn('D012', 'SHUTTLE_01')
      expect(copies['A001C001_261126_R1AB']).toMatchObject({ action: 'verified', tool: 'media-log 0.1.0' })
      const mxfBytes = readFileSync(join(drive, 'D012/A001', CLIPS[2]!))
      mxfBytes[123_456] ^= 0x01
      expect(copies['A001C003_261126_R1AB']).toMatchObject({
        action: 'failed',
        original: `md5:${createHash('md5').update(mxfBytes).digest('hex')}`,
      })
    })

    it('refuses a drive the log has no copies on, unless --volume names it', async () => {
      const other = join(drives, 'D012', 'SHUTTLE_01 1')
      mkdirSync(other, { recursive: true })
      const refused = await run(['verify', other, '--log', 'D012'])
      expect(refused.status).toBe(2)
      expect(refused.stderr).toContain(
        'media-log: D012 has no copies on a volume SHUTTLE_01 1; its volumes: SHUTTLE_01. Name the volume with --volume',
      )
      // Named, but holding none of the day's clips: nothing verified is no success.
      const empty = await run(['verify', other, '--log', 'D012', '--volume', 'SHUTTLE_07'])
      expect(empty.status).toBe(1)
      expect(empty.stdout).toBe(`SHUTTLE_07: none of D012's clips in ${other}\nnothing recorded in D012\n`)
    })

    it('takes a folder with no media file at all for a drive not mounted, and records nothing as not found', async () => {
      // An empty mount point with the drive's name: the drive was never plugged in.
      const mountPoint = join(mkdtempSync(join(dir, 'unmounted-')), 'SHUTTLE_01')
      mkdirSync(mountPoint)
      const before = (await app.checks('D012')).copies
      // The clips the log has on the volume, ocf and sound, as the checks count them.
      const onShuttle = before.filter((c) => c.volume === 'SHUTTLE_01').reduce((n, c) => n + c.clips, 0)
      expect(onShuttle).toBeGreaterThan(1)
      const unmounted = await run(['verify', mountPoint, '--log', 'D012'])
      expect(unmounted.status).toBe(1)
      expect(unmounted.stdout.split('\n').slice(0, 2)).toEqual([
        `SHUTTLE_01: no media file at all in ${mountPoint}: is the drive mounted there? D012's ${onShuttle} clips on SHUTTLE_01 not recorded as not found`,
        'nothing recorded in D012',
      ])
      expect((await app.checks('D012')).copies).toEqual(before)
      const json = await run(['verify', mountPoint, '--log', 'D012', '--json'])
      expect(json.status).toBe(1)
      expect((JSON.parse(json.stdout) as { volumes: unknown[] }).volumes).toMatchObject([
        { volume: 'SHUTTLE_01', empty: true, notLookedFor: onShuttle, missing: [] },
      ])
    })
  })

  describe('a day posted by an application, and a run stopped halfway', () => {
    const drive = join(drives, 'D014', 'SHUTTLE_03')
    const resumeFiles = () => (existsSync(join(config, 'verify')) ? readdirSync(join(config, 'verify')) : [])
    beforeAll(async () => {
      mkdirSync(join(drive, 'B001'), { recursive: true })
      const onRaid = bytesOf('B001C001', 300_000)
      writeFileSync(join(drive, 'B001/B001C001_261126_R2CD.mov'), onRaid)
      writeFileSync(join(drive, 'B001/B001C002_261126_R2CD.mov'), bytesOf('B001C002', 100_000))
      // Large enough to be stopped in: 2 GiB, read in about a second.
      const large = await sparse(join(drive, 'B001/B001C003_261126_R2CD.mov'), 2 * GIB)
      // A RED clip of one segment, posted with that file's own digest (no frames' digest).
      const segment = bytesOf('B001_C004', 50_000)
      mkdirSync(join(drive, 'B001/B001_C004_1126AB.RDC'), { recursive: true })
      writeFileSync(join(drive, 'B001/B001_C004_1126AB.RDC/B001_C004_1126AB_001.R3D'), segment)
      await app.createLog({
        id: 'D014',
        day: 14,
        date: '2026-11-27',
        ocf: {
          clips: [
            // Posted without a hash on the shuttle; the RAID's copy has one.
            {
              clip: 'B001C001_261126_R2CD',
              size: 300_000,
              copies: [
                { volume: 'SHUTTLE_03', hash: null },
                { volume: 'RAID', hash: `xxh64:${await xxhash64(onRaid)}` },
              ],
            },
            // No hash anywhere.
            { clip: 'B001C002_261126_R2CD', size: 100_000, copies: [{ volume: 'SHUTTLE_03', hash: null }] },
            {
              clip: 'B001C003_261126_R2CD',
              size: 2 * GIB,
              copies: [{ volume: 'SHUTTLE_03', hash: `xxh64:${large.xxh64}` }],
            },
            {
              clip: 'B001_C004_1126AB',
              size: 50_000,
              copies: [{ volume: 'SHUTTLE_03', hash: `xxh64:${await xxhash64(segment)}` }],
            },
          ],
        },
      })
    })

    /** The command stopped with Ctrl-C (or `signal`) once it has read a file; `goOn`, how it says to go on. */
    async function stopped(
      args: string[],
      goOn = 'run the same command again to go on',
      signal: NodeJS.Signals = 'SIGINT',
    ) {
      const interrupted = await run(args, (child) => {
        const poll = setInterval(() => {
          const [file] = resumeFiles()
          if (file && readFileSync(join(config, 'verify', file), 'utf8').includes('\n')) {
            clearInterval(poll)
            child.kill(signal)
          }
        }, 5)
        child.on('close', () => clearInterval(poll))
      })
      // Both at once: a run that ended otherwise shows how, and what it said.
      // Ended by the signal itself, as a shell's loop over drives expects to stop on it.
      expect({ status: interrupted.status, signal: interrupted.signal, stderr: interrupted.stderr }).toEqual({
        status: null,
        signal,
        stderr: expect.stringMatching(new RegExp(`\\nstopped: \\d+ files? read; ${goOn}\\n$`)),
      })
      expect(resumeFiles()).toHaveLength(1)
    }

    it('goes on after Ctrl-C where it stopped, compares with another volume’s hash, and records one where none was', async () => {
      const args = ['verify', drive, '--log', 'D014', '--json']
      await stopped(args)
      const resumed = await run(args)
      // How many the stopped run read depends on when the Ctrl-C landed: some, each said once.
      const said = /\nSHUTTLE_03: (\d) files? read by the run before \(--again reads them again\)\n/.exec(
        resumed.stderr,
      )
      expect(resumed.status).toBe(0)
      const answer = JSON.parse(resumed.stdout)
      expect(Number(said?.[1])).toBe(answer.volumes[0].read.resumed)
      expect(answer.volumes[0].read.resumed).toBeGreaterThan(0)
      expect(answer.volumes[0].read.resumed + answer.volumes[0].read.files).toBe(4)
      expect(answer.volumes[0]).toMatchObject({
        // The one-segment RED clip compared by its own digest, as it was posted.
        verified: ['B001C001_261126_R2CD', 'B001C003_261126_R2CD', 'B001_C004_1126AB'],
        failed: [],
        recorded: [{ clip: 'B001C002_261126_R2CD', algorithm: 'xxh64' }],
        missing: [],
      })
      expect(answer.copies).toEqual([
        {
          part: 'ocf',
          volume: 'SHUTTLE_03',
          clips: 4,
          held: 4,
          states: { recorded: 1, verified: 3 },
          verdict: 'ok',
          mark: '✓',
          words: '4 clips: 1 checksum recorded (not read back), 3 verified (read back)',
        },
      ])
      const copies = await copiesOn('D014', 'SHUTTLE_03')
      expect(copies['B001C001_261126_R2CD']).toMatchObject({
        hash: `xxh64:${await xxhash64(bytesOf('B001C001', 300_000))}`,
        action: 'verified',
      })
      expect(copies['B001C002_261126_R2CD']).toMatchObject({
        hash: `xxh64:${await xxhash64(bytesOf('B001C002', 100_000))}`,
        action: 'original',
      })
      expect(resumeFiles()).toEqual([])
    })

    it('reads everything again with --again, and says to leave it out to go on when stopped', async () => {
      // Stopped with --again, the way on is without it: the same command would read it all again.
      await stopped(['verify', drive, '--log', 'D014', '--again'], 'run it again without --again to go on')
      for (const file of resumeFiles()) rmSync(join(config, 'verify', file))
      // Killed (SIGTERM) as by Ctrl-C: said, nothing recorded.
      await stopped(['verify', drive, '--log', 'D014'], undefined, 'SIGTERM')
      const again = await run(['verify', drive, '--log', 'D014', '--again', '--json'])
      expect(again.status).toBe(0)
      expect(again.stderr).not.toContain('read by the run before')
      expect(JSON.parse(again.stdout).volumes[0].read).toMatchObject({ files: 4, resumed: 0, bytes: 2 * GIB + 450_000 })
    })
  })

  describe('a sequence with a changed frame and a lost one', () => {
    /** A day written to `drive`, imported, with the offload's own ASC MHL history left on the drive or not. */
    async function offloaded(drive: string, day: string, history: boolean) {
      const written = await writeDay(drive, day)
      await importDrive(day, drive, basename(drive), written)
      if (history) {
        const content = ascManifest({
          created: '2026-11-26T09:00:00Z',
          entries: written.map((e): AscEntry => ({ ...e, action: 'original' })),
        })
        mkdirSync(join(drive, 'ascmhl'), { recursive: true })
        writeFileSync(join(drive, 'ascmhl', `0001_${basename(drive)}_2026-11-26_090000Z.mhl`), content)
      }
      return (frame: number) => join(drive, day, 'A001', SEQUENCE, `${SEQUENCE}.000000${frame}.ari`)
    }

    it('names the frames from the drive’s own ASC MHL history, and the log and checks keep them', async () => {
      const frame = await offloaded(join(drives, 'D015', 'SHUTTLE_05'), 'D015', true)
      const changed = readFileSync(frame(3))
      changed[100] ^= 0xff
      writeFileSync(frame(3), changed)
      rmSync(frame(5))
      const verified = await run(['verify', join(drives, 'D015', 'SHUTTLE_05'), '--log', 'D015'])
      expect(verified.status).toBe(1)
      // The frame that changed and the one lost, by name; no digest called an xxh64 of a file.
      expect(verified.stdout.split('\n')).toContain(
        `  READ BACK AND DIFFERENT: ${SEQUENCE}: 1 frame changed (${SEQUENCE}.0000003.ari), 1 frame missing (${SEQUENCE}.0000005.ari)`,
      )
      // Read back again, compared with the checksum it was copied with: the digest named as the log
      // labels it, the frames digest of its xxh64s, not an xxh64.
      const again = await run(['verify', join(drives, 'D015', 'SHUTTLE_05'), '--log', 'D015', '--json'])
      expect(again.status).toBe(1)
      expect((JSON.parse(again.stdout) as { volumes: Array<{ failed: unknown[] }> }).volumes[0]!.failed).toMatchObject([
        { clip: SEQUENCE, algorithm: 'xxh64-frames', against: 'xxh64-frames, recorded' },
      ])
      const copy = (await copiesOn('D015', 'SHUTTLE_05'))[SEQUENCE]
      expect(copy).toMatchObject({
        action: 'failed',
        hash: expect.stringMatching(/^xxh64-frames:[0-9a-f]{64}$/),
        original: expect.stringMatching(/^xxh64-frames:[0-9a-f]{64}$/),
        files: 4,
        bad_frames: {
          changed: [`${SEQUENCE}.0000003.ari`],
          missing: [`${SEQUENCE}.0000005.ari`],
          changed_count: 1,
          missing_count: 1,
        },
      })
      const { checks } = await app.checks('D015')
      expect(checks.find((f) => f.kind === 'verification-failed')?.message).toMatch(
        new RegExp(
          `^${SEQUENCE} on SHUTTLE_05: read back and different \\(media-log 0\\.1\\.0, [^)]+\\): 1 frame changed \\(${SEQUENCE}\\.0000003\\.ari\\), 1 frame missing \\(${SEQUENCE}\\.0000005\\.ari\\)$`,
        ),
      )
    })

    it('says the frames digest differs where the drive holds no checksum of each frame, and names a frame lost by its number', async () => {
      const frame = await offloaded(join(drives, 'D016', 'SHUTTLE_06'), 'D016', false)
      rmSync(frame(2))
      const verified = await run(['verify', join(drives, 'D016', 'SHUTTLE_06'), '--log', 'D016'])
      expect(verified.status).toBe(1)
      expect(verified.stdout.split('\n')).toContain(
        `  READ BACK AND DIFFERENT: ${SEQUENCE}: the frames digest (xxh64 of each frame) differs from the one recorded; ` +
          `1 frame missing (${SEQUENCE}.0000002.ari); no checksum of each frame on this drive to name a changed frame`,
      )
    })
  })

  describe('clips found twice, and a folder that cannot be read', () => {
    const drive = join(drives, 'D017', 'SHUTTLE_07')
    const clip = CLIPS[0]!.replace(/\.\w+$/, '')
    beforeAll(async () => importDrive('D017', drive, 'SHUTTLE_07', await writeDay(drive, 'D017')))

    it('reads each file once where the folders given overlap', async () => {
      const overlapping = await run([
        'verify',
        drive,
        join(drive, 'D017'),
        '--volume',
        'SHUTTLE_07',
        '--log',
        'D017',
        '--json',
      ])
      expect(overlapping.status).toBe(0)
      const { volumes, written } = JSON.parse(overlapping.stdout)
      // Three clips, five frames, two RED segments and a sound file: six clips in eleven files.
      expect({ files: volumes[0].read.files, verified: volumes[0].verified.length, written }).toEqual({
        files: 11,
        verified: 6,
        written: { clips: 6, files: 11, missing: 0 },
      })
    })

    it('neither compares nor records a clip found in two folders, which could be another day’s', async () => {
      // The day's copy damaged; an intact one kept aside in another folder.
      const copy = join(drive, 'D017/A001', CLIPS[0]!)
      const intact = readFileSync(copy)
      mkdirSync(join(drive, 'D017_retry/A001'), { recursive: true })
      writeFileSync(join(drive, 'D017_retry/A001', CLIPS[0]!), intact)
      const damaged = Buffer.from(intact)
      damaged[1000]! ^= 0xff
      writeFileSync(copy, damaged)
      try {
        const before = await copiesOn('D017', 'SHUTTLE_07')
        const twice = await run(['verify', drive, '--log', 'D017'])
        expect(twice.status).toBe(1)
        expect(twice.stdout.split('\n')).toContain(
          `  NOT COMPARED: ${clip}: found 2 times (D017/A001/${CLIPS[0]}, D017_retry/A001/${CLIPS[0]}): verify a folder that holds one of them`,
        )
        expect((await copiesOn('D017', 'SHUTTLE_07'))[clip]).toEqual(before[clip])
      } finally {
        writeFileSync(copy, intact)
        rmSync(join(drive, 'D017_retry'), { recursive: true })
      }
    })

    it('names three of the places a clip was found at most, and counts the others', async () => {
      // Another day's card on the same shuttle, four times over: a camera numbering each card from 1.
      const days = ['D018', 'D019', 'D020', 'D021']
      for (const day of days) {
        mkdirSync(join(drive, day, 'A001'), { recursive: true })
        writeFileSync(join(drive, day, 'A001', CLIPS[0]!), `another day's ${day}`)
      }
      try {
        const many = await run(['verify', drive, '--log', 'D017'])
        expect(many.status).toBe(1)
        expect(many.stdout.split('\n')).toContain(
          `  NOT COMPARED: ${clip}: found 5 times (D017/A001/${CLIPS[0]}, D018/A001/${CLIPS[0]}, D019/A001/${CLIPS[0]} and 2 more): verify a folder that holds one of them`,
        )
      } finally {
        for (const day of days) rmSync(join(drive, day), { recursive: true })
      }
    })

    it('records as not found no clip of a folder it could not read, and exits 1', async () => {
      // A drive failing under one folder: its reads answer EIO.
      const failing = join(dir, 'failing-folder.mjs')
      writeFileSync(
        failing,
        `import fs from 'node:fs'
        import { syncBuiltinESMExports } from 'node:module'
        const readdir = fs.promises.readdir
        fs.promises.readdir = async (path, options) => {
          if (String(path).endsWith(process.env.FAILING_FOLDER)) throw Object.assign(new Error('EIO: i/o error, scandir'), { code: 'EIO' })
          return readdir(path, options)
        }
        syncBuiltinESMExports()`,
      )
      const red = join(drive, 'D017', 'RED')
      const before = await copiesOn('D017', 'SHUTTLE_07')
      const verify = (json: string[], folder = '/D017/RED') =>
        runCommand(['verify', drive, '--log', 'D017', ...json], {
          base: service.base,
          configDir: config,
          argv0: [process.execPath, '--import', failing, COMMAND],
          env: { FAILING_FOLDER: folder },
        })
      const said = await verify([])
      expect(said.status).toBe(1)
      expect(said.stderr).toContain(`${red}: EIO: i/o error, scandir\n`)
      expect(said.stdout.split('\n')).toContain(
        `  NOT READ: ${red}: could not be read; 1 clip of D017 on SHUTTLE_07 not found, and not recorded as not found`,
      )
      expect((await copiesOn('D017', 'SHUTTLE_07'))[RED]).toEqual(before[RED])
      const json = await verify(['--json'])
      expect(json.status).toBe(1)
      expect(JSON.parse(json.stdout).volumes[0]).toMatchObject({
        unreadableFolders: [red],
        notLookedFor: 1,
        missing: [],
      })
      // A folder not read where every clip was found anyway (another tool's, fsck's): said by the
      // walk, and no reason to doubt the read-back.
      const elsewhere = join(drive, 'EDITORIAL')
      mkdirSync(join(elsewhere, 'bins'), { recursive: true })
      try {
        const found = await verify([], '/EDITORIAL')
        expect(found.status).toBe(0)
        expect(found.stderr).toContain(`${elsewhere}: EIO: i/o error, scandir\n`)
        expect(found.stdout).not.toContain('NOT READ')
      } finally {
        rmSync(elsewhere, { recursive: true })
      }
    })

    it('reads a hard link under another name as a file of its own: the clip is still found', async () => {
      // An editorial folder linking a clip under its scene and take: sorted before the day's folder.
      mkdirSync(join(drive, 'AAA_EDITORIAL'))
      linkSync(join(drive, 'D017/A001', CLIPS[1]!), join(drive, 'AAA_EDITORIAL/SC12_TK3.mov'))
      try {
        const linked = await run(['verify', drive, '--log', 'D017', '--json'])
        expect(linked.status).toBe(0)
        expect(JSON.parse(linked.stdout).volumes[0]).toMatchObject({ missing: [], unknownElsewhere: 1 })
      } finally {
        rmSync(join(drive, 'AAA_EDITORIAL'), { recursive: true })
      }
    })
  })

  it('reads one file at a time with --threads 1, to the same outcome', async () => {
    const folder = join(drives, 'D013', 'SHUTTLE_01')
    const [one, many] = [
      await run(['verify', folder, '--log', 'D013', '--threads', '1', '--json']),
      await run(['verify', folder, '--log', 'D013', '--json']),
    ]
    expect([one.status, many.status]).toEqual([0, 0])
    const verified = (r: { stdout: string }) =>
      (JSON.parse(r.stdout) as { volumes: Array<{ verified: string[] }> }).volumes[0]!.verified
    expect(verified(one)).toHaveLength(6)
    expect(verified(one)).toEqual(verified(many))
  })

  it('goes on to its end and its own status when nothing reads what it says (| head, a closed terminal)', async () => {
    const folder = join(drives, 'D013', 'SHUTTLE_01')
    // Both outputs closed before it writes a byte: each write fails (EPIPE).
    const unread = await run(['verify', folder, '--log', 'D013', '--again'], (child) => {
      child.stdout!.destroy()
      child.stderr!.destroy()
    })
    expect(unread).toEqual({ status: 0, stdout: '', stderr: '' })
    // Read back and recorded: the run's resume file is gone, the copies read back just now.
    expect(readdirSync(join(config, 'verify'))).toEqual([])
    const copies = await copiesOn('D013', 'SHUTTLE_01')
    expect(copies[SEQUENCE]).toMatchObject({ action: 'verified' })
  })

  it('ends with 2 when what it says cannot all be written (a full disk under > report.json)', async () => {
    const folder = join(drives, 'D013', 'SHUTTLE_01')
    const full = openSync('/dev/full', 'w')
    try {
      const child = spawn(process.execPath, [COMMAND, 'verify', folder, '--log', 'D013', '--json'], {
        env: { ...process.env, MEDIA_LOG_CONFIG_DIR: config, MEDIA_LOG_URL: service.base, PORT: '' },
        stdio: ['ignore', full, 'pipe'],
      })
      let stderr = ''
      child.stderr!.on('data', (d) => (stderr += d))
      const status = await new Promise((done) => child.once('close', done))
      expect({ status, stderr }).toEqual({ status: 2, stderr: `service: ${service.base} (from MEDIA_LOG_URL)\n` })
    } finally {
      closeSync(full)
    }
  })

  it('finishes recording when Ctrl-C comes as it records, and says a second one would end it there', async () => {
    const folder = join(drives, 'D013', 'SHUTTLE_01')
    // Between the command and the service: the read-back's record held until the test lets it go.
    let recordAsked = () => {}
    const asked = new Promise<void>((resolve) => (recordAsked = resolve))
    let letGo = () => {}
    const relay = createServer((req, res) => {
      const forward = () => {
        const upstream = httpRequest(
          service.base + req.url,
          { method: req.method, headers: { ...req.headers, host: new URL(service.base).host } },
          (answer) => {
            res.writeHead(answer.statusCode!, answer.headers)
            answer.pipe(res)
          },
        )
        req.pipe(upstream)
      }
      if (req.url!.endsWith('/read-back')) {
        letGo = forward
        recordAsked()
      } else forward()
    })
    await new Promise<void>((listening) => relay.listen(5747, '127.0.0.1', listening))
    try {
      const base = 'http://127.0.0.1:5747'
      const fresh = mkdtempSync(join(dir, 'config-'))
      const { [service.base]: token } = JSON.parse(readFileSync(join(config, 'tokens.json'), 'utf8'))
      writeFileSync(join(fresh, 'tokens.json'), JSON.stringify({ [base]: token }))
      let child: ChildProcess | undefined
      const running = runCommand(['verify', folder, '--log', 'D013', '--again'], {
        base,
        configDir: fresh,
        onStarted: (started) => (child = started),
      })
      await asked
      // Let go once the command said it heard Ctrl-C: recording then, it finishes.
      let said = ''
      const heard = new Promise<void>((resolve) =>
        child!.stderr!.on('data', (d) => (said += d).includes('recording what was read back') && resolve()),
      )
      child!.kill('SIGINT')
      await heard
      letGo()
      const recorded = await running
      expect(recorded.status).toBe(0)
      expect(recorded.stderr).toContain(
        '\nrecording what was read back; Ctrl-C again stops now (a run again records it)\n',
      )
      expect(recorded.stdout).toContain('recorded in D013: 6 clips (11 files) as read back\n')
      // Recorded whole: the run's resume file is gone.
      expect(readdirSync(join(fresh, 'verify'))).toEqual([])
    } finally {
      relay.closeAllConnections()
      await new Promise((closed) => relay.close(closed))
    }
  })

  it('reads a share of the clips with --sample', async () => {
    const sampled = await run([
      'verify',
      join(drives, 'D013', 'SHUTTLE_01'),
      '--log',
      'D013',
      '--sample',
      '40%',
      '--json',
    ])
    expect(sampled.status).toBe(0)
    const [volume] = JSON.parse(sampled.stdout).volumes
    // Three of the six clips (40%, rounded up), whole: a sequence's frames are read together.
    expect(volume.verified).toHaveLength(3)
  })

  it('exits 2 when it cannot do its work, saying why', async () => {
    const folder = join(drives, 'D013', 'SHUTTLE_01')
    const cases: Array<[string[], string]> = [
      [['verify', folder], 'verify needs folders and --log'],
      [['verify', join(dir, 'nowhere'), '--log', 'D013'], `${join(dir, 'nowhere')}: no such folder`],
      [
        ['verify', folder, '--log', 'D013', '--sample', '0%'],
        '--sample is a share of the clips, more than 0% and at most 100%',
      ],
      [['verify', folder, '--log', 'D013', '--sample', '5%', '--all'], '--sample and --all: one or the other'],
      // Said in the order the options are checked, whatever else is wrong too.
      [
        ['verify', folder, '--log', 'D013', '--sample', '5%', '--all', '--threads', '0'],
        '--sample and --all: one or the other',
      ],
      [['verify', folder, '--log', 'D404'], "media-log: D404: no such log in the service's project"],
      [
        ['verify', folder, '--log', 'D013', '--threads', '0'],
        '--threads 0: a whole number of files read at once, 1 to 64',
      ],
      [['verify', folder, '--log', 'D013', '--threads', '2.5'], '--threads 2.5: a whole number'],
      [
        ['verify', folder, '--log', 'D013', '--bogus'],
        'media-log: unknown option --bogus (media-log --help lists them)\n',
      ],
      [['verify', folder, '--log'], 'media-log: --log needs a value\n'],
      [['verify', folder, '--log', '--json'], 'media-log: --log needs a value\n'],
      [['verify', folder, '--log', 'D013', '--json=yes'], 'media-log: --json takes no value\n'],
    ]
    for (const [args, said] of cases) {
      const failed = await run(args)
      expect(failed.status).toBe(2)
      expect(failed.stdout).toBe('')
      expect(failed.stderr).toContain(said)
    }
  })

  it('asks for a new token when the kept one is refused, then asks for the log again with it', async () => {
    const configDir = mkdtempSync(join(dir, 'config-'))
    const refused = `mls_${'0'.repeat(16)}_${'A'.repeat(43)}`
    writeFileSync(join(configDir, 'tokens.json'), JSON.stringify({ [service.base]: refused }))
    const folder = mkdtempSync(join(dir, 'drive-'))
    const verifying = runCommand(['verify', folder, '--log', 'D404'], {
      base: service.base,
      configDir,
    })
    await operator.approve('media-log', 30_000)
    const { status, stdout, stderr } = await verifying
    expect({ status, stdout }).toEqual({ status: 2, stdout: '' })
    expect(stderr.split('\n')).toEqual([
      `service: ${service.base} (from MEDIA_LOG_URL)`,
      'the kept token is no longer accepted: asking for a new one',
      expect.stringMatching(
        new RegExp(
          `^asking for a token: in the console \\(${service.base}/approve\\), approve "media-log" showing code `,
        ),
      ),
      `approved; the token is kept in ${join(configDir, 'tokens.json')}`,
      "media-log: D404: no such log in the service's project",
      '',
    ])
    const kept = (JSON.parse(readFileSync(join(configDir, 'tokens.json'), 'utf8')) as Record<string, string>)[
      service.base
    ]!
    expect(kept).not.toBe(refused)
    // The new token is one the service accepts.
    expect(await new MediaLogClient({ baseUrl: service.base, token: kept }).projects()).toMatchObject([
      { project_name: 'Verify Film', active: true },
    ])
  })

  it('does its work when its token cannot be kept, and says the next run asks again', async () => {
    // A file where the config folder would be (as a run under sudo can leave one the user cannot write).
    const blocked = join(mkdtempSync(join(dir, 'config-')), 'not-a-folder')
    writeFileSync(blocked, '')
    const configDir = join(blocked, 'media-log')
    const verifying = runCommand(['verify', join(drives, 'D013', 'SHUTTLE_01'), '--log', 'D013'], {
      base: service.base,
      configDir,
    })
    await operator.approve('media-log', 30_000)
    const { status, stderr } = await verifying
    expect(status).toBe(0)
    expect(stderr).toContain(
      `approved; the token could not be kept in ${join(configDir, 'tokens.json')} (ENOTDIR: not a directory, mkdir '${configDir}'): the next run asks again\n`,
    )
    expect(stderr).not.toMatch(/^\s+at /m)
  })

  it('says first that nothing answers at the service’s URL, and asks for no approval there', async () => {
    // A port nothing listens on, with no token kept for it and then with one: verify and checks alike.
    const nowhere = 'http://localhost:5749'
    const fresh = mkdtempSync(join(dir, 'config-'))
    for (const kept of [false, true]) {
      if (kept)
        writeFileSync(
          join(fresh, 'tokens.json'),
          JSON.stringify({ [nowhere]: `mls_${'0'.repeat(16)}_${'A'.repeat(43)}` }),
        )
      for (const args of [
        ['verify', dir, '--log', 'D013'],
        ['checks', 'D013'],
      ]) {
        const failed = await runCommand(args, { base: nowhere, configDir: fresh })
        expect({ kept, status: failed.status, stdout: failed.stdout }).toEqual({ kept, status: 2, stdout: '' })
        expect(failed.stderr).toBe(
          `service: ${nowhere} (from MEDIA_LOG_URL)\nmedia-log: nothing answers at ${nowhere} (npm start starts the service)\n`,
        )
      }
    }
  })

  it('says in one line that the service cut its answer off (npm start restarting it), and exits 2', async () => {
    // A service that answers every request with the start of a JSON body, then closes the connection.
    const cutting = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
      res.write('{"status":')
      setTimeout(() => res.destroy(), 20)
    })
    await new Promise<void>((listening) => cutting.listen(5748, '127.0.0.1', listening))
    try {
      const base = 'http://127.0.0.1:5748'
      const fresh = mkdtempSync(join(dir, 'config-'))
      writeFileSync(join(fresh, 'tokens.json'), JSON.stringify({ [base]: `mls_${'0'.repeat(16)}_${'A'.repeat(43)}` }))
      const cut = await runCommand(['checks', 'D013'], { base, configDir: fresh })
      expect(cut).toEqual({
        status: 2,
        stdout: '',
        stderr:
          `service: ${base} (from MEDIA_LOG_URL)\n` +
          `media-log: ${base} closed the connection before its answer was whole; run the same command again\n`,
      })
    } finally {
      await new Promise((closed) => cutting.close(closed))
    }
  })
})

// `media-log import` and `media-log checks` as a DIT runs them against `npm start`: a card
// offloaded to two shuttle drives, each with an ASC MHL history of two generations, and the card's
// ALE. The first run waits for the operator's approval and keeps the token; the log then holds
// every clip with both copies, the checks name the one copy that failed verification, and the
// clips report shows it.
import { execFile } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  MediaLogClient,
  MediaLogError,
  MediaLogOperator,
  approvedClient,
  type LogInput,
} from 'media-log-service/client'
import { c4Of } from '../../src/import/read'
import {
  CARD,
  ascManifest,
  cardOffload,
  classicManifest,
  ale,
  hashAle,
  reportedCard,
  scenario04,
  silverstackCsv,
  yoyottaCsv,
} from '../offload-fixtures'
import { COMMAND, runCommand } from './command'
import { launch, type Launched } from './launch'

const PORT = 5741
const ROOT = resolve(import.meta.dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'media-log-import-'))
const drives = join(dir, 'drives')
const config = join(dir, 'config')
let service: Launched
let app: MediaLogClient

type RunOptions = Omit<Parameters<typeof runCommand>[1], 'base' | 'configDir'> & { configDir?: string }

/** The command as a shell runs it, with the config folder and service of this test. */
const run = (args: string[], { configDir = config, ...options }: RunOptions = {}) =>
  runCommand(args, { base: service.base, configDir, ...options })

beforeAll(async () => {
  service = await launch('start', { port: PORT, state: join(dir, 'state') })
  for (const file of await cardOffload(c4Of, drives)) {
    mkdirSync(dirname(file.path), { recursive: true })
    writeFileSync(file.path, file.bytes)
  }
  // A drive as big as they come: hundreds of folders for the walk to go through and say so.
  for (let i = 0; i < 520; i++) mkdirSync(join(drives, 'SHUTTLE_A', 'D012', 'frames', `F${i}`), { recursive: true })
  app = await approvedClient({ baseUrl: service.base, appName: 'Setup', operatorKey: service.operatorKey })
  await app.createProject('Import Film')
  await app.patchConfig({
    pdfs: [
      { id: 'DAILY', label: 'Daily', output_name: '<log>.pdf', template: 'clips-report', enabled: true },
      { id: 'DATAR', label: 'Data', output_name: 'data-<log>.pdf', template: 'data-report', enabled: true },
    ],
  })
})

afterAll(async () => {
  await service?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('media-log import', () => {
  it('asks for approval once, imports both shuttles and the ALE, and keeps the token for the user alone', async () => {
    const importing = run(['import', join(drives, 'SHUTTLE_A'), join(drives, 'SHUTTLE_B'), '--log', 'D012'])
    const operator = new MediaLogOperator({ baseUrl: service.base, key: service.operatorKey })
    let card
    for (let i = 0; i < 1500 && !card; i++) {
      card = (await operator.requests()).requests.find((r) => r.appName === 'media-log')
      if (!card) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    // What the console shows on the card: the code the command printed, and which process asked.
    expect(card?.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)
    expect(card?.userAgent).toMatch(/^media-log \(pid \d+\)$/)
    await operator.decide(card!.id, 'approve')
    const { status, stdout, stderr } = await importing
    expect(stderr.split('\n')).toContain(`service: ${service.base} (from MEDIA_LOG_URL)`)
    expect(stderr).toContain(
      `asking for a token: in the console (${service.base}/approve), approve "media-log" showing code ${card!.code}`,
    )
    expect(stderr).toContain('looked through 500 folders, found ')
    // The checks found the failed verification.
    expect(status, stderr).toBe(1)
    expect(stdout.split('\n')[0]).toBe('D012: created; 4 clips added, 0 changed')
    expect(stdout).toContain('(ascmhl, SHUTTLE_B, 4 clips)')
    expect(stdout).toContain('(ale, 3 clips)')
    // Per folder, the volumes found in it.
    expect(stdout.split('\n')).toContain(`${join(drives, 'SHUTTLE_A')}: volume SHUTTLE_A`)
    expect(stdout.split('\n')).toContain(`${join(drives, 'SHUTTLE_B')}: volume SHUTTLE_B`)
    // The card's ALE, the camera's list of reel A002, does not name the sequence: a warning.
    expect(stdout.trimEnd().split('\n').at(-1)).toBe(
      'checks: 1 error, 1 warning, 0 info (media-log checks D012 lists them)',
    )

    expect(statSync(config).mode & 0o777).toBe(0o700)
    const tokens = join(config, 'tokens.json')
    expect(statSync(tokens).mode & 0o777).toBe(0o600)
    expect(Object.keys(JSON.parse(readFileSync(tokens, 'utf8')))).toEqual([service.base])

    const log = await app.log('D012')
    expect(log).toMatchObject({ id: 'D012', day: 12, date: '2025-06-14' })
    const clips = log.ocf!.clips!
    expect(clips.map((c) => c.clip)).toEqual([...CARD.clips, CARD.sequence])
    for (const clip of clips) {
      expect(clip.copies.map((c) => c.volume)).toEqual(['SHUTTLE_A', 'SHUTTLE_B'])
      // Labelled by algorithm; the ARRIRAW sequence by its frames' digest.
      const label = clip.clip === CARD.sequence ? /^xxh64-frames:[0-9a-f]{64}$/ : /^xxh64:[0-9a-f]{16}$/
      for (const copy of clip.copies) expect(copy.hash).toMatch(label)
    }
    expect(clips[0]).toMatchObject({ camera_model: 'ALEXA 35', tc_start: '14:00:00:00', reel: 'A002' })
  })

  it('says a log the project does not hold as verify says it, and exits 2', async () => {
    expect(await run(['checks', 'D404'])).toEqual({
      status: 2,
      stdout: '',
      stderr: expect.stringMatching(/\nmedia-log: D404: no such log in the service's project\n$/),
    })
  })

  it('makes a token folder another tool left open (0755) the user’s alone again', async () => {
    chmodSync(config, 0o755)
    chmodSync(join(config, 'tokens.json'), 0o644)
    const { status, stderr } = await run(['checks', 'D012'])
    expect(status, stderr).toBe(1)
    expect(statSync(config).mode & 0o777).toBe(0o700)
    expect(statSync(join(config, 'tokens.json')).mode & 0o777).toBe(0o600)
  })

  it('runs again on the kept token and finds nothing to change', async () => {
    const { status, stdout, stderr } = await run([
      'import',
      join(drives, 'SHUTTLE_A'),
      join(drives, 'SHUTTLE_B'),
      '--log',
      'D012',
    ])
    expect(status, stderr).toBe(1)
    expect(stderr).not.toContain('asking for a token')
    expect(stdout).toContain('D012: merged; 0 clips added, 0 changed')
    expect(stdout).toContain('nothing changed: the log already had all of it')
  })

  it('media-log checks prints the failed verification and exits 1', async () => {
    const { status, stdout } = await run(['checks', 'D012'])
    expect(status).toBe(1)
    // A line per kind and volume, then each volume in the words every surface says.
    expect(stdout.split('\n')).toEqual([
      'D012: 1 error, 1 warning, 0 info',
      `  error   Copies read back and different — SHUTTLE_B: 1 clip (${CARD.clips[2]})`,
      `  warning Clips on a volume but in no camera list of their reel: 1 clip (${CARD.sequence})`,
      'copies:',
      '  ✓ SHUTTLE_A 4/4: 4 clips, all verified (read back)',
      '  ✕ SHUTTLE_B 3/4: 4 clips: 1 read back and different, 3 verified (read back)',
      '',
    ])
    // --all: every finding, each in full.
    const all = await run(['checks', 'D012', '--all'])
    expect(all.stdout.split('\n').slice(1, 3)).toEqual([
      `  error   verification-failed    ${CARD.clips[2]} on SHUTTLE_B: read back and different (offload 1.0, 2025-06-14T18:30:00+02:00): found xxh64:0000000000000bad`,
      `  warning not-in-camera-list     ${CARD.sequence} is on SHUTTLE_A, SHUTTLE_B but in no camera list of reel A002`,
    ])
  })

  it('the clips report shows both copies and the failed verification', async () => {
    const pdf = await app.generatePdf({ presetId: 'DAILY', logId: 'D012' })
    const file = join(dir, pdf.data.filename)
    writeFileSync(file, Buffer.from(pdf.data.base64, 'base64'))
    const { stdout: layout } = await promisify(execFile)('pdftotext', ['-layout', file, '-'])
    const text = layout.replace(/\s+/g, ' ')
    for (const clip of [...CARD.clips, CARD.sequence]) expect(text).toContain(clip)
    // Both volumes' manifests record a read-back (ASC MHL `verified`): the chips say so, and how many.
    expect(text).toContain('SHUTTLE_A: 4 clips, all verified (read back) ✓')
    expect(text).toContain('SHUTTLE_B: 4 clips: 1 read back and different, 3 verified (read back) ✕')
    expect(text).toContain(`✕ Copies read back and different — SHUTTLE_B: 1 clip (${CARD.clips[2]})`)
    expect(text).toMatch(
      new RegExp(`${CARD.clips[2]} .* SHUTTLE_A \\(verified\\), SHUTTLE_B \\(read back and different\\)`),
    )
  })

  it('the data report counts the failed copy', async () => {
    const pdf = await app.generatePdf({ presetId: 'DATAR', logId: 'D012' })
    const file = join(dir, pdf.data.filename)
    writeFileSync(file, Buffer.from(pdf.data.base64, 'base64'))
    const { stdout: text } = await promisify(execFile)('pdftotext', ['-raw', file, '-'])
    expect(text.replace(/\s+/g, ' ')).toContain('SHUTTLE_A 4/4 ✓, SHUTTLE_B 3/4 ✕ (1 clip read back and different)')
  })

  it('says what is wrong when a folder does not exist or --log is missing, exit 2', async () => {
    const missing = await run(['import', join(dir, 'nowhere'), '--log', 'D012'])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toBe(`media-log: ${join(dir, 'nowhere')}: no such folder\n`)
    const noLog = await run(['import', drives])
    expect(noLog.status).toBe(2)
    expect(noLog.stderr).toMatch(/^media-log: import needs folders and --log\nusage:/)
  })
})

/** A classic MHL manifest of one clip file beside it, `size` bytes, hashed with XXH64. */
const oneClip = (clip: string, size = 1000) =>
  classicManifest({
    started: '2025-06-15T09:00:00Z',
    entries: [{ file: `${clip}.mov`, size, hashes: { xxh64: '00000000000abcde' } }],
  })

/** Waits for "media-log" to ask, so a test can act between the command's walk and its reading. */
async function waitingRequest(operator: MediaLogOperator): Promise<string> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const waiting = (await operator.requests()).requests.find((r) => r.appName === 'media-log')
    if (waiting) return waiting.id
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('media-log did not ask for a token')
}

const clipsOf = async (id: string) => (await app.log(id)).ocf!.clips!.map((c) => c.clip)

/** No control character but the line breaks, no bidi override or isolate. */
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/

describe('media-log exit status and output', () => {
  it('prints the usage on stderr and exits 2 when given nothing', async () => {
    const { status, stdout, stderr } = await run([])
    expect(status).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^usage:\n  media-log import <folder…> --log ID/)
  })

  it('import --json exits 1 when the checks find errors, and says so in the JSON', async () => {
    const { status, stdout, stderr } = await run(['import', join(drives, 'SHUTTLE_A'), '--log', 'D012', '--json'])
    expect(status, stderr).toBe(1)
    const printed = JSON.parse(stdout)
    expect(printed.log).toBe('D012')
    expect(printed.skipped).toEqual([])
    expect(printed.answers).toHaveLength(1)
    expect(printed.answers[0]).toMatchObject({ success: true, created: false, unreadable: [] })
    expect(printed.summary).toMatchObject({ errors: 1, warnings: 1, info: 0 })
  })

  it('a clip name with escape sequences and bidi overrides cannot rewrite what media-log checks prints', async () => {
    // Cursor up, erase the line, and a summary of its own; then text turned right to left.
    const forged = 'A001C001\u001b[1A\u001b[2K\rD014: 0 errors, 0 warnings, 0 info\u001b[K\u009b2J\u202eRORRE'
    const log: LogInput = {
      id: 'D014',
      day: 14,
      date: '2025-06-16',
      ocf: { clips: [{ clip: forged, size: 0, copies: [{ volume: 'SSD\u001b]0;owned\u0007', hash: null }] }] },
    }
    await app.createLog(log)
    const { status, stdout } = await run(['checks', 'D014'])
    expect(status).toBe(1)
    expect(stdout).not.toMatch(CONTROLS)
    const lines = stdout.split('\n')
    expect(lines[0]).toMatch(/^D014: 1 error, /)
    expect(stdout).toContain(
      'A001C001\\u001b[1A\\u001b[2K\\u000dD014: 0 errors, 0 warnings, 0 info\\u001b[K\\u009b2J\\u202eRORRE',
    )
    const json = await run(['checks', 'D014', '--json'])
    expect(json.status).toBe(1)
    expect(json.stdout).not.toMatch(CONTROLS)
    expect(JSON.parse(json.stdout).checks[0].message).toContain(forged)
  })
})

describe('media-log reads the files it found, and only those', () => {
  it('skips a manifest swapped for a symbolic link after the walk, sends the others and exits 1', async () => {
    const folder = join(dir, 'swap', 'SSD_SWAP')
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'a.mhl'), oneClip('OK001'))
    writeFileSync(join(folder, 'b.mhl'), oneClip('OK002'))
    const outside = join(dir, 'outside.mhl')
    writeFileSync(outside, oneClip('SECRET001'))
    const configDir = join(dir, 'config-swap')
    const operator = new MediaLogOperator({ baseUrl: service.base, key: service.operatorKey })

    const importing = run(['import', folder, '--log', 'D015'], { configDir })
    // The command has walked the folder and waits for its token: b.mhl becomes a link now.
    const request = await waitingRequest(operator)
    unlinkSync(join(folder, 'b.mhl'))
    symlinkSync(outside, join(folder, 'b.mhl'))
    await operator.decide(request, 'approve')
    const { status, stdout, stderr } = await importing

    expect(status, stderr).toBe(1)
    expect(stdout).toContain(`  NOT SENT ${join(folder, 'b.mhl')}: it is a symbolic link now, not the file found`)
    expect(await clipsOf('D015')).toEqual(['OK001'])
  })

  it('reads files whose names are not UTF-8 and says so, and prints file names safely', async () => {
    const folder = join(dir, 'names', 'SSD_NAMES')
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'a.mhl'), oneClip('NAME001'))
    // Latin-1 bytes, as an old Windows or a camera may leave them.
    writeFileSync(
      Buffer.concat([Buffer.from(`${folder}/b`), Buffer.from([0xe9, 0xff]), Buffer.from('.mhl')]),
      oneClip('NAME002'),
    )
    writeFileSync(join(folder, 'c\u001b[2J.mhl'), oneClip('NAME003'))
    const { status, stdout, stderr } = await run(['import', folder, '--log', 'D016'])
    expect(status, stderr).toBe(0)
    expect(stderr).toContain(`${folder}/b\ufffd\ufffd.mhl: its name is not UTF-8`)
    expect(stdout).not.toMatch(CONTROLS)
    expect(stderr).not.toMatch(CONTROLS)
    expect(stdout).toContain(`  read ${folder}/c\\u001b[2J.mhl (mhl, SSD_NAMES, 1 clip)`)
    expect(await clipsOf('D016')).toEqual(['NAME001', 'NAME002', 'NAME003'])
  })

  it('sends more than 10,000 manifests in several requests', async () => {
    const folder = join(dir, 'many', 'SSD_MANY')
    mkdirSync(folder, { recursive: true })
    const clips = Array.from({ length: 10_001 }, (_, i) => `M${String(i).padStart(5, '0')}`)
    for (const clip of clips) writeFileSync(join(folder, `${clip}.mhl`), oneClip(clip))
    const { status, stdout, stderr } = await run(['import', folder, '--log', 'D017'])
    expect(status, stderr).toBe(0)
    expect(stdout.split('\n')[0]).toBe('D017: created; 10001 clips added, 0 changed')
    expect(stderr).toContain('sent 10000 of 10001 files')
    expect(await clipsOf('D017')).toEqual(clips)
  })

  it('reads an ascmhl/ folder of 600 generations with 256 files allowed open (macOS default)', async () => {
    const card = join(dir, 'open', 'SSD_OPEN', 'A003R1AB')
    mkdirSync(join(card, 'ascmhl'), { recursive: true })
    for (let g = 1; g <= 600; g++) {
      const manifest = ascManifest({
        created: '2025-06-17T10:00:00Z',
        entries: [{ path: 'Clips/A003C001.mxf', size: 5000, hashes: { xxh64: '0000000000000abc' } }],
        process: g === 1 ? 'transfer' : 'in-place',
      })
      writeFileSync(join(card, 'ascmhl', `${String(g).padStart(4, '0')}_A003R1AB_2025-06-17_100000Z.mhl`), manifest)
    }
    const shell = ['/bin/sh', '-c', 'ulimit -n 256 && exec "$0" "$@"', process.execPath, COMMAND]
    const { status, stdout, stderr } = await run(['import', join(dir, 'open', 'SSD_OPEN'), '--log', 'D018'], {
      argv0: shell,
    })
    expect(status, stderr).toBe(0)
    expect(stdout.split('\n')[0]).toBe('D018: created; 1 clip added, 0 changed')
    expect(stdout.match(/ \(ascmhl, SSD_OPEN, 1 clip\)$/gm)).toHaveLength(600)
    expect(await clipsOf('D018')).toEqual(['A003C001'])
  })
})

describe('media-log never sends credentials elsewhere', () => {
  let elsewhere: ReturnType<typeof createServer>
  let redirector: ReturnType<typeof createServer>
  const arrived: IncomingHttpHeaders[] = []
  let redirecting = ''

  beforeAll(async () => {
    elsewhere = createServer((request, response) => {
      arrived.push(request.headers)
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"projects":[]}')
    })
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r))
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`
    redirector = createServer((request, response) => {
      request.resume()
      response.writeHead(307, { location: `${target}${request.url}` }).end()
    })
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r))
    redirecting = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`
  })

  afterAll(() => {
    elsewhere?.close()
    redirector?.close()
  })

  it('a redirect is an error, not followed with the token', async () => {
    const configDir = join(dir, 'config-redirect')
    mkdirSync(configDir, { recursive: true })
    writeFileSync(join(configDir, 'tokens.json'), JSON.stringify({ [redirecting]: 'kept-token-of-this-service' }))
    const { status, stderr } = await run(['checks', 'D012', '--url', redirecting], { configDir })
    expect(status).toBe(2)
    expect(stderr).toContain(
      `media-log: 307 ${redirecting} answered with a redirect to http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/projects: not followed`,
    )
    expect(arrived).toEqual([])
  })

  it('says how to open a project when the service has none, rather than only that none is loaded', async () => {
    // A service as one answers with no project open: its projects listed empty, the import refused.
    const empty = createServer((request, response) => {
      request.resume()
      const listing = request.url === '/projects'
      response
        .writeHead(listing ? 200 : 409, { 'content-type': 'application/json' })
        .end(listing ? '[]' : '{"error":"No Project Loaded"}')
    })
    await new Promise<void>((r) => empty.listen(0, '127.0.0.1', r))
    try {
      const base = `http://127.0.0.1:${(empty.address() as AddressInfo).port}`
      const configDir = join(dir, 'config-no-project')
      mkdirSync(configDir, { recursive: true })
      writeFileSync(join(configDir, 'tokens.json'), JSON.stringify({ [base]: 'kept-token-of-this-service' }))
      const { status, stdout, stderr } = await run(
        ['import', join(drives, 'SHUTTLE_A'), '--log', 'D012', '--url', base],
        {
          configDir,
        },
      )
      expect({ status, stdout }).toEqual({ status: 2, stdout: '' })
      expect(stderr.split('\n').at(-2)).toBe(
        'media-log: 409 No Project Loaded: the service has no project open. The application that keeps the logs (Daytalog) opens or creates one; or POST /project/create (docs/projects.md)',
      )
    } finally {
      empty.close()
    }
  })

  it('the typed client follows no redirect with the operator key or a token', async () => {
    const operator = new MediaLogOperator({ baseUrl: redirecting, key: 'operator-key-0123456789abcdef' })
    await expect(operator.requests()).rejects.toMatchObject({ status: 307 })
    const client = new MediaLogClient({ baseUrl: redirecting, token: 'a-token' })
    const refused = await client.projects().catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(MediaLogError)
    expect(arrived).toEqual([])
  })
})

describe('media-log volumes', () => {
  it('takes each backup folder in a parent folder as its own volume, and says so', async () => {
    const { status, stderr } = await run(['import', drives, '--log', 'D013'])
    expect(status, stderr).toBe(1)
    const lines = stderr.split('\n')
    expect(lines).toContain(
      `${drives} holds 2 folders with manifests (SHUTTLE_A, SHUTTLE_B): each is a volume of its own`,
    )
    expect(lines).toContain(`${join(drives, 'SHUTTLE_A')}: volume SHUTTLE_A (the folder's name)`)
    expect(lines).toContain(`${join(drives, 'SHUTTLE_B')}: volume SHUTTLE_B (the folder's name)`)
    const clips = (await app.log('D013')).ocf!.clips!
    expect(clips).toHaveLength(4)
    for (const clip of clips) expect(clip.copies.map((c) => c.volume)).toEqual(['SHUTTLE_A', 'SHUTTLE_B'])
  })

  it('sends CSV transfer reports and hash ALEs, not other CSVs, and says the volumes each folder gave', async () => {
    const reports = join(dir, 'reports')
    mkdirSync(reports, { recursive: true })
    writeFileSync(join(reports, 'D022_SHUTTLE_C.csv'), silverstackCsv(reportedCard('SHUTTLE_C'), 'SHUTTLE_C'))
    writeFileSync(join(reports, 'D022_SHUTTLE_D.ale'), hashAle(reportedCard('SHUTTLE_D'), 'SHUTTLE_D'))
    writeFileSync(join(reports, 'budget.csv'), 'Item,Cost\nShuttle drives,400\n')
    const { status, stdout, stderr } = await run(['import', reports, '--log', 'D022', '--date', '2025-06-14'])
    expect(status, `${stdout}${stderr}`).toBe(0)
    const lines = stdout.split('\n')
    expect(lines).toContain(`  read ${join(reports, 'D022_SHUTTLE_C.csv')} (csv-transfer, SHUTTLE_C, 4 clips)`)
    expect(lines).toContain(`  read ${join(reports, 'D022_SHUTTLE_D.ale')} (ale-transfer, SHUTTLE_D, 4 clips)`)
    expect(stdout).not.toContain('budget.csv')
    expect(lines).toContain(`${reports}: volumes SHUTTLE_C, SHUTTLE_D`)
    // The reports name their volumes: the folder's name is not said to be one.
    expect(stderr).not.toContain('(the folder')
    const clips = (await app.log('D022')).ocf!.clips!
    expect(clips.map((c) => c.clip)).toEqual([...CARD.clips, CARD.sequence])
    for (const clip of clips) expect(clip.copies.map((c) => c.volume)).toEqual(['SHUTTLE_C', 'SHUTTLE_D'])
  })

  it('takes a YoYotta CSV’s volume from its Media column, not from the folder it lies in; a volume renamed follows everywhere', async () => {
    const folder = join(dir, 'yoyotta', 'reports')
    mkdirSync(folder, { recursive: true })
    writeFileSync(
      join(folder, 'transfer.csv'),
      yoyottaCsv(reportedCard('areca').slice(0, 3), 'areca', '/Volumes/areca/Job'),
    )
    const { status, stdout, stderr } = await run(['import', folder, '--log', 'D023', '--date', '2025-06-14'])
    expect(status, `${stdout}${stderr}`).toBe(0)
    expect(stdout.split('\n')).toContain(`  read ${join(folder, 'transfer.csv')} (csv-transfer, areca, 3 clips)`)
    expect(stdout.split('\n')).toContain('  ✓ areca 3/3: 3 clips, checksums recorded (not read back)')
    expect(stdout.split('\n')).toContain(`${folder}: volume areca`)
    expect(stdout).not.toContain('volume reports')
    // A volume a report named wrong is renamed from the command; the checks follow.
    const renamed = await run(['volume', 'rename', 'D023', 'areca', 'ARECA_RAID'])
    expect(renamed.status, renamed.stderr).toBe(0)
    expect(renamed.stdout.split('\n')).toEqual([
      'D023: areca is ARECA_RAID now (3 copies)',
      '  ✓ ARECA_RAID 3/3: 3 clips, checksums recorded (not read back)',
      'checks: 0 errors, 0 warnings, 0 info',
      '',
    ])
    expect((await app.log('D023')).ocf!.copies).toEqual(['ARECA_RAID'])
    const missing = await run(['volume', 'remove', 'D023', 'areca'])
    expect(missing.status).toBe(2)
    expect(missing.stderr.split('\n').at(-2)).toBe('media-log: 404 Volume not found')
  })

  it('says a sidecar’s failed read-back from the ASC’s scenario 04, and the volume is not called verified', async () => {
    const root = join(dir, 'scenario_04')
    for (const { path, content } of scenario04()) {
      mkdirSync(dirname(join(root, path)), { recursive: true })
      writeFileSync(join(root, path), content)
    }
    const { status, stdout } = await run(['import', join(root, 'file_server'), '--log', 'D024', '--day', '24'])
    expect(status).toBe(1)
    const lines = stdout.split('\n')
    expect(lines).toContain(
      `  note: ${join(root, 'file_server/A002R2EC/ascmhl/0002_A002R2EC_2020-01-17_143000.mhl')}: ` +
        `1 file that is not media (a sidecar) read back and different (${join(root, 'file_server/A002R2EC/Sidecar.txt')} on file_server): the day's checks name it`,
    )
    expect(lines).toContain(
      '  ✕ file_server 2/2: 2 clips, all verified (read back); 1 file that is not media (a sidecar) failed verification',
    )
    expect(lines.at(-2)).toBe('checks: 1 error, 0 warnings, 0 info (media-log checks D024 lists them)')
  })

  it('sums a camera list’s notes up in one line, and gives each in --json', async () => {
    const folder = join(dir, 'camera-list')
    mkdirSync(folder, { recursive: true })
    const names = Array.from({ length: 31 }, (_, i) => `C001C0${String(i + 1).padStart(2, '0')}_250614_R1AB`)
    writeFileSync(join(folder, 'C001.ale'), ale({ columns: ['Name', 'Tape'], rows: names.map((n) => [n, 'C001']) }))
    const said = await run(['import', folder, '--log', 'D025', '--date', '2025-06-14'])
    const notes = said.stdout.split('\n').filter((line) => line.startsWith('  note:'))
    expect(notes).toEqual([
      `  note: ${join(folder, 'C001.ale')}: 31 clips kept as the camera's list, on no volume yet (${names.slice(0, 5).join(', ')}, and 26 more): the checks name each until a copy of it comes`,
    ])
    const json = await run(['import', folder, '--log', 'D025', '--json'])
    const [answer] = JSON.parse(json.stdout).answers
    expect(answer.notes).toHaveLength(1)
    expect(answer.noteDetail).toHaveLength(31)
    expect(answer.noteDetail[0]).toEqual({
      name: join(folder, 'C001.ale'),
      message: `line 11: no camera clip ${names[0]} in the log`,
    })
  })

  it('refuses --volume for a folder holding several backups, exit 2, and sends nothing', async () => {
    const { status, stdout, stderr } = await run(['import', drives, '--log', 'D019', '--volume', 'RAID'])
    expect(status).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toContain(
      `media-log: ${drives} holds 2 folders with manifests (SHUTTLE_A, SHUTTLE_B), each a backup of its own: --volume would make them one volume.`,
    )
    expect((await app.logs()).logs.map((l) => l.id)).not.toContain('D019')
  })
})

describe('media-log finds the service where npm start serves it', () => {
  const configDir = join(dir, 'config-port')
  const port = () => new URL(service.base).port
  const approve = () =>
    new MediaLogOperator({ baseUrl: service.base, key: service.operatorKey }).approve('media-log', 30_000)

  it('follows PORT when no URL is given, and says which URL it uses', async () => {
    const checking = run(['checks', 'D012'], { configDir, env: { MEDIA_LOG_URL: undefined, PORT: port() } })
    await approve()
    const { status, stdout, stderr } = await checking
    expect(stderr.split('\n')[0]).toBe(`service: http://localhost:${port()} (from PORT)`)
    expect(status, stderr).toBe(1)
    expect(stdout.split('\n')[0]).toBe('D012: 1 error, 1 warning, 0 info')
  })

  it("reads PORT from its project's .dev.vars when the environment has none", async () => {
    const project = join(dir, 'project')
    cpSync(join(ROOT, 'bin'), join(project, 'bin'), { recursive: true })
    // The built client alone: dist/client/types is rebuilt meanwhile by client-types.test.ts.
    cpSync(join(ROOT, 'dist/client/index.js'), join(project, 'dist/client/index.js'))
    // The command finds its client by the package's own name, through package.json's exports.
    cpSync(join(ROOT, 'package.json'), join(project, 'package.json'))
    writeFileSync(join(project, '.dev.vars'), `OPERATOR_KEY=not-this-one-0123456789\nPORT=${port()}\n`)
    const { status, stdout, stderr } = await run(['checks', 'D012'], {
      configDir,
      env: { MEDIA_LOG_URL: undefined },
      argv0: [process.execPath, join(project, 'bin', 'media-log.mjs')],
    })
    expect(stderr.split('\n')[0]).toBe(
      `service: http://localhost:${port()} (from PORT in ${join(project, '.dev.vars')})`,
    )
    expect(status, stderr).toBe(1)
    expect(stdout.split('\n')[0]).toBe('D012: 1 error, 1 warning, 0 info')
  })

  it('the typed client, given no URL, goes where MEDIA_LOG_URL or PORT says', async () => {
    const saved = { MEDIA_LOG_URL: process.env.MEDIA_LOG_URL, PORT: process.env.PORT }
    try {
      delete process.env.MEDIA_LOG_URL
      process.env.PORT = port()
      expect(await new MediaLogClient().ping()).toEqual({ status: 'ok', active: true })
      process.env.MEDIA_LOG_URL = service.base
      process.env.PORT = '1'
      expect(new MediaLogClient().baseUrl).toBe(service.base)
      expect(await new MediaLogClient().ping()).toEqual({ status: 'ok', active: true })
    } finally {
      for (const [name, value] of Object.entries(saved))
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
    }
  })
})

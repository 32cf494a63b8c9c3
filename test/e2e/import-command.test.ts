// `media-log import` and `media-log checks` as a DIT runs them against `npm start`: a card
// offloaded to two shuttle drives, each with an ASC MHL history of two generations, and the card's
// ALE. The first run waits for the operator's approval and keeps the token; the log then holds
// every clip with both copies, the checks name the one copy that failed verification, and the
// clips report shows it.
import { execFile, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MediaLogOperator, approvedClient, type MediaLogClient } from 'media-log-service/client'
import { c4Of } from '../../src/import/read'
import { CARD, cardOffload } from '../offload-fixtures'
import { launch, type Launched } from './launch'

const PORT = 5741
const ROOT = resolve(import.meta.dirname, '../..')
const COMMAND = join(ROOT, 'bin', 'media-log.mjs')
const dir = mkdtempSync(join(tmpdir(), 'media-log-import-'))
const drives = join(dir, 'drives')
const config = join(dir, 'config')
let service: Launched
let app: MediaLogClient

type Run = { status: number | null; stdout: string; stderr: string }

/** The command as a shell runs it, with the config folder and service of this test. */
function run(args: string[]): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [COMMAND, ...args], {
      env: { ...process.env, MEDIA_LOG_CONFIG_DIR: config, MEDIA_LOG_URL: service.base },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (status) => done({ status, stdout, stderr }))
  })
}

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
    await new MediaLogOperator({ baseUrl: service.base, key: service.operatorKey }).approve('media-log', 30_000)
    const { status, stdout, stderr } = await importing
    expect(stderr).toContain(`approve "media-log" in the console (${service.base}/approve)`)
    expect(stderr).toContain('looked through 500 folders, found ')
    expect(status, stderr).toBe(0)
    expect(stdout.split('\n')[0]).toBe('D012: created; 4 clips added, 0 changed')
    expect(stdout).toContain('(ascmhl, SHUTTLE_B, 4 clips)')
    expect(stdout).toContain('(ale, 3 clips)')
    expect(stdout.trimEnd().split('\n').at(-1)).toBe(
      'checks: 1 error, 0 warnings, 0 info (media-log checks D012 lists them)',
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

  it('runs again on the kept token and finds nothing to change', async () => {
    const { status, stdout, stderr } = await run([
      'import',
      join(drives, 'SHUTTLE_A'),
      join(drives, 'SHUTTLE_B'),
      '--log',
      'D012',
    ])
    expect(status, stderr).toBe(0)
    expect(stderr).not.toContain('asking for a token')
    expect(stdout).toContain('D012: merged; 0 clips added, 0 changed')
    expect(stdout).toContain('nothing changed: the log already had all of it')
  })

  it('media-log checks prints the failed verification and exits 1', async () => {
    const { status, stdout } = await run(['checks', 'D012'])
    expect(status).toBe(1)
    expect(stdout.split('\n')).toEqual([
      'D012: 1 error, 0 warnings, 0 info',
      `  error   verification-failed    ${CARD.clips[2]} on SHUTTLE_B failed verification (xxh64:0000000000000bad)`,
      '',
    ])
  })

  it('the clips report shows both copies and the failed verification', async () => {
    const pdf = await app.generatePdf('DAILY', 'D012')
    const file = join(dir, pdf.data.filename)
    writeFileSync(file, Buffer.from(pdf.data.base64, 'base64'))
    const { stdout: text } = await promisify(execFile)('pdftotext', ['-layout', file, '-'])
    for (const clip of [...CARD.clips, CARD.sequence]) expect(text).toContain(clip)
    expect(text).toContain('SHUTTLE_A: 4/4 clips ✓')
    expect(text).toContain('SHUTTLE_B: 4/4 clips, 1 failed verification !')
    expect(text).toMatch(
      new RegExp(`✕ Copies that failed verification: 1\\s+${CARD.clips[2]} on SHUTTLE_B failed verification`),
    )
    expect(text).toMatch(new RegExp(`${CARD.clips[2]} .* SHUTTLE_A, SHUTTLE_B \\(failed\\)`))
  })

  it('the data report counts the failed copy', async () => {
    const pdf = await app.generatePdf('DATAR', 'D012')
    const file = join(dir, pdf.data.filename)
    writeFileSync(file, Buffer.from(pdf.data.base64, 'base64'))
    const { stdout: text } = await promisify(execFile)('pdftotext', ['-layout', file, '-'])
    expect(text).toMatch(/SHUTTLE_A 4\/4, SHUTTLE_B 4\/4 \(1 failed\)/)
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

// `media-log watch` against `npm start`, while an offload is written into the watched drive the
// way a copy tool writes it: the media first, then the ASC MHL generation in pieces over two
// seconds, the chain file naming it last; later the verification pass's generation, and the
// card's ALE. Each report is taken once it is whole and never half-written; stopped and started
// again, or a report renamed, nothing is sent twice.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { xxhash64 } from 'hash-wasm'
import { MediaLogOperator, approvedClient, type MediaLogClient } from 'media-log-service/client'
import { c4Of } from '../../src/import/read'
import { CARD, ascChain, cardOffload, classicManifest } from '../offload-fixtures'
import { COMMAND, runCommand } from './command'
import { launch, type Launched } from './launch'
import { openBrowser } from './browser'

const PORT = 5746
const dir = mkdtempSync(join(tmpdir(), 'media-log-watch-'))
const drive = join(dir, 'SHUTTLE_A')
const config = join(dir, 'config')
let service: Launched
let app: MediaLogClient
let approving = true
let approver: Promise<void>

/** The watcher, as a shell runs it; what it printed so far. */
function watcher(args = [drive, '--log', 'D012'], configDir = config) {
  const child = spawn(process.execPath, [COMMAND, 'watch', ...args, '--settle', '1'], {
    env: { ...process.env, MEDIA_LOG_URL: service.base, MEDIA_LOG_CONFIG_DIR: configDir, PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const out = { stdout: '', stderr: '', child }
  child.stdout.on('data', (d) => (out.stdout += d))
  child.stderr.on('data', (d) => (out.stderr += d))
  return out
}

const stopped = (child: ChildProcess) =>
  new Promise<number | null>((done) => {
    child.once('exit', (code) => done(code))
    child.kill('SIGINT')
  })

async function until(what: string, ready: () => boolean | Promise<boolean>, ms = 30_000) {
  for (const started = Date.now(); !(await ready());) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** A classic MHL of one clip beside it, hashed on `date`. */
const oneClip = (clip: string, date: string) =>
  classicManifest({
    started: `${date}T09:00:00Z`,
    entries: [{ file: `${clip}.mov`, size: 1000, hashes: { xxh64: '00000000000abcde' } }],
  })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const taken = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('taken '))

/** The offload of SHUTTLE_A as the fixtures make it, by name. */
let offload: Map<string, Uint8Array>
const reel = join(drive, 'D012', CARD.reel)

beforeAll(async () => {
  service = await launch('start', { port: PORT, state: join(dir, 'state') })
  app = await approvedClient({ baseUrl: service.base, appName: 'Setup', operatorKey: service.operatorKey })
  await app.createProject('Watch Film')
  offload = new Map(
    (await cardOffload(c4Of, dir)).filter((f) => f.path.startsWith(drive)).map((f) => [f.path, f.bytes]),
  )
  mkdirSync(drive, { recursive: true })
  // The operator approves the command's first request, as at the console.
  const operator = new MediaLogOperator({ baseUrl: service.base, key: service.operatorKey })
  approver = (async () => {
    while (approving) {
      for (const card of (await operator.requests()).requests)
        if (card.appName === 'media-log') await operator.decide(card.id, 'approve')
      await sleep(100)
    }
  })()
})

afterAll(async () => {
  approving = false
  await approver
  await service?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const generation = (n: number) => [...offload.keys()].find((path) => new RegExp(`/ascmhl/000${n}_`).test(path))!

describe('media-log watch', () => {
  let first: ReturnType<typeof watcher>

  it('takes a generation once it is whole and named by the chain, never while it is written', async () => {
    first = watcher()
    await until('watching', () => first.stderr.includes('watching '))
    // The media first (what the manifest lists; never read by the watcher).
    for (const clip of CARD.clips) {
      mkdirSync(join(reel, 'Clips'), { recursive: true })
      writeFileSync(join(reel, 'Clips', `${clip}.mxf`), Buffer.alloc(4096, 1))
    }
    // Generation 1 in four pieces over two seconds, then the chain naming it.
    const path = generation(1)
    const bytes = offload.get(path)!
    mkdirSync(dirname(path), { recursive: true })
    const piece = Math.ceil(bytes.length / 4)
    writeFileSync(path, bytes.subarray(0, piece))
    for (let i = 1; i < 4; i++) {
      await sleep(650)
      appendFileSync(path, bytes.subarray(i * piece, (i + 1) * piece))
    }
    await sleep(1500)
    // Whole, but no chain names it yet: it waits.
    expect(taken(first.stdout)).toEqual([])
    const name = path.slice(path.lastIndexOf('/') + 1)
    writeFileSync(
      join(dirname(path), 'ascmhl_chain.xml'),
      ascChain([{ generation: 1, path: name, c4: await c4Of(bytes) }]),
    )
    await until('generation 1 taken', () => taken(first.stdout).length === 1)
    expect(taken(first.stdout)).toEqual([
      `taken ${path} into D012: created; 4 clips added, 0 changed, volume SHUTTLE_A`,
    ])
    const log = await app.log('D012')
    expect(log.ocf!.clips!.map((c) => c.clip).sort()).toEqual([...CARD.clips, CARD.sequence].sort())
    expect(first.stderr).not.toContain('not taken')
  })

  it('takes the next generation and the ALE, each once', async () => {
    const second = generation(2)
    writeFileSync(second, offload.get(second)!)
    const chain = join(dirname(second), 'ascmhl_chain.xml')
    writeFileSync(chain, offload.get(chain)!)
    const ale = join(drive, 'D012', `${CARD.reel}.ale`)
    writeFileSync(ale, offload.get(ale)!)
    await until('generation 2 and the ALE taken', () => taken(first.stdout).length === 3)
    expect(taken(first.stdout).slice(1).sort()).toEqual(
      [
        `taken ${second} into D012: merged; 0 clips added, 4 changed, volume SHUTTLE_A`,
        `taken ${ale} into D012: merged; 0 clips added, 3 changed`,
      ].sort(),
    )
    expect(first.stderr).not.toContain('not taken')
  })

  it('sends nothing twice: stopped and started again, or a report renamed', async () => {
    const before = await app.send('GET', '/log/D012')
    expect(await stopped(first.child)).toBe(0)
    const again = watcher()
    await until('watching again', () => again.stderr.includes('watching '))
    const ale = join(drive, 'D012', `${CARD.reel}.ale`)
    renameSync(ale, join(drive, 'D012', 'renamed.ale'))
    // Longer than the settling time and a tick, with every report on the drive walked.
    await sleep(3000)
    expect(taken(again.stdout)).toEqual([])
    expect(again.stderr).not.toContain('not taken')
    const after = await app.send('GET', '/log/D012')
    expect(after.etag).toBe(before.etag)
    expect(after.text).toBe(before.text)
    // It is watching all the same: a new report is taken.
    const fresh = join(drive, 'D012', 'A005.mhl')
    writeFileSync(fresh, oneClip('A005C001', '2025-06-14'))
    await until('a new report taken', () => taken(again.stdout).length === 1)
    expect(taken(again.stdout)).toEqual([`taken ${fresh} into D012: merged; 1 clip added, 0 changed, volume SHUTTLE_A`])
    expect(await stopped(again.child)).toBe(0)
  })

  it('without --log, takes each report into the day its own dates name', async () => {
    const other = join(dir, 'SHUTTLE_B')
    mkdirSync(other, { recursive: true })
    const watching = watcher([other])
    await until('watching', () => watching.stderr.includes('watching '))
    expect(watching.stderr).toContain('taken into the day each one’s dates name')
    // Hashed on the day of D012 (2025-06-14): into D012. The next day's: a new log after it.
    const sameDay = join(other, 'A003.mhl')
    writeFileSync(sameDay, oneClip('A003C001', '2025-06-14'))
    await until('the same day taken', () => taken(watching.stdout).length === 1).catch((err: Error) => {
      throw new Error(`${err.message}\n${watching.stderr}\n${watching.stdout}`)
    })
    const nextDay = join(other, 'A004.mhl')
    writeFileSync(nextDay, oneClip('A004C001', '2025-06-15'))
    await until('the next day taken', () => taken(watching.stdout).length === 2)
    // A camera's ALE names no day: refused, and the service's reason said.
    const undated = join(other, `${CARD.reel}.ale`)
    writeFileSync(undated, offload.get(join(drive, 'D012', `${CARD.reel}.ale`))!)
    await until('the ALE refused', () => watching.stderr.includes('not taken'))
    expect(await stopped(watching.child)).toBe(0)
    expect(watching.stderr).toContain(
      `not taken ${undated}: 400 Validation Error: date is required: no file is dated, so none names a day\n`,
    )
    expect(taken(watching.stdout)).toEqual([
      `taken ${sameDay} into D012: merged; 1 clip added, 0 changed, volume SHUTTLE_B`,
      `taken ${nextDay} into D13_250615: created; 1 clip added, 0 changed, volume SHUTTLE_B`,
    ])
    expect((await app.log('D13_250615')).day).toBe(13)
  })

  it('is held by no FIFO put where a generation’s chain is: takes the next report, and stops on Ctrl-C', async () => {
    const shuttle = join(dir, 'SHUTTLE_F')
    const history = join(shuttle, 'D700', 'ascmhl')
    mkdirSync(history, { recursive: true })
    writeFileSync(
      join(history, '0001_D700_2025-06-21_090000Z.mhl'),
      '<?xml version="1.0"?><hashlist version="2.0"></hashlist>\n',
    )
    execFileSync('mkfifo', [join(history, 'ascmhl_chain.xml')])
    const watching = watcher([shuttle, '--log', 'D700'])
    await until('watching', () => watching.stderr.includes('watching '))
    const next = join(shuttle, 'A007.mhl')
    writeFileSync(next, oneClip('A007C001', '2025-06-21'))
    await until('the next report taken', () => taken(watching.stdout).length === 1)
    expect(await stopped(watching.child)).toBe(0)
    expect(taken(watching.stdout)).toEqual([
      `taken ${next} into D700: created; 1 clip added, 0 changed, volume SHUTTLE_F`,
    ])
  })

  it('watches a drive unplugged and plugged back again, and takes what it holds then', async () => {
    const shuttle = join(dir, 'SHUTTLE_E')
    mkdirSync(shuttle, { recursive: true })
    const watching = watcher([shuttle, '--log', 'D500'])
    await until('watching', () => watching.stderr.includes('watching '))
    writeFileSync(join(shuttle, 'A020.mhl'), oneClip('A020C001', '2025-08-01'))
    await until('the first report taken', () => taken(watching.stdout).length === 1)
    // Unplugged: the folder goes. Plugged back with a report written elsewhere meanwhile.
    rmSync(shuttle, { recursive: true })
    await until('said gone', () => watching.stderr.includes(`${shuttle} is gone (a drive unplugged?)`), 10_000)
    mkdirSync(shuttle)
    writeFileSync(join(shuttle, 'A021.mhl'), oneClip('A021C001', '2025-08-01'))
    await until('said back', () => watching.stderr.includes(`${shuttle} is back: watched again`), 10_000)
    await until('the report it came back with taken', () => taken(watching.stdout).length === 2, 10_000)
    // Watched, not only walked: a report written now is taken within seconds.
    const started = Date.now()
    writeFileSync(join(shuttle, 'A022.mhl'), oneClip('A022C001', '2025-08-01'))
    await until('a report written after taken', () => taken(watching.stdout).length === 3, 10_000)
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(await stopped(watching.child)).toBe(0)
    expect(taken(watching.stdout).map((line) => line.split(':')[0])).toEqual([
      `taken ${join(shuttle, 'A020.mhl')} into D500`,
      `taken ${join(shuttle, 'A021.mhl')} into D500`,
      `taken ${join(shuttle, 'A022.mhl')} into D500`,
    ])
    expect((await app.log('D500')).ocf!.clips!.map((c) => c.clip)).toEqual(['A020C001', 'A021C001', 'A022C001'])
  })

  it('takes 1,000 reports arriving together, every one', { timeout: 180_000 }, async () => {
    const crowd = join(dir, 'RAID')
    mkdirSync(crowd, { recursive: true })
    const watching = watcher([crowd, '--log', 'D200'])
    await until('watching', () => watching.stderr.includes('watching '))
    for (let i = 0; i < 1000; i++)
      writeFileSync(
        join(crowd, `R${String(i).padStart(4, '0')}.mhl`),
        oneClip(`R${String(i).padStart(4, '0')}C001`, '2025-07-01'),
      )
    await until('1,000 reports taken', () => taken(watching.stdout).length === 1000, 150_000)
    expect(await stopped(watching.child)).toBe(0)
    expect(watching.stderr).not.toContain('not taken')
    const log = await app.log('D200')
    expect(log.ocf!.clips!.length).toBe(1000)
    expect(new Set(log.ocf!.clips!.map((c) => c.copies[0]!.volume))).toEqual(new Set(['RAID']))
  })

  it('with --verify, reads the clips of each report taken back once the folder is idle, and records what it found', async () => {
    const shuttle = join(dir, 'SHUTTLE_V')
    const clips = ['A010C001_250701_R2CD', 'A010C002_250701_R2CD']
    const entries = []
    for (const [i, clip] of clips.entries()) {
      const bytes = Buffer.alloc(1024 * 1024 + i, `${clip} `)
      mkdirSync(join(shuttle, 'A010'), { recursive: true })
      writeFileSync(join(shuttle, 'A010', `${clip}.mov`), bytes)
      entries.push({ file: `A010/${clip}.mov`, size: bytes.length, hashes: { xxhash64be: await xxhash64(bytes) } })
    }
    const watching = watcher([shuttle, '--log', 'D400', '--verify', '--idle', '1'])
    await until('watching', () => watching.stderr.includes('watching '))
    writeFileSync(join(shuttle, 'A010.mhl'), classicManifest({ started: '2025-07-01T09:00:00Z', entries }))
    await until('the report taken', () => taken(watching.stdout).length === 1)
    // The second clip is damaged on the drive after its copy was hashed, while the copy tool goes
    // on writing elsewhere on the drive: nothing is read back while the folder keeps changing.
    const second = join(shuttle, 'A010', `${clips[1]}.mov`)
    writeFileSync(second, Buffer.alloc(1024 * 1024 + 1, 'damaged '))
    for (let i = 0; i < 8; i++) {
      appendFileSync(join(shuttle, 'A011.partial'), Buffer.alloc(4096, i))
      await sleep(300)
    }
    expect(watching.stdout).not.toContain('reading back')
    await until('read back', () => /verified: 1 clip\n/.test(watching.stdout)).catch((err: Error) => {
      throw new Error(`${err.message}\n${watching.stdout}\n${watching.stderr}`)
    })
    await until('its outcome said', () => /READ BACK AND DIFFERENT/.test(watching.stdout))
    const lines = watching.stdout.split('\n')
    const from = lines.indexOf(`reading back 2 clips of D400 in ${shuttle} (idle for 1 s)`)
    expect(from).toBe(1)
    expect(lines[from + 1]).toMatch(/^SHUTTLE_V: 2 files read back, 2 MB in \d+\.\d s/)
    expect(lines.slice(from + 2, from + 4)).toEqual([
      '  verified: 1 clip',
      expect.stringMatching(new RegExp(`^  READ BACK AND DIFFERENT: ${clips[1]}: xxh64 [0-9a-f]{16} read back, `)),
    ])
    await until('its problem told', () => /not every clip verified/.test(watching.stderr))
    expect(await stopped(watching.child)).toBe(0)
    // Recorded in the log as media-log verify records it.
    const log = await app.log('D400')
    expect(log.ocf!.clips!.map((c) => [c.clip, c.copies[0]!.volume, c.copies[0]!.action])).toEqual([
      [clips[0], 'SHUTTLE_V', 'verified'],
      [clips[1], 'SHUTTLE_V', 'failed'],
    ])

    // Stopped before the folder was idle: the read-back still due is said, with the command that does it.
    const next = watcher([shuttle, '--log', 'D400', '--verify', '--idle', '60'])
    await until('watching again', () => next.stderr.includes('watching '))
    const bytes = Buffer.alloc(4096, 'third ')
    writeFileSync(join(shuttle, 'A010', 'A010C003_250701_R2CD.mov'), bytes)
    const third = {
      file: 'A010/A010C003_250701_R2CD.mov',
      size: bytes.length,
      hashes: { xxhash64be: await xxhash64(bytes) },
    }
    writeFileSync(join(shuttle, 'A010b.mhl'), classicManifest({ started: '2025-07-01T10:00:00Z', entries: [third] }))
    await until('the third clip taken', () => taken(next.stdout).length === 1)
    expect(await stopped(next.child)).toBe(0)
    expect(next.stdout).not.toContain('reading back')
    expect(next.stderr).toContain(
      `not read back: 1 clip of D400 in ${shuttle} (media-log verify ${shuttle} --log D400 --volume SHUTTLE_V reads them)\n`,
    )
  })

  it('stops on a hang-up (the terminal closed) as on Ctrl-C: the console says it stopped', async () => {
    const shuttle = join(dir, 'SHUTTLE_H')
    mkdirSync(shuttle, { recursive: true })
    const watching = watcher([shuttle, '--log', 'D600'])
    await until('watching', () => watching.stderr.includes('watching '))
    const exited = new Promise<number | null>((done) => watching.child.once('exit', (code) => done(code)))
    watching.child.kill('SIGHUP')
    expect(await exited).toBe(0)
    const state = await fetch(`${service.base}/approve/state`, { headers: { 'x-operator-key': service.operatorKey } })
    const listed = ((await state.json()) as { watchers: Array<{ folders: string[]; stoppedAt: string | null }> })
      .watchers
    expect(listed.find((w) => w.folders[0] === shuttle)?.stoppedAt).toEqual(expect.any(String))
  })

  it('is listed in the console while it runs, with its last report and problems; marked once stopped or quiet', async () => {
    // The watchers of the tests before, stopped, taken off the list first.
    const operator = new MediaLogOperator({ baseUrl: service.base, key: service.operatorKey })
    const state = await fetch(`${service.base}/approve/state`, { headers: { 'x-operator-key': service.operatorKey } })
    const before = ((await state.json()) as { watchers: Array<{ id: string; stoppedAt: string | null }> }).watchers
    for (const { id, stoppedAt } of before) {
      expect(stoppedAt).not.toBeNull()
      expect(await operator.dismissWatcher(id)).toEqual({ success: true })
    }
    const shuttle = join(dir, 'SHUTTLE_C')
    mkdirSync(shuttle, { recursive: true })
    const watching = watcher([shuttle, '--log', 'D300'])
    await until('watching', () => watching.stderr.includes('watching '))
    writeFileSync(join(shuttle, 'A006.mhl'), oneClip('A006C001', '2025-06-20'))
    writeFileSync(join(shuttle, 'broken.mhl'), '<?xml version="1.0"?><hashlist version="1.1"><hash>')
    await until(
      'a report taken and one refused',
      () => taken(watching.stdout).length === 1 && /not taken/.test(watching.stderr),
    )

    const browser = await openBrowser()
    try {
      const page = await browser.context.newPage()
      // The console's clock, to be moved on when a watcher falls quiet.
      await page.clock.install()
      await page.goto(`${service.base}/approve?key=${service.operatorKey}`)
      const card = page.locator('#watchers-list .card.watcher', { hasText: shuttle })
      await card.locator('.watch-last', { hasText: 'A006.mhl' }).waitFor()
      expect(await card.locator('.badge').textContent()).toBe('Watching')
      expect(await card.locator('.watch-folders').textContent()).toBe(shuttle)
      expect(await card.locator('.watch-into').textContent()).toBe('Into D300')
      expect(await card.locator('.watch-last').textContent()).toMatch(
        /^1 report taken since \d\d:\d\d · last A006\.mhl into D300 \(new day\): 1 clip added, (just now|\d+ s ago)$/,
      )
      expect(await card.locator('.watch-problems li').allTextContents()).toEqual([
        expect.stringMatching(/^\d\d:\d\d not taken .*broken\.mhl: 400 /),
      ])
      expect(await card.locator('.watch-warning').isHidden()).toBe(true)
      expect(await page.locator('#watchers-count').textContent()).toBe('1 watching')

      // Ctrl-C: the console says it stopped, and that reports since wait.
      expect(await stopped(watching.child)).toBe(0)
      await card.locator('.badge', { hasText: 'Stopped' }).waitFor()
      expect(await card.locator('.watch-warning').textContent()).toMatch(
        /^Stopped at \d\d:\d\d\. Reports written since wait until media-log watch runs again\.$/,
      )
      expect(await page.locator('#watchers-count').textContent()).toBe('1 stopped or quiet')

      // A watcher killed without a word (its terminal closed): quiet once three of its intervals pass.
      const gone = '2b3c4d5e-6f70-4a8b-9c0d-1e2f3a4b5c6d'
      await app.reportWatcher(gone, {
        folders: ['/Volumes/SHUTTLE_D'],
        everySeconds: 5,
        taken: 0,
        problems: [],
        walkedOnly: [],
      })
      const quiet = page.locator('#watchers-list .card.watcher', { hasText: '/Volumes/SHUTTLE_D' })
      await quiet.locator('.badge', { hasText: 'Watching' }).waitFor()
      expect(await quiet.locator('.watch-into').textContent()).toBe(
        'Into the day each report’s dates name · reported by Setup',
      )
      await page.clock.fastForward(16_000)
      await quiet.locator('.badge', { hasText: 'Not heard from' }).waitFor()
      expect(await quiet.locator('.watch-warning').textContent()).toMatch(
        /^Not heard from since \d\d:\d\d: its terminal may have closed, or this laptop slept\. Reports written since wait until it runs again\.$/,
      )
      expect(await page.locator('#watchers-count').textContent()).toBe('2 stopped or quiet')

      // Dismissed, the stopped one is gone from the console and from the service.
      await card.getByRole('button', { name: /^Dismiss/ }).click()
      await card.waitFor({ state: 'detached' })
      expect(await operator.dismissWatcher(gone)).toEqual({ success: true })
      await quiet.waitFor({ state: 'detached' })
      expect(await page.locator('#watchers-empty').isVisible()).toBe(true)
    } finally {
      await browser.close()
    }
  })

  it('refuses what it cannot watch before it asks for anything: exit 2, said why', async () => {
    const run = (args: string[]) => runCommand(['watch', ...args], { base: service.base, configDir: config })
    const idle = await run([drive, '--idle', '5'])
    expect([idle.status, idle.stderr]).toEqual([2, 'media-log: --idle goes with --verify\n'])
    const never = await run([drive, '--verify', '--idle', 'later'])
    expect([never.status, never.stderr]).toEqual([2, 'media-log: --idle is seconds, from 0 to 86400\n'])
    const none = await run([])
    expect([none.status, none.stderr]).toEqual([2, expect.stringMatching(/^media-log: watch needs folders\nusage:/)])
    const settle = await run([drive, '--log', 'D012', '--settle', 'soon'])
    expect([settle.status, settle.stderr]).toEqual([2, 'media-log: --settle is seconds, from 0 to 600\n'])
    const nowhere = await run([join(dir, 'nowhere'), '--log', 'D012'])
    expect([nowhere.status, nowhere.stderr]).toEqual([2, `media-log: ${join(dir, 'nowhere')} is not a folder\n`])
  })

  it('takes a report all the same when it cannot remember it for the next watch, and says so', async () => {
    // The file of the reports taken cannot be written: a folder in its place. (Its token is asked
    // for, and approved as every other.)
    const forgetful = join(dir, 'config-forgetful')
    mkdirSync(join(forgetful, 'watch-taken.txt'), { recursive: true })
    const folder = join(dir, 'SHUTTLE_R')
    mkdirSync(folder)
    const report = join(folder, 'F001.mhl')
    writeFileSync(report, oneClip('F001C001', '2025-06-14'))
    const watching = watcher([folder, '--log', 'D099'], forgetful)
    await until('the report taken and said', () => watching.stderr.includes('not remembered'))
    expect(taken(watching.stdout)).toEqual([
      `taken ${report} into D099: created; 1 clip added, 0 changed, volume SHUTTLE_R`,
    ])
    expect(watching.stderr).toContain(`${report}: taken, but not remembered for the next watch (EISDIR`)
    expect(watching.stderr).not.toContain('not taken')
    expect(await stopped(watching.child)).toBe(0)
  })
})

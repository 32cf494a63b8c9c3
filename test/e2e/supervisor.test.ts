// npm start keeps the service up, on the port .dev.vars names: workerd killed (as a crash or an out-of-memory abort ends it) is
// started again on the same state, within seconds, with one line on stderr; npm start gives up,
// exit 1, only when workerd cannot be started any more. At start it removes the bundle folders
// that `kill -9`ed runs left behind.
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvedClient, type MediaLogClient } from 'media-log-service/client'
import { openBrowser } from './browser'
import { ONE_CLIP_LOG, copyOfTree, launch, type Launched } from './launch'
import { freePort } from './server'

const dir = mkdtempSync(join(tmpdir(), 'media-log-supervisor-'))
const tree = copyOfTree()
const bundles = join(tree.dir, '.wrangler', 'bundle')
/** workerd as Miniflare would run it, unless this file exists: then it cannot start. */
const broken = join(dir, 'workerd-broken')
// A pid that ran and ended; the test's own pid is one that runs.
const ended = spawnSync('true').pid!
let service: Launched
let app: MediaLogClient
let stderr = ''

beforeAll(async () => {
  for (const pid of [ended, process.pid]) {
    mkdirSync(join(bundles, String(pid)), { recursive: true })
    writeFileSync(join(bundles, String(pid), 'index.js'), '// an earlier run')
  }
  const workerd = createRequire(createRequire(import.meta.url).resolve('miniflare'))('workerd').default as string
  const wrapper = join(dir, 'workerd')
  writeFileSync(
    wrapper,
    `#!/bin/sh\nif [ -e '${broken}' ]; then echo 'workerd: cannot start' >&2; exit 3; fi\nexec '${workerd}' "$@"\n`,
  )
  chmodSync(wrapper, 0o755)
  // The port as the project's .dev.vars names it, PORT not set.
  const port = await freePort(5600, 5619, [5601, 5611])
  writeFileSync(join(tree.dir, '.dev.vars'), `PORT=${port}\n`)
  service = await launch('start', {
    dir: tree.dir,
    port,
    state: join(dir, 'state'),
    env: { MINIFLARE_WORKERD_PATH: wrapper, PORT: undefined },
  })
  service.child.stderr!.on('data', (d) => (stderr += d))
  app = await approvedClient({ baseUrl: service.base, appName: 'Offload Tool', operatorKey: service.operatorKey })
  await app.createProject('Supervised')
  await app.createLog(ONE_CLIP_LOG)
})

afterAll(async () => {
  await service?.stop()
  tree.remove()
  rmSync(dir, { recursive: true, force: true })
})

/** The workerd processes npm start's node process runs (Linux /proc). */
function workerdOf(pid: number): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const program = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent === pid && program === 'workerd') found.push(Number(entry))
    } catch {
      // the process ended while being read
    }
  }
  return found
}

/** Whether GET /ping answers 200 within `ms` (the service must be back "within seconds"). */
async function answersWithin(ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    try {
      const response = await fetch(`${service.base}/ping`)
      const body = await response.json()
      if (response.ok && body.status === 'ok') return true
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  return false
}

describe('npm start supervises workerd', () => {
  it('serves on the port its .dev.vars names when PORT is not set', () => {
    expect(service.output()).toContain(`Media-Log Service on http://localhost:${new URL(service.base).port}`)
  })

  it('removed the bundle folders of runs that ended, and kept those of running ones', () => {
    expect(existsSync(join(bundles, String(ended)))).toBe(false)
    expect(existsSync(join(bundles, String(process.pid), 'index.js'))).toBe(true)
    expect(existsSync(join(bundles, String(service.child.pid), 'index.js'))).toBe(true)
  })

  it('says in one line that its port is taken when started again beside itself, and builds nothing', () => {
    const port = Number(new URL(service.base).port)
    const again = spawnSync(process.execPath, [join(tree.dir, 'scripts', 'start.mjs')], {
      cwd: tree.dir,
      env: { ...process.env, PORT: String(port), MEDIA_LOG_STATE: join(dir, 'state-again') },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect({ status: again.status, stdout: again.stdout, stderr: again.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr:
        `Port ${port} is in use on 127.0.0.1: is the service already running? ` +
        `Stop it, or start this one on another port: PORT=${port + 10} npm start\n`,
    })
    expect(existsSync(join(bundles, String(again.pid)))).toBe(false)
  })

  it('starts workerd again after kill -9, twice, says so in one line each, and the log is still there', async () => {
    const killed: number[] = []
    for (let round = 0; round < 2; round++) {
      const [workerd, ...more] = workerdOf(service.child.pid!)
      expect(more).toEqual([])
      process.kill(workerd!, 'SIGKILL')
      killed.push(workerd!)
      expect(await answersWithin(30_000), stderr).toBe(true)
      expect(workerdOf(service.child.pid!)).not.toContain(workerd)
    }
    expect(stderr.split('\n').filter((line) => line.startsWith('workerd'))).toEqual([
      `workerd (pid ${killed[0]}) exited with signal SIGKILL; restarting it in 0.25 s`,
      `workerd (pid ${killed[1]}) exited with signal SIGKILL; restarting it in 0.5 s`,
    ])
    expect(await app.log('D001')).toEqual(ONE_CLIP_LOG)
    expect(service.child.exitCode).toBe(null)
  })

  it('an open console is live again within 3 s of the service answering, and shows who asks then', async () => {
    const browser = await openBrowser()
    try {
      const page = browser.context.pages()[0] ?? (await browser.context.newPage())
      await page.goto(`${service.base}/approve?key=${service.operatorKey}`)
      await page.getByText('No application is waiting.').waitFor()
      const [workerd] = workerdOf(service.child.pid!)
      process.kill(workerd!, 'SIGKILL')
      await page.getByText('Reconnecting…').waitFor({ timeout: 10_000 })
      expect(await answersWithin(30_000), stderr).toBe(true)
      const back = Date.now()
      await page.getByText('Live', { exact: true }).waitFor({ timeout: 10_000 })
      const after = Date.now() - back
      expect(after).toBeLessThan(3_000)
      const asking = fetch(`${service.base}/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ appName: 'Right After', code: 'AFTR-0001' }),
      })
      await page.getByRole('button', { name: 'Deny Right After' }).click()
      const answer = await asking
      expect([answer.status, await answer.json()]).toEqual([403, { error: 'access not approved' }])
    } finally {
      await browser.close()
    }
  })

  it('exits 1 when workerd cannot be started again, and says why', async () => {
    writeFileSync(broken, '')
    const exited = new Promise<number | null>((resolve) => service.child.once('exit', (code) => resolve(code)))
    const [workerd] = workerdOf(service.child.pid!)
    process.kill(workerd!, 'SIGKILL')
    expect(await exited).toBe(1)
    const lines = stderr.split('\n').filter((line) => line.startsWith('workerd could not be started again'))
    expect(lines).toHaveLength(5)
    expect(lines.at(-1)).toMatch(/^workerd could not be started again \(5 attempts, the last: .+\); npm start stops$/)
    expect(existsSync(join(bundles, String(service.child.pid)))).toBe(false)
  })
})

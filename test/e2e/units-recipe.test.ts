/**
 * docs/units.md's "Try it on one laptop", as a reader follows it in a fresh copy of the tree: each
 * `$` line of its blocks typed into bash as written (the three starts left running), and what the
 * page shows under a line printed by it, `…` standing for keys, codes and times. What the page has
 * the reader do in a console or an application (a link code, a project, a day logged) is done
 * through the same API. The ports are the page's own: 5252, 5253 and 5254 must be free.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ONE_CLIP_LOG, copyOfTree } from './launch'
import { call, tokenOn } from './service-calls'
import { pattern } from './shown'

type Step = { command: string; shown: string[] }

/** The recipe's `$` lines, each with the lines the page shows under it. */
function recipe(): Step[] {
  const page = readFileSync(resolve(import.meta.dirname, '../../docs/units.md'), 'utf8')
  const section = page.slice(page.indexOf('## Try it on one laptop'), page.indexOf('## Set up the production'))
  const steps: Step[] = []
  for (const [, body] of section.matchAll(/```text\n([\s\S]*?)```/g))
    for (const line of body!.split('\n').filter(Boolean)) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), shown: [] })
      else steps.at(-1)!.shown.push(line)
    }
  return steps
}

const tree = copyOfTree()
const started: ChildProcess[] = []
// The reader's terminal: none of the test's own service variables.
const environment = { ...process.env }
for (const name of ['PORT', 'MEDIA_LOG_STATE', 'MEDIA_LOG_URL', 'MEDIA_LOG_PRODUCTION']) delete environment[name]

/** A start typed into its own terminal: resolves with its output once it printed the console's URL. */
async function start(command: string): Promise<string> {
  const child = spawn('bash', ['-c', command], { cwd: tree.dir, env: environment, stdio: 'pipe', detached: true })
  started.push(child)
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  for (let waited = 0; !/^Operator console: .*\n/m.test(output); waited += 100) {
    if (child.exitCode !== null || waited > 180_000) throw new Error(`${command} stopped:\n${output}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return output
}

/** A command typed into the fourth terminal: its output, and its exit status. */
function run(command: string): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-c', command], { cwd: tree.dir, env: environment, stdio: 'pipe' })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.once('close', (status) => done({ status, output }))
  })
}

const lines = (output: string) =>
  output
    .split('\n')
    .map((line) => line.trimEnd())
    .filter(Boolean)

afterAll(async () => {
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGTERM')
    } catch {}
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r))
  }
  tree.remove()
})

describe('docs/units.md, Try it on one laptop', () => {
  it(
    'runs as written: a production and two carts linked, a day on one cart served by the other',
    { timeout: 300_000 },
    async () => {
      const steps = recipe()
      expect(steps.map((step) => step.command.replace(/--code .*/, '--code'))).toEqual([
        'npm start -- --production feature',
        'npm start',
        'PORT=5254 MEDIA_LOG_STATE=.wrangler/cart-b npm start',
        'npx media-log link http://localhost:5253/productions/feature --unit "Main unit" --code',
        'PORT=5254 npx media-log link http://localhost:5253/productions/feature --unit "Second unit" --code',
        'PORT=5254 npx media-log sync',
      ])
      const [production, cartA, cartB, linkA, linkB, sync] = steps as [Step, Step, Step, Step, Step, Step]

      // The three starts, typed into their terminals one after the other without waiting (each
      // takes some 10 s to bundle and start), each printing what the page shows, its console's
      // URL answering 200.
      const starts = [production, cartA, cartB].map((step) => {
        const output = start(step.command)
        // Failed while an earlier one is awaited: said when its turn comes, not as unhandled.
        output.catch(() => {})
        return { step, output }
      })
      const services: Array<{ base: string; key: string }> = []
      for (const { step, output } of starts) {
        const printed = lines(await output)
        for (const line of step.shown)
          expect(
            printed.some((p) => pattern(line).test(p)),
            `"${line}" in ${printed}`,
          ).toBe(true)
        const consoleUrl = printed.find((p) => p.startsWith('Operator console: '))!.slice('Operator console: '.length)
        // As a browser opens it: signed in and sent on to the console itself, which answers 200.
        const signIn = await fetch(consoleUrl, { redirect: 'manual' })
        await signIn.arrayBuffer()
        expect(signIn.status, consoleUrl).toBe(303)
        const shell = await fetch(new URL(signIn.headers.get('location')!, consoleUrl), {
          headers: { cookie: signIn.headers.get('set-cookie')!.split(';')[0]! },
        })
        expect([shell.status, (await shell.text()).includes('id="days-list"')], consoleUrl).toEqual([200, true])
        const { origin, pathname, searchParams } = new URL(consoleUrl)
        services.push({ base: origin + pathname.replace(/\/approve$/, ''), key: searchParams.get('key')! })
      }
      const [office, a, b] = services as [(typeof services)[0], (typeof services)[0], (typeof services)[0]]
      // One operator key opens all three consoles.
      expect(new Set(services.map((s) => s.key)).size).toBe(1)

      // In the production's console: a link code per unit. On each cart: a project, as an application makes it.
      const codes = new Map<string, string>()
      for (const unit of ['Main unit', 'Second unit']) {
        const made = await call(office.base, 'POST', '/approve/link-codes', {
          operatorKey: office.key,
          body: { name: unit, unit: true },
        })
        expect(made.status).toBe(201)
        codes.set(unit, made.body.code)
      }
      const tokens: string[] = []
      for (const cart of [a, b]) {
        const token = await tokenOn(cart.base, cart.key, 'Offload Tool')
        const created = await call(cart.base, 'POST', '/project/create', { token, body: { project_name: 'Feature' } })
        expect(created.status).toBe(201)
        tokens.push(token)
      }

      // The link commands, each with its unit's code where the page shows `…`.
      for (const step of [linkA, linkB]) {
        const unit = /--unit "([^"]+)"/.exec(step.command)![1]!
        const { status, output } = await run(step.command.replace('--code …', `--code ${codes.get(unit)}`))
        expect([status, lines(output)]).toEqual([0, step.shown])
      }

      // A day logged on the first cart reaches the second, which listens to the production.
      const day = ONE_CLIP_LOG
      expect((await call(a.base, 'POST', '/log', { token: tokens[0], body: day })).status).toBe(201)
      for (let i = 0; i < 100; i++) {
        const [held, status] = await Promise.all([
          call(b.base, 'GET', '/log/D001', { token: tokens[1] }),
          call(b.base, 'GET', '/sync/status', { token: tokens[1] }),
        ])
        if (held.status === 200 && status.body.live) break
        await new Promise((r) => setTimeout(r, 100))
      }
      expect((await call(b.base, 'GET', '/log/D001', { token: tokens[1] })).body).toEqual(day)
      const { status, output } = await run(sync.command)
      const printed = lines(output)
      expect(status).toBe(0)
      expect(printed).toHaveLength(sync.shown.length)
      sync.shown.forEach((line, i) => expect(printed[i]).toMatch(pattern(line)))
    },
  )
})

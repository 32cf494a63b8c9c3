/**
 * The pages of docs/ that show commands, run as a reader runs them: a fresh `npm start` in a copy
 * of the tree, then each ```sh block typed into one bash session in that folder (variables and
 * files carry from block to block, as in a terminal), while the operator approves every request
 * that comes in, as the reader does in the console. The ```text block under a command block is
 * what the reader sees: each of its lines must be a line of the output, `…` standing for ids,
 * tokens, times and paths, and nothing else may be printed. A block that runs `npm start` is the
 * start itself, done by the test; its output is compared with what the start printed. A block of
 * one `npx media-log watch …` is a terminal of its own, left running while the next blocks are
 * typed in the first: once the page's blocks have run, everything it shows must have been
 * printed there, and Ctrl-C (SIGINT to its process group, as a terminal sends it) must stop it.
 * Only the port differs from the page: 5252 may be in use where the tests run.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyOfTree, launch, type Launched } from './launch'
import { freePort, jsonCaller } from './server'
import { pattern } from './shown'

type Block = { code: string; expected?: string[] }

/** The command blocks of a page, each with the output block right under it, if any. */
function blocksOf(page: string): Block[] {
  const text = readFileSync(resolve(import.meta.dirname, '../../docs', page), 'utf8')
  const blocks: Block[] = []
  for (const [, lang, body] of text.matchAll(/```(\w*)\n([\s\S]*?)```/g)) {
    if (lang === 'sh') blocks.push({ code: body! })
    else if (lang === 'text' && blocks.length && !blocks.at(-1)!.expected)
      blocks.at(-1)!.expected = body!.split('\n').filter(Boolean)
  }
  return blocks
}

/**
 * Every line shown on the page matches a line printed, and every line printed is shown. Order is
 * not compared: a command's stdout and stderr reach the terminal each at its own pace.
 */
function expectShown(expected: string[], printed: string[], what: string) {
  const left = [...printed]
  for (const line of expected) {
    const at = left.findIndex((p) => pattern(line).test(p))
    expect(at, `${what}: "${line}" in\n${printed.join('\n')}`).toBeGreaterThanOrEqual(0)
    left.splice(at, 1)
  }
  expect(left, `${what}: printed but not shown`).toEqual([])
}

/** One bash session: `run` types a block and resolves with what it printed (stdout and stderr). */
function terminal(cwd: string, env: NodeJS.ProcessEnv) {
  const shell = spawn('bash', ['--noprofile', '--norc'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true })
  let output = ''
  shell.stdout.on('data', (d) => (output += d))
  shell.stderr.on('data', (d) => (output += d))
  // Stop at the first failing command, as a reader would; stderr joins stdout in the order written.
  shell.stdin.write('set -e -o pipefail\nexec 2>&1\n')
  let serial = 0
  return {
    async run(code: string): Promise<string[]> {
      const mark = `__block_${++serial}_done__`
      const from = output.length
      // curl leaves the answer without a line break: the mark goes on a line of its own.
      shell.stdin.write(`${code}\necho\necho ${mark}\n`)
      for (let waited = 0; !output.includes(mark); waited += 50) {
        if (shell.exitCode !== null || waited > 90_000)
          throw new Error(`the block stopped (exit ${shell.exitCode}):\n${code}\n${output.slice(from)}`)
        await new Promise((r) => setTimeout(r, 50))
      }
      return output
        .slice(from, output.indexOf(mark))
        .split('\n')
        .map((line) => line.trimEnd())
        .filter(Boolean)
    },
    // What a block left running in the background goes with the terminal, as a closed window takes it.
    close: () => stopGroup(shell),
  }
}

/** SIGTERM to a process and what it started: its group. */
function stopGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  try {
    process.kill(-child.pid!, signal)
  } catch {
    // Already gone.
  }
}

/** A command that runs until Ctrl-C, in a terminal of its own. */
const OWN_TERMINAL = /^npx media-log watch [^\n]+\n$/

/** Runs `code` in a terminal of its own; `stop` waits for what the page shows, then presses Ctrl-C. */
async function ownTerminal(code: string, cwd: string, env: NodeJS.ProcessEnv, what: string, expected: string[]) {
  const child = spawn('bash', ['--noprofile', '--norc', '-c', code], { cwd, env, detached: true })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
  const printed = () =>
    output
      .split('\n')
      .map((line) => line.trimEnd())
      .filter(Boolean)
  const until = async (ready: () => boolean, why: string) => {
    for (let waited = 0; !ready(); waited += 100) {
      if (waited > 30_000) throw new Error(`${what}: ${why} within 30 s; it printed:\n${output}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  running.add(child)
  // Watching before the reader goes on, as they would see it in its window.
  await until(() => output.includes('watching '), 'not watching')
  return {
    async stop() {
      await until(() => expected.every((line) => printed().some((p) => pattern(line).test(p))), 'not all shown')
      stopGroup(child, 'SIGINT')
      await exited
      running.delete(child)
      expectShown(expected, printed(), what)
    },
  }
}

const tree = copyOfTree()
const state = mkdtempSync(join(tmpdir(), 'media-log-docs-'))
const config = mkdtempSync(join(tmpdir(), 'media-log-docs-config-'))
let service: Launched
let call: ReturnType<typeof jsonCaller>
let shell: ReturnType<typeof terminal>
let local: (text: string) => string
let approving = true
let approver: Promise<void>
let environment: NodeJS.ProcessEnv
/** Commands left running in terminals of their own, stopped with the rest if a page fails. */
const running = new Set<ChildProcess>()

beforeAll(async () => {
  const port = await freePort(5700, 5719)
  local = (text) =>
    text.replaceAll('localhost:5252', `localhost:${port}`).replace('(from the default port)', '(from …)')
  service = await launch('start', { dir: tree.dir, port, state })
  call = jsonCaller(service)
  // The operator at the console: approves whatever asks, as the pages tell the reader to.
  approver = (async () => {
    while (approving) {
      const { body } = await call('GET', '/approve/requests', { operator: true })
      for (const { id } of body.requests as Array<{ id: string }>)
        await call('POST', `/approve/requests/${id}`, { operator: true, body: { decision: 'approve' } })
      await new Promise((r) => setTimeout(r, 100))
    }
  })()
  // The command's token goes to a folder of the test's own, and it finds the service by PORT.
  environment = { ...process.env, PORT: String(port), MEDIA_LOG_CONFIG_DIR: config }
  shell = terminal(tree.dir, environment)
}, 120_000)

afterAll(async () => {
  approving = false
  await approver
  shell?.close()
  for (const child of running) stopGroup(child)
  await service?.stop()
  tree.remove()
  rmSync(state, { recursive: true, force: true })
  rmSync(config, { recursive: true, force: true })
})

/** Runs a page's blocks in the one terminal, each compared with the output the page shows. */
async function runPage(page: string) {
  const blocks = blocksOf(page)
  const leftRunning: Array<{ stop: () => Promise<void> }> = []
  for (const [i, block] of blocks.entries()) {
    const what = `${page}, block ${i + 1}: ${block.code.split('\n')[0]}`
    if (OWN_TERMINAL.test(block.code)) {
      leftRunning.push(
        await ownTerminal(local(block.code), tree.dir, environment, what, (block.expected ?? []).map(local)),
      )
      continue
    }
    if (/^npm start$/m.test(block.code)) {
      // The start block is the start itself, which the test did: it may hold nothing else.
      expect(block.code, what).toBe('npm ci\nnpm start\n')
      const started = service
        .output()
        .split('\n')
        .map((l) => l.trimEnd())
      for (const line of block.expected ?? [])
        expect(
          started.some((l) => pattern(local(line)).test(l)),
          `${what}: "${line}"`,
        ).toBe(true)
      continue
    }
    expectShown((block.expected ?? []).map(local), await shell.run(local(block.code)), what)
  }
  for (const command of leftRunning) await command.stop()
  return blocks
}

describe('the pages with commands, run in one terminal as a reader runs them', () => {
  it('leaves no command block of docs/ unrun: the pages below are all that have them', () => {
    const docs = resolve(import.meta.dirname, '../../docs')
    const shells = /^```(sh|bash|shell|zsh|console)\s*$/m
    const withCommands = readdirSync(docs).filter((name) => shells.test(readFileSync(join(docs, name), 'utf8')))
    expect(withCommands.sort()).toEqual(['api.md', 'getting-started.md'])
    // Only `sh` blocks are run: a page holds no command block under another name.
    for (const name of withCommands)
      for (const [, lang] of readFileSync(join(docs, name), 'utf8').matchAll(/^```(\w+)\s*$/gm))
        expect(['sh', 'text', 'ts', 'json'], `${name}: a \`\`\`${lang} block`).toContain(lang)
  })

  it('getting-started.md: from a fresh start to a PDF and an e-mail window, printing what the page shows', async () => {
    expect((await runPage('getting-started.md')).length).toBeGreaterThanOrEqual(10)
    // What the last steps left: the report on disk, the e-mail on the console with its subject.
    expect(readFileSync(join(tree.dir, 'Clips_D001.pdf')).subarray(0, 5).toString()).toBe('%PDF-')
    const { body } = await call('GET', '/approve/windows', { operator: true })
    const page = readFileSync(resolve(import.meta.dirname, '../../docs/getting-started.md'), 'utf8')
    const subject = /subject `([^`]+)`/.exec(page.replace(/\n/g, ' '))![1]!
    expect(body.windows.map((w: { subject: string }) => w.subject)).toEqual([subject])
    // The watch of the last step, listed in the console with its report, stopped by its Ctrl-C.
    const { body: state } = await call('GET', '/approve/state', { operator: true })
    type Listed = { folders: string[]; last?: { log: string }; stoppedAt: string | null }
    expect(
      (state.watchers as Listed[]).map((w) => [w.folders, w.last?.log, w.stoppedAt === null ? 'running' : 'stopped']),
    ).toEqual([[[join(tree.dir, 'SHUTTLE_02')], 'D02_240302', 'stopped']])
  })

  it('api.md: every call of its list, after getting started, answering what the page shows', async () => {
    expect(await runPage('api.md')).toHaveLength(1)
    expect(readFileSync(join(tree.dir, 'Data_D002.pdf')).subarray(0, 5).toString()).toBe('%PDF-')
  })
})

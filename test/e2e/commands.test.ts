// The two ways to run the service (SPEC §2), as a user runs them: one state directory for both.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const PORT = 5601
const BASE = `http://127.0.0.1:${PORT}`
const state = mkdtempSync(join(tmpdir(), 'media-log-state-'))
const running: ChildProcess[] = []

function launch(script: 'start' | 'dev') {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', `${script}.mjs`)], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), MEDIA_LOG_STATE: state },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  running.push(child)
  return { child, output: () => output }
}

async function waitForPing() {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`${BASE}/ping`)
      if (res.ok) return res.json()
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error('the service did not answer /ping')
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  process.kill(-child.pid!, 'SIGTERM')
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))])
  if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL')
}

const operatorKey = () => /^OPERATOR_KEY=(.+)$/m.exec(readFileSync(join(ROOT, '.dev.vars'), 'utf8'))![1]!.trim()

async function json(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}

afterAll(async () => {
  for (const child of running) await stop(child)
  rmSync(state, { recursive: true, force: true })
})

describe('npm start and npm run dev', () => {
  const log = { id: 'D001', day: 1, date: '2024-03-01', ocf: { clips: [{ clip: 'A001C001', size: 1000, copies: [{ volume: 'SSD_01', hash: null }] }] } }
  let token = ''

  it('npm start serves on loopback, prints the console URL, and a client gets a token through approval', async () => {
    const started = launch('start')
    expect(await waitForPing()).toEqual({ status: 'ok' })
    const key = operatorKey()
    expect(started.output()).toContain(`Operator console: http://localhost:${PORT}/approve?key=${encodeURIComponent(key)}`)
    expect(await (await fetch(`http://[::1]:${PORT}/ping`)).json()).toEqual({ status: 'ok' })

    const asking = json('POST', '/auth', { appName: 'Offload Tool' })
    let id: string | undefined
    for (let i = 0; !id && i < 100; i++) {
      id = (await json('GET', '/approve/requests', undefined, { 'x-operator-key': key })).body.requests[0]?.id
      if (!id) await new Promise((r) => setTimeout(r, 50))
    }
    expect(await json('POST', `/approve/requests/${id}`, { decision: 'approve' }, { 'x-operator-key': key })).toEqual({ status: 200, body: { success: true } })
    const answer = await asking
    expect(answer.status).toBe(200)
    token = answer.body.token

    expect((await json('POST', '/project/create', { project_name: 'Both Ways' }, { 'x-api-token': token })).status).toBe(201)
    expect(await json('POST', '/log', log, { 'x-api-token': token })).toEqual({ status: 201, body: { success: true } })
    expect(await json('GET', '/log/D001', undefined, { 'x-api-token': token })).toEqual({ status: 200, body: log })
    await stop(started.child)
  })

  it('npm run dev finds the same project, log and token, and its Local Explorer reaches no data', async () => {
    const dev = launch('dev')
    await waitForPing()
    expect(await json('GET', '/log/D001', undefined, { 'x-api-token': token })).toEqual({ status: 200, body: log })
    expect((await json('GET', '/project', undefined, { 'x-api-token': token })).body.project_name).toBe('Both Ways')
    expect(await (await fetch(`http://[::1]:${PORT}/ping`)).json()).toEqual({ status: 'ok' })
    const explorer = await json('GET', '/cdn-cgi/explorer/api/workers/durable_objects/namespaces')
    expect(explorer).toEqual({ status: 404, body: { error: 'Not found' } })
    await stop(dev.child)
  })
})

/**
 * Starts the real service under `wrangler dev` for end-to-end tests, with its own persisted state
 * in a temporary directory, a random operator key and the Local Explorer turned off.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js')

export type Service = {
  base: string
  operatorKey: string
  /** Everything wrangler printed so far (for failure messages). */
  output: () => string
  stop: () => Promise<void>
}

/** True when nothing listens on 127.0.0.1:port. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/** The first free port in [from, to], skipping `except`. */
export async function freePort(from: number, to: number, except: number[] = []): Promise<number> {
  for (let port = from; port <= to; port++) {
    if (!except.includes(port) && (await portIsFree(port))) return port
  }
  throw new Error(`no free port in ${from}-${to}`)
}

/**
 * `wrangler dev --port <port> --ip 127.0.0.1` with `vars` as `--var NAME:value` (OPERATOR_KEY is a
 * random 32-character key unless given). Resolves once GET /ping answers.
 */
export async function startService({
  port,
  vars = {},
}: {
  port: number
  vars?: Record<string, string>
}): Promise<Service> {
  const operatorKey = vars.OPERATOR_KEY ?? randomBytes(24).toString('base64url')
  const dir = await mkdtemp(join(tmpdir(), 'media-log-e2e-'))
  const state = join(dir, 'state')
  // wrangler dev rebuilds and restarts the worker whenever a source file changes, which drops
  // held requests and in-memory approvals; a copy of the tree keeps a test run on one build.
  const app = join(dir, 'app')
  await cp(join(ROOT, 'src'), join(app, 'src'), { recursive: true })
  for (const file of ['package.json', 'wrangler.toml', 'tsconfig.json']) await cp(join(ROOT, file), join(app, file))
  await symlink(join(ROOT, 'node_modules'), join(app, 'node_modules'), 'dir')
  // The patched wrangler (patches/) opens no inspector and no dev registry port.
  const args = [
    WRANGLER,
    'dev',
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--persist-to',
    state,
    '--show-interactive-dev-session=false',
    '--log-level',
    'warn',
  ]
  for (const [name, value] of Object.entries({ ...vars, OPERATOR_KEY: operatorKey }))
    args.push('--var', `${name}:${value}`)
  const child = spawn(process.execPath, args, {
    cwd: app,
    env: { ...process.env, X_LOCAL_EXPLORER: 'false', WRANGLER_SEND_METRICS: 'false', CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stop() also ends the workerd it starts.
    detached: true,
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let running = true
  void exited.then(() => (running = false))

  const stop = async () => {
    if (running && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {}
      const killed = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 8000)),
      ])
      if (!killed) {
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {}
        await exited
      }
    }
    await rm(dir, { recursive: true, force: true })
  }

  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  for (;;) {
    if (!running) {
      await stop()
      throw new Error(`wrangler dev exited before serving:\n${output}`)
    }
    try {
      const response = await fetch(`${base}/ping`)
      if (response.ok && (await response.json()).status === 'ok') break
    } catch {}
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`wrangler dev did not answer /ping within 90 s:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  return { base, operatorKey, output: () => output, stop }
}

export type Call = (
  method: string,
  path: string,
  options?: { token?: string; body?: unknown; operator?: boolean },
) => Promise<{ status: number; body: any }>

/**
 * JSON calls to a started service, as an application (`token`) or as the operator; every body is
 * read. With `host`, the requests name that host, as they do when the service is reached by a name
 * of its own (fetch always sends the address it connects to, so node:http carries these).
 */
export function jsonCaller(service: Service, host?: string): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = {}
    if (options.token) headers['x-api-token'] = options.token
    if (options.operator) headers['x-operator-key'] = service.operatorKey
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const body = options.body === undefined ? undefined : JSON.stringify(options.body)
    if (host) return requestAs(host, `${service.base}${path}`, method, headers, body)
    const response = await fetch(`${service.base}${path}`, { method, headers, body })
    return { status: response.status, body: await response.json() }
  }
}

function requestAs(host: string, url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const sent = httpRequest(url, { method, headers: { ...headers, host } }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }))
    })
    sent.on('error', reject)
    sent.end(body)
  })
}

/** The approval flow end to end: the application asks, the operator approves, the token arrives. */
export async function approvedToken(call: Call, appName = 'Offload Tool'): Promise<string> {
  const asked = call('POST', '/auth', { body: { appName } })
  for (let i = 0; i < 200; i++) {
    const { body } = await call('GET', '/approve/requests', { operator: true })
    const request = body.requests.find((r: { appName: string }) => r.appName === appName)
    if (request) {
      const decided = await call('POST', `/approve/requests/${request.id}`, {
        operator: true,
        body: { decision: 'approve' },
      })
      if (decided.status !== 200) throw new Error(`approving ${appName} answered ${decided.status}`)
      break
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  const answer = await asked
  if (answer.status !== 200) throw new Error(`POST /auth for ${appName} answered ${answer.status}`)
  return answer.body.token as string
}

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
import { MediaLogClient, approvedClient, type ClientOptions } from 'media-log-service/client'
import { wranglerDevArgs } from '../../scripts/local.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

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
  const args = wranglerDevArgs(port, state, '--show-interactive-dev-session=false', '--log-level', 'warn')
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

/** JSON calls as an application (`token`) or as the operator; refusals come back as answers. */
export type Call = ((
  method: string,
  path: string,
  options?: { token?: string; body?: unknown; operator?: boolean },
) => Promise<{ status: number; body: any; bytes?: Uint8Array }>) & {
  client: ClientOptions & { baseUrl: string; operatorKey: string }
}

/**
 * Calls to a started service through the typed client, every body read. With `host`, the requests
 * name that host, as they do when the service is reached by a name of its own (fetch always sends
 * the address it connects to, so node:http carries these).
 */
export function jsonCaller(service: Service, host?: string): Call {
  const client = { baseUrl: service.base, operatorKey: service.operatorKey, fetch: host ? fetchAs(host) : fetch }
  const call = async (method: string, path: string, options: Parameters<Call>[2] = {}) => {
    const operator: typeof fetch = (input, init) =>
      client.fetch(input, { ...init, headers: { ...init?.headers, 'x-operator-key': service.operatorKey } })
    const app = new MediaLogClient({ ...client, token: options.token, ...(options.operator && { fetch: operator }) })
    const { status, body, bytes } = await app.send(method, path, options.body)
    // A PDF's bytes, for the answers that are files.
    return bytes ? { status, body, bytes } : { status, body }
  }
  return Object.assign(call, { client })
}

/** `fetch` that sends `host` as the Host header, which fetch itself never does. */
function fetchAs(host: string): typeof fetch {
  return (input, init) =>
    new Promise((resolve, reject) => {
      const headers = { ...(init?.headers as Record<string, string>), host }
      const sent = httpRequest(String(input), { method: init?.method ?? 'GET', headers }, (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () => resolve(new Response(text, { status: response.statusCode! })))
      })
      sent.on('error', reject)
      sent.end(init?.body as string | undefined)
    })
}

/** The approval flow end to end, through the typed client: the application asks, the operator approves. */
export async function approvedToken(call: Call, appName = 'Offload Tool'): Promise<string> {
  return (await approvedClient({ ...call.client, appName })).token!
}

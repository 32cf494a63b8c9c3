/**
 * `npm start` and `npm run dev` as a user runs them (`node scripts/<command>.mjs`), each in its own
 * process group, and what that group listens on, read from /proc as `ss -ltnp` would show it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Service } from './server'

const ROOT = resolve(import.meta.dirname, '../..')

export type Command = 'start' | 'dev'

/** The smallest log a started service must store and answer back exactly. */
export const ONE_CLIP_LOG = {
  id: 'D001',
  day: 1,
  date: '2024-03-01',
  ocf: { clips: [{ clip: 'A001C001', size: 1000, copies: [{ volume: 'SSD_01', hash: null }] }] },
  version: 1,
}

export type Launched = Service & {
  child: ChildProcess
  /** Where the command runs: its scripts find wrangler.toml, src/ and .dev.vars here. */
  dir: string
}

/**
 * A copy of what the commands read (sources, scripts, the command, configuration) with the
 * installed node_modules and built client linked in: a test may edit the sources (live reload) or
 * its .dev.vars.
 */
export function copyOfTree(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'media-log-tree-'))
  for (const name of ['src', 'scripts', 'bin', 'package.json', 'wrangler.toml', 'tsconfig.json'])
    cpSync(join(ROOT, name), join(dir, name), { recursive: true })
  // node_modules, and the built client `bin/media-log.mjs` imports by the package's own name.
  for (const name of ['node_modules', 'dist']) symlinkSync(join(ROOT, name), join(dir, name), 'dir')
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * Runs `scripts/<command>.mjs` of `dir` on `port`, with `env` over the environment (`undefined`
 * removes a variable); resolves once GET /ping answers.
 */
export async function launch(
  command: Command,
  {
    dir = ROOT,
    port,
    state,
    env = {},
  }: { dir?: string; port: number; state: string; env?: Record<string, string | undefined> },
): Promise<Launched> {
  const environment = { ...process.env, PORT: String(port), MEDIA_LOG_STATE: state, ...env }
  for (const [name, value] of Object.entries(environment)) if (value === undefined) delete environment[name]
  const child = spawn(process.execPath, [join(dir, 'scripts', `${command}.mjs`)], {
    cwd: dir,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: the test finds every port of it and stops all of it.
    detached: true,
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 360; i++) {
    if (child.exitCode !== null) throw new Error(`npm ${command} exited with ${child.exitCode}:\n${output}`)
    try {
      const res = await fetch(`${base}/ping`)
      await res.arrayBuffer()
      // The command wrote the key to .dev.vars before it opened the port.
      const operatorKey = /^OPERATOR_KEY=(.+)$/m.exec(readFileSync(join(dir, '.dev.vars'), 'utf8'))![1]!.trim()
      if (res.ok) return { child, dir, base, operatorKey, output: () => output, stop: () => stop(child) }
    } catch {}
    await new Promise((r) => setTimeout(r, 250))
  }
  await stop(child)
  throw new Error(`npm ${command} did not answer /ping:\n${output}`)
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  try {
    process.kill(-child.pid!, 'SIGTERM')
  } catch {}
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))])
  if (child.exitCode === null) {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {}
  }
}

export type Listening = { pid: number; program: string; host: '127.0.0.1' | '[::1]' | string; port: number }

/** Every TCP socket listening in the process group `pgid` (Linux /proc). */
export function listeningSockets(pgid: number): Listening[] {
  const owners = new Map<string, { pid: number; program: string }>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // pid (comm) state ppid pgrp …: comm may hold spaces, so read after its closing parenthesis.
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
      if (group !== pgid) continue
      const program = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${entry}/fd/${fd}`))?.[1]
        if (inode) owners.set(inode, { pid: Number(entry), program })
      }
    } catch {
      // the process ended while being read
    }
  }
  const found: Listening[] = []
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ] as const) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields.length < 10 || fields[3] !== '0A') continue // 0A: LISTEN
      const owner = owners.get(fields[9]!)
      if (!owner) continue
      const [address, port] = fields[1]!.split(':') as [string, string]
      found.push({ ...owner, host: addressOf(address, v6), port: parseInt(port, 16) })
    }
  }
  return found
}

/** /proc/net's hex address: each 32-bit word in host (little-endian) byte order. */
function addressOf(hex: string, v6: boolean): string {
  if (!v6)
    return hex
      .match(/../g)!
      .reverse()
      .map((b) => parseInt(b, 16))
      .join('.')
  if (hex === '00000000000000000000000001000000') return '[::1]'
  if (/^0{32}$/.test(hex)) return '[::]'
  return `[${hex}]`
}

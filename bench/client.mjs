// What every benchmark and fault script shares: starting the service as a user does, the approval
// flow, realistic logs, and the workerd process whose memory is reported.
import { spawn } from 'node:child_process'
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { cpus, loadavg, totalmem, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { approvedClient } from 'media-log-service/client'
import { operatorKeyOf, wranglerDevArgs } from '../scripts/local.mjs'

export const ROOT = resolve(import.meta.dirname, '..')

/** The operator key of a running service: OPERATOR_KEY, else the one npm start keeps in .dev.vars. */
export function operatorKey() {
  return process.env.OPERATOR_KEY || keyIn(join(ROOT, '.dev.vars'))
}

/** The OPERATOR_KEY line of a .dev.vars file. */
export function keyIn(file) {
  try {
    const key = operatorKeyOf(readFileSync(file, 'utf8'))
    if (key) return key
  } catch {}
  throw new Error(`no OPERATOR_KEY in ${file} (npm start creates one)`)
}

/** JSON over HTTP against `base`; a non-2xx answer throws with its status and body. */
export function api(base) {
  base = base.replace(/\/$/, '')
  return Object.assign(request, { base })
  // `raw`: the answer's text as it came, not parsed.
  async function request(method, path, { token, body, text, headers = {}, ok = true, raw = false } = {}) {
    const payload = text ?? (body === undefined ? undefined : JSON.stringify(body))
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(payload !== undefined && { 'content-type': 'application/json' }),
        ...(token && { 'x-api-token': token }),
        ...headers,
      },
      body: payload,
    })
    const answer = await res.text()
    if (ok && !res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${answer.slice(0, 300)}`)
    const json =
      !raw && (res.headers.get('content-type') ?? '').includes('json') && answer ? JSON.parse(answer) : answer
    return ok ? json : { status: res.status, body: json }
  }
}

/** The approval flow a client goes through, the caller acting as the operator too: the typed client's. */
export async function approvedToken(request, key, appName = `bench-${process.pid}`) {
  return (await approvedClient({ baseUrl: request.base, operatorKey: key, appName })).token
}

const pad = (n, width) => String(n).padStart(width, '0')
const tc = (x, f) => [Math.floor(x / 3600) % 24, Math.floor(x / 60) % 60, x % 60, f].map((v) => pad(v, 2)).join(':')
const hex64 = (i) => ((BigInt(i + 1) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn).toString(16).padStart(16, '0')
const hex = (i, width) => (hex64(i) + hex64(i * 7 + 3)).slice(0, width)

/**
 * One OCF clip as an offload tool logs it: timecodes, camera metadata, three copies with their
 * checksums, where the clip lives. About 900 bytes of JSON, so a 20-clip log is about 18 KB.
 */
export function clip(i) {
  const n = pad(i, 5)
  const reel = `A${pad(1 + Math.floor(i / 200), 3)}`
  const s = (10 * 3600 + i * 75) % 86_400
  const name = `${reel}C${n}_240101_R1AB`
  return {
    clip: name,
    size: 1_234_567_890 + i * 7919,
    copies: [
      { volume: 'SSD_01', hash: `xxh64:${hex(i, 16)}` },
      { volume: 'RAID_A', hash: `xxh64:${hex(i, 16)}` },
      { volume: 'LTO_0042', hash: null },
    ],
    tc_start: tc(s, i % 24),
    tc_end: tc(s + 60 + (i % 7) * 11, i % 24),
    duration: tc(60 + (i % 7) * 11, 0),
    fps: 23.976,
    sensor_fps: '23.976',
    camera_model: 'ARRI ALEXA 35',
    reel,
    lens: ['Signature Prime 35mm', 'Signature Prime 47mm T1.8', 'Zeiss Supreme 85'][i % 3],
    resolution: '4608x3164',
    codec: 'ARRIRAW',
    gamma: 'LogC4',
    wb: String(5600 - (i % 3) * 400),
    tint: i % 4 ? '0' : '+2',
    lut: 'ARRI_LogC4-to-Rec709_v1',
    ei: 800,
    shutter: '172.8',
    iso: 800,
    look: 'ARRI_REVEAL_Rec709_D65',
    frameline: '2.39:1 center',
    camera_serial: 'K1.0034567',
    path: `/Volumes/SSD_01/Shoot/Day01/${reel}/${name}.mxf`,
    md5: hex(i * 31, 32),
    scene: `${1 + Math.floor(i / 12)}${'ABC'[i % 3]}`,
    take: 1 + (i % 5),
    cdl: { slope: [1.02, 1, 0.97], offset: [0.001, 0, -0.002], power: [1, 1, 1.01], saturation: 0.95 },
    notes: ['', 'soft focus at the end', 'boom in frame, cut before use', 'MOS'][i % 4],
  }
}

/** A shooting-day log of `clips` clips. */
export function makeLog(id, clips = 20, day = 1) {
  const date = new Date(Date.UTC(2024, 0, 1) + (day - 1) * 86_400_000).toISOString().slice(0, 10)
  return {
    id,
    day,
    date,
    unit: 'Main Unit',
    ocf: {
      reels: ['A001'],
      copies: ['SSD_01', 'RAID_A', 'LTO_0042'],
      clips: Array.from({ length: clips }, (_, i) => clip(i + 1)),
    },
    version: 1,
  }
}

/** `many`: more logs read in turn than the worker keeps the texts of (src/http/kept-logs.ts). */
export const MANY_LOGS = 600
const manyId = (n) => `M${String(n).padStart(4, '0')}`

/** The many logs, posted to the service (with its token) or the ceiling (without). */
export async function postManyLogs(request, token) {
  for (let n = 0; n < MANY_LOGS; n++) await request('POST', '/log', { token, body: makeLog(manyId(n)) })
}

/** autocannon's request of the many logs: each the next one in turn, whichever connection sends it. */
export function manyLogsRequest() {
  let n = 0
  return {
    method: 'GET',
    path: `/log/${manyId(0)}`,
    setupRequest: (request) => Object.assign(request, { path: `/log/${manyId(n++ % MANY_LOGS)}` }),
  }
}

// ---- running the service

/** Every process below `pid`, children first. */
export function descendants(pid) {
  const parents = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      // comm may contain spaces and parentheses: the fields after the last ')' are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(Number(name), ppid)
    } catch {}
  }
  const found = []
  const walk = (p) => {
    for (const [child, parent] of parents) {
      if (parent !== p) continue
      found.push(child)
      walk(child)
    }
  }
  walk(pid)
  return found
}

const commOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
  } catch {
    return ''
  }
}

/** The workerd process that runs the worker (Miniflare or wrangler spawns it). */
export function workerdOf(pid) {
  return descendants(pid).find((p) => commOf(p) === 'workerd')
}

/** VmRSS and VmHWM (peak) of a process, in MiB. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN)
    return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 }
  } catch {
    return { rss: NaN, hwm: NaN }
  }
}

/** CPU time (user + system) used so far by a process and everything below it, in ms. */
export function cpuMsOf(pid) {
  let total = 0
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
    } catch {}
  }
  return total
}

// USER_HZ: 100 on Linux everywhere this runs.
const CLOCK_TICKS = 100

/** Samples a process's resident memory every `everyMs` until stopped; answers the highest seen. */
export function sampleMemory(pid, everyMs = 20) {
  let peak = 0
  const take = () => (peak = Math.max(peak, memoryOf(pid).rss || 0))
  take()
  const timer = setInterval(take, everyMs)
  return () => {
    clearInterval(timer)
    take()
    return peak
  }
}

// A benchmark that dies halfway must not leave servers behind: their groups go with it.
const groups = new Set()
process.on('exit', () => {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {}
  }
})
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130))

/**
 * Starts one of the servers the benchmarks compare, as its own process group:
 * - `start`: `node scripts/start.mjs`, exactly what `npm start` runs;
 * - `dev`: `node scripts/dev.mjs` (npm run dev) on a copy of the tree, so an edit made elsewhere
 *   while it runs does not reload the worker under load;
 * - `ceiling` / `ceiling-dev`: the bare Worker + Durable Object of bench/ceiling, served the same two ways.
 * `state` is the persisted state directory (MEDIA_LOG_STATE); a temporary one when not given.
 * `vars` (with `start`): .dev.vars lines of its own (PRODUCTIONS for a production), on a copy of
 * the tree, so the project's .dev.vars stays as it is.
 */
export async function startServer({ kind = 'start', port, state, quiet = true, vars }) {
  const ownState = !state
  state ??= mkdtempSync(join(tmpdir(), `media-log-${kind}-state-`))
  const env = {
    ...process.env,
    PORT: String(port),
    MEDIA_LOG_STATE: state,
    WRANGLER_SEND_METRICS: 'false',
    X_LOCAL_EXPLORER: 'false',
  }
  let cwd = ROOT
  let args
  let copy
  if (kind === 'start' && vars) {
    copy = mkdtempSync(join(tmpdir(), 'media-log-start-tree-'))
    for (const part of ['src', 'scripts', 'package.json', 'wrangler.toml', 'tsconfig.json', '.dev.vars']) {
      if (existsSync(join(ROOT, part))) cpSync(join(ROOT, part), join(copy, part), { recursive: true })
    }
    for (const part of ['node_modules', 'dist']) symlinkSync(join(ROOT, part), join(copy, part), 'dir')
    const lines = Object.entries(vars).map(([name, value]) => `${name}=${value}\n`)
    appendFileSync(join(copy, '.dev.vars'), '\n' + lines.join(''))
    cwd = copy
    args = [join(copy, 'scripts/start.mjs')]
  } else if (kind === 'start') args = [join(ROOT, 'scripts/start.mjs')]
  else if (kind === 'ceiling') args = [join(ROOT, 'bench/ceiling/serve.mjs')]
  else if (kind === 'dev') {
    copy = mkdtempSync(join(tmpdir(), 'media-log-dev-tree-'))
    for (const part of ['src', 'scripts', 'package.json', 'wrangler.toml', 'tsconfig.json', '.dev.vars']) {
      if (existsSync(join(ROOT, part))) cpSync(join(ROOT, part), join(copy, part), { recursive: true })
    }
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir')
    cwd = copy
    args = [join(copy, 'scripts/dev.mjs'), '--show-interactive-dev-session=false', '--log-level', 'warn']
  } else if (kind === 'ceiling-dev') {
    args = wranglerDevArgs(
      port,
      state,
      '--config',
      join(ROOT, 'bench/ceiling/wrangler.toml'),
      '--show-interactive-dev-session=false',
      '--log-level',
      'warn',
    )
  } else throw new Error(`unknown server kind ${kind}`)

  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  if (!quiet) {
    child.stdout.pipe(process.stdout)
    child.stderr.pipe(process.stderr)
  }
  groups.add(child.pid)
  const exited = new Promise((r) => child.once('exit', r))

  const cleanup = () => {
    groups.delete(child.pid)
    // npm start removes its bundle on a signal; after SIGKILL it is left behind.
    rmSync(join(ROOT, '.wrangler/bundle', String(child.pid)), { recursive: true, force: true })
    if (copy) rmSync(copy, { recursive: true, force: true })
  }
  const server = {
    kind,
    port,
    state,
    base: `http://127.0.0.1:${port}`,
    pid: child.pid,
    output: () => output,
    workerd: () => workerdOf(child.pid),
    /** The operator key the service reads: the one its start command created or found. */
    operatorKey: () => keyIn(join(cwd, '.dev.vars')),
    /** SIGTERM to the group, SIGKILL after 10 s. Removes the state when it made it. */
    async stop({ keepState = !ownState } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM')
        } catch {}
        const done = await Promise.race([
          exited.then(() => true),
          new Promise((r) => setTimeout(() => r(false), 10_000)),
        ])
        if (!done) {
          try {
            process.kill(-child.pid, 'SIGKILL')
          } catch {}
          await exited
        }
      }
      cleanup()
      if (!keepState) rmSync(state, { recursive: true, force: true })
    },
    /** kill -9 of workerd and of the node parent, at once: nothing gets to flush or close. */
    async kill() {
      const workerd = server.workerdPid ?? workerdOf(child.pid)
      if (workerd) process.kill(workerd, 'SIGKILL')
      process.kill(child.pid, 'SIGKILL')
      await exited
      // Anything else of the group (wrangler's helpers) goes too; the workerd is already gone.
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {}
      cleanup()
      return workerd
    },
  }

  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${kind} exited before serving:\n${output}`)
    try {
      const res = await fetch(`${server.base}/ping`)
      if (res.ok && (await res.json()).status === 'ok') break
    } catch {}
    if (Date.now() > deadline) {
      await server.stop()
      throw new Error(`${kind} did not answer /ping within 120 s:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  // Known before it is needed: kill() must not spend time looking for it.
  server.workerdPid = workerdOf(child.pid)
  return server
}

/** The machine a result was measured on. */
export function machine() {
  const cpu = cpus()
  return {
    cpu: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    date: new Date().toISOString(),
    load: loadavg().map((l) => Math.round(l * 100) / 100),
  }
}

/** An ASC MHL generation (urn:ASC:MHL:v2.0) as a copy tool writes it after a transfer: `count` entries. */
function generation(count, entry) {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<hashlist version="2.0" xmlns="urn:ASC:MHL:v2.0">',
    '  <creatorinfo><creationdate>2025-06-14T10:15:00+02:00</creationdate><hostname>cart</hostname><tool version="1">offload</tool></creatorinfo>',
    '  <processinfo><process>transfer</process></processinfo>',
    '  <hashes>',
    ...Array.from({ length: count }, (_, i) => entry(i)),
    '  </hashes>',
    '</hashlist>',
    '',
  ].join('\n')
}

const hex16 = (n) => n.toString(16).padStart(16, '0')

/** A card of `clips` camera files, one MXF each. */
export const cardManifest = (clips) =>
  generation(clips, (i) => {
    const name = `A${String(Math.floor(i / 999) + 1).padStart(3, '0')}C${String((i % 999) + 1).padStart(3, '0')}_250614_R1AB`
    return `    <hash>\n      <path size="${2e9 + i}" lastmodificationdate="2025-06-14T10:00:00+02:00">Clips/${name}.mxf</path>\n      <xxh64 action="original" hashdate="2025-06-14T10:15:00+02:00">${hex16(0x1000 + i)}</xxh64>\n    </hash>`
  })

/** A card of ARRIRAW: `frames` frames, `perClip` to a clip's folder. */
export const framesManifest = (frames, perClip) =>
  generation(frames, (i) => {
    const clip = `A001C${String(Math.floor(i / perClip) + 1).padStart(3, '0')}_250614_R1AB`
    const frame = String((i % perClip) + 1).padStart(7, '0')
    return `    <hash><path size="12000000">${clip}/${clip}.${frame}.ari</path><xxh64 action="original">${hex16(i + 1)}</xxh64></hash>`
  })

/** A valid manifest of `clips` files, five digests each, one line a file (42 MiB for 100,000). */
export function fiveHashManifest(clips) {
  const lines = Array.from({ length: clips }, (_, i) => {
    const name = `A001C${String(i).padStart(6, '0')}_250614_R1AB`
    const digests = [
      `<c4 action="original">c4${hexOf(i, 88).replace(/0/g, 'z')}</c4>`,
      `<sha1 action="original">${hexOf(i, 40)}</sha1>`,
      `<md5 action="original">${hexOf(i + 1, 32)}</md5>`,
      `<xxh128 action="original">${hexOf(i, 32)}</xxh128>`,
      `<xxh64 action="original">${hexOf(i, 16)}</xxh64>`,
    ]
    return `<hash><path size="${1000 + i}">Clips/${name}.mov</path>${digests.join('')}</hash>`
  })
  return `<?xml version="1.0" encoding="UTF-8"?>\n<hashlist version="2.0" xmlns="urn:ASC:MHL:v2.0"><creatorinfo><creationdate>2025-06-14T10:00:00Z</creationdate></creatorinfo>\n<hashes>\n${lines.join('\n')}\n</hashes></hashlist>`
}

const hexOf = (i, width) => i.toString(16).padStart(width, '0')

// npm start: the worker bundled as `wrangler deploy` bundles it, served by Miniflare's API on
// loopback. No dev proxy in the request path: several times the throughput of `wrangler dev`.
// workerd is supervised: whenever it exits, it is started again on the same sockets and state.
import childProcess from 'node:child_process'
import { readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { Miniflare } from 'miniflare'
import {
  LAPTOP_TIME_ZONE,
  PORT,
  PRODUCTION,
  ROOT,
  STATE_DIR,
  prepareLocal,
  printConsoleUrl,
  quietWranglerEnv,
} from './local.mjs'

/** Restarts of workerd: the first after 0.25 s, each next one twice as late, up to 4 s. */
const FIRST_DELAY = 250
const MAX_DELAY = 4000
/** A workerd that served this long before it exited starts the delays over. */
const SETTLED = 30_000
/** Starts that fail in a row before npm start gives up. */
const RESTART_ATTEMPTS = 5

let stopping = false

const key = prepareLocal()
await portFree()
// One bundle directory per process: a benchmark and a test may start the service side by side.
const bundles = resolve(ROOT, '.wrangler/bundle')
const outdir = resolve(bundles, String(process.pid))
removeOrphanBundles()
rmSync(outdir, { recursive: true, force: true })
// The build runs beside the import of wrangler's config reader (some 2.5 s each on a 2-core
// laptop, a core each): .dev.vars already holds the key that import reads.
const [build, { unstable_getMiniflareWorkerOptions, unstable_readConfig }] = await Promise.all([
  bundle(),
  import('wrangler'),
])
if (build.status !== 0) {
  process.stderr.write(build.output)
  process.exit(build.status ?? 1)
}

const config = unstable_readConfig({ config: resolve(ROOT, 'wrangler.toml') })
const { workerOptions } = unstable_getMiniflareWorkerOptions(resolve(ROOT, 'wrangler.toml'))

const options = {
  // Miniflare's own socket (for its API) on a free port; clients use the direct sockets below.
  host: '127.0.0.1',
  port: 0,
  defaultPersistRoot: resolve(STATE_DIR, 'v3'),
  workers: [
    {
      ...workerOptions,
      name: config.name,
      // The runtime's own zone is UTC: a new project takes the laptop's, passed here. A production
      // tried on this laptop is named as a deployment names it (wrangler.toml's PRODUCTIONS).
      bindings: {
        ...workerOptions.bindings,
        TIME_ZONE: LAPTOP_TIME_ZONE,
        ...(PRODUCTION && { PRODUCTIONS: PRODUCTION }),
      },
      modules: true,
      modulesRoot: outdir,
      scriptPath: resolve(outdir, 'index.js'),
      // wrangler.toml's rules first: its Text rule claims the console's `.browser.js` files.
      modulesRules: [
        ...(workerOptions.modulesRules ?? []),
        { type: /** @type {const} */ ('ESModule'), include: ['**/*.js'] },
      ],
      unsafeDirectSockets: sockets(),
    },
  ],
  handleRuntimeStdio: runtimeOutput,
}
const supervisor = superviseRuntime()
const mf = new Miniflare(options)
await mf.ready
supervisor.started()
printConsoleUrl(key)

/**
 * The worker bundled as `wrangler deploy` bundles it, into this process's folder. Its banner,
 * upload size and bindings table read as if something had been deployed (and "--dry-run: exiting
 * now" as if the service had stopped): its output is shown only when the build fails.
 * @returns {Promise<{status: number | null, output: string}>}
 */
function bundle() {
  const child = childProcess.spawn(
    process.execPath,
    [resolve(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', outdir],
    { cwd: ROOT, env: quietWranglerEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (d) => (output += d))
  child.stderr.setEncoding('utf8').on('data', (d) => (output += d))
  return new Promise((done) => {
    child.once('error', (err) => done({ status: 1, output: `${err.message}\n` }))
    child.once('close', (status) => done({ status, output }))
  })
}

/**
 * A process killed with SIGKILL (or a machine that lost power) never removes its bundle folder:
 * some 20 MB each, they piled up by the hundred. Folders of processes no longer running go at start.
 */
function removeOrphanBundles() {
  let names
  try {
    names = readdirSync(bundles)
  } catch {
    return
  }
  for (const name of names) {
    if (/^\d+$/.test(name) && Number(name) !== process.pid && !isRunning(Number(name)))
      rmSync(resolve(bundles, name), { recursive: true, force: true })
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: running, as another user.
    return err.code === 'EPERM'
  }
}

/**
 * Starts workerd again, on the same sockets and state, whenever it exits for any reason other than
 * npm start's own stop, and says so in one line on stderr. Gives up (exit 1) only when workerd
 * cannot be started RESTART_ATTEMPTS times in a row. What the workspace acknowledged is on disk:
 * the new workerd opens the same persist directory.
 *
 * Miniflare 4.20260426 (the one wrangler 4.86 pins) keeps its workerd child in a private field and
 * tells nobody when it exits: after a crash, a V8 out-of-memory abort or a `kill -9`, every request
 * was refused while npm start went on silently. (Miniflare 4.20260722 restarts workerd itself,
 * workers-sdk#14792, but needs Node 22.) Its Runtime calls `spawn` on the node:child_process
 * module each time it starts workerd; that call is observed here, unchanged, because the
 * ChildProcess it returns is the only thing that learns how workerd ended (its code or signal),
 * which watching a pid would not.
 */
function superviseRuntime() {
  let delay = FIRST_DELAY
  let failures = 0
  /** The workerd Miniflare started last, and whether it came up (Miniflare's start resolved). */
  let current

  const spawn = childProcess.spawn
  // Every call passes through as it came, whichever of spawn's overloads it is.
  childProcess.spawn = /** @type {typeof spawn} */ function (command, args, ...rest) {
    const child = Reflect.apply(spawn, this, [command, args, ...rest])
    // Miniflare's runtime: `workerd serve --binary --experimental … --control-fd=3 -`.
    if (Array.isArray(args) && args[0] === 'serve' && args.includes('--control-fd=3')) {
      const runtime = { child, up: false, startedAt: 0 }
      current = runtime
      // One that never came up is reported by Miniflare's start failing; one replaced by a restart
      // was killed by Miniflare; npm start stops its own.
      child.once('exit', () => runtime.up && current === runtime && exited(runtime))
    }
    return child
  }

  /** Miniflare's start resolved: workerd listens. One that died meanwhile is restarted at once. */
  function up() {
    current.up = true
    current.startedAt = Date.now()
    if (current.child.exitCode !== null || current.child.signalCode !== null) exited(current)
  }

  function exited({ child, startedAt }) {
    if (stopping) return
    if (Date.now() - startedAt >= SETTLED) delay = FIRST_DELAY
    const how = child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`
    console.error(`workerd (pid ${child.pid}) exited with ${how}; restarting it in ${seconds(delay)}`)
    restartLater()
  }

  function restartLater() {
    setTimeout(() => void restart(), delay)
    delay = Math.min(delay * 2, MAX_DELAY)
  }

  async function restart() {
    if (stopping) return
    try {
      // The same options again: Miniflare starts a new workerd with the same configuration.
      await mf.setOptions(options)
    } catch (err) {
      if (stopping) return
      const why = err?.message ?? String(err)
      if (++failures >= RESTART_ATTEMPTS) {
        console.error(`workerd could not be started again (${failures} attempts, the last: ${why}); npm start stops`)
        await stop(1)
        return
      }
      console.error(`workerd could not be started again (${why}); next attempt in ${seconds(delay)}`)
      restartLater()
      return
    }
    failures = 0
    up()
  }

  return { started: up }
}

function seconds(ms) {
  return `${ms / 1000} s`
}

/**
 * Every socket the service will listen on, free before anything is built: taken (the service
 * already running, another tool), workerd would fail some seconds later with a page of stack.
 * Said in a line instead, with the way to another port, as is a loopback without IPv6.
 */
async function portFree() {
  for (const { host } of sockets()) {
    const code = await new Promise((resolve) => {
      const probe = createServer()
      probe.once('error', (/** @type {NodeJS.ErrnoException} */ err) => resolve(err.code))
      probe.listen({ host, port: PORT }, () => probe.close(() => resolve(undefined)))
    })
    if (code === undefined) continue
    console.error(
      code === 'EADDRINUSE'
        ? `Port ${PORT} is in use on ${host}: is the service already running? ` +
            `Stop it, or start this one on another port: PORT=${PORT + 10} npm start`
        : code === 'EADDRNOTAVAIL' && host === '::1'
          ? `This machine's loopback has no IPv6 (::1): MEDIA_LOG_IPV6=false npm start serves on 127.0.0.1 alone`
          : `Port ${PORT} on ${host} cannot be listened on (${code})`,
    )
    process.exit(1)
  }
}

/**
 * Straight into the worker on 127.0.0.1 and [::1] (`localhost` may resolve to either), never on
 * another interface; [::1] left out with MEDIA_LOG_IPV6=false. A direct socket skips Miniflare's
 * entry worker, one hop less per request.
 */
function sockets() {
  const v4 = { host: '127.0.0.1', port: PORT }
  return process.env.MEDIA_LOG_IPV6 === 'false' ? [v4] : [v4, { host: '::1', port: PORT }]
}

/**
 * workerd's output as it comes, except for requests it refuses before the worker runs (a Host it
 * cannot put in a URL, a negative Content-Length, an absolute-form target): it answers those 500
 * itself and prints the exception with a line of stack addresses, which says nothing to a user.
 * One line each instead.
 */
function runtimeOutput(stdout, stderr) {
  createInterface(stdout).on('line', (line) => console.log(line))
  let skipStack = false
  createInterface(stderr).on('line', (line) => {
    if (skipStack && line.startsWith('stack: ')) return
    const refused = /^workerd\/server\/server\.c\+\+:\d+: error: Uncaught exception: \S+: (?:failed: )?(.*)$/.exec(line)
    skipStack = refused !== null
    console.error(refused ? `workerd refused a request it could not read: ${refused[1]}` : line)
  })
}

async function stop(status) {
  if (stopping) return
  stopping = true
  await mf.dispose()
  rmSync(outdir, { recursive: true, force: true })
  process.exit(status)
}

// wrangler, once imported, exits on SIGTERM before the handlers below run: clean up on exit too.
process.on('exit', () => rmSync(outdir, { recursive: true, force: true }))
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => void stop(0))

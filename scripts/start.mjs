// npm start: the worker bundled as `wrangler deploy` bundles it, served by Miniflare's API on
// loopback. No dev proxy in the request path: several times the throughput of `wrangler dev`.
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { Miniflare } from 'miniflare'
import { PORT, ROOT, STATE_DIR, prepareLocal, printConsoleUrl, quietWranglerEnv } from './local.mjs'

const key = prepareLocal()
// One bundle directory per process: a benchmark and a test may start the service side by side.
const outdir = resolve(ROOT, '.wrangler/bundle', String(process.pid))
rmSync(outdir, { recursive: true, force: true })
const build = spawnSync(
  process.execPath,
  [resolve(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', outdir],
  {
    cwd: ROOT,
    env: quietWranglerEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  },
)
if (build.status !== 0) process.exit(build.status ?? 1)

// Imported after the build so its own .dev.vars reading sees the key written above.
const { unstable_getMiniflareWorkerOptions, unstable_readConfig } = await import('wrangler')
const config = unstable_readConfig({ config: resolve(ROOT, 'wrangler.toml') })
const { workerOptions } = unstable_getMiniflareWorkerOptions(resolve(ROOT, 'wrangler.toml'))

const mf = new Miniflare({
  // Miniflare's own socket (for its API) on a free port; clients use the direct sockets below.
  host: '127.0.0.1',
  port: 0,
  defaultPersistRoot: resolve(STATE_DIR, 'v3'),
  workers: [
    {
      ...workerOptions,
      name: config.name,
      modules: true,
      modulesRoot: outdir,
      scriptPath: resolve(outdir, 'index.js'),
      // wrangler.toml's rules first: its Text rule claims the console's `.browser.js` files.
      modulesRules: [...(workerOptions.modulesRules ?? []), { type: 'ESModule', include: ['**/*.js'] }],
      unsafeDirectSockets: sockets(),
    },
  ],
  handleRuntimeStdio: runtimeOutput,
})
await mf.ready
printConsoleUrl(key)

/**
 * Straight into the worker on 127.0.0.1 and [::1] (`localhost` may resolve to either), never on
 * another interface. A direct socket skips Miniflare's entry worker, one hop less per request.
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

// wrangler, once imported, exits on SIGTERM before the handlers below run: clean up on exit too.
process.on('exit', () => rmSync(outdir, { recursive: true, force: true }))

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return
    stopping = true
    await mf.dispose()
    rmSync(outdir, { recursive: true, force: true })
    process.exit(0)
  })
}

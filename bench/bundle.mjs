// A worker bundled as `wrangler deploy` bundles it and served by Miniflare's API on a direct
// socket, as scripts/start.mjs serves the service. The ceiling and the profiler use it.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { Miniflare } from 'miniflare'

const WRANGLER = resolve(import.meta.dirname, '../node_modules/wrangler/bin/wrangler.js')

export async function serveBundled({ config, port, state, inspectorPort, bindings }) {
  const outdir = mkdtempSync(join(tmpdir(), 'media-log-bundle-'))
  // On 'exit', not on a signal: importing wrangler adds a SIGTERM handler that exits at once.
  process.once('exit', () => rmSync(outdir, { recursive: true, force: true }))
  const build = spawnSync(process.execPath, [WRANGLER, 'deploy', '--dry-run', '--config', config, '--outdir', outdir], {
    cwd: dirname(config),
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (build.status !== 0) throw new Error(`bundling ${config} failed`)
  const { unstable_getMiniflareWorkerOptions, unstable_readConfig } = await import('wrangler')
  const parsed = unstable_readConfig({ config })
  const { workerOptions } = unstable_getMiniflareWorkerOptions(config)
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    inspectorPort,
    defaultPersistRoot: resolve(state, 'v3'),
    workers: [
      {
        ...workerOptions,
        ...(bindings && { bindings: { ...workerOptions.bindings, ...bindings } }),
        name: parsed.name,
        modules: true,
        modulesRoot: outdir,
        scriptPath: join(outdir, basename(parsed.main).replace(/\.ts$/, '.js')),
        // wrangler.toml's rules first: its Text rule claims the console's `.browser.js` files.
        modulesRules: [...(workerOptions.modulesRules ?? []), { type: 'ESModule', include: ['**/*.js'] }],
        unsafeDirectSockets: [{ host: '127.0.0.1', port }],
      },
    ],
  })
  await mf.ready
  return {
    mf,
    async dispose() {
      try {
        await mf.dispose()
      } finally {
        // Also when workerd is gone already (a signal to the whole process group).
        rmSync(outdir, { recursive: true, force: true })
      }
    },
  }
}

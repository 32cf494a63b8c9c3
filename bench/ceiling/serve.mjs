// Serves the ceiling worker exactly as scripts/start.mjs serves the service: bundled by
// `wrangler deploy --dry-run`, run by Miniflare's API, clients on a direct socket on 127.0.0.1.
//   PORT=5701 MEDIA_LOG_STATE=/tmp/ceiling node bench/ceiling/serve.mjs
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { serveBundled } from '../bundle.mjs'

const PORT = Number(process.env.PORT ?? 5701)
const ownState = !process.env.MEDIA_LOG_STATE
const state = process.env.MEDIA_LOG_STATE ?? mkdtempSync(join(tmpdir(), 'media-log-ceiling-'))

await serveBundled({ config: resolve(import.meta.dirname, 'wrangler.toml'), port: PORT, state })
console.log(`Ceiling on http://127.0.0.1:${PORT}`)

// Importing wrangler adds a SIGTERM handler that exits at once: clean up on 'exit'.
process.once('exit', () => {
  if (ownState) rmSync(state, { recursive: true, force: true })
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0))

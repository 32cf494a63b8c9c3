// npm run dev: `wrangler dev` with live reload, on the same port and state as npm start, with the
// unauthenticated Local Explorer switched off (it would run any SQL against the workspace).
import { spawn } from 'node:child_process'
import { createConnection, createServer } from 'node:net'
import {
  PORT,
  ROOT,
  STATE_DIR,
  otherArgs,
  prepareLocal,
  printConsoleUrl,
  quietWranglerEnv,
  wranglerDevArgs,
} from './local.mjs'

const key = prepareLocal()
const wrangler = spawn(process.execPath, wranglerDevArgs(PORT, STATE_DIR, ...otherArgs()), {
  cwd: ROOT,
  env: quietWranglerEnv,
  stdio: 'inherit',
})

// wrangler dev listens on one address; [::1] is forwarded to it so `localhost` works either way.
const ipv6 = createServer((client) => {
  const upstream = createConnection(PORT, '127.0.0.1')
  client.pipe(upstream).pipe(client)
  client.on('error', () => upstream.destroy())
  upstream.on('error', () => client.destroy())
})
ipv6.on('error', () => console.warn(`[::1]:${PORT} is not available; use http://127.0.0.1:${PORT}`))
ipv6.listen(PORT, '::1', () => printConsoleUrl(key))

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => wrangler.kill(signal))
wrangler.on('exit', (code) => process.exit(code ?? 0))

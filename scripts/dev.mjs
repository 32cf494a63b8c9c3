// npm run dev: `wrangler dev` with live reload, on the same port and state as npm start, with the
// unauthenticated Local Explorer switched off (it would run any SQL against the workspace).
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { PORT, ROOT, STATE_DIR, ensureOperatorKey, printConsoleUrl, quietWranglerEnv } from './local.mjs'

const key = ensureOperatorKey()
printConsoleUrl(key)
const wrangler = spawn(
  process.execPath,
  [resolve(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'dev', '--port', String(PORT), '--ip', process.env.DEV_IP ?? 'localhost', '--persist-to', STATE_DIR, ...process.argv.slice(2)],
  { cwd: ROOT, env: quietWranglerEnv, stdio: 'inherit' },
)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => wrangler.kill(signal))
wrangler.on('exit', (code) => process.exit(code ?? 0))

// What `npm start` and `npm run dev` share: the operator key, the state directory, the console URL.
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '..')
export const PORT = Number(process.env.PORT ?? 5252)
/** wrangler dev keeps local state in .wrangler/state/v3; npm start uses the very same directory. */
export const STATE_DIR = resolve(ROOT, process.env.MEDIA_LOG_STATE ?? '.wrangler/state')

/** Creates .dev.vars with a fresh operator key when it has none; returns the key. */
export function ensureOperatorKey(file = resolve(ROOT, '.dev.vars')) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
  const found = /^OPERATOR_KEY\s*=\s*"?([^"\n]+)"?\s*$/m.exec(text)?.[1]?.trim()
  if (found && found.length >= 16) return found
  const key = randomBytes(24).toString('base64url')
  const line = `OPERATOR_KEY=${key}\n`
  writeFileSync(file, found !== undefined ? text.replace(/^OPERATOR_KEY\s*=.*$/m, line.trimEnd()) : text + (text && !text.endsWith('\n') ? '\n' : '') + line, { mode: 0o600 })
  console.log(`Created an operator key in ${file}`)
  return key
}

export function printConsoleUrl(key, port = PORT) {
  console.log('')
  console.log(`Media-Log Service on http://localhost:${port}`)
  console.log(`Operator console: http://localhost:${port}/approve?key=${encodeURIComponent(key)}`)
  console.log('')
}

/** Wrangler would otherwise ask about and send usage data. */
export const quietWranglerEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  X_LOCAL_EXPLORER: 'false',
}

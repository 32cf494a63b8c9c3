// What `npm start` and `npm run dev` share: the operator key, the state directory, the console URL,
// and the checks that must pass before either opens a port.
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, linkSync, lstatSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '..')
/**
 * `--production <name>` (or MEDIA_LOG_PRODUCTION=<name>): this folder serves that production, as a
 * deployment holding it does (docs/units.md), so units can be tried on one laptop: carts link to it
 * at /productions/<name>. Undefined: the laptop's own service.
 */
export const PRODUCTION = productionNamed()
/**
 * `PORT`, else the project's .dev.vars `PORT=` line, else 5252: where `media-log` looks too. A
 * production beside it takes 5253 unless PORT says otherwise.
 */
export const PORT = Number(process.env.PORT ?? (PRODUCTION ? 5253 : (portOf(devVars()) ?? 5252)))
/**
 * wrangler dev keeps local state in .wrangler/state/v3; npm start uses the very same directory. A
 * production keeps its own, so it never opens the laptop's workspace.
 */
export const STATE_DIR = resolve(
  ROOT,
  process.env.MEDIA_LOG_STATE ?? (PRODUCTION ? `.wrangler/production-${PRODUCTION}` : '.wrangler/state'),
)
/** Where the service's paths start: a production's under /productions/<name>. */
export const BASE = PRODUCTION ? `/productions/${PRODUCTION}` : ''

/** The production the command line or the environment names, its name checked as a URL takes it. */
function productionNamed() {
  const args = process.argv.slice(2)
  const at = args.findIndex((arg) => arg === '--production' || arg.startsWith('--production='))
  const name = at < 0 ? process.env.MEDIA_LOG_PRODUCTION : (args[at].split('=')[1] ?? args[at + 1])
  if (at < 0 && !name) return undefined
  // `--production` with no name is a mistake, not the laptop's own service.
  if (!name || !/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/.test(name)) {
    console.error(`--production ${name ?? ''}: a production's name is lowercase letters, digits and dashes`)
    process.exit(2)
  }
  return name
}

/** The arguments a command passes on to wrangler: all but `--production` and its name. */
export function otherArgs() {
  const args = process.argv.slice(2)
  const at = args.findIndex((arg) => arg === '--production' || arg.startsWith('--production='))
  if (at < 0) return args
  return args.filter((_, i) => i !== at && !(i === at + 1 && args[at] === '--production'))
}

/**
 * The workspace's files hold every log and token digest: readable by this user only. The mask is
 * inherited by wrangler and workerd, so every file they create is 0600 and every folder 0700;
 * what an older version left readable is closed here.
 */
function keepStatePrivate() {
  process.umask(0o077)
  for (const dir of new Set([STATE_DIR, resolve(ROOT, '.wrangler')])) restrict(dir)
}

function restrict(path) {
  let stat
  try {
    stat = lstatSync(path)
  } catch {
    return
  }
  if (stat.isSymbolicLink()) return
  // Another start (two on one tree) may remove its own build folder meanwhile: nothing to
  // restrict there. Any other failure (a folder left open to others that cannot be closed) stops.
  try {
    if (stat.isDirectory()) {
      if ((stat.mode & 0o077) !== 0) chmodSync(path, 0o700)
      for (const name of readdirSync(path)) restrict(join(path, name))
    } else if ((stat.mode & 0o077) !== 0) chmodSync(path, stat.mode & 0o700)
  } catch (err) {
    if (err?.code !== 'ENOENT') throw err
  }
}

/**
 * Miniflare's loopback server would write any file for any caller, and `wrangler dev` would open
 * inspectors that run code for any page on localhost; `patches/` closes both and `npm ci` applies
 * it (postinstall). Without it, refuse to start rather than open those ports.
 */
function assertHardened() {
  const require = createRequire(import.meta.url)
  const wrangler = join(dirname(require.resolve('wrangler/package.json')), 'wrangler-dist/cli.js')
  const marks = [
    ['miniflare', require.resolve('miniflare'), 'injectRequestHeaders: [{ name: LOOPBACK_SECRET_HEADER'],
    ['wrangler', wrangler, 'Hardening (media-log-service patch): no inspector'],
    ['wrangler', wrangler, 'Hardening (media-log-service patch): no handler triggers'],
  ]
  const missing = marks.filter(([, file, mark]) => !readFileSync(file, 'utf8').includes(mark))
  if (missing.length === 0) return
  const names = [...new Set(missing.map(([name]) => name))]
  console.error(`The patches in patches/ are not applied to ${names.join(' and ')}.`)
  console.error('Run `npm ci` (its postinstall applies them) or `npx patch-package`, then start again.')
  process.exit(1)
}

function devVars(file = resolve(ROOT, '.dev.vars')) {
  return existsSync(file) ? readFileSync(file, 'utf8') : ''
}

/** The value of the PORT line of a .dev.vars file's text, if it has one. */
function portOf(text) {
  return /^PORT\s*=\s*"?(\d{1,5})"?\s*$/m.exec(text)?.[1]
}

/** The value of the OPERATOR_KEY line of a .dev.vars file's text, if it has one. */
export const operatorKeyOf = (text) => /^OPERATOR_KEY\s*=\s*"?([^"\n]+)"?\s*$/m.exec(text)?.[1]?.trim()

/** Creates .dev.vars with a fresh operator key when it has none; returns the key. */
export function ensureOperatorKey(file = resolve(ROOT, '.dev.vars')) {
  const key = randomBytes(24).toString('base64url')
  const line = `OPERATOR_KEY=${key}\n`
  // No file yet: made whole or not at all (a hard link to a file already written), so starts side
  // by side on a fresh tree (docs/units.md's three terminals) all take the key the first one made.
  if (!existsSync(file) && createWhole(file, line)) {
    console.log(`Created an operator key in ${file}`)
    return key
  }
  const text = devVars(file)
  const found = operatorKeyOf(text)
  if (found && found.length >= 16) return found
  // The user's own .dev.vars without a key (or one too short): the key added to it.
  writeFileSync(
    file,
    found !== undefined
      ? text.replace(/^OPERATOR_KEY\s*=.*$/m, line.trimEnd())
      : text + (text && !text.endsWith('\n') ? '\n' : '') + line,
    { mode: 0o600 },
  )
  console.log(`Created an operator key in ${file}`)
  return key
}

/** `file` made with `text`, readable by its user alone, unless it exists: whether it was made. */
function createWhole(file, text) {
  const made = `${file}.${process.pid}`
  writeFileSync(made, text, { mode: 0o600 })
  try {
    linkSync(made, file)
    return true
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'EEXIST') return false
    // A file system without hard links (exFAT): made in place, once.
    try {
      writeFileSync(file, text, { mode: 0o600, flag: 'wx' })
      return true
    } catch (again) {
      if (/** @type {NodeJS.ErrnoException} */ (again).code === 'EEXIST') return false
      throw again
    }
  } finally {
    rmSync(made, { force: true })
  }
}

/**
 * What both commands do before they open a port: refuse an install without the patches, keep the
 * state readable by this user only, and make sure of the operator key, which they return.
 */
export function prepareLocal() {
  assertHardened()
  keepStatePrivate()
  return ensureOperatorKey()
}

export function printConsoleUrl(key, port = PORT) {
  console.log('')
  if (PRODUCTION) console.log(`Production ${PRODUCTION} on http://localhost:${port}${BASE} (carts link here)`)
  else console.log(`Media-Log Service on http://localhost:${port}`)
  console.log(`Operator console: http://localhost:${port}${BASE}/approve?key=${encodeURIComponent(key)}`)
  console.log('')
}

/** Wrangler would otherwise ask about and send usage data. */
export const quietWranglerEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  X_LOCAL_EXPLORER: 'false',
}

/**
 * `wrangler dev` on loopback at `port` with its state in `state`, then `more`: what `npm run dev`,
 * the benchmark and the end-to-end tests all start. wrangler patched (patches/) opens no inspector
 * and no dev registry port.
 */
/**
 * The time zone a new project takes (TIME_ZONE in wrangler.toml): a `TIME_ZONE=` line of
 * .dev.vars, else the laptop's, which the Workers runtime (running in UTC) cannot see.
 * `TZ=Europe/Paris npm start` names another for one run.
 */
export const LAPTOP_TIME_ZONE =
  /^TIME_ZONE\s*=\s*"?([^"\n]+)"?\s*$/m.exec(devVars())?.[1]?.trim() ||
  Intl.DateTimeFormat().resolvedOptions().timeZone ||
  'UTC'

export const wranglerDevArgs = (port, state, ...more) => [
  resolve(ROOT, 'node_modules/wrangler/bin/wrangler.js'),
  'dev',
  '--port',
  String(port),
  '--ip',
  '127.0.0.1',
  '--persist-to',
  state,
  '--var',
  `TIME_ZONE:${LAPTOP_TIME_ZONE}`,
  ...(PRODUCTION ? ['--var', `PRODUCTIONS:${PRODUCTION}`] : []),
  ...more,
]

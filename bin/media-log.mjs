#!/usr/bin/env node
/**
 * The DIT's command for the service on this laptop:
 *
 *   media-log import <folder…> --log D012 [--day 12] [--date 2025-06-14] [--volume NAME] [--kind ocf|sound]
 *   media-log checks D012
 *
 * `import` walks the folders for ASC MHL histories (`ascmhl/`), classic `*.mhl` and `*.ale`, and
 * sends them to POST /log/{id}/import. The first run asks the operator for a token, as any
 * application does (the console shows "media-log" asking); the token is kept for next time in the
 * user's config folder, readable by the user alone.
 *
 * Exit status: 0 done; 1 the checks found errors, or files could not be read; 2 the command could
 * not do its work (usage, the service, approval refused).
 */
import { chmod, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { MediaLogClient, MediaLogError } from '../dist/client/index.js'

const APP_NAME = 'media-log'
const USAGE = `usage:
  media-log import <folder…> --log ID [--day N] [--date YYYY-MM-DD] [--volume NAME] [--kind ocf|sound] [--json]
  media-log checks ID [--json]
options: --url URL (default $MEDIA_LOG_URL or http://localhost:5252)`
/**
 * Raw bytes per request. An import reads at most 100,000 files listed by its manifests, some 14 MiB
 * of ASC MHL at the least: 8 MiB keeps a batch of folders under it. A bigger folder goes alone.
 */
const BATCH_BYTES = 8 * 1024 * 1024
/** Folders that hold no manifests and can be huge (frames), or are not the user's. */
const SKIPPED = new Set(['.Trashes', '.Spotlight-V100', '.fseventsd', '.TemporaryItems', 'node_modules', '.git'])

class Failure extends Error {}

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      log: { type: 'string' },
      day: { type: 'string' },
      date: { type: 'string' },
      volume: { type: 'string' },
      kind: { type: 'string' },
      url: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const [command, ...rest] = positionals
  if (values.help || !command) return print(USAGE, 0)
  // One spelling per service: the kept tokens are found by it.
  const baseUrl = (values.url ?? process.env.MEDIA_LOG_URL ?? 'http://localhost:5252').replace(/\/+$/, '')
  if (command === 'import') return importFolders(rest, values, baseUrl)
  if (command === 'checks') return printChecks(rest, values, baseUrl)
  throw new Failure(`unknown command ${command}\n${USAGE}`)
}

// ---- import

async function importFolders(folders, options, baseUrl) {
  if (!folders.length || !options.log) throw new Failure(`import needs folders and --log\n${USAGE}`)
  if (options.kind && !['ocf', 'sound'].includes(options.kind)) throw new Failure('--kind is ocf or sound')
  const day = options.day === undefined ? undefined : Number(options.day)
  if (day !== undefined && !(Number.isInteger(day) && day >= 1 && day <= 999))
    throw new Failure('--day is a whole number from 1 to 999')

  const found = []
  const progress = new Progress()
  for (const folder of folders) {
    const root = resolve(folder)
    const volume = options.volume ?? (mountedVolume(root) ? undefined : basename(root))
    const files = await walk(root, progress)
    if (!files.length) warn(`${folder}: no ascmhl/, *.mhl or *.ale here`)
    else if (volume && !options.volume) warn(`${folder}: volume ${volume} (the folder's name; --volume to name it)`)
    for (const path of files) found.push({ path, volume })
  }
  progress.done()
  if (!found.length) throw new Failure('nothing to import')

  const client = await connectedClient(baseUrl)
  const answers = []
  let sent = 0
  for await (const batch of batches(found)) {
    const body = {
      files: batch.map(({ path, bytes, volume }) => ({
        name: path,
        content: bytes.toString('base64'),
        encoding: 'base64',
        ...(volume && { volume }),
      })),
      ...(options.kind && { kind: options.kind }),
      ...(day !== undefined && { day }),
      ...(options.date && { date: options.date }),
    }
    answers.push(await client.importFiles(options.log, body))
    sent += batch.length
    if (found.length > batch.length) progress.say(`sent ${sent} of ${found.length} files`)
  }
  progress.done()
  if (options.json) return print(JSON.stringify(answers.length === 1 ? answers[0] : answers, null, 2), 0)
  const status = report(options.log, answers)
  // The day as it now stands, at a glance: the checks say whether every copy is good.
  const { summary } = await client.checks(options.log)
  print(
    `checks: ${count(summary.errors, 'error')}, ${count(summary.warnings, 'warning')}, ${summary.info} info` +
      (summary.errors + summary.warnings + summary.info ? ` (media-log checks ${options.log} lists them)` : ''),
  )
  return status
}

/** The files of a folder tree worth sending: ASC MHL histories, classic manifests and ALEs. */
async function walk(root, progress) {
  const files = []
  const pending = [root]
  let folders = 0
  while (pending.length) {
    const folder = pending.pop()
    let entries
    try {
      entries = await readdir(folder, { withFileTypes: true })
    } catch (err) {
      if (folder === root) throw new Failure(`${root}: ${err.code === 'ENOENT' ? 'no such folder' : err.message}`)
      warn(`${folder}: ${err.message}`)
      continue
    }
    if (++folders % 500 === 0) progress.say(`looked through ${folders} folders, found ${files.length} files`)
    for (const entry of entries) {
      const path = join(folder, entry.name)
      // Symbolic links are not followed: a link back up the tree would never end.
      if (entry.isDirectory() && !entry.name.startsWith('.') && !SKIPPED.has(entry.name)) pending.push(path)
      else if (entry.isFile() && isWanted(entry.name, folder)) files.push(path)
    }
  }
  return files.sort()
}

function isWanted(name, folder) {
  const lower = name.toLowerCase()
  if (lower.startsWith('._')) return false // macOS resource forks on non-Mac volumes
  if (lower.endsWith('.mhl') || lower.endsWith('.ale')) return true
  return lower === 'ascmhl_chain.xml' && basename(folder) === 'ascmhl'
}

/** macOS and Linux mount points: the service reads the volume's name from such a path itself. */
const mountedVolume = (path) => /^\/(?:Volumes|media\/[^/]+|run\/media\/[^/]+|mnt)\/[^/]+/.test(path)

/**
 * Files read into requests of at most BATCH_BYTES, an `ascmhl/` folder's files always together;
 * each batch read when its turn comes, so a drive's manifests are never all in memory.
 */
async function* batches(found) {
  const groups = new Map()
  for (const file of found) {
    const folder = basename(dirname(file.path)) === 'ascmhl' ? dirname(file.path) : file.path
    const group = groups.get(folder)
    if (group) group.push(file)
    else groups.set(folder, [file])
  }
  let batch = []
  let size = 0
  for (const group of groups.values()) {
    const read = await Promise.all(group.map(async (file) => ({ ...file, bytes: await readFile(file.path) })))
    const bytes = read.reduce((sum, f) => sum + f.bytes.length, 0)
    if (batch.length && size + bytes > BATCH_BYTES) {
      yield batch
      batch = []
      size = 0
    }
    batch.push(...read)
    size += bytes
  }
  if (batch.length) yield batch
}

function report(id, answers) {
  const all = (key) => answers.flatMap((a) => a[key])
  const created = answers.some((a) => a.created)
  const added = all('added')
  const changed = all('changed')
  const unreadable = all('unreadable')
  const lines = [
    `${id}: ${created ? 'created' : 'merged'}; ${count(added.length, 'clip')} added, ${changed.length} changed`,
  ]
  for (const file of all('files'))
    lines.push(
      `  read ${file.name} (${file.format}${file.volume ? `, ${file.volume}` : ''}${file.clips !== undefined ? `, ${count(file.clips, 'clip')}` : ''})`,
    )
  for (const c of changed) lines.push(`  changed ${c.clip}: ${c.fields.join(', ')}`)
  for (const note of all('notes')) lines.push(`  note: ${note.name ? `${note.name}: ` : ''}${note.message}`)
  for (const u of unreadable) lines.push(`  NOT READ ${u.name}: ${u.reason}`)
  if (!added.length && !changed.length && !created) lines.push('  nothing changed: the log already had all of it')
  return print(lines.join('\n'), unreadable.length ? 1 : 0)
}

// ---- checks

async function printChecks([id], options, baseUrl) {
  if (!id) throw new Failure(`checks needs a log id\n${USAGE}`)
  const client = await connectedClient(baseUrl)
  const { checks, summary } = await client.checks(id)
  if (options.json) return print(JSON.stringify({ checks, summary }, null, 2), summary.errors ? 1 : 0)
  const lines = [
    `${id}: ${count(summary.errors, 'error')}, ${count(summary.warnings, 'warning')}, ${summary.info} info`,
    ...checks.map((f) => `  ${f.severity.padEnd(7)} ${f.kind.padEnd(22)} ${f.message}`),
  ]
  return print(lines.join('\n'), summary.errors ? 1 : 0)
}

// ---- the token

/** Where the token is kept: the platform's folder for an application's settings. */
function configFolder() {
  if (process.env.MEDIA_LOG_CONFIG_DIR) return process.env.MEDIA_LOG_CONFIG_DIR
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'media-log')
  if (process.platform === 'win32') return join(process.env.APPDATA ?? homedir(), 'media-log')
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'media-log')
}

const tokenFile = () => join(configFolder(), 'tokens.json')

async function storedTokens() {
  try {
    return JSON.parse(await readFile(tokenFile(), 'utf8'))
  } catch {
    return {}
  }
}

async function storeToken(baseUrl, token) {
  const tokens = await storedTokens()
  if (token) tokens[baseUrl] = token
  else delete tokens[baseUrl]
  await mkdir(configFolder(), { recursive: true, mode: 0o700 })
  if (!Object.keys(tokens).length) return rm(tokenFile(), { force: true })
  await writeFile(tokenFile(), JSON.stringify(tokens, null, 2) + '\n', { mode: 0o600 })
  // A file that existed keeps its mode through writeFile: made the user's alone again.
  await chmod(tokenFile(), 0o600)
}

/**
 * A client with a token the service still accepts: the kept one, else a new one, which waits
 * until the operator approves "media-log" in the console.
 */
async function connectedClient(baseUrl) {
  const kept = (await storedTokens())[baseUrl]
  if (kept) {
    const client = new MediaLogClient({ baseUrl, token: kept })
    try {
      await client.projects()
      return client
    } catch (err) {
      if (!(err instanceof MediaLogError && err.status === 401)) throw err
      await storeToken(baseUrl, undefined)
      warn('the kept token is no longer accepted: asking for a new one')
    }
  }
  warn(`asking for a token: approve "${APP_NAME}" in the console (${baseUrl}/approve)`)
  const client = await MediaLogClient.connect({ baseUrl, appName: APP_NAME })
  await storeToken(baseUrl, client.token)
  warn(`approved; the token is kept in ${tokenFile()}`)
  return client
}

// ---- output

const count = (n, word) => `${n} ${n === 1 ? word : `${word}s`}`
const warn = (text) => process.stderr.write(`${text}\n`)

function print(text, status = 0) {
  process.stdout.write(`${text}\n`)
  return status
}

/** One line rewritten in place on a terminal; whole lines, now and then, anywhere else. */
class Progress {
  #shown = false
  say(text) {
    if (process.stderr.isTTY) {
      process.stderr.write(`\r\x1b[K${text}`)
      this.#shown = true
    } else warn(text)
  }
  done() {
    if (this.#shown) process.stderr.write('\n')
    this.#shown = false
  }
}

main(process.argv.slice(2)).then(
  (status) => process.exit(status),
  (err) => {
    if (err instanceof Failure || err instanceof MediaLogError || err?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      warn(`media-log: ${err.message}`)
    } else if (err?.cause?.code === 'ECONNREFUSED') {
      warn('media-log: the service is not running here (start it with npm start)')
    } else {
      warn(`media-log: ${err?.stack ?? err}`)
    }
    process.exit(2)
  },
)

#!/usr/bin/env node
/**
 * The DIT's command for the service on this laptop:
 *
 *   media-log import <folder…> --log D012 [--day 12] [--date 2025-06-14] [--volume NAME] [--kind ocf|sound] [--json]
 *   media-log verify <folder…> --log D012 [--volume NAME] [--sample N%|--all] [--again] [--threads N] [--json]
 *   media-log checks D012 [--all] [--json]
 *   media-log watch <folder…> [--log D012] [--volume NAME] [--settle SECONDS]
 *   media-log volume rename D012 OLD NEW   |   media-log volume remove D012 NAME
 *   media-log link <production URL> --unit NAME --code CODE   |   media-log unlink   |   media-log sync [--json]
 *
 * `link`, `unlink` and `sync` are the operator's (bin/units.mjs, docs/units.md): they carry the
 * operator key of this project's .dev.vars (or MEDIA_LOG_OPERATOR_KEY). `link` brings the link code
 * the production's operator made for the unit; `sync` exits 1 while the last round failed or a log's
 * versions are in conflict.
 *
 * `checks` says the day's findings as lines (a kind and volume each, the first clips named; --all
 * every finding) and each volume's copies, in the service's words: the console, the reports and
 * the e-mail say the same. `volume` renames a volume of a day or takes it off (a report that named
 * the wrong one); the checks follow.
 *
 * `watch` takes each report an offload tool writes into the folders, once it is whole, into the
 * log (without --log, the day the report's own dates name), as `import` would (bin/watch.mjs, docs/watch.md); it runs until Ctrl-C.
 *
 * `verify` reads the day's copies on a drive back and records what it found (bin/verify.mjs,
 * docs/verify.md; its exit status is its own: 0 all matched, 1 a mismatch or a clip missing).
 *
 * `import` walks the folders for ASC MHL histories (`ascmhl/`), classic `*.mhl`, `*.ale` and the
 * `*.csv` transfer reports and clip lists (a CSV whose header names files, paths or hashes), and
 * sends them to POST /log/{id}/import. After the import it says, per folder, the volumes the
 * service found in it (a transfer report names its destinations itself). A folder on a mounted drive (/Volumes/NAME, /media/USER/NAME,
 * …) is on the drive's volume; any other folder is a volume named after it, unless it holds no
 * manifests of its own but several folders with manifests (backups copied side by side into one
 * parent): then each of those folders is a volume of its own, named after it. The terminal says
 * which volume each folder became. The first run asks the operator for a token, as any
 * application does (the console shows "media-log" asking); the token is kept for next time in the
 * user's config folder, readable by the user alone.
 *
 * The service: `--url`, else `MEDIA_LOG_URL`, else `http://localhost:$PORT`, else the `PORT=` line
 * of this project's .dev.vars, else http://localhost:5252; `npm start` serves at the same place.
 * The URL is said on stderr. Redirects are never followed (they would carry the token).
 *
 * What comes from the service or from file names is printed with its control characters (C0, C1,
 * escape sequences, bidi overrides) as `\uXXXX`: a clip name cannot rewrite the terminal.
 *
 * Exit status, with --json too:
 *   0  done; the checks found no errors
 *   1  done, but the checks found errors, or files were not read (here or by the service)
 *   2  the command could not do its work: usage (no arguments too), the service not reachable,
 *      refusing or redirecting, approval refused or timed out, --volume over several volumes
 */
import { open } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { MediaLogError } from 'media-log-service/client'
import { connectedClient, contacted, serviceUrl } from './service.mjs'
import { Failure, Progress, copyLine, count, print, printJson, shown, warn } from './terminal.mjs'
import { isManifest, isWanted, volumesOf } from './reports.mjs'
import { OPEN_FLAGS, walk } from './walk.mjs'

const USAGE = `usage:
  media-log import <folder…> --log ID [--day N] [--date YYYY-MM-DD] [--volume NAME] [--kind ocf|sound] [--json]
  media-log verify <folder…> --log ID [--volume NAME] [--sample N%|--all] [--again] [--threads N] [--json]
  media-log checks ID [--all] [--json]
  media-log watch <folder…> [--log ID] [--volume NAME] [--settle SECONDS] [--verify [--idle SECONDS]]
  media-log volume rename ID OLD NEW | media-log volume remove ID NAME
  media-log link <production URL> --unit NAME --code LINK-CODE [--json]
  media-log unlink
  media-log sync [--json]
options: --url URL (default: $MEDIA_LOG_URL, else http://localhost:$PORT, else PORT in .dev.vars, else port 5252)`
/**
 * Raw bytes per request. An import reads at most 100,000 files listed by its manifests, some 14 MiB
 * of ASC MHL at the least: 8 MiB keeps a batch of folders under it. A bigger folder goes alone.
 */
const BATCH_BYTES = 8 * 1024 * 1024
/** Files per request: the service refuses more (ImportSchema, src/schemas/requests.ts). */
const BATCH_FILES = 10_000
/** Files open at once: macOS gives a process 256 by default, and ascmhl/ folders grow by the thousand. */
const OPEN_FILES = 16

/**
 * @typedef {ReturnType<typeof parseCommand>['values']} Options  the options as given
 * @typedef {import('./walk.mjs').Found & {volume: string | undefined, folder: string}} ImportFile
 *   a file to send, with the volume it is sent as on and the folder given it was found in
 * @typedef {ImportFile & {bytes: Buffer}} ReadFile  a file to send, read
 * @typedef {{name: string, reason: string}} Skipped  a file not sent, and why
 * @typedef {Awaited<ReturnType<import('media-log-service/client').MediaLogClient['importFiles']>>} ImportAnswer
 */

/** @param {string[]} argv */
function parseCommand(argv) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      log: { type: 'string' },
      day: { type: 'string' },
      date: { type: 'string' },
      volume: { type: 'string' },
      kind: { type: 'string' },
      sample: { type: 'string' },
      all: { type: 'boolean' },
      again: { type: 'boolean' },
      threads: { type: 'string' },
      settle: { type: 'string' },
      verify: { type: 'boolean' },
      idle: { type: 'string' },
      url: { type: 'string' },
      unit: { type: 'string' },
      code: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

/** @param {string[]} argv */
async function main(argv) {
  const { values, positionals } = parseCommand(argv)
  const [command, ...rest] = positionals
  if (values.help) return print(USAGE, 0)
  if (!command) {
    warn(USAGE)
    return 2
  }
  if (command === 'import') return importFolders(rest, values)
  // Loaded when asked for: its digests (hash-wasm, worker threads) are no other command's concern.
  if (command === 'verify') return (await import('./verify.mjs')).verifyFolders(rest, values, USAGE)
  if (command === 'checks') return printChecks(rest, values)
  if (command === 'watch') return (await import('./watch.mjs')).watchFolders(rest, values, USAGE)
  if (command === 'volume') return changeVolume(rest, values)
  if (command === 'link') return (await import('./units.mjs')).link(rest, values, USAGE)
  if (command === 'unlink') return (await import('./units.mjs')).unlink(rest, values, USAGE)
  if (command === 'sync') return (await import('./units.mjs')).syncStatus(rest, values, USAGE)
  throw new Failure(`unknown command ${command}\n${USAGE}`)
}

// ---- import

/** @param {string[]} folders @param {Options} options */
async function importFolders(folders, options) {
  if (!folders.length || !options.log) throw new Failure(`import needs folders and --log\n${USAGE}`)
  const kind = options.kind === 'ocf' || options.kind === 'sound' ? options.kind : undefined
  if (options.kind && !kind) throw new Failure('--kind is ocf or sound')
  const day = options.day === undefined ? undefined : Number(options.day)
  if (day !== undefined && !(Number.isInteger(day) && day >= 1 && day <= 999))
    throw new Failure('--day is a whole number from 1 to 999')
  const service = serviceUrl(options.url)

  /** @type {ImportFile[]} */
  const found = []
  const progress = new Progress()
  for (const folder of folders) {
    const root = resolve(folder)
    const files = await walk(root, progress, isWanted)
    progress.done()
    if (!files.length) warn(`${shown(folder)}: no ascmhl/, *.mhl, *.ale or *.csv report here`)
    for (const { files: part, volume } of volumesOf(folder, root, files, options.volume))
      for (const file of part) found.push({ ...file, volume, folder })
  }
  if (!found.length) throw new Failure('nothing to import')
  for (const file of found)
    if (!file.utf8) warn(`${shown(file.name)}: its name is not UTF-8; sent with \ufffd for the bytes that are not`)

  const client = await connectedClient(service)
  /** @type {ImportAnswer[]} */
  const answers = []
  /** @type {Skipped[]} */
  const skipped = []
  let sent = 0
  for await (const batch of batches(found, skipped)) {
    /** @type {import('media-log-service/client').ImportInput} */
    const body = {
      files: batch.map(({ name, bytes, volume }) => ({
        name,
        content: bytes.toString('base64'),
        encoding: 'base64',
        // A manifest is on the volume it describes; a transfer report (CSV, ALE) names its own
        // volumes, and is given one only by --volume, never by the folder it lies in.
        ...(volume && (isManifest(name) || options.volume) && { volume }),
      })),
      ...(kind && { kind }),
      ...(day !== undefined && { day }),
      ...(options.date && { date: options.date }),
    }
    answers.push(await client.importFiles(options.log, body))
    sent += batch.length
    if (found.length > batch.length) progress.say(`sent ${sent} of ${found.length} files`)
  }
  progress.done()
  // The day as it now stands, at a glance: the checks say whether every copy is good.
  const { summary, copies = [] } = answers.length ? await client.checks(options.log) : { summary: undefined }
  const unread = skipped.length + answers.reduce((n, a) => n + a.unreadable.length, 0)
  const status = unread || summary?.errors ? 1 : 0
  if (options.json) return printJson({ log: options.log, answers, skipped, summary, copies }, status)
  report(options.log, answers, skipped)
  print(volumesFound(folders, found, answers).join('\n'))
  if (summary)
    print(
      [
        ...copies.map(copyLine),
        `checks: ${count(summary.errors, 'error')}, ${count(summary.warnings, 'warning')}, ${summary.info} info` +
          (summary.errors + summary.warnings + summary.info
            ? ` (media-log checks ${shown(options.log)} lists them)`
            : ''),
      ].join('\n'),
    )
  return status
}

/**
 * Per folder given, the volumes the service found in its files: the folder's name or the drive's,
 * or, for a transfer report, each destination it names.
 * @param {string[]} folders @param {ImportFile[]} found @param {ImportAnswer[]} answers
 */
function volumesFound(folders, found, answers) {
  const folderOf = new Map(found.map((file) => [file.name, file.folder]))
  const volumes = new Map(folders.map((folder) => [folder, /** @type {Set<string>} */ (new Set())]))
  for (const file of answers.flatMap((a) => a.files)) {
    const folder = folderOf.get(file.name)
    if (file.volume !== undefined && folder !== undefined) volumes.get(folder)?.add(file.volume)
  }
  return [...volumes].map(([folder, names]) =>
    names.size
      ? `${shown(folder)}: ${names.size === 1 ? 'volume' : 'volumes'} ${[...names].map(shown).join(', ')}`
      : `${shown(folder)}: no volume (camera lists only)`,
  )
}

/**
 * Files read into requests of at most BATCH_BYTES and BATCH_FILES, an `ascmhl/` folder's files
 * together when they fit; each batch read when its turn comes, so a drive's manifests are never
 * all in memory, and at most OPEN_FILES open at once. A file that cannot be read as it was
 * walked goes to `skipped` with the reason; the others are sent.
 * @param {ImportFile[]} found @param {Skipped[]} skipped
 * @returns {AsyncGenerator<ReadFile[]>}
 */
async function* batches(found, skipped) {
  /** @type {Map<string, ImportFile[]>} */
  const groups = new Map()
  for (const file of found) {
    const folder = dirname(file.name)
    const key = basename(folder) === 'ascmhl' ? folder : file.name
    const group = groups.get(key)
    if (group) group.push(file)
    else groups.set(key, [file])
  }
  /** @type {ReadFile[]} */
  let batch = []
  let size = 0
  for (const group of groups.values()) {
    const read = []
    for (const file of await pooled(group, OPEN_FILES, readChecked)) {
      if (!file.bytes) skipped.push({ name: file.name, reason: file.skipped })
      else read.push(file)
    }
    const bytes = read.reduce((sum, f) => sum + f.bytes.length, 0)
    if (batch.length && (size + bytes > BATCH_BYTES || batch.length + read.length > BATCH_FILES)) {
      yield batch
      batch = []
      size = 0
    }
    for (const file of read) batch.push(file)
    size += bytes
    // An ascmhl/ folder of more files than a request takes goes in pieces.
    while (batch.length > BATCH_FILES) {
      yield batch.slice(0, BATCH_FILES)
      batch = batch.slice(BATCH_FILES)
      size = batch.reduce((sum, f) => sum + f.bytes.length, 0)
    }
  }
  if (batch.length) yield batch
}

/**
 * The file as it was walked, or why not: a symbolic link (or anything else) put in its place
 * since is not followed, and a file that is not the one walked (another device or inode: a folder
 * on its path swapped for a link) is not sent.
 * @param {ImportFile} file
 * @returns {Promise<ReadFile | ImportFile & {bytes?: undefined, skipped: string}>}
 */
async function readChecked(file) {
  let handle
  try {
    handle = await open(file.path, OPEN_FLAGS)
  } catch (thrown) {
    const err = /** @type {NodeJS.ErrnoException} */ (thrown)
    const link = err.code === 'ELOOP' || err.code === 'EMLINK'
    return { ...file, skipped: link ? 'it is a symbolic link now, not the file found' : err.message }
  }
  try {
    const stat = await handle.stat({ bigint: true })
    if (!stat.isFile()) return { ...file, skipped: 'it is not a file any more' }
    if (stat.dev !== file.dev || stat.ino !== file.ino)
      return { ...file, skipped: 'another file is in its place now, not the one found' }
    return { ...file, bytes: await handle.readFile() }
  } catch (err) {
    return { ...file, skipped: /** @type {Error} */ (err).message }
  } finally {
    await handle.close()
  }
}

/**
 * `fn` over `items`, at most `limit` at a time, the results in order.
 * @template T, R
 * @param {T[]} items @param {number} limit @param {(item: T) => Promise<R>} fn
 * @returns {Promise<R[]>}
 */
async function pooled(items, limit, fn) {
  /** @type {R[]} */
  const results = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i])
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/** @param {string} id @param {ImportAnswer[]} answers @param {Skipped[]} skipped */
function report(id, answers, skipped) {
  /** @template {'added' | 'changed' | 'files' | 'notes' | 'unreadable'} K @param {K} key */
  const all = (key) => answers.map((a) => a[key]).flat()
  const created = answers.some((a) => a.created)
  const added = all('added')
  const changed = all('changed')
  const lines = [
    `${shown(id)}: ${created ? 'created' : answers.length ? 'merged' : 'nothing sent'}; ${count(added.length, 'clip')} added, ${changed.length} changed`,
  ]
  for (const file of all('files'))
    lines.push(
      `  read ${shown(file.name)} (${shown(file.format)}${file.volume ? `, ${shown(file.volume)}` : ''}${file.clips !== undefined ? `, ${count(file.clips, 'clip')}` : ''})`,
    )
  for (const c of changed) lines.push(`  changed ${shown(c.clip)}: ${c.fields.map(shown).join(', ')}`)
  for (const note of all('notes'))
    lines.push(`  note: ${note.name ? `${shown(note.name)}: ` : ''}${shown(note.message)}`)
  for (const u of all('unreadable')) lines.push(`  NOT READ ${shown(u.name)}: ${shown(u.reason)}`)
  for (const s of skipped) lines.push(`  NOT SENT ${shown(s.name)}: ${shown(s.reason)}`)
  if (answers.length && !added.length && !changed.length && !created)
    lines.push('  nothing changed: the log already had all of it')
  print(lines.join('\n'))
}

// ---- checks

/** @param {string[]} ids @param {Options} options */
async function printChecks([id], options) {
  if (!id) throw new Failure(`checks needs a log id\n${USAGE}`)
  const client = await connectedClient(serviceUrl(options.url))
  const { checks, summary, groups, copies } = await client.checks(id)
  const status = summary.errors ? 1 : 0
  if (options.json) return printJson({ checks, summary, groups, copies }, status)
  const lines = [
    `${shown(id)}: ${count(summary.errors, 'error')}, ${count(summary.warnings, 'warning')}, ${summary.info} info`,
    // A line per kind and volume, the first clips named; --all lists every finding, each on its line.
    ...(options.all
      ? checks.map((f) => `  ${shown(f.severity).padEnd(7)} ${shown(f.kind).padEnd(22)} ${shown(f.message)}`)
      : groups.map((g) => `  ${shown(g.severity).padEnd(7)} ${shown(g.words)}`)),
    ...(copies.length ? ['copies:'] : []),
    ...copies.map(copyLine),
  ]
  return print(lines.join('\n'), status)
}

// ---- volume

/**
 * `volume rename ID OLD NEW`, `volume remove ID NAME`: a volume of a day renamed, or taken off the
 * day, and the day's copies as they stand after.
 * @param {string[]} args @param {Options} options
 */
async function changeVolume([action, id, volume, name], options) {
  if (!id || !volume || (action === 'rename' ? !name : action !== 'remove'))
    throw new Failure(`volume rename ID OLD NEW, or volume remove ID NAME\n${USAGE}`)
  const client = await connectedClient(serviceUrl(options.url))
  const done = action === 'rename' ? await client.renameVolume(id, volume, name) : await client.removeVolume(id, volume)
  const { summary, copies } = await client.checks(id)
  if (options.json) return printJson({ ...done, summary, copies }, 0)
  print(
    [
      action === 'rename'
        ? `${shown(id)}: ${shown(volume)} is ${shown(name)} now (${count(done.copies, 'copy', 'copies')})`
        : `${shown(id)}: ${shown(volume)} taken off the day (${count(done.copies, 'copy', 'copies')})`,
      ...copies.map(copyLine),
      `checks: ${count(summary.errors, 'error')}, ${count(summary.warnings, 'warning')}, ${summary.info} info`,
    ].join('\n'),
  )
  return 0
}

/** Exits once stdout and stderr are written out: a pipe on macOS takes writes asynchronously. @param {number} status */
function exit(status) {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(status)))
}

main(process.argv.slice(2)).then(exit, (/** @type {unknown} */ err) => {
  // What Node's errors carry: parseArgs's its code, fetch's the network's error as its cause.
  const { code, cause } = err instanceof Error ? /** @type {NodeJS.ErrnoException} */ (err) : {}
  const causeCode = cause instanceof Error ? /** @type {NodeJS.ErrnoException} */ (cause).code : undefined
  if (
    err instanceof Failure ||
    err instanceof MediaLogError ||
    (err instanceof Error && code?.startsWith('ERR_PARSE_ARGS_'))
  ) {
    warn(`media-log: ${err.message}`)
  } else if (causeCode === 'ECONNREFUSED') {
    warn(`media-log: nothing answers at ${contacted.url} (npm start starts the service)`)
  } else if (err instanceof TypeError && err.message === 'fetch failed') {
    warn(
      `media-log: cannot reach ${contacted.url}: ${cause instanceof Error ? cause.message : 'the connection failed'}`,
    )
  } else {
    warn(`media-log: ${err instanceof Error ? (err.stack ?? String(err)) : String(err)}`)
  }
  exit(2)
})

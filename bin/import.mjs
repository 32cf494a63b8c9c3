// `media-log import <folder…> --log ID`: the offload reports in folders (ASC MHL histories,
// classic MHL, ALE, CSV transfer reports and clip lists) sent to POST /log/{id}/import in batches,
// and what the service made of them said per folder and volume.
import { open } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import { connectedClient, serviceUrl } from './service.mjs'
import { Failure, Progress, copyLine, count, print, printJson, shown, warn } from './terminal.mjs'
import { isManifest, isWanted, volumesOf } from './reports.mjs'
import { OPEN_FLAGS, walk } from './walk.mjs'

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
 * @typedef {import('./walk.mjs').Found & {volume: string | undefined, folder: string}} ImportFile
 *   a file to send, with the volume it is sent as on and the folder given it was found in
 * @typedef {ImportFile & {bytes: Buffer}} ReadFile  a file to send, read
 * @typedef {{name: string, reason: string}} Skipped  a file not sent, and why
 * @typedef {Awaited<ReturnType<import('media-log-service/client').MediaLogClient['importFiles']>>} ImportAnswer
 */

/**
 * @param {string[]} folders @param {import('./media-log.mjs').Options} options @param {string} usage
 */
export async function importFolders(folders, options, usage) {
  if (!folders.length || !options.log) throw new Failure(`import needs folders and --log\n${usage}`)
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

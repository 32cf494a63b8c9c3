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
 *      refusing or redirecting, approval refused or timed out, --volume over several volumes; or
 *      what it said could not all be written (a full disk)
 * A read-back stopped by Ctrl-C, a kill or a closed terminal ends by that signal (docs/verify.md).
 */
import { constants } from 'node:os'
import { parseArgs } from 'node:util'
import { Failure, Stopped, outliveReaders, outputFailed, print, warn } from './terminal.mjs'

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

/** @typedef {ReturnType<typeof parseCommand>['values']} Options  the options as given */

/** @param {string[]} argv */
function parseCommand(argv) {
  try {
    return parseOptions(argv)
  } catch (err) {
    // Node's words name a workaround for positionals starting with `-`, in unbalanced quotes.
    const { code, message } = /** @type {NodeJS.ErrnoException} */ (err)
    const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && /^Unknown option '([^']+)'/.exec(message)
    if (unknown) throw new Failure(`unknown option ${unknown[1]} (media-log --help lists them)`)
    // Missing, or followed by another option (`--log --json`: Node's "ambiguous").
    const missing = /^Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec(message)
    if (missing) throw new Failure(`${missing[1]} needs a value`)
    const takesNone = /^Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(message)
    if (takesNone) throw new Failure(`${takesNone[1]} takes no value`)
    throw err
  }
}

/** @param {string[]} argv */
function parseOptions(argv) {
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
  // Each command is loaded when asked for: `verify` reads from its first tenth of a second, and
  // the client alone takes some 20 ms to load.
  if (command === 'import') return (await import('./import.mjs')).importFolders(rest, values, USAGE)
  if (command === 'verify') {
    // Its reading threads start while the rest of it loads and asks the service for the log.
    if (rest.length && values.log) (await import('./digests.mjs')).prestart(values.threads)
    return (await import('./verify.mjs')).verifyFolders(rest, values, USAGE)
  }
  if (command === 'checks') return (await import('./checks.mjs')).printChecks(rest, values, USAGE)
  if (command === 'watch') return (await import('./watch.mjs')).watchFolders(rest, values, USAGE)
  if (command === 'volume') return (await import('./checks.mjs')).changeVolume(rest, values, USAGE)
  if (command === 'link') return (await import('./units.mjs')).link(rest, values, USAGE)
  if (command === 'unlink') return (await import('./units.mjs')).unlink(rest, values, USAGE)
  if (command === 'sync') return (await import('./units.mjs')).syncStatus(rest, values, USAGE)
  throw new Failure(`unknown command ${command}\n${USAGE}`)
}

/**
 * What the error handler tells errors by: loaded only now, as each command loads what it needs. A
 * build without them (dist/ not made) still has its error said.
 */
async function errorWords() {
  try {
    const [{ MediaLogError }, { contacted }] = await Promise.all([
      import('media-log-service/client'),
      import('./service.mjs'),
    ])
    return { MediaLogError, contacted }
  } catch {
    return { MediaLogError: Failure, contacted: { url: undefined } }
  }
}

/** Exits once stdout and stderr are written out: a pipe on macOS takes writes asynchronously. @param {number} status */
function exit(status) {
  // An output that failed (a full disk) fails the command: what it said is not all there.
  const final = () => (outputFailed() && status < 2 ? 2 : status)
  // The status stands even where an output is gone and its write's callback never comes.
  process.exitCode = final()
  process.stdout.write('', () => process.stderr.write('', () => process.exit(final())))
}

outliveReaders()
main(process.argv.slice(2)).then(exit, async (/** @type {unknown} */ err) => {
  if (err instanceof Stopped) {
    warn(err.message)
    // Nothing listens for the signal any more: sent again, it ends the process as it would have.
    const { signal } = err
    process.exitCode = 128 + constants.signals[signal]
    return process.stdout.write('', () => process.stderr.write('', () => process.kill(process.pid, signal)))
  }
  const { MediaLogError, contacted } = await errorWords()
  // What Node's errors carry: parseArgs's its code, fetch's the network's error as its cause.
  const { code, cause } = err instanceof Error ? /** @type {NodeJS.ErrnoException} */ (err) : {}
  const causeCode = cause instanceof Error ? /** @type {NodeJS.ErrnoException} */ (cause).code : undefined
  const refused = err instanceof MediaLogError && 'status' in err ? err : undefined
  if (refused?.status === 409 && refused.error === 'No Project Loaded') {
    // What the service says is true but names no way out: the project is the application's to open.
    warn(
      'media-log: 409 No Project Loaded: the service has no project open. The application that keeps ' +
        'the logs (Daytalog) opens or creates one; or POST /project/create (docs/projects.md)',
    )
  } else if (
    err instanceof Failure ||
    err instanceof MediaLogError ||
    (err instanceof Error && code?.startsWith('ERR_PARSE_ARGS_'))
  ) {
    warn(`media-log: ${err.message}`)
  } else if (causeCode === 'ECONNREFUSED') {
    warn(`media-log: nothing answers at ${contacted.url} (npm start starts the service)`)
  } else if (err instanceof TypeError && err.message === 'terminated') {
    // The answer cut off halfway: the service stopped or was restarted (npm start's supervisor).
    warn(`media-log: ${contacted.url} closed the connection before its answer was whole; run the same command again`)
  } else if (err instanceof TypeError && err.message === 'fetch failed') {
    warn(
      `media-log: cannot reach ${contacted.url}: ${cause instanceof Error ? cause.message : 'the connection failed'}`,
    )
  } else {
    warn(`media-log: ${err instanceof Error ? (err.stack ?? String(err)) : String(err)}`)
  }
  exit(2)
})

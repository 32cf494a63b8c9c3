// What the command says: on stdout its answer, on stderr what it is doing, every value from the
// service or the disk shown safe (a clip name cannot rewrite the terminal).

/** A failure the command says in one line, and exits 2. */
export class Failure extends Error {}

/**
 * A signal stopped the command where it was: its message is said as it is, and the command then
 * ends by that signal, as the shell expects of a command stopped (a loop over drives stops too;
 * `$?` is 128 + the signal's number, 130 for Ctrl-C).
 */
export class Stopped extends Error {
  /** @param {string} message @param {NodeJS.Signals} signal */
  constructor(message, signal) {
    super(message)
    this.signal = signal
  }
}

/**
 * Control characters (C0, DEL, C1: escape sequences with them), bidi embeddings, overrides and
 * isolates, and line separators, which would let a clip or file name move the cursor, erase or
 * reorder what the terminal shows.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
/** @param {string} c */
const escapedUnsafe = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
/** A value from the service or the disk as one line of plain text. @param {unknown} value */
export const shown = (value) => String(value).replace(UNSAFE, escapedUnsafe)

/**
 * `1 clip`, `3 clips`; `many` where the plural is not the word and an s (`copy`, `copies`).
 * @param {number} n @param {string} word
 */
export const count = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`
/**
 * The terminal closed (SIGHUP): nothing more is written to it, where every write would fail while
 * a command stopping still has things to say to the service.
 */
function muteTerminal() {
  mute(process.stdout)
  mute(process.stderr)
}

/**
 * `stop` hears the first Ctrl-C, kill (SIGTERM) and closed terminal (SIGHUP) each, the terminal
 * muted before it for a hang-up; a second of the same ends the process as the signal does. Gives
 * back what stops hearing them.
 * @param {(signal: NodeJS.Signals) => void} stop
 */
export function onStop(stop) {
  const heard = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']).map((name) => {
    const listener = () => {
      if (name === 'SIGHUP') muteTerminal()
      stop(name)
    }
    process.once(name, listener)
    return /** @type {const} */ ([name, listener])
  })
  return () => {
    for (const [name, listener] of heard) process.off(name, listener)
  }
}

/**
 * An output whose reader is gone (EPIPE: the `| head -1` it went to ended; EIO: the terminal
 * closed) takes nothing more, and the command goes on to its end and its own exit status. Unheard,
 * the failed write would end the process at once: a read-back's threads in the middle of a read,
 * which crashes xxhash-addon (digests.mjs), a verify whose clips were all recorded exiting 1. An
 * output that failed otherwise (a full disk under `> report.json`) is muted too, but the command
 * then ends with 2 whatever it found (outputFailed): what it said is not all there.
 */
export function outliveReaders() {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (/** @type {NodeJS.ErrnoException} */ err) => {
      if (!(err.code === 'EPIPE' || (err.code === 'EIO' && stream.isTTY))) failedOutput = true
      mute(stream)
    })
}

let failedOutput = false
/** Whether an output failed otherwise than by its reader going: the command did not say it all. */
export const outputFailed = () => failedOutput

/** Writes to `stream` dropped; a write's callback is still called, as a command's exit waits on one. @param {NodeJS.WriteStream} stream */
function mute(stream) {
  stream.write = /** @type {typeof stream.write} */ (
    (/** @type {unknown} */ _chunk, /** @type {unknown} */ encoding, /** @type {unknown} */ callback) => {
      const done = /** @type {(() => void) | undefined} */ (typeof encoding === 'function' ? encoding : callback)
      if (typeof done === 'function') queueMicrotask(done)
      return true
    }
  )
}

/**
 * Whether a Progress line is on the terminal now. A warning clears it first rather than run on
 * from its end (the approval prompt while a drive is walked); the line is drawn again at its next
 * change.
 */
let progressShown = false

/** Lines to stderr, each shown safe whatever it holds. @param {string} text */
export function warn(text) {
  const cleared = progressShown ? '\r\x1b[K' : ''
  progressShown = false
  process.stderr.write(`${cleared}${text.split('\n').map(shown).join('\n')}\n`)
}

/** Lines to stdout, each shown safe; `status` given back, the command's exit status. @param {string} text */
export function print(text, status = 0) {
  process.stdout.write(`${text.split('\n').map(shown).join('\n')}\n`)
  return status
}

/** What JSON.stringify leaves as it is of UNSAFE (it escapes C0 itself): `\uXXXX` reads back the same. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/** @param {unknown} value @param {number} status */
export function printJson(value, status) {
  process.stdout.write(`${JSON.stringify(value, null, 2).replace(UNSAFE_IN_JSON, escapedUnsafe)}\n`)
  return status
}

/** One line rewritten in place on a terminal; whole lines, now and then, anywhere else. */
export class Progress {
  /** @param {string} text */
  say(text) {
    if (process.stderr.isTTY) {
      process.stderr.write(`\r\x1b[K${shown(text)}`)
      progressShown = true
    } else warn(text)
  }
  /** The line stays, ended; one a warning cleared is not ended again. */
  done() {
    if (progressShown) process.stderr.write('\n')
    progressShown = false
  }
}

/**
 * A volume's copies as the service words them (the one account, docs/checks.md), its mark first:
 * `  ✕ SHUTTLE_C 2/3: 3 clips: 1 not found on read-back, 2 verified (read back)`.
 * @param {{part: string, volume: string, held: number, clips: number, mark: string, words: string}} c
 */
export const copyLine = (c) =>
  `  ${shown(c.mark)} ${c.part === 'sound' ? 'sound ' : ''}${shown(c.volume)} ${c.held}/${c.clips}: ${shown(c.words)}`

/**
 * The closed set of states a copy can be in, and their words: the one vocabulary every surface
 * (checks, console, reports, e-mail, `media-log`) says a copy's state in. A copy is one clip on one
 * volume; it is in exactly one state, the worst that is true of it.
 *
 * The console and `media-log` never retype these words: the console is served them in its answers,
 * the command gets them from the checks' answer and from the typed client, which bundles this file.
 */

/** Worst first: a copy with two things true of it is in the first of them. */
export const COPY_STATES = [
  'missing',
  'not-found',
  'failed',
  'differ',
  'no-checksum',
  'recorded',
  'match',
  'verified',
] as const

export type CopyState = (typeof COPY_STATES)[number]

/** How bad a state is: an error stops a volume being sent as done, a warning asks for a look. */
export type StateSeverity = 'error' | 'warning' | 'ok'

type StateWords = {
  severity: StateSeverity
  /** What one copy in this state is, on a clip's line or a cell (`SHUTTLE_B (not found on read-back)`). */
  label: string
  /** How many of a volume's clips are in it: `n` and this, for one and for several (`3 verified (read back)`). */
  counted: readonly [one: string, many: string]
  /** Every clip of a volume in it: `3 clips, all verified (read back)`. */
  all: string
  /** What it means, for the documentation and the console's hints. */
  means: string
}

export const STATE_WORDS: Record<CopyState, StateWords> = {
  missing: {
    severity: 'error',
    label: 'missing',
    counted: ['missing', 'missing'],
    all: 'all missing',
    means: 'the day plans a copy on the volume (its copies list) and no record puts the clip there',
  },
  'not-found': {
    severity: 'error',
    label: 'not found on read-back',
    counted: ['not found on read-back', 'not found on read-back'],
    all: 'none found on read-back',
    means: 'recorded on the volume, but a read-back of the volume (media-log verify) found no file of it',
  },
  failed: {
    severity: 'error',
    label: 'read back and different',
    counted: ['read back and different', 'read back and different'],
    all: 'all read back and different',
    means: 'read back and hashed again, and the checksum differs from the one it was copied with',
  },
  differ: {
    severity: 'error',
    label: 'checksum differs',
    counted: ['whose checksum differs from another copy’s', 'whose checksums differ from other copies’'],
    all: 'all with checksums that differ from other copies’',
    means:
      'its checksum disagrees with another copy’s of the same algorithm and agrees with none: one of them is not the camera’s file',
  },
  'no-checksum': {
    severity: 'warning',
    label: 'no checksum',
    counted: ['without a checksum', 'without a checksum'],
    all: 'none with a checksum',
    means: 'on the volume, with no checksum: nothing to verify it by',
  },
  recorded: {
    severity: 'ok',
    label: 'checksum recorded',
    counted: ['checksum recorded (not read back)', 'checksums recorded (not read back)'],
    all: 'checksums recorded (not read back)',
    means:
      'a checksum from when it was copied, with no other copy of the same algorithm to compare it with; it says nothing of the copy as it is now',
  },
  match: {
    severity: 'ok',
    label: 'checksums match',
    counted: ['checksum matches (not read back)', 'checksums match (not read back)'],
    all: 'checksums match (not read back)',
    means: 'its checksum from copy time agrees with another volume’s copy; not read back since',
  },
  verified: {
    severity: 'ok',
    label: 'verified',
    counted: ['verified (read back)', 'verified (read back)'],
    all: 'all verified (read back)',
    means: 'read back from the volume and hashed again, and found equal to the checksum it was copied with',
  },
}

/** What is said of a clip's size apart from its copies. */
export const CLIP_WORDS = {
  /** A size no report stated: carried as `size: 0` with `size_unknown: true` (docs/log.md). */
  sizeUnknown: 'size unknown',
  /** A size, or a total of sizes, no report stated. */
  unknown: 'unknown',
}

/**
 * `n` copies in `state`: `3 checksums match (not read back)`; with `noun`, named (`1 clip not
 * found on read-back`), as a problem is said on its own.
 */
export function counted(state: CopyState, n: number, noun = false): string {
  const words = STATE_WORDS[state].counted[n === 1 ? 0 : 1]
  return noun ? `${clips(n)} ${words}` : `${n.toLocaleString('en-US')} ${words}`
}

/** `1 clip`, `2,001 clips`. */
export const clips = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'clip' : 'clips'}`

/** `1 file`, `3 files`. */
export const files = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'file' : 'files'}`

/** The severity of the worst of some states, `ok` for none. */
export function worstSeverity(states: Iterable<CopyState>): StateSeverity {
  let worst: StateSeverity = 'ok'
  for (const state of states) {
    const severity = STATE_WORDS[state].severity
    if (severity === 'error') return 'error'
    if (severity === 'warning') worst = 'warning'
  }
  return worst
}

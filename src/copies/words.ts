/**
 * A volume's copies in words, as every surface says them: the console's chips and Days, the
 * reports' chips, the e-mail's copies and verification lines, the checks' answer (which
 * `media-log` prints). Made from a VolumeCount alone (account.ts), so two surfaces given the same
 * count cannot say two things.
 */
import { heldOf, statesIn, type BadFrames, type VolumeCount } from './account'
import {
  CLIP_WORDS,
  STATE_WORDS,
  clips,
  counted,
  files,
  worstSeverity,
  type CopyState,
  type StateSeverity,
} from './states'

const count = (n: number) => n.toLocaleString('en-US')

/** The worst that is true of a volume's copies: `error` when any clip is in an error state. */
function verdictOf(c: VolumeCount): StateSeverity {
  if (c.otherFailed) return 'error'
  return worstSeverity(statesIn(c).map(([state]) => state))
}

/** `1 file that is not media (a sidecar) failed verification`. */
const otherFailedWords = (n: number) =>
  `${files(n)} that ${n === 1 ? 'is' : 'are'} not media (${n === 1 ? 'a sidecar' : 'sidecars'}) failed verification`

/**
 * `3 clips, all verified (read back)`; `3 clips: 2 verified (read back), 1 not found on
 * read-back`; `12 clips on 2 days: …` over a range; a sidecar that failed after a `;`.
 */
export function volumeWords(c: VolumeCount): string {
  const found = statesIn(c)
  const days = c.days ? ` on ${count(c.days)} ${c.days === 1 ? 'day' : 'days'}` : ''
  let words: string
  if (!c.clips) words = 'no clips'
  else if (found.length === 1) words = `${clips(c.clips)}${days}, ${STATE_WORDS[found[0]![0]].all}`
  else words = `${clips(c.clips)}${days}: ${found.map(([state, n]) => counted(state, n)).join(', ')}`
  return c.otherFailed ? `${words}; ${otherFailedWords(c.otherFailed)}` : words
}

/**
 * What a volume's copies promise, as a chip shows it: `held/clips` (clips on the volume as far as
 * anyone knows, of those it owes), the mark of its verdict, and its words.
 */
export function chipOf(c: VolumeCount) {
  const verdict = verdictOf(c)
  return {
    volume: c.volume,
    held: heldOf(c),
    clips: c.clips,
    verdict,
    mark: MARKS[verdict],
    words: volumeWords(c),
  }
}

/** ✓ only where nothing is wrong or wanting. */
const MARKS: Record<StateSeverity, string> = { ok: '✓', warning: '!', error: '✕' }

/** The problems of a volume's copies alone (errors and warnings), worst first: `1 not found on read-back`. */
function problemsOf(c: VolumeCount): string[] {
  const problems = statesIn(c)
    .filter(([state]) => STATE_WORDS[state].severity !== 'ok')
    .map(([state, n]) => counted(state, n, true))
  if (c.otherFailed) problems.push(otherFailedWords(c.otherFailed))
  return problems
}

/** The one state every clip of every volume is in, when there is one and it is a good one. */
function oneGoodState(counts: readonly VolumeCount[]): CopyState | undefined {
  let one: CopyState | undefined
  for (const c of counts) {
    const found = statesIn(c)
    if (found.length !== 1 || c.otherFailed) return undefined
    const [state] = found[0]!
    if (STATE_WORDS[state].severity !== 'ok' || (one && one !== state)) return undefined
    one = state
  }
  return one
}

/**
 * The verdict on a day's (or a range's) copies of one part, for the e-mail's Verification row,
 * beside the Copies row that says each volume: `2 copies, all verified (read back)` when every
 * volume says one good thing; each volume with a problem, and what (`SHUTTLE_C: 1 clip not found
 * on read-back`); else that nothing is wrong though not every copy was read back.
 */
export function verificationLines(counts: readonly VolumeCount[]): string[] {
  if (!counts.length) return []
  const copies = `${count(counts.length)} ${counts.length === 1 ? 'copy' : 'copies'}`
  const one = oneGoodState(counts)
  if (one) return [`${copies}, ${STATE_WORDS[one].all}`]
  const problems = counts.flatMap((c) => {
    const found = problemsOf(c)
    return found.length ? [`${c.volume}: ${found.join(', ')}`] : []
  })
  return problems.length ? problems : [`${copies}: nothing missing or different; not every copy read back`]
}

/** A volume's problems alone, for a table cell: `1 not found on read-back`; empty when none. */
export const problemWords = (c: VolumeCount) => problemsOf(c).join(', ')

/**
 * A total of sizes where some clips' sizes are unknown: `1.23 TB + 39 clips of unknown size`, or
 * `unknown` when no size is known (nothing was added up). `format` prints bytes as the surface does.
 */
export function sizeWords(
  { size, unknownSizes = 0 }: { size: number; unknownSizes?: number },
  format: (bytes: number) => string,
): string {
  if (!unknownSizes) return format(size)
  if (size === 0) return CLIP_WORDS.unknown
  return `${format(size)} + ${unknownSizeWords(unknownSizes)}`
}

/** `39 clips of unknown size`. */
export const unknownSizeWords = (n: number) => `${clips(n)} of unknown size`

/**
 * What a read-back found of a sequence's frames: `1 frame changed (A002C001.0000003.ari), 1 frame
 * missing (…)`, the first frames named and how many more; empty when nothing is known of them.
 */
export function badFramesWords(frames: BadFrames): string {
  const part = (names: string[], n: number, what: string) => {
    if (!n) return []
    const more = n - names.length
    const list = names.length ? ` (${names.join(', ')}${more > 0 ? `, and ${count(more)} more` : ''})` : ''
    return [`${count(n)} ${n === 1 ? 'frame' : 'frames'} ${what}${list}`]
  }
  return [
    ...part(frames.changed, frames.changed_count, 'changed'),
    ...part(frames.missing, frames.missing_count, 'missing'),
  ].join(', ')
}

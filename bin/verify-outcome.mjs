// `media-log verify`, the outcome: recorded in the log, and said on the terminal.
import { readFileSync } from 'node:fs'
import { STATE_WORDS, badFramesWords } from 'media-log-service/client'
import { APP_NAME } from './service.mjs'
import { count, shown } from './terminal.mjs'
import { clock, isoDate, sizeOf } from './verify-reading.mjs'

/** @type {unknown} JSON.parse types nothing: the project's own package.json, which names its version */
const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const VERSION = /** @type {{version: string}} */ (PACKAGE).version

/** @typedef {import('./verify.mjs').Outcome['failed'][number]} Failed  a clip read back different */

/** Clips a read-back request carries, as POST /log/{id}/read-back takes them. */
const CLIPS_PER_REQUEST = 20_000

/**
 * The outcome recorded in the log: per volume, each clip read back (verified, failed, or its
 * first checksum), and each the log has on the volume that was not found, in requests of at most
 * CLIPS_PER_REQUEST clips (POST /log/{id}/read-back). When: a clip's last file read; by: this command.
 * Gives what was written: clips and files as read back, clips as not found.
 * @param {import('media-log-service/client').MediaLogClient} client @param {string} log
 * @param {Array<{outcome: import('./verify.mjs').Outcome, units: import('./verify.mjs').Compared[]}>} runs
 */
export async function record(client, log, runs) {
  const written = { clips: 0, files: 0, missing: 0 }
  const tool = `${APP_NAME} ${VERSION}`
  const now = isoDate(new Date())
  for (const { outcome, units } of runs) {
    /** @type {import('media-log-service/client').ReadBackInput['clips']} */
    const entries = units.map((unit) => ({
      part: unit.part,
      clip: unit.logClip,
      found: unit.action,
      hash: unit.found,
      hashdate: unit.files.reduce((latest, f) => (f.hashdate && f.hashdate > latest ? f.hashdate : latest), '') || now,
      ...(unit.sequence && { files: unit.files.length }),
      ...(unit.frames && { bad_frames: withoutNamed(unit.frames) }),
    }))
    for (const m of outcome.missing) entries.push({ part: m.part, clip: m.clip, found: 'missing', hashdate: now })
    const files = units.reduce((n, unit) => n + unit.files.length, 0)
    for (let at = 0; at < entries.length; at += CLIPS_PER_REQUEST) {
      // A read-back the service cannot take is refused whole (400): the command stops, its reads kept.
      await client.readBack(log, { volume: outcome.volume, tool, clips: entries.slice(at, at + CLIPS_PER_REQUEST) })
    }
    written.clips += units.length
    written.files += files
    written.missing += outcome.missing.length
  }
  return written
}

/**
 * A sequence's bad frames as the read-back records them (whether they could be named is the run's to say).
 * @param {import('./verify.mjs').FramesFound} frames
 */
const withoutNamed = ({ changed, missing, changed_count, missing_count }) => ({
  changed,
  missing,
  changed_count,
  missing_count,
})

/**
 * Whether a folder could not be read where a clip was not found: it may be in there. A folder not
 * read where every clip was found is the walk's warning alone.
 * @param {import('./verify.mjs').Outcome} outcome
 */
export const notLookedThrough = (outcome) => outcome.unreadableFolders.length > 0 && outcome.notLookedFor > 0

/**
 * A volume's outcome in lines: what was read, then each clip that was not verified and why, each
 * labelled with its state in the service's words (the typed client's STATE_WORDS).
 * @param {import('./verify.mjs').Outcome} outcome @param {string} log
 */
export function said(outcome, log) {
  const { volume, read } = outcome
  const took = read.seconds < 60 ? `${read.seconds.toFixed(1)} s` : clock(read.seconds)
  const rate = read.seconds > 0 ? ` (${sizeOf(read.bytes / read.seconds)}/s)` : ''
  const row = (/** @type {string} */ label, /** @type {string} */ text) => `  ${label}: ${text}`
  const against = (/** @type {Failed} */ f) => f.against.replace(/^\S+, /, '')
  const unlooked = notLookedThrough(outcome)
  if (
    !read.files &&
    !read.resumed &&
    !outcome.missing.length &&
    !outcome.uncompared.length &&
    !outcome.unreadable.length &&
    !unlooked
  )
    return [
      outcome.notLookedFor
        ? `${volume}: no media file at all in ${outcome.folders.join(', ')}: is the drive mounted there? ` +
          `${log}'s ${count(outcome.notLookedFor, 'clip')} on ${volume} not recorded as not found`
        : `${volume}: none of ${log}'s clips in ${outcome.folders.join(', ')}`,
    ]
  return [
    `${volume}: ${count(read.files, 'file')} read back, ${sizeOf(read.bytes)} in ${took}${rate}` +
      (read.resumed ? `, ${read.resumed} read by the run before` : ''),
    ...(outcome.verified.length ? [row(STATE_WORDS.verified.label, count(outcome.verified.length, 'clip'))] : []),
    ...outcome.failed.map((f) => row(STATE_WORDS.failed.label.toUpperCase(), failedWords(f, against(f)))),
    ...outcome.missing.map((m) =>
      row(
        STATE_WORDS['not-found'].label.toUpperCase(),
        `${m.clip}: the log has a copy on ${volume}; no file of it in ${outcome.folders.join(', ')}`,
      ),
    ),
    ...outcome.unreadable.map((u) => row('NOT READ', `${u.clip}: ${u.path}: ${u.reason}`)),
    ...(unlooked
      ? [
          row(
            'NOT READ',
            `${outcome.unreadableFolders.map(shown).join(', ')}: could not be read; ` +
              `${count(outcome.notLookedFor, 'clip')} of ${log} on ${volume} not found, and not recorded as not found`,
          ),
        ]
      : []),
    ...outcome.uncompared.map((u) => row('NOT COMPARED', `${u.clip}: ${u.reason}`)),
    ...outcome.recorded.map((r) =>
      row('recorded', `${r.clip}: no checksum to compare with anywhere; its ${r.algorithm} is recorded now`),
    ),
    ...outcome.unknown.map((path) => row(`not in ${log}`, path)),
    ...(outcome.unknownElsewhere
      ? [`  ${count(outcome.unknownElsewhere, 'other clip')} in folders without ${log}'s clips (other days')`]
      : []),
  ]
}

/**
 * A clip read back different, in words: a file's digest found and recorded; a sequence's frames
 * that changed or are missing, its digest called what it is (the frames digest).
 * @param {Failed} f @param {string} against
 */
function failedWords(f, against) {
  if (!f.frames) return `${f.clip}: ${f.algorithm} ${f.found} read back, ${f.recorded} ${against}`
  const frames = badFramesWords(f.frames)
  const digest = `the frames digest (${f.algorithm.replace(/-frames$/, '')} of each frame) differs from the one ${against}`
  if (f.frames.named) return `${f.clip}: ${frames || digest}`
  return `${f.clip}: ${digest}${frames ? `; ${frames}` : ''}; no checksum of each frame on this drive to name a changed frame`
}

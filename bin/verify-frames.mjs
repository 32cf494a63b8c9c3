// `media-log verify`, a sequence that read back different: which of its frames changed or are
// missing, by the drive's own ASC MHL history where it has one, else by their numbers and count.
import { readFile, readdir } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { digestOf, readManifest } from 'media-log-service/client'

/**
 * @typedef {import('./verify.mjs').Unit} Unit
 * @typedef {import('./verify.mjs').LogClip} LogClip
 * @typedef {import('./verify.mjs').FramesFound} FramesFound
 * @typedef {import('./digests.mjs').Algorithm} Algorithm
 */

/** Frames of a sequence a read-back names; the counts say how many in all. */
const FRAMES_NAMED = 5

/**
 * A digest as computed, in the form digestOf gives (C4's ID as it is, hex in lower case).
 * @param {string} algorithm @param {string} digest
 */
export const canonical = (algorithm, digest) => digestOf(`${algorithm}:${digest}`)?.value ?? digest

/**
 * Which frames of a sequence that read back different are not as they were copied: each frame's
 * digest against the one the drive's own ASC MHL history recorded (the `ascmhl/` folder of the
 * sequence's folder or one above it, up to the folder given), and the frames it lists that are not
 * on the drive. Without such a history, only frames missing are known: by the frame count the log
 * recorded, and by gaps in the frames' numbers.
 * @param {Unit} unit @param {Algorithm} algorithm @param {string[]} digests @param {LogClip} clip @param {string} volume
 * @returns {Promise<FramesFound>}
 */
export async function badFrames(unit, algorithm, digests, clip, volume) {
  const recorded = await frameChecksums(unit, algorithm)
  /** @type {string[]} */
  const changed = []
  /** @type {string[]} */
  const missing = []
  if (recorded) {
    const found = new Map(
      unit.files.map((f, i) => [basename(f.name).normalize('NFC'), canonical(algorithm, digests[i])]),
    )
    for (const [name, value] of recorded) {
      const now = found.get(name)
      if (now === undefined) missing.push(name)
      else if (now !== value) changed.push(name)
    }
  } else {
    missing.push(...gapsInFrames(unit.files.map((f) => basename(f.name))))
    const copy = clip.copies.find((c) => c?.volume === volume)
    const expected = typeof copy?.files === 'number' ? copy.files : undefined
    const beyond = expected !== undefined ? expected - unit.files.length - missing.length : 0
    if (beyond > 0) missing.push(...Array.from({ length: beyond }, () => ''))
  }
  const names = (/** @type {string[]} */ list) => list.filter(Boolean).slice(0, FRAMES_NAMED)
  return {
    changed: names(changed.sort()),
    missing: names(missing.sort()),
    changed_count: changed.length,
    missing_count: missing.length,
    named: recorded !== undefined,
  }
}

/**
 * The checksum of each frame of a sequence as the drive's ASC MHL history recorded it last, by the
 * frame's name; undefined when no history on the drive lists the sequence's frames.
 * @param {Unit} unit @param {Algorithm} algorithm
 * @returns {Promise<Map<string, string> | undefined>}
 */
async function frameChecksums(unit, algorithm) {
  const folder = dirname(unit.files[0].name)
  for (let at = folder; ; at = dirname(at)) {
    const history = join(at, 'ascmhl')
    const generations = (await readdir(history).catch(() => []))
      .filter((name) => /^\d+_.*\.mhl$/i.test(name))
      .sort((a, b) => Number(a.split('_')[0]) - Number(b.split('_')[0]))
    /** @type {Map<string, string>} */
    const recorded = new Map()
    for (const generation of generations) {
      let manifest
      try {
        manifest = readManifest(await readFile(join(history, generation), 'utf8'))
      } catch {
        continue
      }
      for (const file of manifest.files) {
        const path = resolve(at, file.path)
        if (dirname(path) !== folder) continue
        const hash = file.hashes.find(
          (h) => (digestOf(`${h.algorithm}:${h.value}`)?.algorithm ?? h.algorithm) === algorithm,
        )
        if (hash) recorded.set(basename(path).normalize('NFC'), canonical(algorithm, hash.value))
      }
    }
    if (recorded.size) return recorded
    if (at === unit.root || dirname(at) === at || !at.startsWith(unit.root)) return undefined
  }
}

/** Frames missing inside a run of numbered frames (`A002C001.0000004.ari` between …3 and …5). @param {string[]} names */
function gapsInFrames(names) {
  const numbered = names
    .map((name) => /^(.*?)(\d+)(\.[^.]+)$/.exec(name))
    .filter((m) => m !== null)
    .map((m) => ({ prefix: m[1], digits: m[2].length, n: Number(m[2]), ext: m[3] }))
  if (!numbered.length) return []
  numbered.sort((a, b) => a.n - b.n)
  const { prefix, digits, ext } = numbered[0]
  const have = new Set(numbered.map((f) => f.n))
  /** @type {string[]} */
  const gaps = []
  for (let n = numbered[0].n; n <= numbered[numbered.length - 1].n; n++)
    if (!have.has(n)) gaps.push(`${prefix}${String(n).padStart(digits, '0')}${ext}`)
  return gaps
}

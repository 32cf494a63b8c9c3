// `media-log verify <folder…> --log ID`: a day's copies read back from a drive and compared with
// the checksums the log recorded, the outcome recorded in the log through POST /log/{id}/read-back:
// each clip `verified`, `failed`, `missing` (not found on the drive) or `original` (its first
// checksum, where it had none anywhere), when, and by what tool. A
// sequence that differs is compared frame by frame with the drive's own ASC MHL history, where it
// has one, to name the frames changed or missing.
//
// The files of the log's clips are found on the volume by the rules an import makes clips by
// (clipOfFile); each is read front to back and hashed with the algorithm of the hash the log has
// for its copy (a sequence's frames each, then the frames' digest the import records). A copy on
// this volume with no hash is compared with another volume's; a clip with no hash anywhere gets
// one recorded (`original`). What is read is kept, a line a file, in a resume file: a run stopped
// with Ctrl-C goes on where it stopped, unless --again.
import { randomInt } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { basename, relative, resolve, sep } from 'node:path'
import { STATE_WORDS, clipKeys, clipOfFile, digestOf, framesDigest } from 'media-log-service/client'
import { DigestPool, computable, threadsOf, xxhashKind } from './digests.mjs'
import { askConnected, serviceUrl, unlessNoSuchLog } from './service.mjs'
import { Failure, Progress, copyLine, count, onStop, print, printJson, shown, warn } from './terminal.mjs'
import { mountPoint, mountedVolume, walk } from './walk.mjs'
import { FIRST_ALGORITHM, ResumeFile, readBack } from './verify-reading.mjs'
import { notLookedThrough, record, said } from './verify-outcome.mjs'
import { badFrames, canonical } from './verify-frames.mjs'

/**
 * @typedef {import('./walk.mjs').Found & {rel: string, volumePath: string, hashdate?: string, readSize?: number}} File
 *   `rel`: its path under the folder given, with `/`; `volumePath`: under the volume's root
 * @typedef {{
 *   part: 'ocf' | 'sound', clip: string, folder: string, sequence: boolean, files: File[], root: string,
 *   logClip?: string, action?: 'original' | 'verified' | 'failed', found?: string, frames?: FramesFound,
 *   digests?: string[], algorithm?: Algorithm,
 * }} Unit
 *   one clip's files on the volume (one file, or a sequence's frames) under the folder given, `root`;
 *   once read back, the log's clip it is, what it was found to be and its digest
 * @typedef {Unit & {logClip: string, action: 'original' | 'verified' | 'failed', found: string}} Compared
 *   a unit read back and compared
 * @typedef {import('media-log-service/client').LogOutput} Log
 * @typedef {NonNullable<NonNullable<Log['ocf']>['clips']>[number]['copies'][number]} Copy  a clip's copy as the log holds it
 * @typedef {{part: 'ocf' | 'sound', clip: string, copies: Copy[]}} LogClip
 * @typedef {{algorithm: Algorithm, frames: boolean, value: string, against: string} | undefined} Expected
 * @typedef {{unit: Unit, clip: LogClip, expected: Expected, digests: string[], error?: {file: File, message: string}}} Reading
 *   a unit chosen to be read, and its files' digests as they are read, or the error that stopped it
 * @typedef {import('./digests.mjs').Algorithm} Algorithm
 * @typedef {{only?: Set<string>, signal?: AbortSignal, client?: import('media-log-service/client').MediaLogClient}} Part
 *   a part of a read-back, as `watch --verify` asks for one
 * @typedef {{
 *   client: import('media-log-service/client').MediaLogClient, pool: DigestPool, log: string, volume: string,
 *   roots: string[], walked: Walked, clips: Map<string, LogClip>, share: number, again: boolean | undefined,
 *   only?: Set<string>, signal?: AbortSignal,
 * }} VolumeRun  what a volume is read back with
 * @typedef {{units: Unit[], unreadable: string[]}} Walked  a volume's clips' files, and the folders
 *   and files its walk could not read
 * @typedef {{
 *   volume: string,
 *   folders: string[],
 *   read: {files: number, bytes: number, seconds: number, resumed: number},
 *   verified: string[],
 *   failed: Array<{clip: string, algorithm: string, found: string, recorded: string, against: string, frames?: FramesFound}>,
 *   recorded: Array<{clip: string, algorithm: string}>,
 *   missing: Array<{part: 'ocf' | 'sound', clip: string}>,
 *   unreadable: Array<{clip: string, path: string, reason: string}>,
 *   uncompared: Array<{clip: string, reason: string}>,
 *   unknown: string[],
 *   unknownElsewhere: number,
 *   empty: boolean,
 *   unreadableFolders: string[],
 *   notLookedFor: number,
 * }} Outcome  what a volume's run found, as --json gives it; `empty`: the folders hold no media
 *   file at all, or `unreadableFolders` could not be read: then the `notLookedFor` clips the log
 *   has on the volume and that were not found are not called missing
 * @typedef {{changed: string[], missing: string[], changed_count: number, missing_count: number, named: boolean}} FramesFound
 *   a sequence's frames that differ or are missing; `named` false when the drive holds no
 *   checksum of each frame (only the frames digest): then only frames missing by count or number are known
 */

/**
 * @param {string[]} folders @param {import('./media-log.mjs').Options} options @param {string} usage
 * @param {Part} [part] `watch --verify`: only these clips of the log (the others on the drive are
 *   neither read nor named), a signal that stops reading, and the watch's own client
 */
export async function verifyFolders(folders, options, usage, part = {}) {
  const { log } = options
  if (!folders.length || !log) throw new Failure(`verify needs folders and --log\n${usage}`)
  if (options.sample !== undefined && options.all) throw new Failure('--sample and --all: one or the other')
  const share = sampleShare(options.sample)
  const threads = threadsOf(options.threads)
  const volumes = await volumesOf(folders, options.volume)
  const xxhash = xxhashKind()
  if (xxhash.why) warn(`xxHash in WASM, at 30–65% of the native speed: its native binary did not load (${xxhash.why})`)
  // Started while the service is asked for the log and the drive is walked.
  const pool = new DigestPool({ threads, xxhash: xxhash.kind })
  try {
    return await verifyWith(pool, volumes, share, { ...options, log }, part)
  } finally {
    await pool.close()
  }
}

/**
 * @param {DigestPool} pool @param {Map<string, string[]>} volumes @param {number} share
 * @param {import('./media-log.mjs').Options & {log: string}} options
 * @param {Part} part
 */
async function verifyWith(pool, volumes, share, options, { only, signal, client: given }) {
  // The first drive is walked while the service is reached and asked for the log (over node:http,
  // bin/http-fetch.mjs), and the reading threads start meanwhile (prestart):
  // a run's fixed cost is what keeps a small one from the drive's speed. The other drives are
  // walked when their turn comes, so what they hold is seen as it is then.
  const [first] = volumes.values()
  const walking = walkVolume(first ?? [])
  walking.catch(() => {}) // heard below, once the service has answered
  const askLog = (/** @type {import('media-log-service/client').MediaLogClient} */ client) =>
    client.log(options.log).catch(unlessNoSuchLog(options.log))
  const { client, answer: log } = given
    ? { client: given, answer: await askLog(given) }
    : await askConnected(serviceUrl(options.url), askLog)
  const clips = logClips(log)
  // A drive named otherwise than the log names it (macOS mounts a second `SHUTTLE_01` as
  // `SHUTTLE_01 1`) would be compared with the others' checksums and recorded as a new volume.
  const known = new Set([...clips.values()].flatMap((clip) => clip.copies.map((c) => c?.volume)))
  for (const volume of volumes.keys())
    if (!known.has(volume) && options.volume === undefined)
      throw new Failure(
        `${shown(options.log)} has no copies on a volume ${shown(volume)}; its volumes: ${
          [...known]
            .filter((v) => typeof v === 'string')
            .map(shown)
            .join(', ') || 'none'
        }. ` + `Name the volume with --volume (a new one is recorded as read back).`,
      )
  const runs = []
  for (const [volume, roots] of volumes) {
    const walked = roots === first ? await walking : await walkVolume(roots)
    runs.push(
      await verifyVolume({
        client,
        pool,
        log: options.log,
        volume,
        roots,
        walked,
        clips,
        share,
        again: options.again,
        only,
        signal,
      }),
    )
  }
  // Ctrl-C, a kill or the terminal closed while the outcome is recorded (a large day takes
  // several requests): the recording finishes, so the log does not hold half a read-back; a
  // second signal ends the command there, and the resume files let a run again record the rest.
  const unheard = signal
    ? () => {}
    : onStop((name) => {
        if (name !== 'SIGHUP') warn('recording what was read back; Ctrl-C again stops now (a run again records it)')
      })
  let written
  try {
    written = await record(client, options.log, runs)
  } finally {
    unheard()
  }
  for (const { resume } of runs) resume.done()
  const { copies } = await client.checks(options.log)
  const ours = copies.filter((c) => volumes.has(c.volume))
  const outcomes = runs.map((run) => run.outcome)
  // A folder where none of the day's clips was found verified nothing: not a success.
  const none = (/** @type {Outcome} */ o) =>
    !o.read.files && !o.read.resumed && !o.missing.length && !o.uncompared.length
  const bad = outcomes.some(
    (o) =>
      o.failed.length ||
      o.missing.length ||
      o.unreadable.length ||
      o.uncompared.length ||
      notLookedThrough(o) ||
      none(o),
  )
  const status = bad ? 1 : 0
  if (options.json)
    return printJson({ log: options.log, xxhash: pool.xxhash, volumes: outcomes, written, copies: ours }, status)
  print(outcomes.flatMap((o) => said(o, options.log)).join('\n'))
  print(
    [
      written.files || written.missing
        ? `recorded in ${options.log}: ${count(written.clips, 'clip')} (${count(written.files, 'file')}) as read back` +
          (written.missing ? `, ${count(written.missing, 'clip')} as ${STATE_WORDS['not-found'].label}` : '')
        : `nothing recorded in ${options.log}`,
      ...(ours.length ? ['copies:', ...ours.map(copyLine)] : []),
    ].join('\n'),
  )
  return status
}

/** `--sample N%`: the share of clips read, 0 < N ≤ 100; all without it. @param {string | undefined} sample */
function sampleShare(sample) {
  if (sample === undefined) return 1
  const m = /^(\d{1,3}(?:\.\d+)?)%?$/.exec(sample)
  const n = m ? Number(m[1]) : NaN
  if (!(n > 0 && n <= 100)) throw new Failure('--sample is a share of the clips, more than 0% and at most 100%')
  return n / 100
}

/**
 * The folders by the volume each is on: `--volume`, else the drive it is on (/Volumes/NAME,
 * /media/USER/NAME, …), else the folder's own name.
 * @param {string[]} folders @param {string | undefined} named `--volume`
 * @returns {Promise<Map<string, string[]>>}
 */
async function volumesOf(folders, named) {
  /** @type {Map<string, string[]>} */
  const volumes = new Map()
  for (const folder of folders) {
    const root = resolve(folder)
    const info = await stat(root).catch((/** @type {NodeJS.ErrnoException} */ err) => {
      throw new Failure(`${shown(folder)}: ${err.code === 'ENOENT' ? 'no such folder' : err.message}`)
    })
    if (!info.isDirectory()) throw new Failure(`${shown(folder)}: not a folder`)
    const volume = named ?? mountedVolume(root) ?? basename(root)
    volumes.set(volume, [...(volumes.get(volume) ?? []), root])
  }
  return volumes
}

/**
 * The log's clips of both parts, found by each key their names give (clipKeys).
 * @param {Log} log
 */
function logClips(log) {
  /** @type {Map<string, LogClip>} */
  const byKey = new Map()
  for (const part of /** @type {const} */ (['ocf', 'sound']))
    for (const clip of log[part]?.clips ?? [])
      if (typeof clip?.clip === 'string')
        for (const key of clipKeys(clip.clip)) {
          const id = `${part}\u0000${key}`
          if (!byKey.has(id))
            byKey.set(id, { part, clip: clip.clip, copies: Array.isArray(clip.copies) ? clip.copies : [] })
        }
  return byKey
}

/**
 * The clips' files on a volume's folders, each file once: folders given twice, or one inside
 * another (`/Volumes/X` and `/Volumes/X/D012`), would read a file twice and count it twice. A file
 * an earlier folder had (the same device, inode and name) is left out; within a folder, a hard link
 * under another name is a file of its own.
 * @param {string[]} roots
 * @returns {Promise<Walked>}
 */
async function walkVolume(roots) {
  const progress = new Progress()
  const units = []
  /** @type {string[]} */
  const unreadable = []
  /** @type {Set<string>} */
  const earlier = new Set()
  const keyOf = (/** @type {import('./walk.mjs').Found} */ f) => `${f.dev}:${f.ino}:${basename(f.name)}`
  try {
    for (const root of roots) {
      const wanted = (/** @type {string} */ name) => !name.startsWith('._') && clipOfFile('', name) !== undefined
      const files = await walk(root, progress, wanted, unreadable)
      units.push(
        ...unitsOf(
          files.filter((f) => !earlier.has(keyOf(f))),
          root,
        ),
      )
      for (const file of files) earlier.add(keyOf(file))
    }
  } finally {
    progress.done()
  }
  return { units, unreadable }
}

/**
 * One volume's clips read back: which were found, read, and how they compared.
 * @param {VolumeRun} run
 */
async function verifyVolume({ client, pool, log, volume, roots, walked, clips, share, again, only, signal }) {
  const { units } = walked
  /** @type {Outcome} */
  const outcome = {
    volume,
    folders: roots,
    read: { files: 0, bytes: 0, seconds: 0, resumed: 0 },
    verified: [],
    failed: [],
    recorded: [],
    missing: [],
    unreadable: [],
    uncompared: [],
    unknown: [],
    unknownElsewhere: 0,
    empty: false,
    unreadableFolders: walked.unreadable,
    notLookedFor: 0,
  }
  /** @type {Set<LogClip>} */
  const found = new Set()
  /** @type {Set<string>} */
  const dayFolders = new Set()
  /** @type {Reading[]} */
  const toRead = []
  /** A clip of the log left out (`only`): neither read nor named, even as missing. @param {LogClip} clip */
  const leftOut = (clip) => only !== undefined && !only.has(clip.clip)
  /** The files each clip of the log was found as. @type {Map<LogClip, Unit[]>} */
  const foundAs = new Map()
  for (const unit of units) {
    const clip = matched(clips, unit)
    if (clip) foundAs.set(clip, [...(foundAs.get(clip) ?? []), unit])
  }
  for (const [clip, its] of foundAs) {
    found.add(clip)
    if (leftOut(clip)) continue
    for (const unit of its) dayFolders.add(cardFolder(unit))
    // Found twice (another day's clip of the same name, a copy kept aside, two names that are not
    // UTF-8 alike once read): the log keeps one outcome a clip, and which file is the day's copy
    // is not the command's to guess. Neither is read, or recorded.
    if (its.length > 1) {
      // Three named at most: a shuttle of many days' cards can hold a camera's C0001 in each.
      const named = its.slice(0, 3).map((u) => (u.sequence ? `${u.folder}/` : u.files[0].rel))
      const where = its.length > 3 ? `${named.join(', ')} and ${its.length - 3} more` : named.join(', ')
      outcome.uncompared.push({
        clip: clip.clip,
        reason: `found ${its.length} times (${where}): verify a folder that holds one of them`,
      })
      continue
    }
    const unit = /** @type {Unit} */ (its[0])
    const expected = expectedOf(clip, volume)
    if (expected && 'uncompared' in expected) {
      outcome.uncompared.push({ clip: clip.clip, reason: expected.uncompared })
      continue
    }
    if (expected && !expected.frames && unit.files.length > 1) {
      const reason = `its hash (${expected.against}) is of a whole folder, not of its ${unit.files.length} frames`
      outcome.uncompared.push({ clip: clip.clip, reason })
      continue
    }
    toRead.push({ unit, clip, expected, digests: [] })
  }
  for (const unit of units)
    if (!matched(clips, unit)) {
      if (dayFolders.has(cardFolder(unit)))
        outcome.unknown.push(
          unit.sequence ? `${unit.folder}/ (${count(unit.files.length, 'frame')})` : unit.files[0].rel,
        )
      else outcome.unknownElsewhere++
    }
  // Folders with no media file at all are a drive not mounted (an empty mount point) or the wrong
  // folder far more often than a drive that lost everything: its clips are not recorded as not
  // found, which would put an error on every copy of the volume.
  // Nor are they where a folder could not be read (a failing drive, a folder of another user's):
  // what it held is not known.
  outcome.empty = !units.length
  for (const clip of new Set(clips.values()))
    if (!found.has(clip) && !leftOut(clip) && clip.copies.some((c) => c?.volume === volume))
      if (outcome.empty || walked.unreadable.length) outcome.notLookedFor++
      else outcome.missing.push({ part: clip.part, clip: clip.clip })

  const chosen = share < 1 ? sampled(toRead, share) : toRead
  const resume = new ResumeFile(client.baseUrl, log, volume, roots, again, only && [...only].sort().join('\u0000'))
  await readBack(chosen, resume, outcome, pool, { signal, again })
  for (const { unit, clip, expected, digests, error } of chosen) {
    if (error) {
      outcome.unreadable.push({ clip: clip.clip, path: error.file.rel, reason: error.message })
      continue
    }
    const algorithm = expected?.algorithm ?? FIRST_ALGORITHM
    // The frames' digest where the log has one (or has none, as an import would make it); a
    // sequence of one file (a single R3D segment, a still) compared by its own digest otherwise.
    const found =
      expected?.frames || (!expected && unit.sequence)
        ? await framesDigest(
            algorithm,
            unit.files.map((f, i) => ({ name: basename(f.name), value: canonical(algorithm, digests[i]) })),
          )
        : canonical(algorithm, digests[0])
    const foundValue = found.includes(':') ? found.slice(found.indexOf(':') + 1) : found
    unit.digests = digests
    unit.algorithm = algorithm
    unit.logClip = clip.clip
    if (!expected) {
      unit.action = 'original'
      outcome.recorded.push({ clip: clip.clip, algorithm })
    } else if (foundValue === expected.value) {
      unit.action = 'verified'
      outcome.verified.push(clip.clip)
    } else {
      unit.action = 'failed'
      /** @type {Outcome['failed'][number]} */
      const failed = {
        clip: clip.clip,
        algorithm: expected.frames ? `${algorithm}-frames` : algorithm,
        found: foundValue,
        recorded: expected.value,
        against: expected.against,
      }
      if (expected.frames) {
        failed.frames = await badFrames(unit, algorithm, digests, clip, volume)
        unit.frames = failed.frames
      }
      outcome.failed.push(failed)
    }
    unit.found = expected?.frames || (!expected && unit.sequence) ? found : `${algorithm}:${foundValue}`
  }
  return { outcome, resume, units: chosen.map((c) => c.unit).filter(compared) }
}

/**
 * Whether a unit was read back and compared: verifyVolume sets all of Compared together.
 * @param {Unit} unit @returns {unit is Compared}
 */
const compared = (unit) => Boolean(unit.action)

/**
 * A volume's media files as the clips they are: one file each, or a sequence's frames together
 * (clipOfFile); proxies left out, as an import leaves them. Each file gets its paths (File).
 * @param {import('./walk.mjs').Found[]} found @param {string} root
 * @returns {Unit[]}
 */
function unitsOf(found, root) {
  // Made Files here: `rel` and `volumePath` are set on each before it is used.
  const files = /** @type {File[]} */ (found)
  /** @type {Unit[]} */
  const units = []
  /** @type {Map<string, Unit>} */
  const sequences = new Map()
  for (const file of files) {
    file.rel = relative(root, file.name).split(sep).join('/')
    // ASC MHL's paths are the volume's: under the drive's mount point, else under the folder given.
    const mount = mountPoint(file.name)
    file.volumePath = mount ? relative(mount, file.name).split(sep).join('/') : file.rel
    const slash = file.rel.lastIndexOf('/')
    const folder = slash < 0 ? '' : file.rel.slice(0, slash)
    // Proxy folders and sequences known by the volume's paths: a folder given inside `Proxy/` is
    // still proxies.
    const onVolume = file.volumePath.slice(0, Math.max(file.volumePath.lastIndexOf('/'), 0))
    const found = clipOfFile(onVolume, file.rel.slice(slash + 1))
    if (!found || found === 'proxy') continue
    if (!found.sequence) {
      units.push({ part: found.part, clip: found.clip, folder, sequence: false, files: [file], root })
      continue
    }
    const sequence = sequences.get(found.sequence)
    if (sequence) sequence.files.push(file)
    else {
      const unit = { part: found.part, clip: found.clip, folder, sequence: true, files: [file], root }
      sequences.set(found.sequence, unit)
      units.push(unit)
    }
  }
  return units
}

/**
 * The log's clip a unit is, of its own part (the import files a recorded copy under the part its
 * extension says), by every key its name gives.
 * @param {Map<string, LogClip>} clips @param {Unit} unit
 */
function matched(clips, unit) {
  for (const key of clipKeys(unit.clip)) {
    const clip = clips.get(`${unit.part}\u0000${key}`)
    if (clip) return clip
  }
  return undefined
}

/** The folder a card's clips sit in: a file's own, a sequence's folder's parent. @param {Unit} unit */
const cardFolder = (unit) => {
  const folder = unit.sequence ? unit.folder.slice(0, Math.max(unit.folder.lastIndexOf('/'), 0)) : unit.folder
  return `${unit.root}\u0000${folder}`
}

/**
 * What a clip's copy on `volume` is to be compared with: the checksum it was copied with (its own
 * hash; of a copy that failed verification before, its `original`, the hash being the digest
 * found then), else another volume's (a copy posted without one, or a copy the log does not have),
 * in the canonical form of digestOf; undefined when no copy has a checksum.
 * @param {LogClip} clip @param {string} volume
 * @returns {Expected | {uncompared: string}}
 */
function expectedOf(clip, volume) {
  const own = clip.copies.find((c) => c?.volume === volume)
  /** @param {Copy | undefined} c */
  const checksumOf = (c) => {
    const hash = c?.action === 'failed' ? c.original : c?.hash
    return typeof hash === 'string' && hash.trim() ? hash : undefined
  }
  const references = [own, ...clip.copies.filter((c) => c !== own)].filter((c) => checksumOf(c) !== undefined)
  for (const copy of references) {
    const hash = checksumOf(copy)
    const digest = hash && digestOf(hash)
    if (!digest) continue
    const frames = digest.algorithm.endsWith('-frames')
    const algorithm = frames ? digest.algorithm.slice(0, -'-frames'.length) : digest.algorithm
    if (!computable(algorithm)) continue
    // Named as the log labels the digest: a sequence's is its frames digest (`xxh64-frames`).
    const against =
      copy === own ? `${digest.algorithm}, recorded` : `${digest.algorithm}, recorded on ${String(copy?.volume)}`
    return { algorithm, frames, value: digest.value, against }
  }
  if (references.length) return { uncompared: 'its checksums name no algorithm this command computes' }
  if (clip.copies.some((c) => typeof c?.hash === 'string' && c.hash.trim()))
    return { uncompared: 'its only checksum is the digest a failed verification found: import the offload again' }
  return undefined
}

/**
 * `share` of the clips, chosen at random: a different sample each run.
 * @template T @param {T[]} items @param {number} share
 */
function sampled(items, share) {
  const shuffled = [...items]
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    ;[shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]]
  }
  return shuffled.slice(0, Math.ceil(items.length * share))
}

/**
 * From the files a manifest lists to the clips of a log, which file is which clip by the rules of
 * shared/clip-files.ts (a sequence's frames one clip), and each clip's copy on the manifest's
 * volume with its hash labelled by algorithm.
 */
import { clipOfFile, type Part } from '../shared/clip-files'
import { digestOf, framesDigest } from '../shared/digests'
import type { Action, HashEntry, ManifestFile } from './mhl'
import { UnreadableFile } from './text'

export { clipNameOf, lastSegment, type Part } from '../shared/clip-files'

/** A file of a volume that is a clip by name: its path, size and preferred hash. */
type Source = { path: string; size: number; hash: string | null }

/**
 * A clip's copy on one volume, as the log stores it. `action`: what the manifests last found
 * (ASC MHL), `hashdate` and `tool` when and by what it was hashed again (verified or failed);
 * `duplicates`: every file of the volume that is this clip by name, where there is more than one;
 * `doubt`: why the manifests' own record of this copy cannot be taken at its word (a generation
 * missing from its history).
 */
export type ImportedCopy = {
  volume: string
  hash: string | null
  action?: Action
  hashdate?: string
  tool?: string
  /** Of a failed copy: the checksum it was copied with (merge.ts). */
  original?: string
  files?: number
  duplicates?: Source[]
  doubt?: string
}

/**
 * A clip as one volume's manifests show it: `path` its file's (a sequence's folder), `hashes` every
 * labelled digest of it, preferred first.
 */
export type ImportedClip = {
  part: Part
  clip: string
  path: string
  /** Its bytes; 0 with `sizeUnknown` where no manifest or report stated them (a YoYotta ALE has no size column). */
  size: number
  sizeUnknown?: true
  copy: ImportedCopy
  hashes: string[]
}

/**
 * A file of a volume that is not media (a sidecar, a camera's XML) whose manifest records a
 * read-back of it: kept beside the clips when it failed (docs/log.md `other_files`), so that a
 * failure is never dropped with the file.
 */
export type OtherFile = {
  volume: string
  path: string
  hash: string | null
  action: 'verified' | 'failed'
  hashdate?: string
  tool?: string
}

/** A file of a manifest with its folder resolved, and what the generations after it said. */
export type CopiedFile = ManifestFile & {
  folder: string
  name: string
  action?: Action
  hashdate?: string
  tool?: string
}

/** Digests in the order a copy's `hash` takes them: the fast ones offload tools default to first. */
const PREFERRED = ['xxh64', 'xxhash64be', 'xxh128', 'xxh3', 'xxhash64', 'md5', 'sha1', 'c4', 'xxh32', 'xxhash']

const labelled = (hash: HashEntry) => `${hash.algorithm}:${hash.value}`

/** Labelled digests, preferred algorithm first. */
function hashesInOrder(hashes: readonly HashEntry[]): string[] {
  return [...hashes].sort((a, b) => rank(a.algorithm) - rank(b.algorithm)).map(labelled)
}

function rank(algorithm: string): number {
  const i = PREFERRED.indexOf(algorithm)
  return i < 0 ? PREFERRED.length : i
}

/** The worst a file's digests, or a clip's files, were found: one failure fails the whole. */
export function worstAction(actions: Array<Action | undefined>): Action | undefined {
  if (actions.includes('failed')) return 'failed'
  if (actions.includes('verified')) return 'verified'
  return actions.includes('original') ? 'original' : undefined
}

/**
 * The clips of one volume's files. A sequence's hash is the digest of its frames' digests
 * (framesDigests), which MHL of either kind gives; `folders`, ASC MHL's content hashes of whole
 * folders, stand behind it for a sequence that is all its folder holds.
 */
export async function clipsOf(
  files: readonly CopiedFile[],
  folders: ReadonlyMap<string, HashEntry[]>,
  volume: string,
  kind?: Part,
  room = Infinity,
): Promise<{ clips: ImportedClip[]; other: number; others: OtherFile[]; proxies: number }> {
  const sequences = new Map<string, { part: Part; clip: string; folder: string; files: CopiedFile[] }>()
  const clips: ImportedClip[] = []
  const perFolder = new Map<string, number>()
  let other = 0
  const others: OtherFile[] = []
  let proxies = 0
  // Counted before any is made: the clips of 100,000 files, made and then refused, took the heap.
  // Each file's clip is found again below rather than kept: 100,000 of them held are megabytes.
  const named = new Set<string>()
  let count = 0
  for (const file of files) {
    const found = clipOfFile(file.folder, file.name, kind)
    if (found && found !== 'proxy' && (!found.sequence || (!named.has(found.sequence) && named.add(found.sequence))))
      if (++count > room) throw new UnreadableFile(`makes more than ${room.toLocaleString('en-US')} clips`)
  }
  named.clear()
  for (const file of files) perFolder.set(file.folder, (perFolder.get(file.folder) ?? 0) + 1)
  for (const file of files) {
    const found = clipOfFile(file.folder, file.name, kind)
    if (!found) {
      other++
      const { action, hashdate, tool } = stampOf([file])
      if (action === 'failed' || action === 'verified')
        others.push({
          volume,
          path: file.path,
          hash: hashesInOrder(file.hashes)[0] ?? null,
          action,
          ...(hashdate && { hashdate }),
          ...(tool && { tool }),
        })
    } else if (found === 'proxy') proxies++
    else if (found.sequence) {
      const sequence = sequences.get(found.sequence)
      if (sequence) sequence.files.push(file)
      else sequences.set(found.sequence, { part: found.part, clip: found.clip, folder: file.folder, files: [file] })
    } else {
      const hashes = hashesInOrder(file.hashes)
      const copy: ImportedCopy = { volume, hash: hashes[0] ?? null, ...stampOf([file]) }
      const size = file.size === undefined ? { size: 0, sizeUnknown: true as const } : { size: file.size }
      clips.push({ part: found.part, clip: found.clip, path: file.path, ...size, copy, hashes })
    }
  }
  for (const { part, clip, folder, files: frames } of sequences.values()) {
    const whole = perFolder.get(folder) === frames.length
    // A sequence of one file (a single RED segment, a still) is also that file: its own digests
    // first, as an application posting it would label it, the frames' digest beside them.
    const own = frames.length === 1 ? hashesInOrder(frames[0]!.hashes) : []
    const hashes = [
      ...own,
      ...(await framesDigests(frames)),
      ...(whole ? hashesInOrder(folders.get(folder) ?? []) : []),
    ]
    const copy: ImportedCopy = { volume, hash: hashes[0] ?? null, files: frames.length, ...stampOf(frames) }
    const size = frames.reduce((sum, f) => sum + (f.size ?? 0), 0)
    // One frame of unknown size makes the whole sequence's size unknown.
    const unknown = frames.some((f) => f.size === undefined)
    clips.push({
      part,
      clip,
      path: folder,
      size: unknown ? 0 : size,
      ...(unknown && { sizeUnknown: true }),
      copy,
      hashes,
    })
  }
  return { clips, other, others, proxies }
}

/**
 * A copy's action as its files' worst, and when and by what tool it was found (the latest of the
 * files that were found so).
 */
function stampOf(files: readonly CopiedFile[]): Pick<ImportedCopy, 'action' | 'hashdate' | 'tool'> {
  const action = worstAction(files.map((f) => f.action))
  if (!action) return {}
  const found = files.filter((f) => f.action === action)
  const hashdate = found.reduce<string | undefined>(
    (latest, f) => (f.hashdate && (!latest || f.hashdate > latest) ? f.hashdate : latest),
    undefined,
  )
  const tool = found.find((f) => f.tool)?.tool
  return { action, ...(hashdate && { hashdate }), ...(tool && { tool }) }
}

/**
 * A digest in the one form the checks compare (shared/digests.ts); one of no known algorithm or
 * form as written, in lower case.
 */
function canonical(hash: HashEntry): { algorithm: string; value: string } {
  return (
    digestOf(`${hash.algorithm}:${hash.value}`) ?? { algorithm: hash.algorithm, value: hash.value.trim().toLowerCase() }
  )
}

/**
 * A sequence's frames as one digest (framesDigest) for each algorithm every frame was hashed with.
 * Without it a RED clip, its segments beside their RMD file, had no hash at all.
 */
async function framesDigests(frames: readonly CopiedFile[]): Promise<string[]> {
  // An algorithm at a time, each frame's digest found as it is needed: a Map of digests per frame
  // for 100,000 frames was megabytes of V8's heap at once.
  const valueOf = (frame: CopiedFile, algorithm: string) =>
    frame.hashes.map(canonical).findLast((h) => h.algorithm === algorithm)?.value
  const algorithms = [...new Set(frames[0]!.hashes.map((h) => canonical(h).algorithm))].sort(
    (a, b) => rank(a) - rank(b),
  )
  const digests: string[] = []
  for (const algorithm of algorithms) {
    const values: Array<{ name: string; value: string }> = []
    for (const frame of frames) {
      const value = valueOf(frame, algorithm)
      if (value === undefined) break
      values.push({ name: frame.name, value })
    }
    if (values.length === frames.length) digests.push(await framesDigest(algorithm, values))
  }
  return digests
}

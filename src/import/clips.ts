/**
 * From the files a manifest lists to the clips of a log: media told apart from sidecars by
 * extension, frames of an image sequence (ARRIRAW, DNG, EXR, DPX) and segments of a RED clip
 * gathered into one clip, and each clip's copy on the manifest's volume with its hash labelled by
 * algorithm. Frames are one sequence only when they share a folder, a name before the number, the
 * number's width and the extension: `A001C001.mov` and `A001C002.mov` stay two clips.
 */
import { hex } from '@scure/base'
import { SEQUENCE_EXTENSIONS } from '../shared/clip-names'
import { digestOf } from '../shared/digests'
import type { Action, HashEntry, ManifestFile } from './mhl'

export type Part = 'ocf' | 'sound'

/** A file of a volume that is a clip by name: its path, size and preferred hash. */
type Source = { path: string; size: number; hash: string | null }

/**
 * A clip's copy on one volume, as the log stores it. `duplicates`: every file of the volume that
 * is this clip by name, where there is more than one; `doubt`: why the manifests' own record of
 * this copy cannot be taken at its word (a generation missing from its history).
 */
export type ImportedCopy = {
  volume: string
  hash: string | null
  action?: Action
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
  size: number
  copy: ImportedCopy
  hashes: string[]
}

/** A file of a manifest with its folder resolved, and what the generations after it said. */
export type CopiedFile = ManifestFile & { folder: string; name: string; action?: Action }

const OCF = new Set(
  'mxf mov mp4 m4v avi mts m2ts ari arx braw r3d crm cri rmf dng exr dpx tif tiff cine nev vrw insv'.split(' '),
)
const SOUND = new Set('wav bwf rf64 aif aiff flac'.split(' '))
/** A folder named for proxies anywhere in a file's path (`…/Proxy/`, `…/PROXIES/`). */
const PROXY_FOLDER = /(^|\/)prox(y|ies)(\/|$)/i
const SEQUENCE = SEQUENCE_EXTENSIONS

/** Digests in the order a copy's `hash` takes them: the fast ones offload tools default to first. */
const PREFERRED = ['xxh64', 'xxhash64be', 'xxh128', 'xxh3', 'xxhash64', 'md5', 'sha1', 'c4', 'xxh32', 'xxhash']

/** A camera file's name as the clip it is: `A001C001.mxf` is `A001C001`; other names as they are. */
export function clipNameOf(name: string): string {
  return OCF.has(extensionOf(name)) ? stem(name) : name
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
}

function partOf(name: string, kind?: Part): Part | undefined {
  const ext = extensionOf(name)
  if (!OCF.has(ext) && !SOUND.has(ext)) return undefined
  return kind ?? (SOUND.has(ext) ? 'sound' : 'ocf')
}

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

const stem = (name: string) => name.slice(0, name.length - extensionOf(name).length - 1)

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
): Promise<{ clips: ImportedClip[]; other: number; proxies: number }> {
  const sequences = new Map<string, { part: Part; clip: string; folder: string; files: CopiedFile[] }>()
  const clips: ImportedClip[] = []
  const perFolder = new Map<string, number>()
  let other = 0
  let proxies = 0
  for (const file of files) perFolder.set(file.folder, (perFolder.get(file.folder) ?? 0) + 1)
  for (const file of files) {
    const part = partOf(file.name, kind)
    if (!part) {
      other++
      continue
    }
    // Proxies are the log's own list, with codec and resolution an MHL does not give: an offload of
    // a proxy folder must not make camera clips of them.
    if (PROXY_FOLDER.test(file.folder)) {
      proxies++
      continue
    }
    const ext = extensionOf(file.name)
    const frame = SEQUENCE.has(ext) ? /^(.*?)([._-]?)(\d{3,})$/.exec(stem(file.name)) : null
    if (frame) {
      const [, prefix, separator, number] = frame
      const key = `${file.folder}\u0000${prefix}\u0000${separator}\u0000${number!.length}\u0000${ext}`
      const sequence = sequences.get(key)
      if (sequence) sequence.files.push(file)
      else sequences.set(key, { part, clip: prefix || lastSegment(file.folder), folder: file.folder, files: [file] })
      continue
    }
    const hashes = hashesInOrder(file.hashes)
    const copy: ImportedCopy = { volume, hash: hashes[0] ?? null }
    if (file.action) copy.action = file.action
    clips.push({ part, clip: stem(file.name), path: file.path, size: file.size ?? 0, copy, hashes })
  }
  for (const { part, clip, folder, files: frames } of sequences.values()) {
    const whole = perFolder.get(folder) === frames.length
    const hashes = [...(await framesDigests(frames)), ...(whole ? hashesInOrder(folders.get(folder) ?? []) : [])]
    const copy: ImportedCopy = { volume, hash: hashes[0] ?? null, files: frames.length }
    const action = worstAction(frames.map((f) => f.action))
    if (action) copy.action = action
    const size = frames.reduce((sum, f) => sum + (f.size ?? 0), 0)
    clips.push({ part, clip, path: folder, size, copy, hashes })
  }
  return { clips, other, proxies }
}

/** A path's last part: a file's name, or a folder's. */
export const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1)

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
 * A sequence's frames as one digest for each algorithm every frame was hashed with: SHA-256 of
 * each frame's name and digest, a line each in name order, labelled `xxh64-frames:` (the checks
 * read the label). Two volumes' copies agree when every frame does, in whatever folder they sit:
 * without it a RED clip, its segments beside their RMD file, had no hash at all.
 */
async function framesDigests(frames: readonly CopiedFile[]): Promise<string[]> {
  const sorted = [...frames].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const perFrame = sorted.map((frame) => new Map(frame.hashes.map(canonical).map((h) => [h.algorithm, h.value])))
  const common = [...perFrame[0]!.keys()].filter((algorithm) => perFrame.every((digests) => digests.has(algorithm)))
  const digests: string[] = []
  for (const algorithm of common.sort((a, b) => rank(a) - rank(b))) {
    const lines = sorted.map((frame, i) => `${frame.name.normalize('NFC')}\t${perFrame[i]!.get(algorithm)}\n`)
    const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(lines.join(''))))
    digests.push(`${algorithm}-frames:${hex.encode(sum)}`)
  }
  return digests
}

/**
 * Media hash lists as offload tools write them: ASC MHL (`urn:ASC:MHL:v2.0`, one manifest per
 * generation in an `ascmhl/` folder, with `ascmhl_chain.xml` naming each generation's C4) and the
 * classic MHL 1.x of Silverstack, ShotPut Pro and YoYotta (one `*.mhl` per copy). Elements are
 * known by their local names and read as they close (xml.ts); hash values stay text.
 */
import { hashFormProblem } from '../shared/digests'
import { UnreadableFile } from './text'
import { XmlReader, readXml, type XmlElement } from './xml'

export type Action = 'original' | 'verified' | 'failed'

/**
 * One digest of a file, labelled as the checks read labels (`xxh64`, `xxhash64`, `md5`, …), with
 * ASC MHL's `action` and `hashdate` (when it was computed) where the manifest gives them.
 */
export type HashEntry = { algorithm: string; value: string; action?: Action; date?: string }

export type ManifestFile = { path: string; size?: number; hashes: HashEntry[] }

export type Manifest = {
  format: 'ascmhl' | 'mhl'
  /** When the generation was made, as the tool wrote it (with its UTC offset). */
  created?: string
  /** The tool that made it, with its version (ASC MHL `creatorinfo/tool`). */
  tool?: string
  files: ManifestFile[]
  /** ASC MHL's hashes of whole folders' content: an image sequence's one digest. */
  folders: ManifestFile[]
  /** Digests left out for not being of their algorithm's form, and the first of them. */
  malformed?: { count: number; first: string }
}

/** A generation as the chain file lists it. */
export type ChainLink = { generation: number; path: string; c4: string }

/** ASC MHL writes these; classic MHL `xxhash64` (little-endian), `xxhash64be` and 32-bit `xxhash`. */
const ASC_HASHES = new Set(['c4', 'md5', 'sha1', 'xxh128', 'xxh3', 'xxh64', 'xxh32'])
const CLASSIC_HASHES = new Set(['md5', 'sha1', 'xxhash64be', 'xxhash64', 'xxhash'])
const ACTIONS = new Set<string>(['original', 'verified', 'failed'])

function sizeOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined
  const n = Number(text)
  return Number.isSafeInteger(n) ? n : undefined
}

const lastName = (path: string) => path.slice(path.lastIndexOf('/') + 1)
const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/'))

/** Characters of a tool's name and version a copy keeps. */
const MAX_TOOL = 100
/** An ISO 8601 date and time (xs:dateTime, as ASC MHL writes `hashdate`); anything else is left out. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/
export const dateOf = (text: string | undefined) => (text && DATE_TIME.test(text.trim()) ? text.trim() : undefined)

/**
 * Strings every file of a manifest repeats (an algorithm, an action, the generation's hash date),
 * held once: 100,000 files of five digests each once held half a million copies of each.
 */
class Interned {
  readonly #strings = new Map<string, string>()
  of<T extends string>(text: T): T {
    const known = this.#strings.get(text)
    if (known !== undefined) return known as T
    if (this.#strings.size < 1000) this.#strings.set(text, text)
    return text
  }
}

function hashEntry(element: XmlElement, interned: Interned): HashEntry | undefined {
  if (!element.text) return undefined
  const algorithm = interned.of(lastName(element.path))
  const action = element.attribute('action')
  const date = dateOf(element.attribute('hashdate'))
  // One shape for every entry, its properties in one order: V8 then stores each compactly.
  const entry: HashEntry = { algorithm, value: element.text }
  if (action && ACTIONS.has(action)) entry.action = interned.of(action as Action)
  if (date) entry.date = interned.of(date)
  return entry
}

/**
 * Digests one import reads, all manifests together: 100,000 files of one digest (an hour of ARRIRAW
 * frames), 20,000 of five. 100,000 files of five (42 MiB) held 93 MB of V8's heap as objects, and
 * the day made of them as much again, past Cloudflare's 128; bounded, an import completes within
 * 64 (bench/heap.mjs).
 */
export const MAX_DIGESTS = 100_000

/**
 * A manifest of either kind, told apart by the root's `version` (2.0: ASC MHL; 1.x: classic),
 * refused past `limit` entries or `digestLimit` digests.
 * ASC MHL: `hashes/hash` with `path` (its `size`) and a digest per algorithm; `hashes/directoryhash`
 * with `path` and `content`'s digests. Classic: `hash` with `file`, `size` and digests.
 */
export function readManifest(text: string | Iterable<string>, limit = Infinity, digestLimit = Infinity): Manifest {
  const reader = manifestReader(limit, digestLimit)
  for (const piece of typeof text === 'string' ? [text] : text) reader.write(piece)
  return reader.close()
}

/** readManifest a piece at a time, for a caller that lets other work in between pieces. */
export function manifestReader(limit = Infinity, digestLimit = Infinity) {
  const interned = new Interned()
  let digests = 0
  let version = ''
  let created: string | undefined
  let firstHashed: string | undefined
  let started: string | undefined
  let tool: string | undefined
  const files: ManifestFile[] = []
  const folders: ManifestFile[] = []
  let current: ManifestFile = { path: '', hashes: [] }
  let malformed: Manifest['malformed']
  // A digest that is not of its algorithm's form (`<md5>n/a</md5>`) is left out, not made the copy's.
  const take = (hash: HashEntry | undefined) => {
    if (!hash) return
    if (hashFormProblem(`${hash.algorithm}:${hash.value}`) === undefined) {
      if (++digests > digestLimit)
        throw new UnreadableFile(
          `lists more than ${digestLimit.toLocaleString('en-US')} digests, what one import reads` +
            (digestLimit < MAX_DIGESTS ? ' after the files before it: send it in an import of its own' : ''),
        )
      return current.hashes.push(hash)
    }
    if (malformed) malformed.count++
    else malformed = { count: 1, first: `${hash.algorithm} "${hash.value.slice(0, 100)}"` }
  }
  const reader = new XmlReader(
    (element) => {
      const { path } = element
      const name = lastName(path)
      const parent = parentOf(path)
      if (path === 'hashlist') version = element.attribute('version') ?? ''
      else if (path === 'hashlist/creatorinfo/creationdate') created = element.text
      else if (path === 'hashlist/creatorinfo/tool' && element.text) {
        const version = element.attribute('version')
        // Copied onto every copy the generation names: held to a name's length.
        tool = (version ? `${element.text} ${version}` : element.text).slice(0, MAX_TOOL)
      } else if (path === 'hashlist/creatorinfo/startdate' || path === 'hashlist/creatorinfo/finishdate')
        started ??= element.text
      // A classic MHL without its creator's dates is dated by the first file it hashed (a time
      // that reads as one: compared as times, whatever zone each is written in).
      else if (path === 'hashlist/hash/hashdate' && isTime(element.text)) {
        const at = Date.parse(element.text)
        if (firstHashed === undefined || at < Date.parse(firstHashed)) firstHashed = element.text
      }
      // ASC MHL
      else if (path === 'hashlist/hashes/hash/path' || path === 'hashlist/hashes/directoryhash/path') {
        current.path = element.text
        const size = sizeOf(element.attribute('size'))
        if (size !== undefined) current.size = size
      } else if (
        (parent === 'hashlist/hashes/hash' || parent === 'hashlist/hashes/directoryhash/content') &&
        ASC_HASHES.has(name)
      ) {
        take(hashEntry(element, interned))
      } else if (path === 'hashlist/hashes/hash' && current.path) files.push(compact(current))
      else if (path === 'hashlist/hashes/directoryhash' && current.path) folders.push(compact(current))
      // classic MHL
      else if (path === 'hashlist/hash/file') current.path = element.text
      else if (path === 'hashlist/hash/size') {
        const size = sizeOf(element.text)
        if (size !== undefined) current.size = size
      } else if (parent === 'hashlist/hash' && CLASSIC_HASHES.has(name)) {
        take(hashEntry(element, interned))
      } else if (path === 'hashlist/hash' && current.path) files.push(compact(current))
    },
    (path) => {
      if (path === 'hashlist/hashes/hash' || path === 'hashlist/hashes/directoryhash' || path === 'hashlist/hash') {
        if (files.length + folders.length === limit)
          throw new UnreadableFile(
            `lists more than ${limit.toLocaleString('en-US')} files, what one import reads: send it in an import of its own, or split it`,
          )
        current = { path: '', hashes: [] }
      }
    },
  )
  return {
    write: (piece: string) => reader.write(piece),
    close(): Manifest {
      const root = reader.close()
      if (root !== 'hashlist') throw new UnreadableFile(`not a hashlist but a ${root} document`)
      const checked = malformed ? { malformed } : {}
      if (version.startsWith('2'))
        return dated({ format: 'ascmhl', files, folders, ...checked, ...(tool && { tool }) }, created)
      if (version.startsWith('1') || version === '')
        return dated({ format: 'mhl', files, folders: [], ...checked }, started ?? firstHashed)
      throw new UnreadableFile(`a hashlist of version ${version}, which this service does not read`)
    },
  }
}

/** A file's digests in a list of their own length: one grown by push keeps room for 17. */
function compact(file: ManifestFile): ManifestFile {
  file.hashes = file.hashes.slice()
  return file
}

/** An ISO 8601 date and time, as MHL writes `hashdate`. */
const isTime = (text: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) && !Number.isNaN(Date.parse(text))

const dated = (manifest: Manifest, created: string | undefined): Manifest =>
  created ? { ...manifest, created } : manifest

/** `ascmhl_chain.xml`: each generation's manifest and the C4 of its bytes. */
export function readChain(text: string): ChainLink[] {
  const links: ChainLink[] = []
  let current = { generation: NaN, path: '', c4: '' }
  const root = readXml(
    text,
    (element) => {
      if (element.path === 'ascmhldirectory/hashlist/path') current.path = element.text
      else if (element.path === 'ascmhldirectory/hashlist/c4') current.c4 = element.text
      else if (element.path === 'ascmhldirectory/hashlist') {
        current.generation = Number(element.attribute('sequencenr'))
        if (current.path && current.c4 && Number.isInteger(current.generation)) links.push(current)
      }
    },
    (path) => {
      if (path === 'ascmhldirectory/hashlist') current = { generation: NaN, path: '', c4: '' }
    },
  )
  if (root !== 'ascmhldirectory') throw new UnreadableFile(`not an ASC MHL chain but a ${root} document`)
  return links
}

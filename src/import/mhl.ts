/**
 * Media hash lists as offload tools write them: ASC MHL (`urn:ASC:MHL:v2.0`, one manifest per
 * generation in an `ascmhl/` folder, with `ascmhl_chain.xml` naming each generation's C4) and the
 * classic MHL 1.x of Silverstack, ShotPut Pro and YoYotta (one `*.mhl` per copy). Read with
 * fast-xml-parser: every element that may repeat is a list even when it occurs once, namespace
 * prefixes are dropped, and hash values stay text (a hex digest is not a number).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { UnreadableFile } from './text'

export type Action = 'original' | 'verified' | 'failed'

/** One digest of a file, labelled as the checks read labels (`xxh64`, `xxhash64`, `md5`, …). */
export type HashEntry = { algorithm: string; value: string; action?: Action }

export type ManifestFile = { path: string; size?: number; hashes: HashEntry[] }

export type Manifest = {
  format: 'ascmhl' | 'mhl'
  /** When the generation was made, as the tool wrote it (with its UTC offset). */
  created?: string
  files: ManifestFile[]
  /** ASC MHL's hashes of whole folders' content: an image sequence's one digest. */
  folders: ManifestFile[]
}

/** A generation as the chain file lists it. */
export type ChainLink = { generation: number; path: string; c4: string }

/** ASC MHL writes these; classic MHL `xxhash64` (little-endian), `xxhash64be` and 32-bit `xxhash`. */
const ASC_HASHES = ['c4', 'md5', 'sha1', 'xxh128', 'xxh3', 'xxh64']
const CLASSIC_HASHES = ['md5', 'sha1', 'xxhash64be', 'xxhash64', 'xxhash']

const LISTS = new Set(['hash', 'directoryhash', 'hashlist', 'hashlistreference', 'pattern', ...ASC_HASHES])

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '@',
  alwaysCreateTextNode: true,
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: false,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && LISTS.has(name),
})

type Node = { '#text'?: string; '@'?: Record<string, string> } & { [name: string]: unknown }

/** The document's root element, once the text is well-formed XML. */
function rootOf(text: string, name: string): Node {
  const valid = XMLValidator.validate(text)
  if (valid !== true) throw new UnreadableFile(`not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`)
  let doc: Record<string, unknown>
  try {
    doc = parser.parse(text) as Record<string, unknown>
  } catch (err) {
    // The parser's own limits (entity expansion, nesting) refuse a hostile document.
    throw new UnreadableFile(`not read as XML: ${err instanceof Error ? err.message : String(err)}`)
  }
  const root = doc[name]
  const first = Array.isArray(root) ? root[0] : root
  if (!first || typeof first !== 'object') throw new UnreadableFile(`not a ${name} document`)
  return first as Node
}

const textOf = (node: unknown): string | undefined => {
  const text = (node as Node | undefined)?.['#text']
  return typeof text === 'string' ? text.trim() : undefined
}
const attr = (node: unknown, name: string) => (node as Node | undefined)?.['@']?.[name]
const list = (node: unknown): Node[] => (Array.isArray(node) ? node : node === undefined ? [] : [node]) as Node[]

function sizeOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined
  const n = Number(text)
  return Number.isSafeInteger(n) ? n : undefined
}

const ACTIONS = new Set<string>(['original', 'verified', 'failed'])

function hashesOf(node: Node, names: readonly string[]): HashEntry[] {
  const hashes: HashEntry[] = []
  for (const algorithm of names)
    for (const element of list(node[algorithm])) {
      const value = textOf(element)
      if (!value) continue
      const action = attr(element, 'action')
      hashes.push(action && ACTIONS.has(action) ? { algorithm, value, action: action as Action } : { algorithm, value })
    }
  return hashes
}

/** A manifest of either kind, told apart by its `version` (2.0: ASC MHL; 1.x: classic). */
export function readManifest(text: string): Manifest {
  const root = rootOf(text, 'hashlist')
  const version = attr(root, 'version') ?? ''
  if (version.startsWith('2')) return readAscManifest(root)
  if (version.startsWith('1') || version === '') return readClassicManifest(root)
  throw new UnreadableFile(`a hashlist of version ${version}, which this service does not read`)
}

function readAscManifest(root: Node): Manifest {
  const creator = root.creatorinfo as Node | undefined
  const hashes = root.hashes as Node | undefined
  const entry = (node: Node, names: readonly string[], content: Node = node): ManifestFile | undefined => {
    const path = textOf(node.path)
    if (!path) return undefined
    const size = sizeOf(attr(node.path, 'size'))
    const file: ManifestFile = { path, hashes: hashesOf(content, names) }
    if (size !== undefined) file.size = size
    return file
  }
  const files = list(hashes?.hash).flatMap((node) => entry(node, ASC_HASHES) ?? [])
  const folders = list(hashes?.directoryhash).flatMap(
    (node) => entry(node, ASC_HASHES, (node.content as Node | undefined) ?? {}) ?? [],
  )
  const created = textOf(creator?.creationdate)
  return created ? { format: 'ascmhl', created, files, folders } : { format: 'ascmhl', files, folders }
}

function readClassicManifest(root: Node): Manifest {
  const creator = root.creatorinfo as Node | undefined
  const files = list(root.hash).flatMap((node): ManifestFile[] => {
    const path = textOf(node.file)
    if (!path) return []
    const size = sizeOf(textOf(node.size))
    const file: ManifestFile = { path, hashes: hashesOf(node, CLASSIC_HASHES) }
    if (size !== undefined) file.size = size
    return [file]
  })
  const created = textOf(creator?.startdate) ?? textOf(creator?.finishdate)
  return created ? { format: 'mhl', created, files, folders: [] } : { format: 'mhl', files, folders: [] }
}

/** `ascmhl_chain.xml`: each generation's manifest and the C4 of its bytes. */
export function readChain(text: string): ChainLink[] {
  const root = rootOf(text, 'ascmhldirectory')
  return list(root.hashlist).flatMap((node) => {
    const path = textOf(node.path)
    const c4 = textOf(list(node.c4)[0])
    const generation = Number(attr(node, 'sequencenr'))
    return path && c4 && Number.isInteger(generation) ? [{ generation, path, c4 }] : []
  })
}

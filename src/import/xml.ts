/**
 * XML read as a stream of elements with saxes: a strict parser (a document that is not well-formed
 * is refused, with the line), namespace-aware (elements are known by their local names, whatever
 * prefix a tool chose), and one that expands no entity a document defines for itself. Nothing
 * builds the tree: a 50,000-file manifest is read in about 150 ms in Node, where building its tree
 * with fast-xml-parser took 950 ms and some 100 MB of heap, most of a Worker's 128.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes'
import { UnreadableFile } from './text'

/** An element as it closes: its local name's path from the root (`hashlist/hashes/hash/path`), attributes, text. */
export type XmlElement = { path: string; attribute: (name: string) => string | undefined; text: string }

type Open = { path: string; tag: SaxesTagNS; text: string }

/**
 * MHL nests five deep. A document nested far deeper is not one, and each level's path is a longer
 * string than the last: 64 MiB of `<a>` would cost memory by the square of its depth.
 */
const MAX_DEPTH = 64

/**
 * A string of its own: V8 keeps a piece of 13 characters or more of a longer string as a view of
 * it, and a manifest's 100,000 paths and digests, kept as views, kept every piece of the document
 * they came from. A JSON round trip makes a flat copy of any string, views gone (measured: 72 bytes
 * a path less than `(' ' + text).slice(1)`, itself a view of the copy).
 */
const detached = (text: string): string => (text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string))

/**
 * Reads `text`, whole or in pieces, calling `opened` as each element starts and `closed` as it
 * ends; the root element's local name is returned. Text is the element's own, trimmed (a child's
 * is not in it), and a string of its own (detached).
 */
export function readXml(
  text: string | Iterable<string>,
  closed: (element: XmlElement) => void,
  opened?: (path: string) => void,
): string {
  const reader = new XmlReader(closed, opened)
  for (const piece of typeof text === 'string' ? [text] : text) reader.write(piece)
  return reader.close()
}

/** readXml a piece at a time, for a caller that lets other work in between pieces. */
export class XmlReader {
  readonly #parser = new SaxesParser({ xmlns: true, position: true })
  #root = ''

  constructor(closed: (element: XmlElement) => void, opened?: (path: string) => void) {
    const parser = this.#parser
    const stack: Open[] = []
    parser.on('opentag', (tag) => {
      const parent = stack.at(-1)
      const path = parent ? `${parent.path}/${tag.local}` : tag.local
      if (!parent) this.#root = tag.local
      if (stack.length === MAX_DEPTH) throw new UnreadableFile(`elements nested deeper than ${MAX_DEPTH}`)
      stack.push({ path, tag, text: '' })
      opened?.(path)
    })
    parser.on('text', (chunk) => {
      const top = stack.at(-1)
      if (top) top.text += chunk
    })
    parser.on('cdata', (chunk) => {
      const top = stack.at(-1)
      if (top) top.text += chunk
    })
    parser.on('closetag', () => {
      const { path, tag, text: own } = stack.pop()!
      closed({
        path,
        text: detached(own.trim()),
        attribute: (name) => {
          const attribute = tag.attributes[name]
          return typeof attribute === 'object' ? detached(attribute.value) : undefined
        },
      })
    })
  }

  write(piece: string) {
    unreadableIf(() => this.#parser.write(piece))
  }

  /** The root element's local name, once the document is whole. */
  close(): string {
    unreadableIf(() => this.#parser.close())
    return this.#root
  }
}

function unreadableIf(work: () => unknown) {
  try {
    work()
  } catch (err) {
    if (err instanceof UnreadableFile) throw err
    const message = err instanceof Error ? err.message : String(err)
    const at = /^(\d+):(\d+): ([^]*)$/.exec(message)
    throw new UnreadableFile(`not well-formed XML (${at ? `line ${at[1]}, column ${at[2]}: ${at[3]}` : message})`)
  }
}

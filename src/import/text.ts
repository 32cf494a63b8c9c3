/**
 * The text of a file an offload tool or a camera wrote, whatever it was written in. Classic MHL
 * comes in UTF-8, UTF-16 and UTF-32 (with a byte-order mark, or without one but starting with
 * `<?xml`); an XML declaration may name a legacy encoding; ALEs from older Avid systems are
 * Windows-1252. Bytes that are none of these are refused rather than guessed at.
 */

import { isUtf8 } from '../shared/utf8'

export type DecodedText = { text: string; encoding: string }

/** Why a file an import sent cannot be read: its message is the reason the answer gives. */
export class UnreadableFile extends Error {}

const decode = (label: string, bytes: Uint8Array) =>
  new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(bytes)

export function decodeText(bytes: Uint8Array): DecodedText {
  const unicode = unicodeForm(bytes)
  if (unicode) {
    const { encoding, skip } = unicode
    const body = bytes.subarray(skip)
    try {
      const text = encoding.startsWith('utf-32') ? utf32(body, encoding === 'utf-32le') : decode(encoding, body)
      return { text, encoding }
    } catch {
      throw new UnreadableFile(`not valid ${encoding.toUpperCase()}`)
    }
  }
  const declared = declaredEncoding(bytes)
  if (declared && !/^utf-?8$/i.test(declared)) {
    try {
      return { text: decode(declared, bytes), encoding: declared.toLowerCase() }
    } catch (err) {
      throw new UnreadableFile(
        err instanceof RangeError && /encoding/i.test(err.message)
          ? `its XML declaration names an encoding this service does not read (${declared})`
          : `not valid ${declared}`,
      )
    }
  }
  try {
    return { text: decode('utf-8', bytes), encoding: 'utf-8' }
  } catch {
    if (declared) throw new UnreadableFile('not valid UTF-8, as its XML declaration says it is')
  }
  // No declaration and not UTF-8: the single-byte encoding of the Windows and Avid world, as long
  // as it holds no control characters text never has (a binary file would).
  const text = decode('windows-1252', bytes)
  if (/[\0-\x08\x0e-\x1f\x7f]/.test(text)) throw new UnreadableFile('not text: it holds binary data')
  return { text, encoding: 'windows-1252' }
}

/** What decodedPieces decodes at a time. */
const PIECE_BYTES = 1024 * 1024

/**
 * As decodeText, in pieces of about a MiB where the file is UTF-8 (as offload tools write): a
 * 40 MiB manifest is never one string on V8's heap. The bytes are checked whole first, so a file
 * that is not UTF-8 is decoded as decodeText decodes it, before any piece is given.
 */
export function decodedPieces(bytes: Uint8Array): Iterable<string> {
  const form = unicodeForm(bytes)
  const declared = form ? undefined : declaredEncoding(bytes)
  const utf8 = form ? form.encoding === 'utf-8' : !declared || /^utf-?8$/i.test(declared)
  const body = bytes.subarray(form?.skip ?? 0)
  if (bytes.length <= PIECE_BYTES || !utf8 || !isUtf8(body)) return [decodeText(bytes).text]
  return {
    *[Symbol.iterator]() {
      const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
      for (let at = 0; at < body.length; at += PIECE_BYTES)
        yield decoder.decode(body.subarray(at, at + PIECE_BYTES), { stream: true })
      yield decoder.decode()
    },
  }
}

/** A Unicode form a byte-order mark, or `<` written in it, shows; `skip` the mark's bytes. */
function unicodeForm(b: Uint8Array): { encoding: string; skip: number } | undefined {
  const [b0, b1, b2, b3] = [b[0], b[1], b[2], b[3]]
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0xfe && b3 === 0xff) return { encoding: 'utf-32be', skip: 4 }
  if (b0 === 0xff && b1 === 0xfe && b2 === 0x00 && b3 === 0x00) return { encoding: 'utf-32le', skip: 4 }
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { encoding: 'utf-8', skip: 3 }
  if (b0 === 0xfe && b1 === 0xff) return { encoding: 'utf-16be', skip: 2 }
  if (b0 === 0xff && b1 === 0xfe) return { encoding: 'utf-16le', skip: 2 }
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0x00 && b3 === 0x3c) return { encoding: 'utf-32be', skip: 0 }
  if (b0 === 0x3c && b1 === 0x00 && b2 === 0x00 && b3 === 0x00) return { encoding: 'utf-32le', skip: 0 }
  if (b0 === 0x00 && b1 === 0x3c) return { encoding: 'utf-16be', skip: 0 }
  if (b0 === 0x3c && b1 === 0x00) return { encoding: 'utf-16le', skip: 0 }
  return undefined
}

/** `encoding="…"` of an XML declaration at the start, read as ASCII. */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = String.fromCharCode(...bytes.subarray(0, 200))
  return /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head)?.[1]
}

/**
 * UTF-32, which the WHATWG decoders TextDecoder offers leave out: each four bytes one code point.
 * Surrogates and values past U+10FFFF are refused, as a strict decoder would.
 */
function utf32(bytes: Uint8Array, littleEndian: boolean): string {
  if (bytes.length % 4) throw new RangeError('truncated')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const chunks: string[] = []
  const points: number[] = []
  for (let at = 0; at < bytes.length; at += 4) {
    const point = view.getUint32(at, littleEndian)
    if (point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) throw new RangeError('not a code point')
    points.push(point)
    if (points.length === 0x2000) chunks.push(String.fromCodePoint(...points.splice(0)))
  }
  chunks.push(String.fromCodePoint(...points))
  return chunks.join('')
}

/**
 * JSON as UTF-8 bytes, the way logs travel between the socket, the workspace and SQLite. Bytes live
 * outside V8's heap: a listing assembled from strings left megabytes of them for the next full
 * collection, and workerd grew past a gigabyte under repeated reads.
 */
const encoder = new TextEncoder()
const decoder = new TextDecoder()

export const utf8Bytes = (text: string): Uint8Array => encoder.encode(text)

/** Bytes the worker has already found to be valid UTF-8. */
export const utf8Text = (bytes: Uint8Array): string => decoder.decode(bytes)

export const concatBytes = (parts: Uint8Array[]) => joinedBytes(parts, '', '', '')

/** `open` + the parts separated by `separator` + `close`, in one buffer (all ASCII punctuation). */
export function joinedBytes(parts: Uint8Array[], open: string, separator: string, close: string): Uint8Array {
  let size = open.length + close.length + Math.max(0, parts.length - 1) * separator.length
  for (const part of parts) size += part.byteLength
  const out = new Uint8Array(size)
  let at = encoder.encodeInto(open, out).written
  parts.forEach((part, i) => {
    if (i > 0) at += encoder.encodeInto(separator, out.subarray(at)).written
    out.set(part, at)
    at += part.byteLength
  })
  encoder.encodeInto(close, out.subarray(at))
  return out
}

/**
 * Pieces of at most `size` bytes that each hold whole characters: a piece never starts on a
 * continuation byte (10xxxxxx), so each one is valid UTF-8 and can be read as text on its own.
 */
export function cutBytes(bytes: Uint8Array, size: number): Uint8Array[] {
  if (bytes.byteLength <= size) return [bytes]
  const pieces: Uint8Array[] = []
  for (let at = 0; at < bytes.byteLength; ) {
    let end = Math.min(at + size, bytes.byteLength)
    while (end < bytes.byteLength && (bytes[end]! & 0xc0) === 0x80) end--
    pieces.push(bytes.subarray(at, end))
    at = end
  }
  return pieces
}

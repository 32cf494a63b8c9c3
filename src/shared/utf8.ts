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

/** The parts in one buffer. */
/** Checked a MiB at a time: no string of the whole is made. */
export function isUtf8(bytes: Uint8Array): boolean {
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  try {
    for (let at = 0; at < bytes.length; at += 1 << 20)
      strict.decode(bytes.subarray(at, at + (1 << 20)), { stream: true })
    strict.decode()
    return true
  } catch {
    return false
  }
}

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  let size = 0
  for (const part of parts) size += part.byteLength
  const out = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

/**
 * Pieces of at most `size` bytes that each hold whole characters: a piece never starts on a
 * continuation byte (10xxxxxx), so each one is valid UTF-8 and can be read as text on its own.
 */
export function cutBytes(bytes: Uint8Array, size: number): Uint8Array[] {
  if (bytes.byteLength <= size) return [bytes]
  const pieces: Uint8Array[] = []
  for (let at = 0; at < bytes.byteLength;) {
    let end = Math.min(at + size, bytes.byteLength)
    while (end < bytes.byteLength && (bytes[end]! & 0xc0) === 0x80) end--
    pieces.push(bytes.subarray(at, end))
    at = end
  }
  return pieces
}

/**
 * Durable Object RPC refuses a value over 32 MiB (a listing of two 20,000-clip days is 33 MiB):
 * anything that may be larger than this travels as a stream, which has no such limit.
 */
export const RPC_VALUE_BYTES = 16 * 1024 * 1024

/** The parts in order as a byte stream, in slices of at most 1 MiB, none of them copied. */
export function streamOf(parts: Uint8Array[]): ReadableStream<Uint8Array> {
  const slices = parts.flatMap((part) => cutBytes(part, 1024 * 1024))
  let next = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < slices.length) controller.enqueue(slices[next++])
      else controller.close()
    },
  })
}

/** Bytes an answer collects before it sends them on, and what it is sent on in. */
const CHUNK = 1024 * 1024

/**
 * The parts joined: in one buffer when they come to at most `whole` bytes (1 MiB), else as a stream
 * that takes them from `parts` 1 MiB at a time as it is read, so that nothing holds the whole.
 * Cancelling the stream ends the generator (its `finally` runs).
 */
export function bytesOrStream(parts: Generator<Uint8Array>, whole = CHUNK): Uint8Array | ReadableStream<Uint8Array> {
  const take = (most: number) => {
    const taken: Uint8Array[] = []
    let size = 0
    while (size < most) {
      const next = parts.next()
      if (next.done) return { taken, done: true }
      taken.push(next.value)
      size += next.value.byteLength
    }
    return { taken, done: false }
  }
  const one = (taken: Uint8Array[]) => (taken.length === 1 ? taken[0]! : concatBytes(taken))
  const first = take(whole)
  if (first.done) return one(first.taken)
  let pending: Uint8Array[] | undefined = first.taken
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pending) {
        controller.enqueue(one(pending))
        pending = undefined
        return
      }
      const { taken, done } = take(CHUNK)
      if (taken.length) controller.enqueue(one(taken))
      if (done) controller.close()
    },
    cancel() {
      parts.return(undefined)
    },
  })
}

/** `open`, the stream's bytes, `close`: an answer that wraps a streamed value. */
export function framedStream(
  open: string,
  inner: ReadableStream<Uint8Array>,
  close: string,
): ReadableStream<Uint8Array> {
  const reader = inner.getReader()
  let opened = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!opened) {
        opened = true
        controller.enqueue(encoder.encode(open))
        return
      }
      const { done, value } = await reader.read()
      if (done) {
        controller.enqueue(encoder.encode(close))
        controller.close()
      } else controller.enqueue(value)
    },
    cancel: (reason) => reader.cancel(reason),
  })
}

/** All of a stream's bytes in one buffer. */
export async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/** Bytes as they may cross RPC: as they are, or as a stream when they are too large for it. */
export const rpcSafe = (bytes: Uint8Array): Uint8Array | ReadableStream<Uint8Array> =>
  bytes.byteLength > RPC_VALUE_BYTES ? streamOf([bytes]) : bytes

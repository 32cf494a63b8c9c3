/**
 * How a log is stored: its JSON cut into pieces of whole characters, read back a piece at a time.
 */
/**
 * Cloudflare limits a SQLite row, string or BLOB to 2 MB. Logs are stored as JSON text cut into
 * pieces of at most this many UTF-8 bytes, each of whole characters (`cutBytes`). Stores written
 * before kept pieces of 256K UTF-16 units; both read the same.
 */
export const CHUNK_BYTES = 512 * 1024

/**
 * A stored log as an answer streams it: its first piece, and a reader of the others (none for a
 * log of one piece). Close the reader when done with it, read to its end or not.
 */
export type OpenLog = { head: Uint8Array; rest?: PieceReader }
export type PieceReader = { next(): Uint8Array | undefined; close(): void }

/** An opened log's pieces in order, its reader closed at the end or when left. */
export function* partsOf(log: OpenLog): Generator<Uint8Array> {
  try {
    yield log.head
    for (let piece = log.rest?.next(); piece; piece = log.rest?.next()) yield piece
  } finally {
    log.rest?.close()
  }
}

/**
 * The logs this worker answered last, kept under their tags, so a GET of a log that has not changed
 * since asks the workspace only whether it changed, as a client naming its tag does, and the text
 * does not cross from the Durable Object again. A tag names one write of one log in one store (the
 * project's random id and the store's revision, workspace/logs.ts): the promise a client's
 * If-None-Match already relies on, so a kept text is the log as stored whenever its tag is current.
 * The workspace still checks the token and reads the revision on every request.
 *
 * Measured with bench/compare.mjs (GET /log/{id} of 17 KB): carrying the text over RPC every time
 * was most of what the service's GET cost beyond a bare Worker and Durable Object's. Kept as UTF-8
 * bytes, outside V8's heap, which the garbage collector does not copy: a kept log is answered for
 * 0.94× the CPU of a kept string, and 600 logs asked in turn, more than are kept, cost no more
 * than before anything was kept (--scenario=many: 0.90×, within the tool's ±10%).
 */

/** Texts up to this size are kept (past it the workspace answers bytes or a stream anyway). */
const KEPT_LOG_BYTES = 1024 * 1024
/** All the texts kept in one isolate, at most; the least recently answered goes first. */
const KEPT_BYTES = 8 * 1024 * 1024

type Kept = { etag: string; bytes: Uint8Array }

// Per isolate: one locally; on Cloudflare each isolate keeps its own.
const kept = new Map<string, Kept>()
let keptBytes = 0
const encoder = new TextEncoder()

/** The log `id` of the workspace `store` as this isolate last answered it. */
export function keptLog(store: string, id: string): Kept | undefined {
  return kept.get(keyOf(store, id))
}

/** Keeps a log's text as answered now under its tag, in place of the one kept before. */
export function keepLog(store: string, id: string, etag: string, text: string) {
  const key = keyOf(store, id)
  forget(key)
  // A string's length is at most its UTF-8 size: one too long is not encoded to find out.
  if (text.length > KEPT_LOG_BYTES) return
  const bytes = encoder.encode(text)
  if (bytes.length > KEPT_LOG_BYTES) return
  kept.set(key, { etag, bytes })
  keptBytes += bytes.length
  // A Map iterates in the order of insertion: the first key is the one answered longest ago.
  for (const [oldest, { bytes }] of kept) {
    if (keptBytes <= KEPT_BYTES) break
    kept.delete(oldest)
    keptBytes -= bytes.length
  }
}

/** A kept text answered again: the last to go. */
export function touchLog(store: string, id: string, log: Kept) {
  const key = keyOf(store, id)
  kept.delete(key)
  kept.set(key, log)
}

function forget(key: string) {
  const old = kept.get(key)
  if (!old) return
  kept.delete(key)
  keptBytes -= old.bytes.length
}

const keyOf = (store: string, id: string) => `${store}\u0000${id}`

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
/**
 * A text is kept the second time the same tag is answered, not the first: the logs last answered
 * once are remembered by their tags alone, this many at most. Clients reading more logs in turn
 * than that (a sync, a listing read through) never have theirs kept, so their reads do not turn
 * every text into garbage for the collector.
 */
const SEEN_LOGS = 256

type Kept = { etag: string; bytes: Uint8Array }

// Per isolate: one locally; on Cloudflare each isolate keeps its own.
const kept = new Map<string, Kept>()
let keptBytes = 0
const seen = new Map<string, string>()
const encoder = new TextEncoder()

/** The log `id` of the workspace `store` as this isolate keeps it. */
export function keptLog(store: string, id: string): Kept | undefined {
  return kept.get(keyOf(store, id))
}

/**
 * A log answered now under `etag`, with its text where the workspace gave one: the text kept
 * before goes, and this one is kept if the same tag was answered before.
 */
export function keepLog(store: string, id: string, etag: string, text: string | undefined) {
  const key = keyOf(store, id)
  forget(key)
  // A string's length is at most its UTF-8 size: one too long is not encoded to find out.
  if (text === undefined || text.length > KEPT_LOG_BYTES) return
  if (seen.get(key) !== etag) {
    seen.delete(key)
    seen.set(key, etag)
    // A Map iterates in the order of insertion: the first key is the one answered longest ago.
    if (seen.size > SEEN_LOGS) seen.delete(seen.keys().next().value!)
    return
  }
  seen.delete(key)
  const bytes = encoder.encode(text)
  if (bytes.length > KEPT_LOG_BYTES) return
  kept.set(key, { etag, bytes })
  keptBytes += bytes.length
  for (const [oldest, { bytes }] of kept) {
    if (keptBytes <= KEPT_BYTES) break
    kept.delete(oldest)
    keptBytes -= bytes.length
  }
}

/** A kept text answered again: the last to go (unless another request changed it meanwhile). */
export function touchLog(store: string, id: string, log: Kept) {
  const key = keyOf(store, id)
  if (kept.get(key) !== log) return
  kept.delete(key)
  kept.set(key, log)
}

/** The log `id` gone from the workspace `store`: its text is kept no longer. */
export function forgetLog(store: string, id: string) {
  forget(keyOf(store, id))
}

function forget(key: string) {
  const old = kept.get(key)
  if (!old) return
  kept.delete(key)
  keptBytes -= old.bytes.length
}

const keyOf = (store: string, id: string) => `${store}\u0000${id}`

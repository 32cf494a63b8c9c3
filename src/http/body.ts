import { StatusError } from 'itty-router'
import { DEPTH_SCAN_BYTES, bodyText, refuseDeepNesting } from '../schemas/json'
import { invalidBody } from '../shared/problem'
import { concatBytes } from '../shared/utf8'

/**
 * Body limits (413 beyond). Logs and settings: 64 MiB (SPEC §10; a 20,000-clip log is about 15 MB).
 * Commands (create, load, report, mail, operator edits): 1 MiB, far above what they carry.
 * Endpoints that answer anyone (POST /auth, the sign-in form): 4 KiB.
 */
export const BODY_LIMIT_BYTES = 64 * 1024 * 1024
export const COMMAND_BODY_BYTES = 1024 * 1024
export const OPEN_BODY_BYTES = 4 * 1024
/**
 * A body larger than this is read only once the workspace has accepted the request's token
 * (serve.ts), and is scanned for nesting depth as it is read (schemas/json.ts).
 */
export const LARGE_BODY_BYTES = DEPTH_SCAN_BYTES

const tooLarge = () => new StatusError(413, { error: 'Payload Too Large' })

/**
 * How long a body may take to arrive: 10 s, plus a second for each MiB it declares (a chunked
 * body: each MiB received so far). A client dripping a few bytes at a time holds a connection and
 * its memory; 19,900 such bodies once took workerd from 490 MiB to 1.25 GiB.
 */
const BODY_BASE_MS = 10_000
const BODY_MS_PER_MIB = 1000
const tooSlow = () => new StatusError(408, { error: 'Request body timed out' })

/**
 * A JSON body as the client sent it: its UTF-8 bytes (without a leading BOM) and their text,
 * decoded when first asked for (a body too large to parse whole is never decoded whole).
 */
export type JsonBody = { bytes: Uint8Array; readonly text: string }

const EMPTY: JsonBody = { bytes: new Uint8Array(0), text: '' }

/** The size a request declares, NaN when it declares none (a chunked body). */
const declaredLength = (request: Request) => Number(request.headers.get('content-length') ?? NaN)

/**
 * The body's text and the bytes it was decoded from (logs are stored as those bytes), once it is
 * declared as JSON, within the limit, arrived in time, valid UTF-8 and, if large, not nested too
 * deep; not yet parsed.
 */
export async function readJsonBody(request: Request, limit = BODY_LIMIT_BYTES): Promise<JsonBody> {
  const type = request.headers.get('content-type') ?? ''
  if (type !== 'application/json' && !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    return refuse(request, new StatusError(415, { error: 'Unsupported Media Type' }))
  }
  const declared = declaredLength(request)
  if (declared > limit) return refuse(request, tooLarge())
  if (!request.body) return EMPTY
  // A request's body is a byte stream; the runtime's types leave its chunks `any`.
  if (!(declared >= 0)) return readChunked(request.body as ReadableStream<Uint8Array>, limit)
  // The runtime never delivers more than a declared Content-Length: one read, no chunk list.
  const buffer = await withDeadline(request.arrayBuffer(), BODY_BASE_MS + (declared / 1048576) * BODY_MS_PER_MIB)
  return decoded(new Uint8Array(buffer))
}

/**
 * Settles as `reading` does, or 408 once `ms` pass. A client that hangs up mid-body is answered
 * 400 (nobody reads it) and logged as one line, not as the runtime's stack.
 */
function withDeadline<T>(reading: Promise<T>, ms: number): Promise<T> {
  let timer = 0 as unknown as ReturnType<typeof setTimeout>
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(tooSlow()), ms)))
  return Promise.race([reading.catch(cutShort), late]).finally(() => clearTimeout(timer))
}

function cutShort(err: unknown): never {
  if (err instanceof StatusError) throw err
  console.warn(`request body not read: ${err instanceof Error ? err.message : String(err)}`)
  throw invalidBody('the body ended before it was complete')
}

/** Reading (and so draining) the body keeps the connection reusable for the client. */
async function refuse(request: Request, failure: StatusError): Promise<never> {
  await request.body?.cancel()
  throw failure
}

/**
 * Chunked bodies carry no length: count while reading so a huge one stops at the limit, and give
 * each read what is left of the time the bytes so far allow.
 */
async function readChunked(body: ReadableStream<Uint8Array>, limit: number): Promise<JsonBody> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  const started = Date.now()
  let size = 0
  for (;;) {
    const allowed = BODY_BASE_MS + (size / 1048576) * BODY_MS_PER_MIB - (Date.now() - started)
    let read: ReadableStreamReadResult<Uint8Array>
    try {
      read = await withDeadline(reader.read(), Math.max(allowed, 0))
    } catch (err) {
      reader.cancel().catch(() => {})
      throw err
    }
    if (read.done) break
    const value = read.value
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw tooLarge()
    }
    chunks.push(value)
  }
  return decoded(chunks.length === 1 ? chunks[0]! : concatBytes(chunks))
}

function decoded(bytes: Uint8Array): JsonBody {
  refuseDeepNesting(bytes)
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  const body = bom ? bytes.subarray(3) : bytes
  let text: string | undefined
  return {
    bytes: body,
    get text() {
      return (text ??= bodyText(body))
    },
  }
}

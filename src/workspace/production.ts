/**
 * The production as a cart reaches it (docs/units.md): the same service deployed. Linking asks its
 * POST /auth as the unit and finds its project; the rounds call its sync routes with the token its
 * operator approved, naming that project. Redirects are never followed (they would carry the
 * token elsewhere). A refusal or a network failure rejects with what the status shows.
 */
import * as v from 'valibot'
import { requestLine, type RequestLine } from '../api/paths'
import { SyncMissingAnswerSchema, syncChangesAnswerSchema } from '../schemas/requests'
import { concatBytes } from '../shared/utf8'
import type { Leaf } from '../shared/revisions'

/** The production as a cart reaches it: the service's sync routes, with the cart's token. */
export type Production = {
  changes(since: number, limit: number): Promise<{ changes: Array<{ id: string; leaves: Leaf[] }>; last: number }>
  missing(logs: Map<string, string[]>): Promise<Map<string, string[]>>
  leaf(id: string, rev: string): Promise<Uint8Array>
  send(id: string, leaf: Leaf, body?: Uint8Array): Promise<void>
  /** GET /sync/live's socket, on which the production says `changed` (live.ts). */
  live(): Promise<WebSocket>
}

/** A request that has not answered by then is given up: the round fails and is tried again later. */
const REQUEST_MS = 60_000

/** A failure of the production, said as the status and the console show it; `status` when it answered. */
export class ProductionError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
  }
}

/**
 * The most a production's answer may hold. A page of 50 logs, each of 16 versions naming 200
 * ancestors, is under 8 MiB; a version is a log, as large as any service takes (64 MiB). A cart
 * once read a 4 GiB version until workerd was killed, and a page of 3,000,000 entries for minutes.
 */
const CHANGES_BYTES = 16 * 1024 * 1024
const SMALL_BYTES = 1024 * 1024
/** As large as any service takes a log (BODY_LIMIT_BYTES, http/body.ts). */
const VERSION_BYTES = 64 * 1024 * 1024

/**
 * A call to the production, its answer read by `read` within the same minute: a production that
 * sends its answer a byte at a time, or without end, is given up as one that does not answer.
 */
async function call<T>(
  url: string,
  { method, path }: RequestLine,
  init: RequestInit,
  read: (response: Response, said: string) => Promise<T>,
): Promise<T> {
  // The deadline's timer is cleared once the call ends: AbortSignal.timeout's lives on for its full
  // minute, and some 10,000 calls within one (a cart of 11,000 small days) reached workerd's limit
  // of 10,000 timers, after which no timer of the object could be set and its writes hung.
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(new Error('no answer within 60 s')), REQUEST_MS)
  const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal
  const said = `${method} ${path.split('?')[0]}`
  try {
    let response: Response
    try {
      response = await fetch(url + path, { method, redirect: 'manual', ...init, signal })
    } catch (err) {
      throw new ProductionError(`${url} did not answer (${err instanceof Error ? err.message : String(err)})`)
    }
    // 101: a WebSocket accepted (live).
    if (!response.ok && response.status !== 101) {
      const body = objectOf(await textOf(url, said, response, SMALL_BYTES).catch(() => ''))
      // A validation error says which field: its first detail goes with it into the status.
      const detail = Array.isArray(body.details)
        ? (body.details[0] as { prop?: unknown; message?: unknown })
        : undefined
      const why =
        typeof detail?.message === 'string'
          ? `${typeof detail.prop === 'string' && detail.prop ? `${detail.prop} ` : ''}${detail.message}`
          : ''
      const error = (typeof body.error === 'string' ? body.error : response.statusText) + (why ? ` (${why})` : '')
      throw new ProductionError(
        `${url} answered ${response.status} to ${said}: ${error.slice(0, 300)}`,
        response.status,
      )
    }
    try {
      return await read(response, said)
    } catch (err) {
      if (err instanceof ProductionError) throw err
      throw new ProductionError(
        `${url} gave no whole answer to ${said} (${err instanceof Error ? err.message : String(err)})`,
      )
    }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Reads of an answer between two pauses that let the object's other requests in. Pieces already
 * waiting are read back to back: a production that sent 16 MiB eighty bytes at a time held a cart
 * 16 s, its applications' calls waiting.
 */
const READS_PER_TURN = 256
/** From this many reads on, an answer must come at least 1 KiB a piece (honest ones come in tens). */
const SMALL_PIECES = 4096

/** An answer's bytes, refused once past `limit` (before any is read, when it says its length). */
async function bytesOf(url: string, said: string, response: Response, limit: number): Promise<Uint8Array> {
  const tooLarge = () => new ProductionError(`${url} answered more than ${limit / 1024 / 1024} MiB to ${said}`)
  if (Number(response.headers.get('content-length') ?? 0) > limit) {
    await response.body?.cancel()
    throw tooLarge()
  }
  const parts: Uint8Array[] = []
  let size = 0
  if (response.body)
    for await (const part of response.body as ReadableStream<Uint8Array>) {
      size += part.byteLength
      if (size > limit) throw tooLarge()
      parts.push(part)
      if (parts.length > SMALL_PIECES && size < parts.length * 1024)
        throw new ProductionError(`${url} answered ${said} a few bytes at a time`)
      if (parts.length % READS_PER_TURN === 0) await new Promise((resolve) => setTimeout(resolve, 0))
    }
  return concatBytes(parts)
}

const textOf = async (url: string, said: string, response: Response, limit: number) =>
  new TextDecoder().decode(await bytesOf(url, said, response, limit))

function objectOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  } catch {
    return { error: text.slice(0, 200) }
  }
}

/**
 * An answer as `schema` holds it: anything else is a failure of the production (the round backs
 * off and stores nothing of it), never data.
 */
async function answerOf<S extends v.GenericSchema>(
  url: string,
  said: string,
  response: Response,
  schema: S,
  limit = SMALL_BYTES,
): Promise<v.InferOutput<S>> {
  const text = await textOf(url, said, response, limit)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ProductionError(`${url} answered no JSON to ${said}`)
  }
  const result = v.safeParse(schema, value)
  if (result.success) return result.output
  const [issue] = result.issues
  const where = issue.path?.map((step) => String(step.key)).join('.') ?? ''
  throw new ProductionError(`${url} answered ${said} with ${where ? `${where} ` : ''}${issue.message}`.slice(0, 300))
}

const TokenAnswer = v.object({ token: v.pipe(v.string(), v.minLength(1), v.maxLength(200)) })
const ProjectAnswer = v.object({ id: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) })

/**
 * The production's token for this cart: its POST /auth as the unit, with the link code its
 * operator made for the unit, answered at once.
 */
export async function askProduction(url: string, unit: string, linkCode: string, signal: AbortSignal): Promise<string> {
  const init = {
    headers: { 'content-type': 'application/json', 'x-link-code': linkCode },
    body: JSON.stringify({ appName: unit, unit: true }),
    signal,
  }
  const { token } = await call(url, requestLine('requestToken'), init, (response, said) =>
    answerOf(url, said, response, TokenAnswer),
  )
  return token
}

/**
 * The production's project, whose id every round names. The first cart linked gives it its own
 * project's name: only a production with no project loaded gets one.
 */
export async function productionProject(url: string, token: string, name: string): Promise<string> {
  const headers = { 'x-api-token': token, 'content-type': 'application/json' }
  try {
    const { id } = await call(url, requestLine('getProject'), { headers }, (response, said) =>
      answerOf(url, said, response, ProjectAnswer),
    )
    return id
  } catch (err) {
    if (!(err instanceof ProductionError && err.message.endsWith('No Project Loaded'))) throw err
  }
  const init = { headers, body: JSON.stringify({ project_name: name }) }
  const { id } = await call(url, requestLine('createProject'), init, (response, said) =>
    answerOf(url, said, response, ProjectAnswer),
  )
  return id
}

/** The sync routes of the production's project `project`, called with the cart's token. */
export function productionAt(url: string, token: string, project: string): Production {
  const sync = <T>(line: RequestLine, read: (response: Response, said: string) => Promise<T>, body?: BodyInit) => {
    const init = {
      headers: { 'x-api-token': token, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body,
    }
    return call(url, line, init, read)
  }
  return {
    changes(since, limit) {
      return sync(requestLine('syncChanges', {}, { project, since, limit }), (response, said) =>
        answerOf(url, said, response, syncChangesAnswerSchema(since, limit), CHANGES_BYTES),
      )
    },
    async missing(logs) {
      const asked = [...logs].map(([id, revs]) => ({ id, revs }))
      const { missing } = await sync(
        requestLine('syncMissing', {}, { project }),
        (response, said) => answerOf(url, said, response, SyncMissingAnswerSchema),
        JSON.stringify({ logs: asked }),
      )
      // Of what was asked, and nothing else.
      return new Map(missing.map(({ id, revs }) => [id, revs.filter((rev) => logs.get(id)?.includes(rev))]))
    },
    leaf(id, rev) {
      return sync(requestLine('getVersion', { id }, { project, rev }), (response, said) =>
        bytesOf(url, said, response, VERSION_BYTES),
      )
    },
    async live() {
      const line = requestLine('syncLive', {}, { project })
      const init = { headers: { 'x-api-token': token, upgrade: 'websocket' } }
      return call(url, line, init, async (response, said) => {
        if (response.status !== 101 || !response.webSocket) {
          await response.body?.cancel()
          throw new ProductionError(`${url} answered ${response.status} to ${said}, not a WebSocket`)
        }
        return response.webSocket
      })
    },
    async send(id, leaf, body) {
      const query = {
        project,
        rev: leaf.rev,
        ancestors: leaf.ancestors.join(','),
        deleted: leaf.deleted ? 'true' : undefined,
        owner: leaf.owner,
      }
      await sync(
        requestLine('sendVersion', { id }, query),
        async (response) => void (await response.body?.cancel()),
        body ?? '',
      )
    },
  }
}

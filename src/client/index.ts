/**
 * A typed client of the service, for applications, scripts and tests: the approval handshake,
 * every application endpoint, and one error type for every refusal. Runs wherever `fetch` does
 * (Node 18+, browsers, Workers). Each method calls a route declared in api/routes.ts, which holds
 * its path and the schemas that type its body and answer: nothing is written twice.
 *
 *   const client = await MediaLogClient.connect({ appName: 'Offload Tool' })  // the DIT approves
 *   await client.createProject('Feature Film')
 *   await client.createLog({ id: 'D001', day: 1, date: '2024-03-01', ocf: { clips: [] } })
 *   const { checks } = await client.checks('D001')
 */
import type * as v from 'valibot'
import { requestLine, UnsendableSegment, type RequestLine } from '../api/paths'
import { ROUTES, type Route, type RouteName } from '../api/routes'
import type { LogSchema } from '../schemas/log'
import type { ImportSchema, ReadBackSchema } from '../schemas/requests'
import type { SettingsSchema } from '../schemas/settings'
import type { WatcherReportSchema } from '../schemas/watchers'
import { readableCode } from '../shared/codes'

/**
 * How the service reads file names and hashes, for tools that look at the media themselves
 * (`media-log verify`): which clip a file is, the keys a name finds its clip by, a hash as the
 * digest it names, and a sequence's frames as one digest.
 */
export { clipOfFile, type FileClip } from '../shared/clip-files'
export { clipKeys } from '../shared/clip-names'
export { digestOf, framesDigest, type Digest } from '../shared/digests'
/** An ASC MHL generation read as the import reads it: `media-log verify` names a sequence's frames by it. */
export { readManifest } from '../import/mhl'
/** The words a copy's state is said in (the one vocabulary of docs/checks.md). */
export { STATE_WORDS, type CopyState } from '../copies/states'
export { badFramesWords } from '../copies/words'

export type LogInput = v.InferInput<typeof LogSchema>
export type LogOutput = v.InferOutput<typeof LogSchema>
export type SettingsInput = v.InferInput<typeof SettingsSchema>
export type Settings = v.InferOutput<typeof SettingsSchema>
export type ImportInput = v.InferInput<typeof ImportSchema>
export type ReadBackInput = v.InferInput<typeof ReadBackSchema>
/** What a running `media-log watch` says of itself (PUT /watchers/{id}). */
export type WatcherReportInput = v.InferInput<typeof WatcherReportSchema>
/** What a route answers: its declared shape, a PDF's bytes, or the text of a file or page. */
type AnswerOf<N extends RouteName> = (typeof ROUTES)[N]['ok'][1] extends infer S extends v.GenericSchema
  ? v.InferOutput<S>
  : (typeof ROUTES)[N]['ok'][1] extends 'application/pdf'
    ? Uint8Array
    : string

/**
 * What `send` gives: the status, the JSON answer (undefined when not JSON), its text, a PDF's
 * bytes, and the answer's entity tag where it has one.
 */
export type SentAnswer = { status: number; body: unknown; text: string; bytes?: Uint8Array; etag?: string }

/** Every refusal of the service: its status, its `error` text and, for 400, each failing property. */
export class MediaLogError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details: Array<{ prop: string; message: string }> = [],
  ) {
    super(
      details.length
        ? `${status} ${error}: ${details.map((d) => `${d.prop || 'body'} ${d.message}`).join('; ')}`
        : `${status} ${error}`,
    )
    this.name = 'MediaLogError'
  }
}

export type ClientOptions = {
  /**
   * Where the service runs. Unless said, where `npm start` serves it: `MEDIA_LOG_URL`, else
   * `http://localhost:$PORT`, when the environment (Node's `process.env`) has them; else
   * `http://localhost:5252`.
   */
  baseUrl?: string
  /** A token from an earlier approval. */
  token?: string
  fetch?: typeof fetch
  /** Sent as User-Agent, which the console shows beside an approval request (`offload-tool/2.1`). */
  userAgent?: string
  /**
   * Whether answers of conditional routes (a log, the logs, checks, reports) are kept with their
   * tag and asked for again naming it: an unchanged answer then comes back 304, no body, and is
   * read from the kept copy. Kept up to 64 MiB, the oldest let go first. Default true.
   */
  keepAnswers?: boolean
}

/** What the client keeps of conditional answers, at most. */
const KEPT_BYTES = 64 * 1024 * 1024

/** A conditional answer kept: its tag, and its text or a PDF's bytes. */
type Kept = { etag: string; text: string; bytes?: Uint8Array; size: number }

export type ConnectOptions = ClientOptions & {
  appName: string
  /** The code the console shows the operator on this request's card; a fresh one unless given. */
  code?: string
  /** Called with the code before the request waits: show it, so the operator can compare. */
  onCode?: (code: string) => void
}

/** A fresh approval code, `XXXX-XXXX`: 40 random bits, from the platform's CSPRNG. */
export const newApprovalCode = (): string => readableCode(2)

export class MediaLogClient {
  readonly baseUrl: string
  token: string | undefined
  readonly #fetch: typeof fetch
  readonly #userAgent: string | undefined
  /** Conditional answers by path, oldest use first; undefined when not kept. */
  readonly #kept: Map<string, Kept> | undefined
  #keptBytes = 0

  constructor(options: ClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? defaultBaseUrl()).replace(/\/+$/, '')
    this.token = options.token
    this.#fetch = options.fetch ?? fetch
    this.#userAgent = options.userAgent
    this.#kept = options.keepAnswers === false ? undefined : new Map()
  }

  /**
   * The approval handshake: asks for a token as `appName` and resolves once the operator approves
   * it in the console (the request waits there, up to the service's approval timeout). Refused or
   * timed out: a MediaLogError with 403 or 408; 429 when too many requests are already waiting.
   * The request carries a short code (`onCode` gets it) that the console shows on its card.
   */
  static async connect(options: ConnectOptions): Promise<MediaLogClient> {
    const client = new MediaLogClient(options)
    const code = options.code ?? newApprovalCode()
    options.onCode?.(code)
    const { token } = await client.route('requestToken', {}, { appName: options.appName, code })
    client.token = token
    return client
  }

  // ---- service

  ping = () => this.route('ping')
  version = () => this.route('version')

  // ---- projects

  createProject = (project_name: string) => this.route('createProject', {}, { project_name })
  loadProject = (path: string) => this.route('loadProject', {}, { path })
  projects = () => this.route('listProjects')
  project = () => this.route('getProject')
  config = () => this.route('getConfig')
  patchConfig = (patch: Partial<SettingsInput>) => this.route('patchConfig', {}, patch)
  pdfPresets = (enabled?: boolean) => this.route('listPdfPresets', {}, undefined, enabledQuery(enabled))
  emailPresets = (enabled?: boolean) => this.route('listEmailPresets', {}, undefined, enabledQuery(enabled))

  // ---- logs

  createLog = (log: LogInput) => this.route('createLog', {}, log)
  log = (id: string) => this.route('getLog', { id })
  logs = () => this.route('listLogs')
  patchLog = (id: string, patch: Partial<LogInput>) => this.route('patchLog', { id }, patch)
  deleteLog = (id: string) => this.route('deleteLog', { id })
  /** MHL, ASC MHL, ALE and transfer reports merged into log `id` (made when new): what was added, changed, unread. */
  importFiles = (id: string, files: ImportInput) => this.route('importFiles', { id }, files)
  /** The files into the log of the date they name (made when none is): `log` in the answer names it. */
  importToDay = (files: ImportInput) => this.route('importToDay', {}, files)
  /** What a read-back of one volume found of log `id`'s clips (`media-log verify` sends this). */
  readBack = (id: string, found: ReadBackInput) => this.route('readBack', { id }, found)
  /** A volume of log `id` renamed: every clip's copy on it. */
  renameVolume = (id: string, volume: string, name: string) => this.route('renameVolume', { id, volume }, { name })
  /** A volume taken off log `id`. */
  removeVolume = (id: string, volume: string) => this.route('removeVolume', { id, volume })

  // ---- checks, reports, e-mail

  checks = (id: string) => this.route('logChecks', { id })
  rangeChecks = (range: { from?: number | string; to?: number | string } = {}) =>
    this.route('rangeChecks', {}, undefined, range)
  /** The body as the route takes it: `{presetId, logId}` (one log id, or several). */
  generatePdf = (request: { presetId: string; logId: string | string[] }) => this.route('generatePdf', {}, request)
  /** A day's report as the PDF's bytes. */
  logPdf = (id: string, presetId: string) => this.route('logPdf', { id, presetId })
  /** The report of a range of days (a day number or a date each end, both included) as the PDF's bytes. */
  rangePdf = (presetId: string, range: { from?: number | string; to?: number | string } = {}) =>
    this.route('rangePdf', { presetId }, undefined, range)
  openEmailWindow = (request: { logId: string | string[]; presetId?: string }) =>
    this.route('openEmailWindow', {}, request)

  // ---- watchers of offload folders (docs/watch.md)

  /** What a running watcher watches and took; `id` is a UUID it made when it started. */
  reportWatcher = (id: string, report: WatcherReportInput) => this.route('reportWatcher', { id }, report)
  /** The watcher stopped itself: the console shows it stopped. */
  stopWatcher = (id: string) => this.route('stopWatcher', { id })

  /**
   * A declared route by its name (api/routes.ts: the same names as the OpenAPI document's
   * operationIds): its path parameters filled in and encoded, its body sent as JSON, its answer
   * typed by the route's declared shape.
   */
  route<N extends RouteName>(
    name: N,
    params: Record<string, string> = {},
    body?: unknown,
    query: Record<string, string | number | undefined> = {},
  ): Promise<AnswerOf<N>> {
    let line: RequestLine
    try {
      line = requestLine(name, params, query)
    } catch (err) {
      if (!(err instanceof UnsendableSegment)) throw err
      return Promise.reject(
        new MediaLogError(400, 'Validation Error', [{ prop: err.param, message: 'cannot be "." or ".."' }]),
      )
    }
    if ((ROUTES[name] as Route).conditional && this.#kept) return this.#revalidated<AnswerOf<N>>(line.path, this.#kept)
    return this.call<AnswerOf<N>>(line.method, line.path, body)
  }

  /** Any endpoint: the answer as JSON (a PDF as its bytes), or a MediaLogError. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return valueOf<T>(await this.send(method, path, body))
  }

  /**
   * A conditional GET: the kept copy's tag named, the copy read again on 304 (a new object each
   * time: what a caller did to the last one is not in it); a new answer kept in its place.
   */
  async #revalidated<T>(path: string, kept: Map<string, Kept>): Promise<T> {
    const copy = kept.get(path)
    const sent = await this.send('GET', path, undefined, copy && { 'if-none-match': copy.etag })
    if (sent.status === 304 && copy) {
      kept.delete(path)
      kept.set(path, copy)
      return (copy.bytes ? copy.bytes.slice() : JSON.parse(copy.text)) as T
    }
    // Another call for the same path may have kept its own answer meanwhile: whatever is kept goes.
    const held = kept.get(path)
    if (held) {
      kept.delete(path)
      this.#keptBytes -= held.size
    }
    const value = valueOf<T>(sent)
    const size = sent.bytes?.length ?? sent.text.length * 2
    if (sent.etag && size <= KEPT_BYTES) {
      for (const [oldest, { size: freed }] of kept) {
        if (this.#keptBytes + size <= KEPT_BYTES) break
        kept.delete(oldest)
        this.#keptBytes -= freed
      }
      kept.set(path, { etag: sent.etag, text: sent.text, size, ...(sent.bytes && { bytes: sent.bytes.slice() }) })
      this.#keptBytes += size
    }
    return value
  }

  /**
   * Any endpoint, its status and body as they came, refusals included: for tools that show what
   * the service said rather than throw. `body` is the JSON answer, undefined when it is not JSON
   * (`text` has it then); a PDF (`application/pdf`) comes as `bytes`, `text` empty. A redirect is
   * not followed: a MediaLogError with its 3xx status.
   */
  async send(method: string, path: string, body?: unknown, extra?: Record<string, string>): Promise<SentAnswer> {
    const headers: Record<string, string> = { ...extra }
    if (this.token) headers['x-api-token'] = this.token
    if (this.#userAgent) headers['user-agent'] = this.#userAgent
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await this.#fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      // A redirect would carry the token or the operator key to wherever it points.
      redirect: 'manual',
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const etag = response.headers.get('etag') ?? undefined
    if (response.status === 304) {
      await response.body?.cancel()
      return { status: 304, body: undefined, text: '', ...(etag && { etag }) }
    }
    // A browser hides a redirect it did not follow behind type `opaqueredirect` and status 0.
    if ((response.type as string) === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      await response.body?.cancel()
      const to = response.headers.get('location')
      throw new MediaLogError(
        response.status,
        `${this.baseUrl} answered with a redirect${to ? ` to ${to}` : ''}: not followed, the service never redirects`,
      )
    }
    const tag = etag ? { etag } : {}
    if (response.headers.get('content-type')?.startsWith('application/pdf'))
      return {
        status: response.status,
        body: undefined,
        text: '',
        bytes: new Uint8Array(await response.arrayBuffer()),
        ...tag,
      }
    const text = await response.text()
    try {
      return { status: response.status, body: JSON.parse(text), text, ...tag }
    } catch {
      return { status: response.status, body: undefined, text, ...tag }
    }
  }
}

/** An answer's value: its JSON (a PDF's bytes) when it succeeded, else its MediaLogError. */
function valueOf<T>({ status, body: answer, text, bytes }: SentAnswer): T {
  if (status >= 200 && status < 300 && bytes !== undefined) return bytes as T
  if (status >= 200 && status < 300 && answer !== undefined) return answer as T
  const { error, details } = (answer ?? {}) as { error?: string; details?: Array<{ prop: string; message: string }> }
  throw new MediaLogError(status, error ?? (text.slice(0, 200) || String(status)), details)
}

/** Where `npm start` serves, as the environment told it (Node), else the service's own default. */
function defaultBaseUrl(): string {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
  if (env?.MEDIA_LOG_URL) return env.MEDIA_LOG_URL
  if (env?.PORT && /^\d{1,5}$/.test(env.PORT)) return `http://localhost:${env.PORT}`
  return 'http://localhost:5252'
}

const enabledQuery = (enabled?: boolean) => ({ enabled: enabled === undefined ? undefined : String(enabled) })

/**
 * The operator's side, with the operator key (`x-operator-key`): approving applications, their
 * tokens, and the e-mail windows. For scripts and tests; people use the console.
 */
export class MediaLogOperator {
  readonly #client: MediaLogClient
  readonly #key: string

  constructor(options: Omit<ClientOptions, 'token'> & { key: string }) {
    this.#key = options.key
    const keyed: typeof fetch = (input, init) =>
      (options.fetch ?? fetch)(input, { ...init, headers: { ...init?.headers, 'x-operator-key': this.#key } })
    this.#client = new MediaLogClient({ ...options, fetch: keyed })
  }

  requests = () => this.#client.route('listRequests')
  decide = (id: string, decision: 'approve' | 'deny') => this.#client.route('decideRequest', { id }, { decision })
  tokens = () => this.#client.route('listTokens')
  revoke = (id: string) => this.#client.route('revokeToken', { id })
  windows = () => this.#client.route('listWindows')

  // ---- this cart's link to its production (docs/units.md)

  /** The link's status, as GET /sync/status says it. */
  linkStatus = () => this.#client.route('linkStatus')
  /** The active project linked to the production at `url`, with the link code its operator made for `unit`. */
  link = (request: { url: string; unit: string; linkCode: string }) => this.#client.route('link', {}, request)
  /** Syncing stopped; every log stays as it is. */
  unlink = () => this.#client.route('unlink')
  /** A stopped or quiet watcher taken off the console. */
  dismissWatcher = (id: string) => this.#client.route('dismissWatcher', { id })

  /**
   * Approves the request `appName` is making, once it shows (polled every 20 ms, up to `timeoutMs`);
   * with `code`, only the request that carries it.
   */
  async approve(appName: string, timeoutMs = 10_000, code?: string): Promise<void> {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
      const waiting = (await this.requests()).requests.find(
        (r) => r.appName === appName && (code === undefined || r.code === code),
      )
      if (waiting) {
        await this.decide(waiting.id, 'approve')
        return
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`no request from ${appName} within ${timeoutMs} ms`)
  }
}

/** An application approved by the operator, end to end: for scripts and tests that are both. */
export async function approvedClient(options: ConnectOptions & { operatorKey: string }): Promise<MediaLogClient> {
  const code = options.code ?? newApprovalCode()
  const connecting = MediaLogClient.connect({ ...options, code })
  await new MediaLogOperator({ ...options, key: options.operatorKey }).approve(options.appName, 10_000, code)
  return connecting
}

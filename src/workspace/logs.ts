/**
 * The logs of the active project (seed §4, SPEC §4): stored as the JSON bytes a client sent,
 * checked against the project's custom schemas, merged by PATCH. Used in the workspace's single
 * thread only: a read-merge-write here has no await, so no other request comes in between.
 */
import { LogIdSchema, checkLog, type LogCheck, type LogOutput } from '../schemas/log'
import { parseOrThrow } from '../schemas/requests'
import { fillTags } from '../shared/tags'
import { certainlyValidLog } from '../schemas/plain-log'
import type { LogKeys } from '../shared/log-order'
import { summarize, type LogSummary } from '../summary/summary'
import { conflict, invalid, notFound } from '../shared/problem'
import { namesTag, tagOf } from '../shared/etag'
import { taggedText, type Tagged } from './answers'
import { RPC_VALUE_BYTES, bytesOrStream, concatBytes, rpcSafe, streamOf, utf8Bytes } from '../shared/utf8'
import { bodyText, parseObject } from '../schemas/json'
import { checkPiecewise, PIECEWISE_BYTES } from '../large-logs/check'
import { mergedLog, membersOfObject } from '../large-logs/merge'
import type { Member } from '../large-logs/scan'
import { mergeImport, type ImportKeys, type MergeOutcome } from '../import/merge'
import { editLog, type EditOutcome, type LogEdit } from '../copies/edits'
import type { SentDay } from '../import/transfer'
import type { ActiveProject, Projects } from './projects'
import { partsOf, type Store } from './store'

/** Days from and to a day number or a date, both ends included; an end left out is open. */
export type DayRange = { from?: number | string; to?: number | string }

/** What a log's JSON travels as: text, bytes, or a stream when it would pass RPC's 32 MiB. */
export type LogBody = string | Uint8Array | ReadableStream<Uint8Array>

/** What the worker learnt of a log it sends (flows/sent-log.ts): at most one of these. */
export type LogRead = {
  checked?: { id: string; day: number; date: string; summary: string }
  /** Checked whole by the worker save its custom entries, which only the project's schemas can check. */
  valid?: { summary: string }
  scanned?: { skeleton: Uint8Array | ReadableStream<Uint8Array>; summary: string; custom?: [number, number] }
}

/** A version another unit sent, as the worker read it (`skeleton`: the text of a scanned one's). */
export type SentVersion = { bytes: Uint8Array; read: LogRead; skeleton?: string }

export class Logs {
  constructor(
    private readonly store: Store,
    private readonly projects: Projects,
    private readonly transaction: <T>(work: () => T) => T,
  ) {}

  /**
   * A log the worker found certainly valid (certainlyValidLog), stored as the very bytes the client
   * sent (SPEC §4: kept exactly as sent) without parsing them again. The keys are taken as given:
   * only this service's worker calls the workspace.
   */
  insertChecked(json: Uint8Array, keys: LogKeys, summary: string) {
    this.#insert(this.projects.requireActive(), keys, json, summary)
  }

  /** Any other log: parsed and checked here, where the project's custom fields are known. */
  insert(body: Record<string, unknown>, json: Uint8Array) {
    const active = this.projects.requireActive()
    const { log, details, unlisted } = checkLog(body, active.schemas)
    if (details.length) throw invalid(details, unlisted)
    this.#insertAsChecked(active, body, log, json, JSON.stringify(summarize(log as LogOutput)))
  }

  /** A log the worker checked save its custom entries: those are checked here, the rest not again. */
  insertValid(body: Record<string, unknown>, json: Uint8Array, summary: string) {
    const active = this.projects.requireActive()
    this.#insertAsChecked(active, body, withCustomApplied(active, body), json, summary)
  }

  /** `log`, what checking `body` (sent as `json`) made of it: stored as sent when it is `body` unchanged. */
  #insertAsChecked(active: ActiveProject, body: object, log: object, json: Uint8Array, summary: string) {
    this.#insert(active, log as LogKeys, log === body ? json : utf8Bytes(JSON.stringify(log)), summary)
  }

  /** A log checked a clip at a time by the worker; its skeleton is checked here for custom entries. */
  insertScanned(skeleton: Record<string, unknown>, json: Uint8Array, summary: string, custom?: [number, number]) {
    const active = this.projects.requireActive()
    this.#insert(active, skeleton as LogKeys, withCustomChecked(active, skeleton, json, custom), summary)
  }

  /**
   * `{"logs": [...]}` from stored bytes, nothing parsed or decoded. Past 1 MiB a stream that reads
   * the logs as it is read: a project's logs are never all in memory, nor in one RPC value. Each
   * log is as stored when the answer reaches it; one deleted before then is left out.
   */
  listing(): Uint8Array | ReadableStream<Uint8Array> {
    const active = this.projects.active
    return bytesOrStream(listingParts(this.store, active?.row.id))
  }

  /**
   * GET /logs: its tag, and the listing unless `ifNoneMatch` names the tag. The tag is of the
   * project's logs and their revisions: known without reading one.
   */
  taggedListing(ifNoneMatch?: string): Tagged<LogBody> {
    const projectId = this.projects.active?.row.id
    const logs = projectId === undefined ? [] : this.store.revisionsOf(projectId)
    const etag = tagOf('logs', projectId ?? '', ...logs.map(({ id, revision }) => `${id}\u0000${revision}`).sort())
    if (namesTag(ifNoneMatch, etag)) return { etag }
    const body = this.listing()
    return typeof body === 'string' ? taggedText(etag, body) : { etag, body }
  }

  /**
   * GET /log/{id}: its tag, and the log as stored unless `ifNoneMatch` names the tag or `kept` is
   * it (the worker holds that text already).
   */
  tagged(id: string, ifNoneMatch?: string, kept?: string): Tagged<LogBody> {
    const projectId = this.projects.requireForLogs()
    // Not hashed: a GET of a log is the service's most frequent call, and its tag says nothing
    // secret. Without a tag to compare, one query reads the log and its revision.
    const etag = (revision: number) => `"${projectId}.${revision.toString(36)}"`
    if (ifNoneMatch || kept) {
      const revision = this.store.revision(projectId, id)
      if (revision === undefined) throw notFound('Log')
      const current = etag(revision)
      if (kept === current || namesTag(ifNoneMatch, current)) return { etag: current }
    }
    const { body, revision } = this.readAt(projectId, id)
    return typeof body === 'string' ? taggedText(etag(revision), body) : { etag: etag(revision), body }
  }

  /** A log of any project as stored: past 1 MiB, a stream of its pieces. */
  read(projectId: string, id: string): LogBody {
    return this.readAt(projectId, id).body
  }

  /** As read, with the log's revision. */
  readAt(projectId: string, id: string): { body: LogBody; revision: number } {
    const opened = this.store.openLogAt(projectId, id)
    if (!opened) throw notFound('Log')
    const { log, revision } = opened
    return { body: typeof log === 'string' ? log : bytesOrStream(partsOf(log)), revision }
  }

  /**
   * Seed endpoint 8: top-level properties replace the stored ones; an `id` that differs renames.
   * A patch that came as bytes (a large body), or a stored log over PIECEWISE_BYTES, is merged in
   * bytes and checked a clip at a time: neither is ever parsed whole.
   */
  patch(id: string, patch: Record<string, unknown> | Member[]): LogBody {
    const projectId = this.projects.requireForLogs()
    const active = this.projects.active!
    const stored = this.#stored(projectId, id)
    if (Array.isArray(patch) || isLarge(stored))
      return this.#patchBytes(
        active,
        id,
        typeof stored === 'string' ? utf8Bytes(stored) : stored,
        Array.isArray(patch) ? patch : membersOfObject(patch),
      )

    const { text, json } = this.#write(active, { ...parsed(stored), ...patch }, id)
    return json.byteLength > RPC_VALUE_BYTES ? streamOf([json]) : text
  }

  /**
   * A merged log (PATCH, import), checked whole and stored in place of log `replacing`, or as a new
   * log without it. SPEC §4: a log without `version` is stored with `version: 1` (one stored before
   * that rule too).
   */
  #write(active: ActiveProject, merged: Record<string, unknown>, replacing?: string) {
    if (merged.version === undefined) merged.version = 1
    const { log, details, unlisted } = checkedLog(merged, active)
    if (details.length) throw invalid(details, unlisted)
    const text = JSON.stringify(log)
    const json = utf8Bytes(text)
    const summary = JSON.stringify(summarize(log as LogOutput))
    if (replacing === undefined) this.#insert(active, log as LogKeys, json, summary)
    else this.#put(active, replacing, log as LogKeys, json, summary)
    return { text, json }
  }

  #patchBytes(active: ActiveProject, id: string, stored: Uint8Array, patch: Member[]): LogBody {
    const merged = mergedLog(stored, patch)
    const { log, summary, details, unlisted, custom } = checkPiecewise(merged)
    if (details.length) throw invalid(details, unlisted)
    const json = withCustomChecked(active, log, merged, custom)
    this.#put(active, id, log as LogKeys, json, JSON.stringify(summary))
    return rpcSafe(json)
  }

  /** The merged log in place of log `id`; under its new id when that differs (a rename). */
  #put(active: ActiveProject, id: string, keys: LogKeys, json: Uint8Array, summary: string) {
    const projectId = active.row.id
    if (keys.id !== id && this.store.hasLog(projectId, keys.id)) throw conflict('Log already exists')
    this.transaction(() => this.store.putLog(projectId, keys, json, summary, id))
  }

  /**
   * What the worker read of an offload's files (src/import), merged into log `keys.id`, which is
   * created when it does not exist. Nothing is written when the merge changed nothing. A log over
   * PIECEWISE_BYTES is parsed whole here: an import is a rare, deliberate act, not a day's traffic.
   */
  import(imported: SentDay, keys: ImportKeys): MergeOutcome {
    // It makes the log it names as POST /log does: with no project, 409 No Project Loaded.
    const active = this.projects.requireActive()
    const projectId = active.row.id
    const stored = this.#storedIfAny(projectId, keys.id)
    const { log, outcome, written } = mergeImport(stored === undefined ? undefined : parsed(stored), imported, keys)
    if (written) this.#write(active, log, stored === undefined ? undefined : keys.id)
    return outcome
  }

  /**
   * An import with no log named (POST /import, media-log watch): into the project's log of the
   * date the files name (the first in log order when several are), else a new log, the day after
   * the project's last, its id from the project's template (Daytalog's `D<dd>_<yymmdd>` when it
   * has none). `keys` may name the date and the new log's day.
   */
  importToDay(imported: SentDay, keys: Omit<ImportKeys, 'id'>): MergeOutcome & { id: string } {
    const projectId = this.projects.requireActive().row.id
    const date = keys.date ?? imported.date
    if (date === undefined)
      throw invalid([{ prop: 'date', message: 'is required: no file is dated, so none names a day' }])
    const logs = this.store.logKeys(projectId)
    const found = logs.find((log) => log.date === date)
    if (found) return { id: found.id, ...this.import(imported, { id: found.id }) }
    const day = keys.day ?? Math.min(999, Math.max(0, ...logs.map((log) => log.day)) + 1)
    const { settings } = this.projects.active!
    const template = settings.logid_template || 'D<dd>_<yymmdd>'
    const context = { projectName: settings.project_name, unit: settings.unit, logs: [{ id: '', day, date }] }
    const id = parseOrThrow(LogIdSchema, fillTags(template, context), 'logid_template')
    if (logs.some((log) => log.id === id))
      throw conflict(`The project's template makes ${id}, a log of another date: name the log`)
    return { id, ...this.import(imported, { id, day, date }) }
  }

  /**
   * A change to a log's copies (copies/edits.ts): what a read-back found, a volume renamed or taken
   * off the day. Written as an import is; nothing when nothing changed.
   */
  edit(id: string, edit: LogEdit): EditOutcome {
    const projectId = this.projects.requireForLogs()
    const { log, outcome, written } = editLog(parsed(this.#stored(projectId, id)), edit)
    if (written) this.#write(this.projects.active!, log, id)
    return outcome
  }

  /**
   * A version of log `id` another unit wrote (docs/units.md), checked as POST /log checks a log and
   * kept as sent: every replica stores the same bytes. Custom entries of schemas this project does
   * not have stay as they came (the unit that wrote them has the schema): refusing them would stop
   * every other day from syncing.
   */
  checkedVersion(id: string, { bytes: json, read, skeleton }: SentVersion) {
    const active = this.projects.requireActive()
    let keys: LogKeys
    let summary: string
    const { checked, valid, scanned } = read
    if (checked) [keys, summary] = [checked, checked.summary]
    else if (valid) {
      const log = parseObject(bodyText(json))
      // Refuses a custom entry its schema refuses; the bytes stay as sent either way.
      withCustomApplied(active, log)
      ;[keys, summary] = [log as LogKeys, valid.summary]
    } else if (scanned && skeleton !== undefined) {
      const log = parseObject(skeleton)
      // Refuses a custom entry its schema refuses; the bytes stay as sent either way.
      withCustomChecked(active, log, json, scanned.custom)
      ;[keys, summary] = [log as LogKeys, scanned.summary]
    } else if (json.length > PIECEWISE_BYTES) {
      const scanned = checkPiecewise(json)
      if (scanned.details.length) throw invalid(scanned.details, scanned.unlisted)
      // Refuses a custom entry its schema refuses; the bytes stay as sent either way.
      withCustomChecked(active, scanned.log, json, scanned.custom)
      ;[keys, summary] = [scanned.log as LogKeys, JSON.stringify(scanned.summary)]
    } else {
      const { log, details, unlisted } = checkLog(parseObject(bodyText(json)), active.schemas)
      if (details.length) throw invalid(details, unlisted)
      ;[keys, summary] = [log as LogKeys, JSON.stringify(summarize(log as LogOutput))]
    }
    if (keys.id !== id) throw invalid([{ prop: 'id', message: 'must be the id the version is sent for' }])
    return { keys, json, summary }
  }

  delete(id: string) {
    if (!this.store.deleteLog(this.projects.requireForLogs(), id)) throw notFound('Log')
  }

  /** The ids of the logs in a range of days, in log order (day, date, id). */
  idsIn(projectId: string, { from, to }: DayRange): string[] {
    const at = (keys: LogKeys, end: number | string) =>
      typeof end === 'number' ? keys.day - end : keys.date < end ? -1 : keys.date > end ? 1 : 0
    return this.store
      .logKeys(projectId)
      .filter((keys) => (from === undefined || at(keys, from) >= 0) && (to === undefined || at(keys, to) <= 0))
      .map((keys) => keys.id)
  }

  /**
   * The stored summaries of the logs, in the order asked; 404 unless every one exists, since a
   * report or a message names only logs that do. A log stored before summaries were kept is
   * summarised now, once.
   */
  summaries(projectId: string, ids: string[]): LogSummary[] {
    // The unit whose cart wrote each day: beside the log, so the log stays as its application sent it.
    const owners = this.store.revisions.owners(projectId)
    return ids.map((id) => {
      const summary = this.#summary(projectId, id)
      const owner = owners.get(id)
      return owner === undefined ? summary : { ...summary, owner }
    })
  }

  #summary(projectId: string, id: string): LogSummary {
    const text = this.store.summaryText(projectId, id)
    if (text === undefined) throw notFound('Log')
    if (text !== null) return JSON.parse(text) as LogSummary
    const stored = this.#stored(projectId, id)
    const summary = isLarge(stored) ? checkPiecewise(stored).summary : summarize(parsed(stored) as LogOutput)
    this.store.setSummary(projectId, id, JSON.stringify(summary))
    return summary
  }

  /** A stored log: its text when it is one piece, else its bytes. */
  #stored(projectId: string, id: string): string | Uint8Array {
    const stored = this.#storedIfAny(projectId, id)
    if (stored === undefined) throw notFound('Log')
    return stored
  }

  #storedIfAny(projectId: string, id: string): string | Uint8Array | undefined {
    const log = this.store.openLog(projectId, id)
    if (!log) return undefined
    return typeof log === 'string' ? log : concatBytes([...partsOf(log)])
  }

  #insert(active: ActiveProject, keys: LogKeys, json: Uint8Array, summary: string) {
    if (!this.store.insertLog(active.row.id, keys, json, summary)) throw conflict('Log already exists')
  }
}

/**
 * `log` with its custom entries checked against the project's schemas (checkLog's step for them):
 * refused when one is invalid; entries of schemas the project does not have dropped (seed §2.8).
 */
function withCustomApplied(active: ActiveProject, log: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(log.custom)) return log
  const { kept, changed, details } = active.schemas.apply(log.custom)
  if (details.length) throw invalid(details)
  return changed ? { ...log, custom: kept } : log
}

/**
 * A log checked a clip at a time, whose skeleton is checked here against the project's custom
 * schemas: entries of schemas the project does not have are dropped (seed §2.8), written over in
 * the bytes.
 */
function withCustomChecked(
  active: ActiveProject,
  skeleton: Record<string, unknown>,
  json: Uint8Array,
  custom: [number, number] | undefined,
): Uint8Array {
  const { log, details } = checkLog(skeleton, active.schemas)
  if (details.length) throw invalid(details)
  return log !== skeleton && custom ? spliced(json, custom, utf8Bytes(JSON.stringify(log.custom))) : json
}

/** `bytes` with the span [from, to) replaced by `by`. */
function spliced(bytes: Uint8Array, [from, to]: [number, number], by: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - (to - from) + by.length)
  out.set(bytes.subarray(0, from))
  out.set(by, from)
  out.set(bytes.subarray(to), from + by.length)
  return out
}

const OPEN = utf8Bytes('{"logs":[')
const COMMA = utf8Bytes(',')
const CLOSE = utf8Bytes(']}')

function* listingParts(store: Store, projectId: string | undefined): Generator<Uint8Array> {
  yield OPEN
  if (projectId !== undefined) {
    let first = true
    for (const log of store.openLogs(
      projectId,
      store.logKeys(projectId).map((keys) => keys.id),
    )) {
      if (!first) yield COMMA
      first = false
      yield* partsOf(log)
    }
  }
  yield CLOSE
}

/** Above PIECEWISE_BYTES a log is never parsed whole (large-logs/). One piece is far below it. */
const isLarge = (stored: string | Uint8Array): stored is Uint8Array =>
  typeof stored !== 'string' && stored.length > PIECEWISE_BYTES

const parsed = (stored: string | Uint8Array) =>
  JSON.parse(typeof stored === 'string' ? stored : bodyText(stored)) as Record<string, unknown>

/** checkLog, skipped for a log that certainly passes it. */
const checkedLog = (log: Record<string, unknown>, active: ActiveProject): LogCheck =>
  certainlyValidLog(log) ? { log, details: [], unlisted: 0 } : checkLog(log, active.schemas)

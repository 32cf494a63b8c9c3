import { conflict, notFound } from '../shared/problem'
import { inLogOrder, type LogKeys } from '../shared/log-order'
import { cutBytes } from '../shared/utf8'
import { CHUNK_BYTES, type OpenLog, type PieceReader } from './pieces'
import { Revisions, type Role } from './revisions'
import { layOut } from './store-schema'

export { CHUNK_BYTES, partsOf, type OpenLog, type PieceReader } from './pieces'
export type { Role } from './revisions'

/** A reader's place: the next piece, how many there are, and its copy's number once retired. */
type Reading = { seq: number; pieces: number; retired?: number }

/** Ids per query when reading many logs: Durable Object SQL binds at most 100 values. */
const IDS_PER_QUERY = 64

export type ProjectRow = { id: string; path: string; created_at: string; settings: string }
/**
 * Synchronous SQL over the Durable Object's storage: callers run in the object's single thread.
 * Construct it inside a transaction: an older store is converted in several statements.
 */
export class Store {
  // Project id → the key its logs are stored under. Keys never change and projects are never removed.
  readonly #keys = new Map<string, number>()
  // Logs whose pieces an answer is streaming, by `project/id`. The object runs other requests
  // between two pieces: a log replaced or deleted meanwhile keeps its old pieces for those readers
  // (retired_pieces), so no answer mixes two versions of a log.
  readonly #readings = new Map<string, Set<Reading>>()
  #nextReader = 1
  /**
   * The last write's number: every write of a log takes a larger one, so a cached result names the
   * version it was made of, and the changes feed reads in its order. The clock in microseconds, or
   * one more than the last when writes come faster; never below the highest a leaf was given (read
   * at start from log_leaves' small rows, not from logs: MAX(revision) there read every row, past
   * each log's first piece), so a feed read from a place misses nothing when the clock goes back.
   */
  #revision = 0

  #nextRevision(): number {
    this.#revision = Math.max(this.#revision + 1, Date.now() * 1000)
    return this.#revision
  }

  /**
   * `role`, fixed when the object starts: a production's store keeps the version before each write
   * to merge against, and holds each cart to its own unit's days (requireSendersOwn).
   */
  /** Each log's revisions, as syncing units exchange them (revisions.ts). */
  readonly revisions: Revisions

  /**
   * `role`, fixed when the object starts: a production's store keeps the version before each write
   * to merge against, and holds each cart to its own unit's days.
   */
  constructor(
    private readonly sql: SqlStorage,
    readonly role: Role = 'cart',
  ) {
    layOut(sql)
    // A changes feed is read from a sequence number on: no write may take one below a number
    // given before, even when the clock went back. The leaves' rows are small: one read at start.
    this.#revision = sql.exec<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM log_leaves').one().seq ?? 0
    this.revisions = new Revisions(sql, role, {
      keyOf: (projectId) => this.#keyOf(projectId),
      requireKeyOf: (projectId) => this.#requireKeyOf(projectId),
      nextRevision: () => this.#nextRevision(),
      hasLog: (projectId, id) => this.hasLog(projectId, id),
      openLog: (projectId, id) => this.openLog(projectId, id),
      insertRow: (project, log, json, summary, revision) => this.#insertRow(project, log, json, summary, revision),
      removeRow: (project, id) => this.#removeRow(project, id),
      forget: (project, id) => this.#revisions.delete(`${project}\u0000${id}`),
      getMeta: (key) => this.getMeta(key),
      setMeta: (key, value) => this.setMeta(key, value),
    })
  }

  /** The key a project's logs are stored under; undefined for a project that does not exist. */
  #keyOf(projectId: string): number | undefined {
    let key = this.#keys.get(projectId)
    if (key === undefined) {
      key = this.sql.exec<{ key: number }>('SELECT key FROM projects WHERE id = ?', projectId).toArray()[0]?.key
      if (key !== undefined) this.#keys.set(projectId, key)
    }
    return key
  }

  #requireKeyOf(projectId: string): number {
    const key = this.#keyOf(projectId)
    if (key === undefined) throw notFound('Project')
    return key
  }

  getMeta(key: string): string | undefined {
    return this.sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', key).toArray()[0]?.value
  }

  setMeta(key: string, value: string) {
    this.sql.exec(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      key,
      value,
    )
  }

  // ---- projects

  projects(): ProjectRow[] {
    return this.sql
      .exec<ProjectRow>('SELECT id, path, created_at, settings FROM projects ORDER BY created_at, path')
      .toArray()
  }

  project(id: string): ProjectRow | undefined {
    return this.sql
      .exec<ProjectRow>('SELECT id, path, created_at, settings FROM projects WHERE id = ?', id)
      .toArray()[0]
  }

  projectByPath(path: string): ProjectRow | undefined {
    return this.sql
      .exec<ProjectRow>('SELECT id, path, created_at, settings FROM projects WHERE path = ?', path)
      .toArray()[0]
  }

  insertProject(row: ProjectRow) {
    if (this.projectByPath(row.path)) throw conflict('Project already exists')
    this.sql.exec(
      'INSERT INTO projects (id, path, created_at, settings) VALUES (?, ?, ?, ?)',
      row.id,
      row.path,
      row.created_at,
      row.settings,
    )
  }

  updateSettings(id: string, settings: string, path: string) {
    this.sql.exec('UPDATE projects SET settings = ?, path = ? WHERE id = ?', settings, path, id)
  }

  // ---- logs (found by the project's id, stored under its key)

  hasLog(projectId: string, id: string): boolean {
    const project = this.#keyOf(projectId)
    return (
      project !== undefined &&
      this.sql.exec('SELECT 1 FROM logs WHERE project = ? AND id = ?', project, id).toArray().length > 0
    )
  }

  /**
   * A log of one piece as text: for the small logs clients read all day, a string is the cheapest
   * way through RPC to the socket. A longer one opened for reading piece by piece, as bytes (read as
   * a BLOB, SQLite hands over its UTF-8 as it is).
   */
  openLog(projectId: string, id: string): string | OpenLog | undefined {
    return this.openLogAt(projectId, id)?.log
  }

  /** As openLog, with the log's revision, in the same query (a GET's tag: GET /log costs one query). */
  openLogAt(projectId: string, id: string): { log: string | OpenLog; revision: number } | undefined {
    const project = this.#keyOf(projectId)
    if (project === undefined) return undefined
    const row = this.sql
      .exec<{ text: string | null; bytes: ArrayBuffer | null; pieces: number; revision: number }>(
        'SELECT pieces, CASE WHEN pieces = 1 THEN head END AS text, CASE WHEN pieces > 1 THEN CAST(head AS BLOB) END AS bytes, COALESCE(revision, 0) AS revision FROM logs WHERE project = ? AND id = ?',
        project,
        id,
      )
      .toArray()[0]
    if (!row) return undefined
    const log = row.text ?? { head: new Uint8Array(row.bytes!), rest: this.#reader(project, id, row.pieces) }
    return { log, revision: row.revision }
  }

  /** The keys of a project's logs, ordered by day, date, id (SPEC §4). */
  logKeys(projectId: string): LogKeys[] {
    const project = this.#keyOf(projectId)
    if (project === undefined) return []
    // Sorted here, not by SQL: without an index on the order, SQLite would sort a temporary table.
    return this.sql
      .exec<LogKeys>('SELECT id, day, date FROM logs WHERE project = ?', project)
      .toArray()
      .sort(inLogOrder)
  }

  /**
   * Logs opened for reading, in the order of `ids`; an id no longer stored is left out. Each read
   * takes a few dozen heads in one query.
   */
  *openLogs(projectId: string, ids: string[]): Generator<OpenLog> {
    const project = this.#keyOf(projectId)
    if (project === undefined) return
    for (let at = 0; at < ids.length; at += IDS_PER_QUERY) {
      const batch = ids.slice(at, at + IDS_PER_QUERY)
      const rows = new Map(
        this.sql
          .exec<{ id: string; head: ArrayBuffer; pieces: number }>(
            `SELECT id, CAST(head AS BLOB) AS head, pieces FROM logs WHERE project = ? AND id IN (${batch.map(() => '?').join(',')})`,
            project,
            ...batch,
          )
          .toArray()
          .map((row) => [row.id, row]),
      )
      // Readers opened with their heads, in one step: a log replaced before it is reached keeps
      // the version its head came from.
      const logs = batch.flatMap((id) => {
        const row = rows.get(id)
        return row ? [{ head: new Uint8Array(row.head), rest: this.#reader(project, id, row.pieces) }] : []
      })
      try {
        yield* logs
      } finally {
        for (const log of logs) log.rest?.close()
      }
    }
  }

  #reader(project: number, id: string, pieces: number): PieceReader | undefined {
    if (pieces === 1) return undefined
    const key = `${project}/${id}`
    const reading: Reading = { seq: 1, pieces }
    const readings = this.#readings.get(key) ?? new Set()
    this.#readings.set(key, readings.add(reading))
    const close = () => {
      if (!readings.delete(reading)) return
      if (!readings.size && this.#readings.get(key) === readings) this.#readings.delete(key)
      if (reading.retired !== undefined) this.sql.exec('DELETE FROM retired_pieces WHERE reader = ?', reading.retired)
    }
    return {
      next: () => {
        if (!readings.has(reading) || reading.seq >= reading.pieces) {
          close()
          return undefined
        }
        const row =
          reading.retired === undefined
            ? this.sql
                .exec<{ body: ArrayBuffer }>(
                  'SELECT CAST(body AS BLOB) AS body FROM log_pieces WHERE project = ? AND log_id = ? AND seq = ?',
                  project,
                  id,
                  reading.seq,
                )
                .one()
            : this.sql
                .exec<{ body: ArrayBuffer }>(
                  'SELECT CAST(body AS BLOB) AS body FROM retired_pieces WHERE reader = ? AND seq = ?',
                  reading.retired,
                  reading.seq,
                )
                .one()
        reading.seq++
        return new Uint8Array(row.body)
      },
      close,
    }
  }

  /** Before a log's pieces go: each answer still streaming them keeps its own copy of the rest. */
  #retirePieces(project: number, id: string) {
    const readings = this.#readings.get(`${project}/${id}`)
    if (!readings) return
    this.#readings.delete(`${project}/${id}`)
    for (const reading of readings) {
      reading.retired = this.#nextReader++
      this.sql.exec(
        'INSERT INTO retired_pieces (reader, seq, body) SELECT ?, seq, body FROM log_pieces WHERE project = ? AND log_id = ? AND seq >= ?',
        reading.retired,
        project,
        id,
        reading.seq,
      )
    }
  }

  /**
   * Stores a new log from its JSON's UTF-8 bytes; false, with nothing written, when the project has
   * one with its id. A new revision replaces the log's tombstone, if it had one.
   */
  insertLog(projectId: string, log: LogKeys, json: Uint8Array, summary: string): boolean {
    const project = this.#requireKeyOf(projectId)
    const revision = this.#nextRevision()
    if (!this.#insertRow(project, log, json, summary, revision)) return false
    this.revisions.recordWrite(project, log.id, false, revision)
    return true
  }

  /** The log's row and pieces. SQLite takes the bytes as text (CAST): stored as before, with no string made. */
  #insertRow(project: number, log: LogKeys, json: Uint8Array, summary: string, revision: number): boolean {
    this.#revisions.delete(`${project}\u0000${log.id}`)
    const pieces = cutBytes(json, CHUNK_BYTES)
    const inserted =
      this.sql.exec(
        'INSERT INTO logs (project, id, day, date, pieces, head, updated_at, summary, revision) VALUES (?, ?, ?, ?, ?, CAST(? AS TEXT), ?, ?, ?) ON CONFLICT DO NOTHING',
        project,
        log.id,
        log.day,
        log.date,
        pieces.length,
        pieces[0]!,
        new Date().toISOString(),
        summary,
        revision,
      ).rowsWritten > 0
    // Every piece after the first (the row's `head`), numbered from 1.
    for (let seq = 1; inserted && seq < pieces.length; seq++) {
      this.sql.exec(
        'INSERT INTO log_pieces (project, log_id, seq, body) VALUES (?, ?, ?, CAST(? AS TEXT))',
        project,
        log.id,
        seq,
        pieces[seq]!,
      )
    }
    return inserted
  }

  /**
   * Replaces a log; `previousId` renames (the old id then keeps a tombstone). Call it inside a
   * transaction: it deletes, then inserts.
   */
  putLog(projectId: string, log: LogKeys, json: Uint8Array, summary: string, previousId = log.id) {
    const project = this.#requireKeyOf(projectId)
    if (previousId !== log.id) this.deleteLog(projectId, previousId)
    else {
      const leaves = this.revisions.leafRows(project, previousId)
      this.revisions.requireOwned(project, leaves)
      // The version a write replaces is the base of what is written from it, while it is the
      // log's one version: in conflict, the versions have other bases.
      if (leaves.length === 1) this.revisions.keepBase(project, previousId, leaves[0]!.rev)
      this.#removeRow(project, previousId)
    }
    // The caller has checked that a new id is free; a clash here must not pass silently.
    if (!this.insertLog(projectId, log, json, summary)) throw conflict('Log already exists')
  }

  /** A log's stored summary (JSON); null for a log stored before summaries were kept, undefined for none. */
  summaryText(projectId: string, id: string): string | null | undefined {
    const project = this.#keyOf(projectId)
    if (project === undefined) return undefined
    return this.sql
      .exec<{ summary: string | null }>('SELECT summary FROM logs WHERE project = ? AND id = ?', project, id)
      .toArray()[0]?.summary
  }

  setSummary(projectId: string, id: string, summary: string) {
    this.sql.exec(
      'UPDATE logs SET summary = ? WHERE project = ? AND id = ?',
      summary,
      this.#requireKeyOf(projectId),
      id,
    )
  }

  /**
   * Each log's revision as last read, by project key and id: a GET naming its tag then reads no
   * row (the query made such a GET cost 1.3× a GET /ping; without it, as much). Every write of a
   * revision (#insertRow, #removeRow, #touchRow, #restoreBody) drops the log's entry first, so a
   * write rolled back leaves none behind: the next read asks the table.
   */
  readonly #revisions = new Map<string, number>()

  /** A log's revision (0 for one not written since revisions were kept); undefined for no such log. */
  revision(projectId: string, id: string): number | undefined {
    const project = this.#keyOf(projectId)
    if (project === undefined) return undefined
    const key = `${project}\u0000${id}`
    const known = this.#revisions.get(key)
    if (known !== undefined) return known
    const row = this.sql
      .exec<{ revision: number }>(
        'SELECT COALESCE(revision, 0) AS revision FROM logs WHERE project = ? AND id = ?',
        project,
        id,
      )
      .toArray()[0]
    if (row) this.#revisions.set(key, row.revision)
    return row?.revision
  }

  /** Every log of a project with the revision of its last write (0 for one not written since revisions were kept). */
  revisionsOf(projectId: string): Array<{ id: string; revision: number }> {
    const project = this.#keyOf(projectId)
    if (project === undefined) return []
    return this.sql
      .exec<{ id: string; revision: number }>(
        'SELECT id, COALESCE(revision, 0) AS revision FROM logs WHERE project = ?',
        project,
      )
      .toArray()
  }

  /**
   * The counts of a log's checks as cached (JSON), null when not computed since its last write,
   * with the revision they must be stored under; undefined for a log that does not exist.
   */
  cachedChecks(projectId: string, id: string): { revision: number; checks: string | null } | undefined {
    const project = this.#keyOf(projectId)
    if (project === undefined) return undefined
    const row = this.sql
      .exec<{ revision: number | null; checks: string | null }>(
        'SELECT revision, checks FROM logs WHERE project = ? AND id = ?',
        project,
        id,
      )
      .toArray()[0]
    return row && { revision: row.revision ?? 0, checks: row.checks }
  }

  /** Caches a log's check counts, unless the log was written again since they were computed. */
  cacheChecks(projectId: string, id: string, revision: number, checks: string) {
    const project = this.#keyOf(projectId)
    if (project === undefined) return
    this.sql.exec(
      'UPDATE logs SET checks = ? WHERE project = ? AND id = ? AND COALESCE(revision, 0) = ?',
      checks,
      project,
      id,
      revision,
    )
  }

  /** Deletes a log, leaving its tombstone; 409 while versions of it are in conflict. */
  deleteLog(projectId: string, id: string): boolean {
    const project = this.#keyOf(projectId)
    if (project === undefined) return false
    const leaves = this.revisions.leafRows(project, id)
    this.revisions.requireOwned(project, leaves)
    if (leaves.length > 1) throw conflict('Log has versions in conflict: resolve them first')
    const removed = this.#removeRow(project, id)
    if (removed) {
      this.revisions.dropBase(project, id)
      this.revisions.recordWrite(project, id, true, this.#nextRevision())
    }
    return removed
  }

  #removeRow(project: number, id: string): boolean {
    this.#revisions.delete(`${project}\u0000${id}`)
    const removed = this.sql.exec('DELETE FROM logs WHERE project = ? AND id = ?', project, id).rowsWritten > 0
    if (removed) {
      this.#retirePieces(project, id)
      this.sql.exec('DELETE FROM log_pieces WHERE project = ? AND log_id = ?', project, id)
    }
    return removed
  }

  // ---- tokens

  tokens() {
    return this.sql
      .exec<TokenRow>(
        'SELECT id, digest, app_name, created_at, last_used_at, expires_at FROM tokens ORDER BY created_at',
      )
      .toArray()
  }

  insertToken(row: TokenRow) {
    this.sql.exec(
      'INSERT INTO tokens (id, digest, app_name, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      row.id,
      row.digest,
      row.app_name,
      row.created_at,
      row.last_used_at,
      row.expires_at,
    )
  }

  touchToken(id: string, at: string) {
    this.sql.exec('UPDATE tokens SET last_used_at = ? WHERE id = ?', at, id)
  }

  deleteToken(id: string): boolean {
    this.sql.exec('DELETE FROM unit_tokens WHERE id = ?', id)
    return this.sql.exec('DELETE FROM tokens WHERE id = ?', id).rowsWritten > 0
  }

  // ---- link codes

  linkCodes(): LinkCodeRow[] {
    return this.sql
      .exec<LinkCodeRow>('SELECT id, digest, name, unit, created_at, expires_at FROM link_codes ORDER BY created_at')
      .toArray()
  }

  insertLinkCode(row: LinkCodeRow) {
    this.sql.exec(
      'INSERT INTO link_codes (id, digest, name, unit, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      row.id,
      row.digest,
      row.name,
      row.unit,
      row.created_at,
      row.expires_at,
    )
  }

  deleteLinkCode(id: string): boolean {
    return this.sql.exec('DELETE FROM link_codes WHERE id = ?', id).rowsWritten > 0
  }

  /** Marks a token as a unit's cart's. */
  insertUnitToken(id: string) {
    this.sql.exec('INSERT INTO unit_tokens (id) VALUES (?)', id)
  }

  unitTokens(): Set<string> {
    return new Set(
      this.sql
        .exec<{ id: string }>('SELECT id FROM unit_tokens')
        .toArray()
        .map((row) => row.id),
    )
  }
}

export type LinkCodeRow = {
  id: string
  /** SHA-256 of the code, hex: the code itself leaves once, as a token does. */
  digest: string
  /** The application it admits, named as it will ask. */
  name: string
  /** 1: a unit's cart. */
  unit: number
  created_at: string
  expires_at: string
}

export type TokenRow = {
  id: string
  digest: string
  app_name: string
  created_at: string
  last_used_at: string | null
  expires_at: string | null
}

import { conflict, notFound } from '../shared/problem'
import { inLogOrder, type LogKeys } from '../shared/log-order'
import { cutBytes } from '../shared/utf8'

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

/** A reader's place: the next piece, how many there are, and its copy's number once retired. */
type Reading = { seq: number; pieces: number; retired?: number }

/** Ids per query when reading many logs: Durable Object SQL binds at most 100 values. */
const IDS_PER_QUERY = 64

export type ProjectRow = { id: string; path: string; created_at: string; settings: string }

// Logs refer to their project by a small integer, not its 36-character id: the primary key's index
// carries it in every entry, and with the id its entries were about twice the size, which showed in
// write cost once a project held tens of thousands of logs.
const projectsTable = (name: string) => `
  CREATE TABLE IF NOT EXISTS ${name} (
    key INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at TEXT NOT NULL,
    settings TEXT NOT NULL
  );`

const logsTable = (name: string) => `
  CREATE TABLE IF NOT EXISTS ${name} (
    project INTEGER NOT NULL,
    id TEXT NOT NULL,
    day INTEGER NOT NULL,
    date TEXT NOT NULL,
    pieces INTEGER NOT NULL,
    head TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    summary TEXT,
    revision INTEGER,
    checks TEXT,
    PRIMARY KEY (project, id)
  );`

const logPiecesTable = (name: string) => `
  CREATE TABLE IF NOT EXISTS ${name} (
    project INTEGER NOT NULL,
    log_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (project, log_id, seq)
  );`

/** The layout this code reads and writes, kept in meta as `schema`. */
const SCHEMA_VERSION = '5'

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  ${projectsTable('projects')}
  ${logsTable('logs')}
  -- The order of a listing is sorted in code (logKeys): one index less to write for every log.
  DROP INDEX IF EXISTS logs_in_order;
  ${logPiecesTable('log_pieces')}
  -- Pieces of a log replaced or deleted while an answer was still streaming them (Store.openLogs).
  -- Only a running object reads them: emptied at every start.
  CREATE TABLE IF NOT EXISTS retired_pieces (
    reader INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (reader, seq)
  );
  DELETE FROM retired_pieces;
  CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    app_name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    expires_at TEXT
  );
`

/**
 * Stores written before schema 2 kept the project's id in every log row. Their rows move to tables
 * of the current layout, which then take the old names; tokens, meta and windows are unchanged.
 */
const FROM_PROJECT_IDS = `
  ${projectsTable('projects_2')}
  INSERT INTO projects_2 (id, path, created_at, settings)
    SELECT id, path, created_at, settings FROM projects ORDER BY created_at, rowid;
  ${logsTable('logs_2')}
  INSERT INTO logs_2 (project, id, day, date, pieces, head, updated_at)
    SELECT p.key, l.id, l.day, l.date, l.pieces, l.head, l.updated_at FROM logs l JOIN projects_2 p ON p.id = l.project_id;
  ${logPiecesTable('log_pieces_2')}
  INSERT INTO log_pieces_2 (project, log_id, seq, body)
    SELECT p.key, lp.log_id, lp.seq, lp.body FROM log_pieces lp JOIN projects_2 p ON p.id = lp.project_id;
  DROP TABLE log_pieces;
  DROP TABLE logs;
  DROP TABLE projects;
  ALTER TABLE projects_2 RENAME TO projects;
  ALTER TABLE logs_2 RENAME TO logs;
  ALTER TABLE log_pieces_2 RENAME TO log_pieces;
`

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
   * version it was made of. The clock in microseconds, or one more than the last when writes come
   * faster: no query at start (MAX(revision) read every row, past each log's first piece), and
   * above every number an earlier run of the object gave unless the clock went back.
   */
  #revision = 0

  #nextRevision(): number {
    this.#revision = Math.max(this.#revision + 1, Date.now() * 1000)
    return this.#revision
  }

  constructor(private readonly sql: SqlStorage) {
    const version = this.#hasTable('meta') ? this.getMeta('schema') : undefined
    // A first-layout store has every table but no `schema` entry in meta.
    if (version === undefined && this.#hasTable('projects')) sql.exec(FROM_PROJECT_IDS)
    // Schema 3 keeps each log's summary beside it; a log of an older store gets its own when first asked.
    if (version === '2') sql.exec('ALTER TABLE logs ADD COLUMN summary TEXT')
    // Schema 4 numbers each write of a log and keeps the counts of its checks, once computed.
    if (version === '2' || version === '3')
      sql.exec('ALTER TABLE logs ADD COLUMN revision INTEGER; ALTER TABLE logs ADD COLUMN checks TEXT')
    // Schema 5's summaries count the copies read back (`verified`): an older store's are made
    // again when first asked, rather than read as "none verified".
    if (version === '2' || version === '3' || version === '4') sql.exec('UPDATE logs SET summary = NULL')
    sql.exec(SCHEMA)
    if (version !== SCHEMA_VERSION) this.setMeta('schema', SCHEMA_VERSION)
  }

  #hasTable(name: string): boolean {
    return this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray().length > 0
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
   * one with its id. SQLite takes the bytes as text (CAST): stored as before, with no string made.
   */
  insertLog(projectId: string, log: LogKeys, json: Uint8Array, summary: string): boolean {
    const project = this.#requireKeyOf(projectId)
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
        this.#nextRevision(),
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

  /** Replaces a log; `previousId` renames. Call it inside a transaction: it deletes, then inserts. */
  putLog(projectId: string, log: LogKeys, json: Uint8Array, summary: string, previousId = log.id) {
    this.deleteLog(projectId, previousId)
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
   * row (the query made such a GET cost 1.3× a GET /ping; without it, as much). Only insertLog and
   * deleteLog write a revision, and each drops the log's entry, so a write rolled back leaves none
   * behind: the next read asks the table.
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
  revisions(projectId: string): Array<{ id: string; revision: number }> {
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

  deleteLog(projectId: string, id: string): boolean {
    const project = this.#keyOf(projectId)
    if (project === undefined) return false
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
    return this.sql.exec('DELETE FROM tokens WHERE id = ?', id).rowsWritten > 0
  }
}

export type TokenRow = {
  id: string
  digest: string
  app_name: string
  created_at: string
  last_used_at: string | null
  expires_at: string | null
}

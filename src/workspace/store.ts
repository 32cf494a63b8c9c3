import { conflict, forbidden, invalid, notFound } from '../shared/problem'
import { inLogOrder, type LogKeys } from '../shared/log-order'
import { concatBytes, cutBytes, utf8Bytes } from '../shared/utf8'
import {
  MAX_VERSIONS,
  ancestorsOf,
  implausible,
  knows,
  nextRevision,
  received,
  winnerOf,
  type Leaf,
} from '../shared/revisions'

/** What a workspace is: the service on a cart (or a laptop), or a production holding its units' days. */
export type Role = 'cart' | 'production'
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

/** A reader's place: the next piece, how many there are, and its copy's number once retired. */
type Reading = { seq: number; pieces: number; retired?: number }

/** A log merged three ways is parsed whole: at most PIECEWISE_BYTES (8 MiB), 16 pieces. */
const MERGED_PIECES = 16

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
const SCHEMA_VERSION = '6'

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
  -- Each log's leaves (src/shared/revisions.ts): its revision as stored (winner = 1), a deleted
  -- log's tombstone, and versions in conflict with it, whose keys and pieces are kept here.
  -- seq is the store's revision at the leaf's last change: a changes feed reads in its order.
  CREATE TABLE IF NOT EXISTS log_leaves (
    project INTEGER NOT NULL,
    id TEXT NOT NULL,
    rev TEXT NOT NULL,
    ancestors TEXT NOT NULL,
    deleted INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    owner TEXT,
    day INTEGER,
    date TEXT,
    summary TEXT,
    pieces INTEGER,
    PRIMARY KEY (project, id, rev)
  );
  -- On a production, each log's version before its last write, which two versions written from
  -- it are merged against (src/shared/three-way.ts): its revision in every piece's row.
  CREATE TABLE IF NOT EXISTS base_pieces (
    project INTEGER NOT NULL,
    id TEXT NOT NULL,
    rev TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (project, id, seq)
  );
  -- The changes feed reads a project's leaves in seq order from a place on.
  CREATE INDEX IF NOT EXISTS log_leaves_feed ON log_leaves (project, seq);
  CREATE TABLE IF NOT EXISTS leaf_pieces (
    project INTEGER NOT NULL,
    id TEXT NOT NULL,
    rev TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (project, id, rev, seq)
  );
  CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    app_name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    expires_at TEXT
  );
  -- The tokens a unit's cart asked for (docs/units.md): on a production they only sync.
  CREATE TABLE IF NOT EXISTS unit_tokens (id TEXT PRIMARY KEY);
  -- A production's link codes (docs/units.md): each admits one application, named, once.
  CREATE TABLE IF NOT EXISTS link_codes (
    id TEXT PRIMARY KEY,
    digest TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    unit INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
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
  constructor(
    private readonly sql: SqlStorage,
    readonly role: Role = 'cart',
  ) {
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
    // Schema 6's summaries count each volume's copies by state, and its checks have kinds the
    // older counts lack (src/copies/): both are made again when first asked, and unsent windows
    // whose logs are all there draw their figures again (the others, and sent ones, keep theirs,
    // read as the account: copies/account.ts accountOf).
    if (version === '4' || version === '5') sql.exec('UPDATE logs SET summary = NULL, checks = NULL')
    // (A store older than windows following their logs has no such column yet: its windows gain it
    // empty, which redraws them as well.)
    if (version !== undefined && version !== SCHEMA_VERSION && this.#hasColumn('send_windows', 'summary_source'))
      sql.exec("UPDATE send_windows SET summary_source = NULL WHERE status IN ('draft', 'failed')")
    sql.exec(SCHEMA)
    if (version !== SCHEMA_VERSION) this.setMeta('schema', SCHEMA_VERSION)
    // A changes feed is read from a sequence number on: no write may take one below a number
    // given before, even when the clock went back. The leaves' rows are small: one read at start.
    this.#revision = sql.exec<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM log_leaves').one().seq ?? 0
  }

  #hasColumn(table: string, column: string): boolean {
    return this.sql.exec('SELECT 1 FROM pragma_table_info(?) WHERE name = ?', table, column).toArray().length > 0
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
   * one with its id. A new revision replaces the log's tombstone, if it had one.
   */
  insertLog(projectId: string, log: LogKeys, json: Uint8Array, summary: string): boolean {
    const project = this.#requireKeyOf(projectId)
    const revision = this.#nextRevision()
    if (!this.#insertRow(project, log, json, summary, revision)) return false
    this.#recordWrite(project, log.id, false, revision)
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
      const leaves = this.#leafRows(project, previousId)
      this.#requireOwned(project, leaves)
      // The version a write replaces is the base of what is written from it, while it is the
      // log's one version: in conflict, the versions have other bases.
      if (leaves.length === 1) this.#keepBase(project, previousId, leaves[0]!.rev)
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

  /** Deletes a log, leaving its tombstone; 409 while versions of it are in conflict. */
  deleteLog(projectId: string, id: string): boolean {
    const project = this.#keyOf(projectId)
    if (project === undefined) return false
    const leaves = this.#leafRows(project, id)
    this.#requireOwned(project, leaves)
    if (leaves.length > 1) throw conflict('Log has versions in conflict: resolve them first')
    const removed = this.#removeRow(project, id)
    if (removed) {
      this.#dropBase(project, id)
      this.#recordWrite(project, id, true, this.#nextRevision())
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

  // ---- revisions: what syncing units exchange (src/shared/revisions.ts, docs/units.md)

  /**
   * The project this store's cart is linked with and the unit it is linked as (workspace/units.ts);
   * none when not linked, and on a production. In that project a linked cart writes only the logs
   * its unit owns, and those of none.
   */
  #linked: { project: number; unit: string } | undefined

  /**
   * The linked project and unit (undefined: not linked), remembered for the project: unlinked, the
   * cart goes on writing it as that unit. `claim`, when the link is made: the first time the
   * project links, its logs no unit owns become the unit's (they were written on this cart). Not
   * on a start, nor on linking again: by then the project holds the production office's days too.
   */
  linkAs(link: { projectId: string; unit: string } | undefined, { claim = false } = {}) {
    if (!link) return (this.#linked = undefined)
    const project = this.#requireKeyOf(link.projectId)
    this.#linked = { project, unit: link.unit }
    if (this.#lastUnit(project) !== link.unit) this.#remember(project, 'unit', link.unit)
    if (this.getMeta(`units.claimed.${project}`) !== undefined) return
    // A link from before claims were recorded claimed its days when it was made.
    if (claim) this.sql.exec('UPDATE log_leaves SET owner = ? WHERE project = ? AND owner IS NULL', link.unit, project)
    this.#remember(project, 'claimed', link.unit)
  }

  /** Per project, the unit it was last linked as (null: never linked). */
  readonly #units = new Map<number, string | null>()

  #lastUnit(project: number): string | undefined {
    let unit = this.#units.get(project)
    if (unit === undefined) this.#units.set(project, (unit = this.getMeta(`units.unit.${project}`) ?? null))
    return unit ?? undefined
  }

  #remember(project: number, what: 'unit' | 'claimed', unit: string) {
    this.setMeta(`units.${what}.${project}`, unit)
    if (what === 'unit') this.#units.set(project, unit)
  }

  /**
   * On a cart, the unit other than its own that owns a live version among `leaves`: the cart may
   * neither write over nor resolve such a log (its production refuses both).
   */
  #ownedElsewhere(project: number, leaves: Owned): string | undefined {
    const unit = this.#unitIn(project)
    return unit === undefined ? undefined : otherOwner(unit, leaves)
  }

  /**
   * The unit a new log of `project` is owned by, and whose days alone this cart writes there: the
   * linked unit in the linked project; unlinked, the unit the project was last linked as (what it
   * wrote of other units' days would be refused once linked again); none on a production.
   */
  #unitIn(project: number): string | undefined {
    if (this.role === 'production') return undefined
    return this.#linked?.project === project ? this.#linked.unit : this.#lastUnit(project)
  }

  /**
   * On a cart, 403 unless its unit may write the log, as its production will take it: a write
   * replaces the version served alone, which must be the unit's or no unit's (a resolution
   * replaces every version: #ownedElsewhere).
   */
  #requireOwned(project: number, leaves: Array<Leaf & { winner: boolean }>) {
    const unit = this.#unitIn(project)
    if (unit === undefined) return
    const owner = leaves.find((leaf) => leaf.winner && !leaf.deleted)?.owner
    if (owner !== undefined && owner !== unit) throw ownedElsewhere(owner)
  }

  #leafRows(project: number, id: string): Array<Leaf & { winner: boolean }> {
    return this.sql
      .exec<LeafRow>(
        'SELECT rev, ancestors, deleted, winner, owner FROM log_leaves WHERE project = ? AND id = ?',
        project,
        id,
      )
      .toArray()
      .map(leafOf)
  }

  /**
   * A local write: a new revision replaces the log's winner. Its generation passes every leaf's,
   * so the write is what the log serves; versions in conflict stay until resolved.
   */
  #recordWrite(project: number, id: string, deleted: boolean, seq: number) {
    const leaves = this.#leafRows(project, id)
    const winner = leaves.find((leaf) => leaf.winner)
    const { rev } = nextRevision(leaves)
    const ancestors = winner ? ancestorsOf([winner]) : []
    // A log keeps its owner; a new one (or one written again after its deletion) is this cart's.
    const owner = winner && !winner.deleted ? winner.owner : this.#unitIn(project)
    if (winner)
      this.sql.exec('DELETE FROM log_leaves WHERE project = ? AND id = ? AND rev = ?', project, id, winner.rev)
    // The new revision is served (its generation passes every leaf's); the others were not.
    this.#insertLeaf(project, id, { rev, ancestors, deleted, ...(owner !== undefined && { owner }) }, seq)
  }

  #insertLeaf(project: number, id: string, leaf: Leaf, seq: number, winner = true) {
    this.sql.exec(
      'INSERT INTO log_leaves (project, id, rev, ancestors, deleted, winner, seq, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      project,
      id,
      leaf.rev,
      leaf.ancestors.join(' '),
      leaf.deleted ? 1 : 0,
      winner ? 1 : 0,
      seq,
      leaf.owner ?? null,
    )
  }

  /** Leaf `winner` served, in place of the one served before. */
  #crown(project: number, id: string, winner: string) {
    this.sql.exec(
      'UPDATE log_leaves SET winner = (rev = ?) WHERE project = ? AND id = ? AND (winner = 1 OR rev = ?)',
      winner,
      project,
      id,
      winner,
    )
  }

  /**
   * A revision written elsewhere (another unit's cart, or the production). `body` is the log as
   * sent, its keys and summary; none for a tombstone. Answers what became of it: `known` (this
   * store has it or something that replaced it), `winner` (the log as served now), `conflict`
   * (kept beside the winner). `sent`: it came in a request (POST /sync/logs), not from the
   * production a cart pulls from, and on a production `unit` sent it, which may not write over
   * another unit's days (requireSendersOwn).
   */
  receive(
    projectId: string,
    id: string,
    incoming: Leaf,
    body?: { keys: LogKeys; json: Uint8Array; summary: string },
    sent?: { unit?: string | undefined },
  ): 'known' | 'winner' | 'conflict' {
    const project = this.#requireKeyOf(projectId)
    // A log stored before revisions were kept gets its first one now, so its row is a leaf too.
    let leaves = this.#leafRows(project, id)
    if (!leaves.length && this.hasLog(projectId, id)) {
      this.#recordWrite(project, id, false, this.#nextRevision())
      leaves = this.#leafRows(project, id)
    }
    const after = received(leaves, incoming)
    if (!after) return 'known'
    const why = implausible(leaves, incoming)
    if (why) throw invalid([{ prop: 'rev', message: why }])
    if (after.kept.length > MAX_VERSIONS)
      throw invalid([
        { prop: 'rev', message: `the log holds ${MAX_VERSIONS} versions already: its operator keeps one first` },
      ])
    // Sent in a request: on a production by the unit whose token sent it; on a cart, by one of its
    // applications, as its own unit (what its production would refuse, the cart refuses too, as
    // it refuses a PATCH over another unit's day).
    const sender = sent === undefined ? undefined : (sent.unit ?? this.#unitIn(project))
    if (sender !== undefined) requireSendersOwn(sender, incoming, leaves, after.replaced)
    const seq = this.#nextRevision()
    const before = leaves.find((leaf) => leaf.winner)
    const winner = winnerOf(after.kept)!
    if (winner.rev !== before?.rev) {
      // The log's row holds the old winner: kept as a conflict unless the incoming replaces it.
      if (before && !before.deleted) {
        if (!after.replaced.includes(before)) this.#keepBody(project, id, before.rev)
        else if (leaves.length === 1) this.#keepBase(project, id, before.rev)
        this.#removeRow(project, id)
      }
      if (winner === incoming) {
        if (body) this.#insertRow(project, body.keys, body.json, body.summary, seq)
      } else if (!winner.deleted) this.#restoreBody(project, id, winner.rev, seq)
    } else this.#touchRow(project, id, seq)
    for (const leaf of after.replaced) this.#dropLeaf(project, id, leaf.rev)
    this.#insertLeaf(project, id, incoming, seq, false)
    if (winner !== incoming && body) this.#keepSentBody(project, id, incoming.rev, body)
    // Only the incoming row carries the feed's new position (the feed reads a log's newest), and
    // only the served flag moves: two rows at most, however many versions the log holds.
    if (winner.rev !== before?.rev) this.#crown(project, id, winner.rev)
    return winner === incoming ? 'winner' : 'conflict'
  }

  /**
   * The log's row as it is, under a new revision: what is made of it (the Days view, its tags)
   * shows its versions in conflict, which changed.
   */
  #touchRow(project: number, id: string, revision: number) {
    this.#revisions.delete(`${project}\u0000${id}`)
    this.sql.exec('UPDATE logs SET revision = ?, checks = NULL WHERE project = ? AND id = ?', revision, project, id)
  }

  /** The log's row, as a conflict leaf `rev`: its keys and summary in the leaf's row, its pieces beside. */
  #keepBody(project: number, id: string, rev: string) {
    this.sql.exec(
      'UPDATE log_leaves SET (day, date, summary, pieces) = (SELECT day, date, summary, pieces FROM logs WHERE project = ? AND id = ?) WHERE project = ? AND id = ? AND rev = ?',
      project,
      id,
      project,
      id,
      rev,
    )
    this.sql.exec(
      'INSERT INTO leaf_pieces (project, id, rev, seq, body) SELECT project, id, ?, 0, head FROM logs WHERE project = ? AND id = ?',
      rev,
      project,
      id,
    )
    this.sql.exec(
      'INSERT INTO leaf_pieces (project, id, rev, seq, body) SELECT project, log_id, ?, seq, body FROM log_pieces WHERE project = ? AND log_id = ?',
      rev,
      project,
      id,
    )
  }

  /** A conflict leaf's version back in the log's row (it won), its kept pieces dropped. */
  #restoreBody(project: number, id: string, rev: string, revision: number) {
    this.#revisions.delete(`${project}\u0000${id}`)
    this.sql.exec(
      `INSERT INTO logs (project, id, day, date, pieces, head, updated_at, summary, revision)
        SELECT l.project, l.id, l.day, l.date, l.pieces, p.body, ?, l.summary, ? FROM log_leaves l
        JOIN leaf_pieces p ON p.project = l.project AND p.id = l.id AND p.rev = l.rev AND p.seq = 0
        WHERE l.project = ? AND l.id = ? AND l.rev = ?`,
      new Date().toISOString(),
      revision,
      project,
      id,
      rev,
    )
    this.sql.exec(
      'INSERT INTO log_pieces (project, log_id, seq, body) SELECT project, id, seq, body FROM leaf_pieces WHERE project = ? AND id = ? AND rev = ? AND seq > 0',
      project,
      id,
      rev,
    )
    this.sql.exec(
      'UPDATE log_leaves SET day = NULL, date = NULL, summary = NULL, pieces = NULL WHERE project = ? AND id = ? AND rev = ?',
      project,
      id,
      rev,
    )
    this.sql.exec('DELETE FROM leaf_pieces WHERE project = ? AND id = ? AND rev = ?', project, id, rev)
  }

  #keepSentBody(project: number, id: string, rev: string, body: { keys: LogKeys; json: Uint8Array; summary: string }) {
    const pieces = cutBytes(body.json, CHUNK_BYTES)
    this.sql.exec(
      'UPDATE log_leaves SET day = ?, date = ?, summary = ?, pieces = ? WHERE project = ? AND id = ? AND rev = ?',
      body.keys.day,
      body.keys.date,
      body.summary,
      pieces.length,
      project,
      id,
      rev,
    )
    pieces.forEach((piece, seq) =>
      this.sql.exec(
        'INSERT INTO leaf_pieces (project, id, rev, seq, body) VALUES (?, ?, ?, ?, CAST(? AS TEXT))',
        project,
        id,
        rev,
        seq,
        piece,
      ),
    )
  }

  #dropLeaf(project: number, id: string, rev: string) {
    this.sql.exec('DELETE FROM log_leaves WHERE project = ? AND id = ? AND rev = ?', project, id, rev)
    this.sql.exec('DELETE FROM leaf_pieces WHERE project = ? AND id = ? AND rev = ?', project, id, rev)
  }

  /** A log's leaves, the winner first; none for a log never written since revisions were kept. */
  leaves(projectId: string, id: string): Array<Leaf & { winner: boolean }> {
    const project = this.#keyOf(projectId)
    if (project === undefined) return []
    return this.#leafRows(project, id).sort((a, b) => Number(b.winner) - Number(a.winner))
  }

  /** Whether the store has revision `rev` of a log, or one that replaced it. */
  knows(projectId: string, id: string, rev: string): boolean {
    const project = this.#keyOf(projectId)
    return project !== undefined && knows(this.#leafRows(project, id), rev)
  }

  /**
   * The logs changed after `since` in the feed's order, each with its leaves, at most `limit`;
   * `last` is where the next read starts. A log stored before revisions were kept gets its first
   * one here.
   */
  changes(
    projectId: string,
    since: number,
    limit: number,
  ): { changes: Array<{ id: string; seq: number; leaves: Leaf[] }>; last: number } {
    const project = this.#keyOf(projectId)
    if (project === undefined) return { changes: [], last: since }
    for (const { id } of this.sql
      .exec<{ id: string }>(
        'SELECT id FROM logs l WHERE project = ? AND NOT EXISTS (SELECT 1 FROM log_leaves v WHERE v.project = l.project AND v.id = l.id)',
        project,
      )
      .toArray())
      this.#recordWrite(project, id, false, this.#nextRevision())
    const rows = this.sql
      .exec<{ id: string; seq: number }>(
        'SELECT id, MAX(seq) AS seq FROM log_leaves WHERE project = ? AND seq > ? GROUP BY id ORDER BY seq LIMIT ?',
        project,
        since,
        limit,
      )
      .toArray()
    const changes = rows.map(({ id, seq }) => ({
      id,
      seq,
      leaves: this.#leafRows(project, id)
        .sort((a, b) => Number(b.winner) - Number(a.winner))
        .map(({ winner: _, ...leaf }) => leaf),
    }))
    return { changes, last: rows.at(-1)?.seq ?? since }
  }

  /** The pieces of a version of a log: the log as stored for the winner, the kept pieces for a conflict. */
  *versionPieces(projectId: string, id: string, leaf: { rev: string; winner: boolean }): Generator<Uint8Array> {
    if (!leaf.winner) {
      yield* this.#leafPieces(projectId, id, leaf.rev)
      return
    }
    const log = this.openLog(projectId, id)
    if (typeof log === 'string') yield utf8Bytes(log)
    else if (log) yield* partsOf(log)
  }

  /** The pieces of a conflict leaf's version (none for a tombstone). */
  *#leafPieces(projectId: string, id: string, rev: string): Generator<Uint8Array> {
    const project = this.#requireKeyOf(projectId)
    const count =
      this.sql
        .exec<{ count: number }>(
          'SELECT COUNT(*) AS count FROM leaf_pieces WHERE project = ? AND id = ? AND rev = ?',
          project,
          id,
          rev,
        )
        .one().count ?? 0
    for (let seq = 0; seq < count; seq++) {
      const row = this.sql
        .exec<{ body: ArrayBuffer }>(
          'SELECT CAST(body AS BLOB) AS body FROM leaf_pieces WHERE project = ? AND id = ? AND rev = ? AND seq = ?',
          project,
          id,
          rev,
          seq,
        )
        .toArray()[0]
      // Resolved or replaced between two pieces: the answer fails rather than end early.
      if (!row) throw conflict('The version changed while it was read: ask again')
      yield new Uint8Array(row.body)
    }
  }

  /**
   * The operator's choice between versions in conflict: version `keep` becomes the log (or its
   * tombstone), as a new revision replacing every leaf, so every replica that receives it ends
   * the conflict the same way.
   */
  resolve(projectId: string, id: string, keep: string): Leaf {
    const project = this.#requireKeyOf(projectId)
    const leaves = this.#leafRows(project, id)
    const kept = leaves.find((leaf) => leaf.rev === keep)
    if (!kept) throw notFound('Revision')
    if (leaves.length < 2) throw conflict('Log has no versions in conflict')
    const other = this.#ownedElsewhere(project, leaves)
    if (other !== undefined)
      throw forbidden(`A version of this log belongs to ${other}: the production's operator keeps one`)
    // A deletion kept on a cart is the cart's act (another unit's deletion it may keep, but not
    // send as that unit's); elsewhere the kept version's owner stays.
    const owner = kept.deleted ? (this.#unitIn(project) ?? kept.owner) : kept.owner
    const leaf = {
      rev: nextRevision(leaves).rev,
      ancestors: ancestorsOf(leaves),
      deleted: kept.deleted,
      ...(owner !== undefined && { owner }),
    }
    const seq = this.#nextRevision()
    const before = leaves.find((held) => held.winner)
    if (kept !== before) {
      if (before && !before.deleted) this.#removeRow(project, id)
      if (!kept.deleted) this.#restoreBody(project, id, kept.rev, seq)
    } else this.#touchRow(project, id, seq)
    for (const held of leaves) this.#dropLeaf(project, id, held.rev)
    this.#insertLeaf(project, id, leaf, seq)
    this.#dropBase(project, id)
    return leaf
  }

  /** The log's row as the base of the versions written from revision `rev` (a production's alone). */
  #keepBase(project: number, id: string, rev: string) {
    if (this.role !== 'production') return
    this.#dropBase(project, id)
    // A log past MERGED_PIECES is never parsed whole, so never merged: no base kept for it.
    const pieces = this.sql.exec<{ pieces: number }>(
      'SELECT pieces FROM logs WHERE project = ? AND id = ?',
      project,
      id,
    )
    if ((pieces.toArray()[0]?.pieces ?? Infinity) > MERGED_PIECES) return
    this.sql.exec(
      'INSERT INTO base_pieces (project, id, rev, seq, body) SELECT project, id, ?, 0, head FROM logs WHERE project = ? AND id = ?',
      rev,
      project,
      id,
    )
    this.sql.exec(
      'INSERT INTO base_pieces (project, id, rev, seq, body) SELECT project, log_id, ?, seq, body FROM log_pieces WHERE project = ? AND log_id = ?',
      rev,
      project,
      id,
    )
  }

  #dropBase(project: number, id: string) {
    if (this.role === 'production') this.sql.exec('DELETE FROM base_pieces WHERE project = ? AND id = ?', project, id)
  }

  /** The revision of the version a log's last write replaced, kept on a production. */
  baseRevision(projectId: string, id: string): string | undefined {
    const project = this.#keyOf(projectId)
    if (project === undefined) return undefined
    return this.sql
      .exec<{ rev: string }>('SELECT rev FROM base_pieces WHERE project = ? AND id = ? AND seq = 0', project, id)
      .toArray()[0]?.rev
  }

  /** Whether every version of a log is small enough to merge (at most MERGED_PIECES pieces). */
  mergeable(projectId: string, id: string): boolean {
    const project = this.#keyOf(projectId)
    if (project === undefined) return false
    const row = this.sql
      .exec<{ largest: number | null }>(
        `SELECT MAX(pieces) AS largest FROM (
          SELECT pieces FROM logs WHERE project = ? AND id = ?
          UNION ALL SELECT pieces FROM log_leaves WHERE project = ? AND id = ? AND pieces IS NOT NULL)`,
        project,
        id,
        project,
        id,
      )
      .one()
    return (row.largest ?? Infinity) <= MERGED_PIECES
  }

  /** The version a log's last write replaced, kept on a production: its revision and bytes. */
  base(projectId: string, id: string): { rev: string; bytes: Uint8Array } | undefined {
    const project = this.#keyOf(projectId)
    if (project === undefined) return undefined
    const rows = this.sql
      .exec<{ rev: string; body: ArrayBuffer }>(
        'SELECT rev, CAST(body AS BLOB) AS body FROM base_pieces WHERE project = ? AND id = ? ORDER BY seq',
        project,
        id,
      )
      .toArray()
    if (!rows.length) return undefined
    return { rev: rows[0]!.rev, bytes: concatBytes(rows.map((row) => new Uint8Array(row.body))) }
  }

  /**
   * Two versions in conflict merged into one (src/shared/three-way.ts): a revision replacing both,
   * the log as `body`, which every replica takes.
   */
  merge(projectId: string, id: string, body: { keys: LogKeys; json: Uint8Array; summary: string }): Leaf {
    const project = this.#requireKeyOf(projectId)
    const leaves = this.#leafRows(project, id)
    const winner = leaves.find((leaf) => leaf.winner)
    if (leaves.length !== 2 || !winner) throw conflict('Log has no two versions to merge')
    const leaf = {
      rev: nextRevision(leaves).rev,
      ancestors: ancestorsOf(leaves),
      deleted: false,
      ...(winner.owner !== undefined && { owner: winner.owner }),
    }
    const seq = this.#nextRevision()
    if (!winner.deleted) this.#removeRow(project, id)
    this.#insertRow(project, body.keys, body.json, body.summary, seq)
    for (const held of leaves) this.#dropLeaf(project, id, held.rev)
    this.#insertLeaf(project, id, leaf, seq)
    this.#dropBase(project, id)
    return leaf
  }

  /**
   * A log's versions in conflict, the one served first, each with its owner and summary (none for
   * a deletion); `keptHere`: whether this service's operator may keep one (a cart may not where
   * another unit owns a version).
   */
  versions(projectId: string, id: string) {
    const project = this.#keyOf(projectId)
    if (project === undefined) return { versions: [], keptHere: true }
    const rows = this.sql
      .exec<{ rev: string; deleted: number; winner: number; summary: string | null; owner: string | null }>(
        `SELECT v.rev, v.deleted, v.winner, v.owner,
            CASE WHEN v.winner = 1 THEN l.summary ELSE v.summary END AS summary
          FROM log_leaves v LEFT JOIN logs l ON l.project = v.project AND l.id = v.id
          WHERE v.project = ? AND v.id = ? ORDER BY v.winner DESC, v.rev`,
        project,
        id,
      )
      .toArray()
    const versions = rows.map(({ rev, deleted, winner, summary, owner }) => ({
      rev,
      deleted: deleted === 1,
      served: winner === 1,
      owner,
      summary,
    }))
    return { versions, keptHere: this.#ownedElsewhere(project, versions) === undefined }
  }

  /** How many logs of a project changed after `since` in the feed. */
  changedSince(projectId: string, since: number): number {
    const project = this.#keyOf(projectId)
    if (project === undefined) return 0
    return this.sql
      .exec<{ count: number }>(
        'SELECT COUNT(DISTINCT id) AS count FROM log_leaves WHERE project = ? AND seq > ?',
        project,
        since,
      )
      .one().count
  }

  /** The logs of a project with more than one leaf: versions in conflict, waiting for the operator. */
  conflicted(projectId: string): Array<{ id: string; leaves: number }> {
    const project = this.#keyOf(projectId)
    if (project === undefined) return []
    return this.sql
      .exec<{ id: string; leaves: number }>(
        'SELECT id, COUNT(*) AS leaves FROM log_leaves WHERE project = ? GROUP BY id HAVING COUNT(*) > 1 ORDER BY id',
        project,
      )
      .toArray()
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

/**
 * Throws 403 unless a version sent by `unit` is that unit's to write: it names no other owner,
 * and replaces no version of a day another unit owns (nor that unit's deletion of it while a
 * version of that unit lives on beside: the operator decides between them). Anything else is
 * kept by the revision rules: beside another unit's version, a conflict for the production's
 * operator, never merged (Workspace #mergeVersions).
 */
function requireSendersOwn(unit: string, incoming: Leaf, leaves: Leaf[], replaced: Leaf[]) {
  if (incoming.owner !== undefined && incoming.owner !== unit)
    throw forbidden(`Approved as ${unit}: it sends versions of its own days, not ${incoming.owner}'s`)
  const livesOn = (owner: string) => leaves.some((leaf) => !leaf.deleted && leaf.owner === owner)
  const over = replaced.find(
    (leaf) => leaf.owner !== undefined && leaf.owner !== unit && (!leaf.deleted || livesOn(leaf.owner)),
  )
  if (over) throw ownedElsewhere(over.owner!)
}

/** Versions of a log as far as who owns them goes (`owner` null or absent: none). */
type Owned = Array<{ deleted: boolean; owner?: string | null | undefined }>

/** The owner of a live version among `leaves` that is neither `unit` nor none. */
const otherOwner = (unit: string, leaves: Owned) =>
  leaves.find((leaf) => !leaf.deleted && leaf.owner != null && leaf.owner !== unit)?.owner ?? undefined

const ownedElsewhere = (owner: string) => forbidden(`Log belongs to ${owner}: it is written on that unit's cart`)

type LeafRow = { rev: string; ancestors: string; deleted: number; winner: number; owner: string | null }

const leafOf = (row: LeafRow) => ({
  rev: row.rev,
  ancestors: row.ancestors ? row.ancestors.split(' ') : [],
  deleted: row.deleted === 1,
  ...(row.owner !== null && { owner: row.owner }),
  winner: row.winner === 1,
})

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

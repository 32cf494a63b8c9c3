/**
 * The store's tables, and the conversion of a store of an older layout to this one, in place:
 * run inside one transaction, so it happens all or nothing.
 */

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

/** The pieces of versions kept beside a log's row: in conflict (leaf_pieces), or set aside. */
const versionPiecesTable = (name: string) => `
  CREATE TABLE IF NOT EXISTS ${name} (
    project INTEGER NOT NULL,
    id TEXT NOT NULL,
    rev TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (project, id, rev, seq)
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
  ${versionPiecesTable('leaf_pieces')}
  -- Versions a resolution did not keep (set-aside.ts): retrievable as they were, listed under
  -- their day, never sent to other units (each sets aside its own when it takes the resolution).
  CREATE TABLE IF NOT EXISTS set_aside (
    project INTEGER NOT NULL,
    id TEXT NOT NULL,
    rev TEXT NOT NULL,
    owner TEXT,
    summary TEXT,
    replaced_by TEXT NOT NULL,
    set_aside_at TEXT NOT NULL,
    PRIMARY KEY (project, id, rev)
  );
  ${versionPiecesTable('set_aside_pieces')}
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

const hasTable = (sql: SqlStorage, name: string) =>
  sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray().length > 0

const hasColumn = (sql: SqlStorage, table: string, column: string) =>
  sql.exec('SELECT 1 FROM pragma_table_info(?) WHERE name = ?', table, column).toArray().length > 0

/** Lays the store out as this code reads and writes it, converting an older one. */
export function layOut(sql: SqlStorage) {
  const version = hasTable(sql, 'meta')
    ? sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'").toArray()[0]?.value
    : undefined
  // A first-layout store has every table but no `schema` entry in meta.
  if (version === undefined && hasTable(sql, 'projects')) sql.exec(FROM_PROJECT_IDS)
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
  if (version !== undefined && version !== SCHEMA_VERSION && hasColumn(sql, 'send_windows', 'summary_source'))
    sql.exec("UPDATE send_windows SET summary_source = NULL WHERE status IN ('draft', 'failed')")
  sql.exec(SCHEMA)
  if (version !== SCHEMA_VERSION)
    sql.exec(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      'schema',
      SCHEMA_VERSION,
    )
}

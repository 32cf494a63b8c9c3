import { conflict, notFound } from '../http/errors'
import type { LogKeys } from '../schemas/plain-log'

/**
 * Cloudflare limits a SQLite row, string or BLOB to 2 MB. Logs are stored as JSON text cut into
 * pieces of at most this many UTF-16 units: at most 3 bytes each in UTF-8, so under 800 KB a row.
 */
export const CHUNK_UNITS = 256 * 1024

export type ProjectRow = { id: string; path: string; created_at: string; settings: string }

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS projects (
    id TEXT PRIMARY KEY,
    path TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at TEXT NOT NULL,
    settings TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS logs (
    project_id TEXT NOT NULL,
    id TEXT NOT NULL,
    day INTEGER NOT NULL,
    date TEXT NOT NULL,
    pieces INTEGER NOT NULL,
    head TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (project_id, id)
  );
  CREATE INDEX IF NOT EXISTS logs_in_order ON logs (project_id, day, date, id);
  CREATE TABLE IF NOT EXISTS log_pieces (
    project_id TEXT NOT NULL,
    log_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (project_id, log_id, seq)
  );
  CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    app_name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    expires_at TEXT
  );
`

/** Splits text without separating the two halves of a surrogate pair (SQLite would mangle them). */
export function cut(text: string, size = CHUNK_UNITS): string[] {
  if (text.length <= size) return [text]
  const pieces: string[] = []
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + size, text.length)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1
    pieces.push(text.slice(at, end))
    at = end
  }
  return pieces
}

/** Synchronous SQL over the Durable Object's storage: callers run in the object's single thread. */
export class Store {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(SCHEMA)
  }

  getMeta(key: string): string | undefined {
    return this.sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', key).toArray()[0]?.value
  }

  setMeta(key: string, value: string) {
    this.sql.exec('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value)
  }

  // ---- projects

  projects(): ProjectRow[] {
    return this.sql.exec<ProjectRow>('SELECT id, path, created_at, settings FROM projects ORDER BY created_at, path').toArray()
  }

  project(id: string): ProjectRow | undefined {
    return this.sql.exec<ProjectRow>('SELECT id, path, created_at, settings FROM projects WHERE id = ?', id).toArray()[0]
  }

  projectByPath(path: string): ProjectRow | undefined {
    return this.sql.exec<ProjectRow>('SELECT id, path, created_at, settings FROM projects WHERE path = ?', path).toArray()[0]
  }

  insertProject(row: ProjectRow) {
    if (this.projectByPath(row.path)) throw conflict('Project already exists')
    this.sql.exec('INSERT INTO projects (id, path, created_at, settings) VALUES (?, ?, ?, ?)', row.id, row.path, row.created_at, row.settings)
  }

  updateSettings(id: string, settings: string) {
    this.sql.exec('UPDATE projects SET settings = ? WHERE id = ?', settings, id)
  }

  // ---- logs

  hasLog(projectId: string, id: string): boolean {
    return this.sql.exec('SELECT 1 FROM logs WHERE project_id = ? AND id = ?', projectId, id).toArray().length > 0
  }

  /** The stored JSON text of a log, or undefined. */
  logText(projectId: string, id: string): string | undefined {
    const row = this.sql.exec<{ head: string; pieces: number }>('SELECT head, pieces FROM logs WHERE project_id = ? AND id = ?', projectId, id).toArray()[0]
    if (!row) return undefined
    return row.pieces === 1 ? row.head : row.head + this.#rest(projectId, id)
  }

  requireLogText(projectId: string, id: string): string {
    const text = this.logText(projectId, id)
    if (text === undefined) throw notFound('Log')
    return text
  }

  /** Every log of a project as JSON texts, ordered by day, date, id (SPEC §4). */
  logTexts(projectId: string): string[] {
    const rows = this.sql.exec<{ id: string; head: string; pieces: number }>(
      'SELECT id, head, pieces FROM logs WHERE project_id = ? ORDER BY day, date, id',
      projectId,
    )
    const texts: string[] = []
    for (const row of rows) texts.push(row.pieces === 1 ? row.head : row.head + this.#rest(projectId, row.id))
    return texts
  }

  logCount(projectId: string): number {
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM logs WHERE project_id = ?', projectId).one().n
  }

  #rest(projectId: string, id: string): string {
    let text = ''
    for (const { body } of this.sql.exec<{ body: string }>('SELECT body FROM log_pieces WHERE project_id = ? AND log_id = ? ORDER BY seq', projectId, id)) text += body
    return text
  }

  /** Stores a new log; false, with nothing written, when the project has one with its id. */
  insertLog(projectId: string, log: LogKeys, text: string): boolean {
    const pieces = cut(text)
    const inserted = this.sql.exec(
      'INSERT INTO logs (project_id, id, day, date, pieces, head, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      projectId, log.id, log.day, log.date, pieces.length, pieces[0]!, new Date().toISOString(),
    ).rowsWritten > 0
    // Every piece after the first (the row's `head`), numbered from 1.
    for (let seq = 1; inserted && seq < pieces.length; seq++) {
      this.sql.exec('INSERT INTO log_pieces (project_id, log_id, seq, body) VALUES (?, ?, ?, ?)', projectId, log.id, seq, pieces[seq]!)
    }
    return inserted
  }

  /** Replaces a log; `previousId` renames. Call it inside a transaction: it deletes, then inserts. */
  putLog(projectId: string, log: LogKeys, text: string, previousId = log.id) {
    this.deleteLog(projectId, previousId)
    // The caller has checked that a new id is free; a clash here must not pass silently.
    if (!this.insertLog(projectId, log, text)) throw conflict('Log already exists')
  }

  deleteLog(projectId: string, id: string): boolean {
    const removed = this.sql.exec('DELETE FROM logs WHERE project_id = ? AND id = ?', projectId, id).rowsWritten > 0
    if (removed) this.sql.exec('DELETE FROM log_pieces WHERE project_id = ? AND log_id = ?', projectId, id)
    return removed
  }

  // ---- tokens

  tokens() {
    return this.sql
      .exec<TokenRow>('SELECT id, digest, app_name, created_at, last_used_at, expires_at FROM tokens ORDER BY created_at')
      .toArray()
  }

  insertToken(row: TokenRow) {
    this.sql.exec(
      'INSERT INTO tokens (id, digest, app_name, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      row.id, row.digest, row.app_name, row.created_at, row.last_used_at, row.expires_at,
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

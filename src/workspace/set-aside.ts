/**
 * The versions of a day a resolution did not keep (docs/units.md, conflicts): set aside as they
 * were, listed under their day and retrievable byte for byte, on every service that held them,
 * so choosing one version never makes a unit's record of its day disappear. Each service sets
 * aside what it held when it keeps a version or takes another's choice; nothing here is synced.
 */
import { notFound } from '../shared/problem'
/** Set-aside versions kept per log: the oldest go past this many. */
const KEPT = 16

export type SetAsideListing = {
  rev: string
  owner: string | null
  /** The revision that replaced it: the resolution. */
  replacedBy: string
  setAsideAt: string
  day?: number
  date?: string
  unit?: string | null
  clips?: number
}

export class SetAside {
  constructor(
    private readonly sql: SqlStorage,
    /** A project's key in the store's tables, by its id. */
    private readonly keyOf: (projectId: string) => number | undefined,
  ) {}

  /**
   * Version `rev` of a log, set aside as `replacedBy` replaces it: its body taken from the log's
   * row when it was the one served, else from its kept pieces. Called before either goes.
   */
  keep(project: number, id: string, rev: string, served: boolean, replacedBy: string) {
    const at = new Date().toISOString()
    if (served) {
      this.sql.exec(
        `INSERT OR REPLACE INTO set_aside (project, id, rev, owner, summary, replaced_by, set_aside_at)
          SELECT l.project, l.id, v.rev, v.owner, l.summary, ?, ? FROM logs l
          JOIN log_leaves v ON v.project = l.project AND v.id = l.id AND v.rev = ?
          WHERE l.project = ? AND l.id = ?`,
        replacedBy,
        at,
        rev,
        project,
        id,
      )
      this.sql.exec(
        'INSERT OR REPLACE INTO set_aside_pieces (project, id, rev, seq, body) SELECT project, id, ?, 0, head FROM logs WHERE project = ? AND id = ?',
        rev,
        project,
        id,
      )
      this.sql.exec(
        'INSERT OR REPLACE INTO set_aside_pieces (project, id, rev, seq, body) SELECT project, log_id, ?, seq, body FROM log_pieces WHERE project = ? AND log_id = ?',
        rev,
        project,
        id,
      )
    } else {
      this.sql.exec(
        `INSERT OR REPLACE INTO set_aside (project, id, rev, owner, summary, replaced_by, set_aside_at)
          SELECT project, id, rev, owner, summary, ?, ? FROM log_leaves WHERE project = ? AND id = ? AND rev = ?`,
        replacedBy,
        at,
        project,
        id,
        rev,
      )
      this.sql.exec(
        'INSERT OR REPLACE INTO set_aside_pieces (project, id, rev, seq, body) SELECT project, id, rev, seq, body FROM leaf_pieces WHERE project = ? AND id = ? AND rev = ?',
        project,
        id,
        rev,
      )
    }
    const old = this.sql
      .exec<{ rev: string }>(
        'SELECT rev FROM set_aside WHERE project = ? AND id = ? ORDER BY set_aside_at DESC, rev DESC LIMIT -1 OFFSET ?',
        project,
        id,
        KEPT,
      )
      .toArray()
    for (const { rev: gone } of old) this.#forget(project, id, gone)
  }

  /** A log's versions set aside, the latest first. */
  list(projectId: string, id: string): SetAsideListing[] {
    const project = this.keyOf(projectId)
    if (project === undefined) return []
    return this.sql
      .exec<{ rev: string; owner: string | null; summary: string | null; replaced_by: string; set_aside_at: string }>(
        'SELECT rev, owner, summary, replaced_by, set_aside_at FROM set_aside WHERE project = ? AND id = ? ORDER BY set_aside_at DESC, rev DESC',
        project,
        id,
      )
      .toArray()
      .map(({ rev, owner, summary, replaced_by, set_aside_at }) => {
        const said =
          summary === null
            ? undefined
            : (JSON.parse(summary) as { day: number; date: string; unit?: string; clips: number })
        return {
          rev,
          owner,
          replacedBy: replaced_by,
          setAsideAt: set_aside_at,
          ...(said && { day: said.day, date: said.date, unit: said.unit ?? null, clips: said.clips }),
        }
      })
  }

  /** A version set aside, as it was, in pieces; 404 when none is kept by that revision. */
  body(projectId: string, id: string, rev: string): Generator<Uint8Array> {
    const project = this.keyOf(projectId)
    if (project === undefined || !this.#has(project, id, rev)) throw notFound('Revision')
    return this.#pieces(project, id, rev)
  }

  *#pieces(project: number, id: string, rev: string): Generator<Uint8Array> {
    const rows = this.sql.exec<{ body: ArrayBuffer }>(
      'SELECT CAST(body AS BLOB) AS body FROM set_aside_pieces WHERE project = ? AND id = ? AND rev = ? ORDER BY seq',
      project,
      id,
      rev,
    )
    for (const row of rows) yield new Uint8Array(row.body)
  }

  #has(project: number, id: string, rev: string): boolean {
    return (
      this.sql.exec('SELECT 1 FROM set_aside WHERE project = ? AND id = ? AND rev = ?', project, id, rev).toArray()
        .length > 0
    )
  }

  #forget(project: number, id: string, rev: string) {
    this.sql.exec('DELETE FROM set_aside WHERE project = ? AND id = ? AND rev = ?', project, id, rev)
    this.sql.exec('DELETE FROM set_aside_pieces WHERE project = ? AND id = ? AND rev = ?', project, id, rev)
  }
}

/** Whether `pieces`, joined, are byte for byte `json`: a version set aside only where it differs. */
export function sameBytes(pieces: Iterable<Uint8Array>, json: Uint8Array): boolean {
  let at = 0
  for (const piece of pieces) {
    if (at + piece.length > json.length) return false
    for (let i = 0; i < piece.length; i++) if (piece[i] !== json[at + i]) return false
    at += piece.length
  }
  return at === json.length
}

/**
 * Each log's revisions, as syncing units exchange them (src/shared/revisions.ts, docs/units.md):
 * its leaves (the version served and those in conflict, each with its owner), their bodies kept
 * beside the log's row, the version a production merges against, and which unit a cart writes as.
 * The log's own row is the store's (store.ts), reached through `rows`.
 */
import { conflict } from '../shared/problem'
import type { LogKeys } from '../shared/log-order'
import { concatBytes, cutBytes, utf8Bytes } from '../shared/utf8'
import { ancestorsOf, knows, nextRevision, type Leaf } from '../shared/revisions'
import {
  otherOwner,
  planMerge,
  planReceive,
  planResolve,
  requireOwned,
  type EndPlan,
  type Owned,
} from '../shared/sync-rules'
import { CHUNK_BYTES, partsOf, type OpenLog } from './pieces'
import { SetAside, sameBytes } from './set-aside'

/** What a workspace is: the service on a cart (or a laptop), or a production holding its units' days. */
export type Role = 'cart' | 'production'

/** A merged log as the store takes it. */
type MergedBody = { keys: LogKeys; json: Uint8Array; summary: string }

/** A log merged three ways is parsed whole: at most PIECEWISE_BYTES (8 MiB), 16 pieces. */
const MERGED_PIECES = 16

/** What the revisions need of the store's log rows. */
export type LogRows = {
  keyOf(projectId: string): number | undefined
  requireKeyOf(projectId: string): number
  /** A new write's number (store.ts #nextRevision). */
  nextRevision(): number
  hasLog(projectId: string, id: string): boolean
  openLog(projectId: string, id: string): string | OpenLog | undefined
  insertRow(project: number, log: LogKeys, json: Uint8Array, summary: string, revision: number): boolean
  removeRow(project: number, id: string): boolean
  /** Drops what the store remembers of a log's revision: its row is about to change. */
  forget(project: number, id: string): void
  getMeta(key: string): string | undefined
  setMeta(key: string, value: string): void
}

export class Revisions {
  /** The versions resolutions did not keep. */
  readonly setAside: SetAside

  constructor(
    private readonly sql: SqlStorage,
    /** Fixed when the object starts: a production keeps the version before each write to merge against, and holds each cart to its own unit's days (requireSendersOwn). */
    readonly role: Role,
    private readonly rows: LogRows,
  ) {
    this.setAside = new SetAside(sql, (projectId) => rows.keyOf(projectId))
  }

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
    const project = this.rows.requireKeyOf(link.projectId)
    this.#linked = { project, unit: link.unit }
    if (this.#lastUnit(project) !== link.unit) this.#remember(project, 'unit', link.unit)
    if (this.rows.getMeta(`units.claimed.${project}`) !== undefined) return
    // A link from before claims were recorded claimed its days when it was made.
    if (claim) this.sql.exec('UPDATE log_leaves SET owner = ? WHERE project = ? AND owner IS NULL', link.unit, project)
    this.#remember(project, 'claimed', link.unit)
  }

  /** Per project, the unit it was last linked as (null: never linked). */
  readonly #units = new Map<number, string | null>()

  #lastUnit(project: number): string | undefined {
    let unit = this.#units.get(project)
    if (unit === undefined) this.#units.set(project, (unit = this.rows.getMeta(`units.unit.${project}`) ?? null))
    return unit ?? undefined
  }

  #remember(project: number, what: 'unit' | 'claimed', unit: string) {
    this.rows.setMeta(`units.${what}.${project}`, unit)
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
   * replaces every version: planResolve in shared/sync-rules.ts).
   */
  requireOwned(project: number, leaves: Array<Leaf & { winner: boolean }>) {
    requireOwned(this.#unitIn(project), leaves)
  }

  leafRows(project: number, id: string): Array<Leaf & { winner: boolean }> {
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
  recordWrite(project: number, id: string, deleted: boolean, seq: number) {
    const leaves = this.leafRows(project, id)
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
    const project = this.rows.requireKeyOf(projectId)
    // A log stored before revisions were kept gets its first one now, so its row is a leaf too.
    let leaves = this.leafRows(project, id)
    if (!leaves.length && this.rows.hasLog(projectId, id)) {
      this.recordWrite(project, id, false, this.rows.nextRevision())
      leaves = this.leafRows(project, id)
    }
    // Sent in a request: on a production by the unit whose token sent it; on a cart, by one of its
    // applications, as its own unit (what its production would refuse, the cart refuses too, as
    // it refuses a PATCH over another unit's day).
    const sender = sent === undefined ? undefined : (sent.unit ?? this.#unitIn(project))
    const plan = planReceive(leaves, incoming, body !== undefined, sender)
    if (plan.outcome === 'known') return 'known'
    // Versions a choice made elsewhere ended: what it did not keep is set aside here too, so no
    // unit's record of its day disappears from its own service.
    for (const leaf of leaves)
      if (plan.setAside.includes(leaf.rev) && !(body && sameBytes(this.versionPieces(projectId, id, leaf), body.json)))
        this.setAside.keep(project, id, leaf.rev, leaf.winner, incoming.rev)
    const seq = this.rows.nextRevision()
    const { oldWinner, row } = plan
    if (oldWinner?.keep === 'conflict') this.#keepBody(project, id, oldWinner.rev)
    if (oldWinner?.keep === 'base') this.keepBase(project, id, oldWinner.rev)
    if (oldWinner) this.rows.removeRow(project, id)
    if (row === 'incoming') this.rows.insertRow(project, body!.keys, body!.json, body!.summary, seq)
    else if (row === 'touch') this.#touchRow(project, id, seq)
    else if (row !== 'none') this.#restoreBody(project, id, row.restore, seq)
    for (const rev of plan.drop) this.#dropLeaf(project, id, rev)
    this.#insertLeaf(project, id, incoming, seq, false)
    if (plan.keepBeside) this.#keepSentBody(project, id, incoming.rev, body!)
    // Only the incoming row carries the feed's new position (the feed reads a log's newest), and
    // only the served flag moves: two rows at most, however many versions the log holds.
    if (plan.crown !== undefined) this.#crown(project, id, plan.crown)
    return plan.outcome
  }

  /**
   * The log's row as it is, under a new revision: what is made of it (the Days view, its tags)
   * shows its versions in conflict, which changed.
   */
  #touchRow(project: number, id: string, revision: number) {
    this.rows.forget(project, id)
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
    this.rows.forget(project, id)
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
    const project = this.rows.keyOf(projectId)
    if (project === undefined) return []
    return this.leafRows(project, id).sort((a, b) => Number(b.winner) - Number(a.winner))
  }

  /** Whether the store has revision `rev` of a log, or one that replaced it. */
  knows(projectId: string, id: string, rev: string): boolean {
    const project = this.rows.keyOf(projectId)
    return project !== undefined && knows(this.leafRows(project, id), rev)
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
    const project = this.rows.keyOf(projectId)
    if (project === undefined) return { changes: [], last: since }
    for (const { id } of this.sql
      .exec<{ id: string }>(
        'SELECT id FROM logs l WHERE project = ? AND NOT EXISTS (SELECT 1 FROM log_leaves v WHERE v.project = l.project AND v.id = l.id)',
        project,
      )
      .toArray())
      this.recordWrite(project, id, false, this.rows.nextRevision())
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
      leaves: this.leafRows(project, id)
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
    const log = this.rows.openLog(projectId, id)
    if (typeof log === 'string') yield utf8Bytes(log)
    else if (log) yield* partsOf(log)
  }

  /** The pieces of a conflict leaf's version (none for a tombstone). */
  *#leafPieces(projectId: string, id: string, rev: string): Generator<Uint8Array> {
    const project = this.rows.requireKeyOf(projectId)
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
    const project = this.rows.requireKeyOf(projectId)
    const plan = planResolve(this.leafRows(project, id), keep, this.#unitIn(project))
    return this.#end(project, id, plan)
  }

  /** What a resolution or a merge planned (sync-rules.ts), done: the row, then the leaves. */
  #end(project: number, id: string, { leaf, row, drop, setAside }: EndPlan, body?: MergedBody): Leaf {
    for (const { rev, served } of setAside) this.setAside.keep(project, id, rev, served, leaf.rev)
    const seq = this.rows.nextRevision()
    if (row === 'touch') this.#touchRow(project, id, seq)
    else {
      if (row.remove) this.rows.removeRow(project, id)
      if (row.restore !== undefined) this.#restoreBody(project, id, row.restore, seq)
      if (body) this.rows.insertRow(project, body.keys, body.json, body.summary, seq)
    }
    for (const rev of drop) this.#dropLeaf(project, id, rev)
    this.#insertLeaf(project, id, leaf, seq)
    this.dropBase(project, id)
    return leaf
  }

  /** The log's row as the base of the versions written from revision `rev` (a production's alone). */
  keepBase(project: number, id: string, rev: string) {
    if (this.role !== 'production') return
    this.dropBase(project, id)
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

  dropBase(project: number, id: string) {
    if (this.role === 'production') this.sql.exec('DELETE FROM base_pieces WHERE project = ? AND id = ?', project, id)
  }

  /** The unit whose cart wrote the version each log serves, for the logs that have one: one query. */
  owners(projectId: string): Map<string, string> {
    const project = this.rows.keyOf(projectId)
    if (project === undefined) return new Map()
    const rows = this.sql.exec<{ id: string; owner: string }>(
      'SELECT id, owner FROM log_leaves WHERE project = ? AND winner = 1 AND owner IS NOT NULL',
      project,
    )
    return new Map(rows.toArray().map(({ id, owner }) => [id, owner]))
  }

  /** The revision of the version a log's last write replaced, kept on a production. */
  baseRevision(projectId: string, id: string): string | undefined {
    const project = this.rows.keyOf(projectId)
    if (project === undefined) return undefined
    return this.sql
      .exec<{ rev: string }>('SELECT rev FROM base_pieces WHERE project = ? AND id = ? AND seq = 0', project, id)
      .toArray()[0]?.rev
  }

  /** Whether every version of a log is small enough to merge (at most MERGED_PIECES pieces). */
  mergeable(projectId: string, id: string): boolean {
    const project = this.rows.keyOf(projectId)
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
    const project = this.rows.keyOf(projectId)
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
  merge(projectId: string, id: string, body: MergedBody): Leaf {
    const project = this.rows.requireKeyOf(projectId)
    return this.#end(project, id, planMerge(this.leafRows(project, id)), body)
  }

  /**
   * A log's versions in conflict, the one served first, each with its owner and summary (none for
   * a deletion); `keptHere`: whether this service's operator may keep one (a cart may not where
   * another unit owns a version).
   */
  versions(projectId: string, id: string) {
    const project = this.rows.keyOf(projectId)
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
    const project = this.rows.keyOf(projectId)
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
    const project = this.rows.keyOf(projectId)
    if (project === undefined) return []
    return this.sql
      .exec<{ id: string; leaves: number }>(
        'SELECT id, COUNT(*) AS leaves FROM log_leaves WHERE project = ? GROUP BY id HAVING COUNT(*) > 1 ORDER BY id',
        project,
      )
      .toArray()
  }
}

type LeafRow = { rev: string; ancestors: string; deleted: number; winner: number; owner: string | null }

const leafOf = (row: LeafRow) => ({
  rev: row.rev,
  ancestors: row.ancestors ? row.ancestors.split(' ') : [],
  deleted: row.deleted === 1,
  ...(row.owner !== null && { owner: row.owner }),
  winner: row.winner === 1,
})

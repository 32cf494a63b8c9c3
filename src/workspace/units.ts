/**
 * A cart's link to its production (docs/units.md): where the production is, the token its operator
 * approved for this unit, and how far the two have exchanged revisions. Every local write is kept
 * as today and found again by the store's changes feed; a round pushes what the production lacks
 * (asked first, CouchDB's revs_diff) and pulls what other units wrote, a page at a time, each page's
 * place kept once done: a round cut anywhere starts again where the last page ended, and sends
 * nothing twice that arrived.
 */
import type * as v from 'valibot'
import type { SyncStatusSchema } from '../api/shapes'
import { Problem, conflict } from '../shared/problem'
import { ProductionError, type Production } from './production'
import { concatBytes } from '../shared/utf8'
import { implausible, knows, type Leaf } from '../shared/revisions'
import type { Store } from './store'

/** Logs per page of a feed: a page's bodies go one request each, its revisions in one. */
const PAGE = 50

type LinkRow = {
  project: string
  url: string
  /** The production's project, which every round names. */
  production_project: string
  unit: string
  token: string
  pushed: number
  pulled: number
  synced_at: string | null
  error: string | null
  failures: number
}

/** What GET /sync/status answers, and the console shows: the shape the route declares. */
export type SyncStatus = v.InferOutput<typeof SyncStatusSchema>
/** The status as the link's row says it: all but whether the production's socket is open. */
export type SyncStatusStored =
  Extract<SyncStatus, { linked: false }> | Omit<Extract<SyncStatus, { linked: true }>, 'live'>

/** A version one end refused (`push`: the production; `pull`: this cart), set aside so the rest syncs. */
export type Refusal = Extract<SyncStatus, { linked: true }>['refused'][number]

/**
 * Whether one version was refused for what it is (its log invalid there, too large…), rather
 * than the link or the production failing: set aside, the round goes on with the others. A
 * refused token (401), another project loaded (409) or a busy production is the round's failure.
 */
function refusedVersion(err: unknown): boolean {
  if (err instanceof ProductionError)
    return (
      err.status !== undefined && err.status >= 400 && err.status < 500 && ![401, 408, 409, 429].includes(err.status)
    )
  return err instanceof Problem && err.kind !== 'conflict'
}

/**
 * Takes another unit's version into the linked project, checked as a new log is; throws when the
 * linked project is no longer the active one (the round stops there, its page not counted done).
 */
export type Receiver = (id: string, leaf: Leaf, body?: Uint8Array) => void

export class UnitLink {
  constructor(
    private readonly sql: SqlStorage,
    private readonly store: Store,
  ) {
    // Versions set aside, with why: named in the status until the log is written again, or the
    // production holds them.
    sql.exec(`CREATE TABLE IF NOT EXISTS unit_refused (
      id TEXT NOT NULL,
      rev TEXT NOT NULL,
      way TEXT NOT NULL,
      error TEXT NOT NULL,
      PRIMARY KEY (id, rev, way)
    )`)
    sql.exec(`CREATE TABLE IF NOT EXISTS unit_link (
      one INTEGER PRIMARY KEY CHECK (one = 1),
      project TEXT NOT NULL,
      url TEXT NOT NULL,
      production_project TEXT NOT NULL,
      unit TEXT NOT NULL,
      token TEXT NOT NULL,
      pushed INTEGER NOT NULL,
      pulled INTEGER NOT NULL,
      synced_at TEXT,
      error TEXT,
      failures INTEGER NOT NULL
    )`)
  }

  /** Whether linked, as last read or set: asked after every group of log writes, so kept. */
  #linked: boolean | undefined

  get(): LinkRow | undefined {
    const row = this.sql.exec<LinkRow>('SELECT * FROM unit_link').toArray()[0]
    this.#linked = row !== undefined
    return row
  }

  linked(): boolean {
    return this.#linked ?? this.get() !== undefined
  }

  /** 409 while linked already: unlink first. */
  requireUnlinked() {
    if (this.get()) throw conflict('Already linked to a production: unlink first')
  }

  /** Links project `project` to the production's project `productionProject` at `url`. */
  link(project: string, url: string, productionProject: string, unit: string, token: string) {
    this.requireUnlinked()
    this.sql.exec('DELETE FROM unit_refused')
    this.sql.exec(
      'INSERT INTO unit_link (one, project, url, production_project, unit, token, pushed, pulled, failures) VALUES (1, ?, ?, ?, ?, ?, 0, 0, 0)',
      project,
      url,
      productionProject,
      unit,
      token,
    )
    this.#linked = true
  }

  /** Stops syncing; the logs stay as they are. */
  unlink(): boolean {
    this.#linked = false
    this.sql.exec('DELETE FROM unit_refused')
    return this.sql.exec('DELETE FROM unit_link').rowsWritten > 0
  }

  /** The link's state (but whether the production's socket is open: sync.ts); `project`, the active project, when not linked. */
  status(project: string | undefined): SyncStatusStored {
    const link = this.get()
    if (!link)
      return { linked: false, conflicts: project === undefined ? [] : this.store.revisions.conflicted(project) }
    return {
      linked: true,
      production: link.url,
      unit: link.unit,
      lastSync: link.synced_at,
      pending: this.store.revisions.changedSince(link.project, link.pushed),
      error: link.error,
      refused: this.sql.exec<Refusal>('SELECT id, rev, way, error FROM unit_refused ORDER BY id, way').toArray(),
      conflicts: this.store.revisions.conflicted(link.project),
    }
  }

  /**
   * One round: push, then pull, until both feeds are read to their end. Resolves with whether it
   * completed; a failure is kept for the status (and counted, for the next round's delay).
   */
  async round(production: Production, receive: Receiver): Promise<boolean> {
    const link = this.get()
    if (!link) return true
    // Each way goes on when the other fails: a production that refuses what this cart sends still
    // hands over what other units wrote, a resolution of the very log that failed included.
    let failure: Error | undefined
    const step = async (run: () => Promise<void>) => {
      try {
        await run()
      } catch (err) {
        failure ??= err instanceof Error ? err : new Error(String(err))
      }
    }
    await step(() => this.#push(link, production))
    await step(() => this.#pull(link, production, receive))
    if (failure === undefined) {
      // What was just taken moved this store's feed on: asked about once (the production has it
      // all), so nothing counts as waiting to go that the production holds.
      await step(() => this.#push(link, production))
      await step(() => this.#settleRefusals(link, production))
    }
    if (failure !== undefined) return this.paused(link, failure.message)
    this.#update(link, 'synced_at = ?, error = NULL, failures = 0', new Date().toISOString())
    return true
  }

  /** A round not run or stopped, and why: shown as the status's error. */
  paused(link: LinkRow, why: string): false {
    this.#update(link, 'error = ?, failures = failures + 1', why.slice(0, 500))
    return false
  }

  /**
   * Writes to the link a round started with, and to no other: unlinked and linked again meanwhile,
   * the row is another link's (its token differs), which this round's places must not reach.
   */
  #update(link: LinkRow, set: string, ...values: Array<string | number>) {
    return (
      this.sql.exec(`UPDATE unit_link SET ${set} WHERE one = 1 AND token = ?`, ...values, link.token).rowsWritten > 0
    )
  }

  /** Rounds failed in a row: the next waits longer (backoff). */
  failures(): number {
    return this.get()?.failures ?? 0
  }

  async #push(link: LinkRow, production: Production) {
    for (;;) {
      const { changes, last } = this.store.revisions.changes(link.project, link.pushed, PAGE)
      if (!changes.length) return
      const missing = await this.#missing(link, production, changes)
      if (this.get()?.token !== link.token) return
      for (const { id, leaves } of changes)
        for (const leaf of leaves) {
          if (!missing.get(id)?.includes(leaf.rev)) continue
          // The log may have moved on since the page was read: a version no longer here is not sent.
          const now = this.store.revisions.leaves(link.project, id).find((held) => held.rev === leaf.rev)
          if (!now) continue
          await this.#setAside(link, id, leaf, 'push', () =>
            production.send(id, leaf, now.deleted ? undefined : this.#bytesOf(link.project, id, now)),
          )
        }
      if (!this.#update(link, 'pushed = ?', last)) return
      link.pushed = last
    }
  }

  /**
   * Of a page's versions, those the production lacks. Should it refuse the question (a log whose
   * versions it cannot take, say more than it names at once), each log is asked alone, and a log
   * it refuses is set aside, its versions not sent: one log never holds back the page.
   */
  async #missing(link: LinkRow, production: Production, changes: Array<{ id: string; leaves: Leaf[] }>) {
    const asked = (page: typeof changes) => new Map(page.map(({ id, leaves }) => [id, leaves.map((leaf) => leaf.rev)]))
    try {
      return await production.missing(asked(changes))
    } catch (err) {
      if (!refusedVersion(err)) throw err
    }
    const missing = new Map<string, string[]>()
    for (const change of changes)
      await this.#setAside(link, change.id, change.leaves[0]!, 'push', async () => {
        for (const [id, revs] of await production.missing(asked([change]))) missing.set(id, revs)
      })
    return missing
  }

  /**
   * Versions the production refused that it holds by now (their own unit sent them, or what
   * replaced them): set aside no longer. A day refused to this cart, another unit's, is not
   * written here again, so nothing else would end its refusal.
   */
  async #settleRefusals(link: LinkRow, production: Production) {
    const refused = this.sql
      .exec<{ id: string; rev: string }>("SELECT id, rev FROM unit_refused WHERE way = 'push' ORDER BY id")
      .toArray()
    for (let start = 0; start < refused.length; start += PAGE) {
      const page = refused.slice(start, start + PAGE)
      const asked = new Map<string, string[]>()
      for (const { id, rev } of page) asked.set(id, [...(asked.get(id) ?? []), rev])
      let missing: Map<string, string[]>
      try {
        missing = await production.missing(asked)
      } catch (err) {
        // A question it refuses leaves these set aside as they were.
        if (refusedVersion(err)) continue
        throw err
      }
      if (this.get()?.token !== link.token) return
      for (const { id, rev } of page)
        if (!missing.get(id)?.includes(rev))
          this.sql.exec("DELETE FROM unit_refused WHERE id = ? AND rev = ? AND way = 'push'", id, rev)
    }
  }

  async #pull(link: LinkRow, production: Production, receive: Receiver) {
    for (;;) {
      const { changes, last } = await production.changes(link.pulled, PAGE)
      if (!changes.length) return
      for (const { id, leaves } of changes)
        for (const leaf of leaves) {
          const held = this.store.revisions.leaves(link.project, id)
          if (knows(held, leaf.rev)) continue
          // A revision no honest production hands out (one leaping to the limit of what a revision
          // may say) is its failure, not a version to set aside: the round backs off.
          const why = implausible(held, leaf)
          if (why) throw new ProductionError(`Its version ${leaf.rev} of ${id} is none this service takes: it ${why}`)
          const body = leaf.deleted ? undefined : await production.leaf(id, leaf.rev)
          if (this.get()?.token !== link.token) return
          await this.#setAside(link, id, leaf, 'pull', () => receive(id, leaf, body))
        }
      if (!this.#update(link, 'pulled = ?', last)) return
      link.pulled = last
    }
  }

  /**
   * One version's exchange; refused for what it is, it is set aside (named in the status) and the
   * round goes on. Once a version goes through, the refusals of the versions it replaces end.
   */
  async #setAside(link: LinkRow, id: string, leaf: Leaf, way: Refusal['way'], exchange: () => unknown) {
    try {
      await exchange()
      const refused = this.sql.exec<{ rev: string }>('SELECT rev FROM unit_refused WHERE id = ? AND way = ?', id, way)
      for (const { rev } of refused.toArray())
        if (rev === leaf.rev || leaf.ancestors.includes(rev))
          this.sql.exec('DELETE FROM unit_refused WHERE id = ? AND way = ? AND rev = ?', id, way, rev)
    } catch (err) {
      if (!refusedVersion(err) || this.get()?.token !== link.token) throw err
      const error = (err instanceof Problem ? err.error : (err as Error).message).slice(0, 500)
      this.sql.exec(
        'INSERT INTO unit_refused (id, rev, way, error) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET error = excluded.error',
        id,
        leaf.rev,
        way,
        error,
      )
    }
  }

  /** A version's bytes: the log as stored for the winner, the kept pieces for a conflict. */
  #bytesOf(project: string, id: string, leaf: Leaf & { winner: boolean }): Uint8Array {
    return concatBytes([...this.store.revisions.versionPieces(project, id, leaf)])
  }
}

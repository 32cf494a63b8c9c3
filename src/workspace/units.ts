/**
 * A cart's link to its production (docs/units.md): where the production is, the token its operator
 * approved for this unit, and how far the two have exchanged revisions. Every local write is kept
 * as today and found again by the store's changes feed; a round pushes what the production lacks
 * (asked first, CouchDB's revs_diff) and pulls what other units wrote, a page at a time, each page's
 * place kept once done: a round cut anywhere starts again where the last page ended, and sends
 * nothing twice that arrived.
 */
import { conflict } from '../shared/problem'
import { concatBytes } from '../shared/utf8'
import type { Leaf } from '../shared/revisions'
import type { Store } from './store'

/** Logs per page of a feed: a page's bodies go one request each, its revisions in one. */
const PAGE = 50

type LinkRow = {
  project: string
  url: string
  unit: string
  token: string
  pushed: number
  pulled: number
  synced_at: string | null
  error: string | null
  failures: number
}

/** What GET /sync/status answers, and the console shows. */
export type SyncStatus = {
  /** Logs of the project whose versions are in conflict, here: on a cart and on a production. */
  conflicts: Array<{ id: string; leaves: number }>
} & (
  | { linked: false }
  | {
      linked: true
      production: string
      unit: string
      /** When the last round ended with nothing left to exchange. */
      lastSync: string | null
      /** Logs written here since the production last took them. */
      pending: number
      /** Why the last round stopped; null once a round completes. */
      error: string | null
    }
)

/** The production as a cart reaches it: the service's sync routes, with the cart's token. */
export type Production = {
  changes(since: number, limit: number): Promise<{ changes: Array<{ id: string; leaves: Leaf[] }>; last: number }>
  missing(logs: Record<string, string[]>): Promise<Record<string, string[]>>
  leaf(id: string, rev: string): Promise<Uint8Array>
  send(id: string, leaf: Leaf, body?: Uint8Array): Promise<void>
}

/** Takes another unit's version into the store, checked as the cart's own writes are. */
export type Receiver = (id: string, leaf: Leaf, body?: Uint8Array) => void

export class UnitLink {
  constructor(
    private readonly sql: SqlStorage,
    private readonly store: Store,
  ) {
    sql.exec(`CREATE TABLE IF NOT EXISTS unit_link (
      one INTEGER PRIMARY KEY CHECK (one = 1),
      project TEXT NOT NULL,
      url TEXT NOT NULL,
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

  /** Links project `project` to a production; 409 while linked already (unlink first). */
  link(project: string, url: string, unit: string, token: string) {
    if (this.get()) throw conflict('Already linked to a production: unlink first')
    this.sql.exec(
      'INSERT INTO unit_link (one, project, url, unit, token, pushed, pulled, failures) VALUES (1, ?, ?, ?, ?, 0, 0, 0)',
      project,
      url,
      unit,
      token,
    )
    this.#linked = true
  }

  /** Stops syncing; the logs stay as they are. */
  unlink(): boolean {
    this.#linked = false
    return this.sql.exec('DELETE FROM unit_link').rowsWritten > 0
  }

  /** The link's state; `project`, the active project, when not linked. */
  status(project: string | undefined): SyncStatus {
    const link = this.get()
    if (!link) return { linked: false, conflicts: project === undefined ? [] : this.store.conflicted(project) }
    return {
      linked: true,
      production: link.url,
      unit: link.unit,
      lastSync: link.synced_at,
      pending: this.store.changes(link.project, link.pushed, Number.MAX_SAFE_INTEGER).changes.length,
      error: link.error,
      conflicts: this.store.conflicted(link.project),
    }
  }

  /**
   * One round: push, then pull, until both feeds are read to their end. Resolves with whether it
   * completed; a failure is kept for the status (and counted, for the next round's delay).
   */
  async round(production: Production, receive: Receiver): Promise<boolean> {
    const link = this.get()
    if (!link) return true
    try {
      await this.#push(link, production)
      await this.#pull(link, production, receive)
      // What was just taken moved this store's feed on: asked about once (the production has it
      // all), so nothing counts as waiting to go that the production holds.
      await this.#push(link, production)
      this.sql.exec(
        'UPDATE unit_link SET synced_at = ?, error = NULL, failures = 0 WHERE one = 1',
        new Date().toISOString(),
      )
      return true
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      this.sql.exec('UPDATE unit_link SET error = ?, failures = failures + 1 WHERE one = 1', message.slice(0, 500))
      return false
    }
  }

  /** A round not run, and why: shown as the status's error. */
  paused(why: string): false {
    this.sql.exec('UPDATE unit_link SET error = ?, failures = failures + 1 WHERE one = 1', why)
    return false
  }

  /** Rounds failed in a row: the next waits longer (backoff). */
  failures(): number {
    return this.get()?.failures ?? 0
  }

  async #push(link: LinkRow, production: Production) {
    for (;;) {
      const { changes, last } = this.store.changes(link.project, link.pushed, PAGE)
      if (!changes.length) return
      const missing = await production.missing(
        Object.fromEntries(changes.map(({ id, leaves }) => [id, leaves.map((leaf) => leaf.rev)])),
      )
      for (const { id, leaves } of changes)
        for (const leaf of leaves) {
          if (!missing[id]?.includes(leaf.rev)) continue
          // The log may have moved on since the page was read: a version no longer here is not sent.
          const now = this.store.leaves(link.project, id).find((held) => held.rev === leaf.rev)
          if (!now) continue
          await production.send(id, leaf, now.deleted ? undefined : this.#bytesOf(link.project, id, now))
        }
      if (!this.get()) return
      this.sql.exec('UPDATE unit_link SET pushed = ? WHERE one = 1', last)
      link.pushed = last
    }
  }

  async #pull(link: LinkRow, production: Production, receive: Receiver) {
    for (;;) {
      const { changes, last } = await production.changes(link.pulled, PAGE)
      if (!changes.length) return
      for (const { id, leaves } of changes)
        for (const leaf of leaves) {
          if (this.store.knows(link.project, id, leaf.rev)) continue
          const body = leaf.deleted ? undefined : await production.leaf(id, leaf.rev)
          if (!this.get()) return
          receive(id, leaf, body)
        }
      this.sql.exec('UPDATE unit_link SET pulled = ? WHERE one = 1', last)
      link.pulled = last
    }
  }

  /** A version's bytes: the log as stored for the winner, the kept pieces for a conflict. */
  #bytesOf(project: string, id: string, leaf: Leaf & { winner: boolean }): Uint8Array {
    return concatBytes([...this.store.versionPieces(project, id, leaf)])
  }
}

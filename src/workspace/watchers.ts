/**
 * The `media-log watch` commands running against this service, as each last said (docs/watch.md):
 * what the console lists, with a warning for one that stopped or went quiet. Kept in SQLite, so a
 * watcher killed while the service restarted is still there to be seen quiet.
 */
import type { WatcherReport } from '../schemas/watchers'
import { Problem, conflict, notFound } from '../shared/problem'

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS watchers (
    id TEXT PRIMARY KEY,
    token_id TEXT NOT NULL,
    app_name TEXT NOT NULL,
    report TEXT NOT NULL,
    started_at TEXT NOT NULL,
    heard_at TEXT NOT NULL,
    stopped_at TEXT
  );
`

/** Watchers kept; beyond, the one stopped or quiet longest makes room, and with none a new one is refused. */
const MAX_WATCHERS = 32
/** Of them, one application's: a token gone astray cannot take every place. */
const MAX_PER_APPLICATION = 16
/** A watcher stopped or unheard this long is forgotten. */
const FORGOTTEN_AFTER_MS = 7 * 24 * 3600 * 1000

/** A watcher as the console lists it: its last report, who runs it, and when it was heard. */
export type WatcherListing = WatcherReport & {
  id: string
  appName: string
  startedAt: string
  heardAt: string
  /**
   * When it counts as quiet if not heard again (three of its intervals after `heardAt`): the
   * console compares it with the service's time as that moves on, and needs no rule of its own.
   */
  quietAt: string
  /** Set when the command stopped itself (Ctrl-C, or the terminal closed). */
  stoppedAt: string | null
}

type Row = {
  id: string
  token_id: string
  app_name: string
  report: string
  started_at: string
  heard_at: string
  stopped_at: string | null
}

export class Watchers {
  constructor(
    private readonly sql: SqlStorage,
    private readonly changed: () => void,
  ) {
    sql.exec(SCHEMA)
  }

  /** A watcher's report: 201 the first time (`created`), then each time it reports again. */
  report(tokenId: string, appName: string, id: string, report: WatcherReport): { created: boolean } {
    const now = new Date()
    this.#forgetOld(now.getTime())
    const row = this.#row(id)
    if (row && row.token_id !== tokenId) throw conflict('This watcher is another application’s')
    if (row?.stopped_at) throw conflict('This watcher has stopped: a watcher that starts again takes a new id')
    if (!row) this.#makeRoom(now.getTime(), tokenId)
    const at = now.toISOString()
    this.sql.exec(
      `INSERT INTO watchers (id, token_id, app_name, report, started_at, heard_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET report = excluded.report, heard_at = excluded.heard_at, app_name = excluded.app_name`,
      id,
      tokenId,
      appName,
      JSON.stringify(report),
      at,
      at,
    )
    // Each report moves the console: its "heard" time is what tells a quiet watcher from a live one.
    this.changed()
    return { created: !row }
  }

  /** The command stopped itself: kept, shown stopped, until dismissed or a week passes. */
  stop(tokenId: string, id: string) {
    this.#forgetOld(Date.now())
    const row = this.#row(id)
    if (!row) throw notFound('Watcher')
    if (row.token_id !== tokenId) throw conflict('This watcher is another application’s')
    if (!row.stopped_at) {
      this.sql.exec('UPDATE watchers SET stopped_at = ? WHERE id = ?', new Date().toISOString(), id)
      this.changed()
    }
  }

  /** The operator dismissed it from the console. */
  dismiss(id: string) {
    this.#forgetOld(Date.now())
    if (!this.sql.exec('DELETE FROM watchers WHERE id = ? RETURNING id', id).toArray().length) throw notFound('Watcher')
    this.changed()
  }

  /**
   * What the console lists. A week-old watcher is left out here and deleted by the next report,
   * stop or dismissal: the console's reads, its long poll included, write nothing.
   */
  list(): WatcherListing[] {
    return this.sql
      .exec<Row>(
        'SELECT * FROM watchers WHERE COALESCE(stopped_at, heard_at) >= ? ORDER BY started_at DESC, id',
        forgottenBefore(Date.now()),
      )
      .toArray()
      .map((row) => {
        const report = JSON.parse(row.report) as WatcherReport
        return {
          id: row.id,
          appName: row.app_name,
          ...report,
          startedAt: row.started_at,
          heardAt: row.heard_at,
          quietAt: new Date(quietAt(row.heard_at, report.everySeconds)).toISOString(),
          stoppedAt: row.stopped_at,
        }
      })
  }

  #row(id: string): Row | undefined {
    return this.sql.exec<Row>('SELECT * FROM watchers WHERE id = ?', id).toArray()[0]
  }

  /** What stopped or went unheard a week ago. */
  #forgetOld(now: number) {
    this.sql.exec('DELETE FROM watchers WHERE COALESCE(stopped_at, heard_at) < ?', forgottenBefore(now))
  }

  /** Full (all watchers, or the application's own): the one stopped or quiet longest of them goes, else 429. */
  #makeRoom(now: number, tokenId: string) {
    const all = this.sql.exec<Row>('SELECT * FROM watchers').toArray()
    const own = all.filter((row) => row.token_id === tokenId)
    const rows = own.length >= MAX_PER_APPLICATION ? own : all
    if (rows.length < (rows === own ? MAX_PER_APPLICATION : MAX_WATCHERS)) return
    const gone = rows
      .filter((row) => row.stopped_at || isQuiet(row, now))
      .sort((a, b) => (a.stopped_at ?? a.heard_at).localeCompare(b.stopped_at ?? b.heard_at))[0]
    if (!gone)
      throw new Problem(
        'too-many',
        rows === own
          ? `${MAX_PER_APPLICATION} watchers of this application are running: stop one, or dismiss it in the console`
          : `${MAX_WATCHERS} watchers are running: stop one, or dismiss it in the console`,
      )
    this.sql.exec('DELETE FROM watchers WHERE id = ?', gone.id)
  }
}

/** A watcher stopped, or last heard, before this time is forgotten. */
const forgottenBefore = (now: number) => new Date(now - FORGOTTEN_AFTER_MS).toISOString()

/** Unheard for three of its own intervals: the console warns of it. */
const quietAt = (heardAt: string, everySeconds: number) => Date.parse(heardAt) + 3 * everySeconds * 1000

function isQuiet(row: Row, now: number) {
  return now > quietAt(row.heard_at, (JSON.parse(row.report) as WatcherReport).everySeconds)
}

/**
 * The workspace's side of units (docs/units.md): what other units ask of this store (the changes
 * feed, the revisions it lacks, one version, a version they send), the link to a production and
 * its rounds, and the conflicts its operator settles. The revision rules are shared/revisions.ts's
 * and the store's; the round's exchanges are units.ts's. Used in the workspace's single thread.
 */
import { parseObject } from '../schemas/json'
import { conflict, notFound } from '../shared/problem'
import { knows, type Leaf } from '../shared/revisions'
import { mergeable } from '../shared/sync-rules'
import { mergedVersions } from '../shared/three-way'
import { bytesOrStream, concatBytes, utf8Bytes, utf8Text } from '../shared/utf8'
import type { LogSummary } from '../summary/summary'
import type { Changes } from './changes'
import type { Logs, LogBody, SentVersion } from './logs'
import { Ear } from './live'
import { productionAt } from './production'
import type { Projects } from './projects'
import type { Store } from './store'
import type { SyncStatus, UnitLink } from './units'

/** What a link to a production is made of, as POST /approve/link found it. */
export type NewLink = { url: string; project: string; unit: string; token: string }

const NOT_ACTIVE = 'The linked project is not the active one: load it to sync'

/** A local write goes to the production this soon: writes in a burst go in one round. */
export const SYNC_AFTER_WRITE_MS = 1000
/** Between rounds, to hear of other units' writes. */
const SYNC_POLL_MS = 5000
/** Between rounds while the production can tell of a write at once (live.ts): a check that nothing was missed. */
const SYNC_LIVE_POLL_MS = 60_000
/** The longest wait after failed rounds (1 s, 2 s, 4 s, … up to this). */
const SYNC_BACKOFF_MAX_MS = 60_000

export class Sync {
  /** When the next round is due, as this object set it (undefined: not set since it started). */
  #roundAt: number | undefined
  /** What the console showed of syncing after the last round. */
  #shownBefore = ''
  /** The socket on which the production tells of other units' writes; a round runs when it does. */
  readonly #ear = new Ear(
    (ms) => this.soon(ms),
    () => this.soon(SYNC_POLL_MS),
  )

  constructor(
    private readonly store: Store,
    private readonly projects: Projects,
    private readonly logs: Logs,
    private readonly units: UnitLink,
    private readonly changes: Changes,
    private readonly transaction: <T>(work: () => T) => T,
    /** Sets the object's alarm, which runs `round`. */
    private readonly setAlarm: (at: number) => void,
  ) {}

  /**
   * The project a sync call is for: the active one, which must be the one the caller names (a cart
   * names the production's project it linked to: another loaded since is not synced into).
   */
  project(named: string | undefined): string {
    const active = this.projects.requireActive().row.id
    if (named !== undefined && named !== active)
      throw conflict('The project this cart is linked to is not the one loaded here: load it again')
    return active
  }

  /** The project's logs changed after `since` (the feed's place), each with its leaves. */
  feed(project: string | undefined, since: number, limit: number) {
    return this.store.revisions.changes(this.project(project), since, limit)
  }

  /** Of the revisions named per log, those this store has neither received nor seen replaced. */
  missing(project: string | undefined, logs: Array<{ id: string; revs: string[] }>) {
    const projectId = this.project(project)
    const missing = logs.flatMap(({ id, revs }) => {
      const leaves = this.store.revisions.leaves(projectId, id)
      const unknown = revs.filter((rev) => !knows(leaves, rev))
      return unknown.length ? [{ id, revs: unknown }] : []
    })
    return { missing }
  }

  /** One version of a log as stored, the winner or one in conflict (404 for a tombstone or none). */
  version(project: string | undefined, id: string, rev: string): LogBody {
    const projectId = this.project(project)
    const leaf = this.store.revisions.leaves(projectId, id).find((held) => held.rev === rev)
    if (!leaf || leaf.deleted) throw notFound('Revision')
    return bytesOrStream(this.store.revisions.versionPieces(projectId, id, leaf))
  }

  /**
   * A version into project `projectId`, the active one (its custom schemas check the version);
   * `sent` as Store.receive takes it. A production merges two versions written from the one it
   * kept where they cannot contradict.
   */
  receive(projectId: string, id: string, leaf: Leaf, version?: SentVersion, sent?: { unit?: string }) {
    const body = version && this.logs.checkedVersion(id, version)
    const outcome = this.transaction(() => this.store.revisions.receive(projectId, id, leaf, body, sent))
    if (outcome !== 'known' && this.store.role === 'production') this.#mergeVersions(projectId, id)
    return outcome
  }

  /**
   * Two live versions of a log written from the version kept as its base (their newest common
   * ancestor, and no other: an older one would undo what came between), merged three ways
   * (src/shared/three-way.ts). Left in conflict when they contradict, are too large to parse whole,
   * are two units' (only the production's operator chooses between units), or the merge is no
   * valid log: a merge that cannot be made is never the receive's failure.
   */
  #mergeVersions(projectId: string, id: string) {
    const leaves = this.store.revisions.leaves(projectId, id)
    const base = this.store.revisions.baseRevision(projectId, id)
    // Both small enough to parse whole, too.
    if (!mergeable(leaves, base) || !this.store.revisions.mergeable(projectId, id)) return
    try {
      const parsed = (bytes: Uint8Array) => parseObject(utf8Text(bytes))
      const [ours, theirs] = leaves.map((held) =>
        parsed(concatBytes([...this.store.revisions.versionPieces(projectId, id, held)])),
      )
      const merged = mergedVersions(parsed(this.store.revisions.base(projectId, id)!.bytes), ours!, theirs!)
      if (!merged) return
      const body = this.logs.checkedVersion(id, { bytes: utf8Bytes(JSON.stringify(merged)), read: {} })
      this.transaction(() => this.store.revisions.merge(projectId, id, body))
    } catch {
      // Left in conflict: the operator keeps one.
    }
  }

  /** The active project's name and id, for a link (409 with none loaded, or linked already). */
  linkable() {
    this.units.requireUnlinked()
    const { row, settings } = this.projects.requireActive()
    return { projectId: row.id, name: settings.project_name }
  }

  /**
   * Links project `projectId` (the active one when the link was asked for, and still) to the
   * production's project at `link.url`, with the token its operator approved.
   */
  link(projectId: string, link: NewLink) {
    if (this.projects.active?.row.id !== projectId)
      throw conflict('Another project was loaded while the production was asked: link again')
    this.transaction(() => {
      this.units.link(projectId, link.url, link.project, link.unit, link.token)
      this.store.revisions.linkAs({ projectId, unit: link.unit }, { claim: true })
    })
    this.soon(0)
    this.changes.changed()
    return this.status()
  }

  unlink() {
    if (!this.units.unlink()) throw notFound('Link')
    this.#ear.stop()
    this.store.revisions.linkAs(undefined)
    this.changes.changed()
  }

  /** The active project's logs in conflict, each version with its owner and what its summary says of it. */
  conflicts() {
    const projectId = this.projects.active?.row.id
    if (projectId === undefined) return []
    return this.store.revisions.conflicted(projectId).map(({ id }) => {
      const { versions, keptHere } = this.store.revisions.versions(projectId, id)
      return {
        id,
        keptHere,
        versions: versions.map(({ rev, deleted, served, owner, summary }) => {
          const said = summary === null ? undefined : (JSON.parse(summary) as LogSummary)
          return {
            rev,
            deleted,
            served,
            owner,
            ...(said && { day: said.day, date: said.date, unit: said.unit ?? null, clips: said.clips }),
          }
        }),
      }
    })
  }

  /** The operator keeps version `keep` of a log in conflict; the others go, on every replica. */
  resolve(id: string, keep: string) {
    const projectId = this.projects.requireForLogs()
    return this.transaction(() => this.store.revisions.resolve(projectId, id, keep))
  }

  /** The link, last sync, what waits to go, the last error, conflicts. */
  status(): SyncStatus {
    const status = this.units.status(this.projects.active?.row.id)
    if (!status.linked) return status
    const { conflicts, ...link } = status
    return { ...link, live: this.#ear.open, conflicts }
  }

  /**
   * One round, when the alarm rang: `received` hears of each version taken in. The next round is
   * set after it: soon again, or later after failures.
   */
  async round(received: () => void) {
    this.#roundAt = undefined
    const link = this.units.get()
    if (!link) return
    const linkedActive = () => this.projects.active?.row.id === link.project
    const production = productionAt(link.url, link.token, link.production_project)
    const done = linkedActive()
      ? await this.units.round(production, (id, leaf, bytes) => {
          // Checked at every version: another project may have been loaded while the round waited.
          if (!linkedActive()) throw new Error(NOT_ACTIVE)
          this.receive(link.project, id, leaf, bytes && { bytes, read: {} })
          received()
        })
      : this.units.paused(link, NOT_ACTIVE)
    // Listening while the link works and its project is loaded; polled otherwise.
    if (done && linkedActive()) void this.#ear.listen(production)
    else this.#ear.stop()
    // The console hears of a round that changed what it shows: not of every quiet one.
    const shown = this.#shown()
    if (shown !== this.#shownBefore) this.changes.changed()
    this.#shownBefore = shown
    const failures = this.units.failures()
    const wait = this.#ear.open ? SYNC_LIVE_POLL_MS : SYNC_POLL_MS
    this.soon(done ? wait : Math.min(SYNC_BACKOFF_MAX_MS, 1000 * 2 ** Math.min(failures, 10)))
  }

  /** What the console shows of syncing, but the time of the last round. */
  #shown(): string {
    const { conflicts, ...link } = this.status()
    const { lastSync: _, ...rest } = { lastSync: null, ...link }
    return JSON.stringify({ conflicts, rest })
  }

  /** Sets the next round `ms` from now, unless one is due sooner. */
  soon(ms: number) {
    if (!this.units.linked()) return
    const at = Date.now() + ms
    if (this.#roundAt !== undefined && this.#roundAt <= at) return
    this.#roundAt = at
    this.setAlarm(at)
  }
}

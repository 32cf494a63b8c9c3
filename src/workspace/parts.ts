/**
 * The workspace's modules over one Durable Object's storage, made once when it starts, in one
 * transaction where the store converts an older layout: all or nothing.
 */
import { isTimeZone } from '../shared/time-zone'
import { Approvals, LinkCodes, Tokens, type LinkCodeListing } from './access'
import type { Changes } from './changes'
import { Listeners } from './live'
import { Logs } from './logs'
import { Plans } from './plans'
import { Projects } from './projects'
import { Store } from './store'
import { Sync } from './sync'
import type { SendWindowListing } from './windows'
import type { SyncStatus } from './units'
import { UnitLink } from './units'
import { Watchers, type WatcherListing } from './watchers'
import { WindowDesk } from './window-desk'
import { SendWindows } from './windows'

export type Parts = ReturnType<typeof assemble>

/** Everything the console shows, at one version of it. */
export type ConsoleState = {
  version: number
  requests: ReturnType<Approvals['list']>
  tokens: ReturnType<Tokens['list']>
  windows: SendWindowListing[]
  /** The active project: its name, and the zone the console reads times in (null with none loaded). */
  project: { name: string; timeZone: string } | null
  /** This service's link to a production, and the logs in conflict (docs/units.md). */
  sync: SyncStatus
  /** A production's live link codes (docs/units.md); none elsewhere. */
  linkCodes?: LinkCodeListing[]
  /** The `media-log watch` commands reporting here (docs/watch.md), newest first. */
  watchers: WatcherListing[]
  /** The service's time when it answered: the console tells a quiet watcher by it, whatever its own clock says. */
  now: string
}

/** What the console shows at `version`: the requests, tokens, windows, project, sync, link codes and watchers. */
export function consoleState(parts: Parts, version: number): ConsoleState {
  const settings = parts.projects.active?.settings
  return {
    version,
    requests: parts.approvals.list(),
    tokens: parts.tokens.list(),
    windows: parts.desk.list(),
    project: settings ? { name: settings.project_name, timeZone: settings.time_zone ?? 'UTC' } : null,
    sync: parts.sync.status(),
    ...(parts.store.role === 'production' && { linkCodes: parts.linkCodes.list() }),
    watchers: parts.watchers.list(),
    now: new Date().toISOString(),
  }
}

export function assemble(ctx: DurableObjectState, env: Env, changes: Changes) {
  const transaction = <T>(work: () => T) => ctx.storage.transactionSync(work)
  // The object of a production's name (http/productions.ts), on a deployment holding them: the
  // role is fixed here, for the object's life.
  const production = ctx.id.name?.startsWith('production:') ?? (env.PRODUCTIONS ?? '').trim() !== ''
  const store = transaction(() => new Store(ctx.storage.sql, production ? 'production' : 'cart'))
  const projects = new Projects(store, transaction, isTimeZone(env.TIME_ZONE) ? env.TIME_ZONE : 'UTC')
  const logs = new Logs(store, projects, transaction)
  const ttl = Number(env.TOKEN_TTL_DAYS)
  const tokens = new Tokens(store, ttl > 0 ? ttl : undefined)
  const changed = () => changes.changed()
  const approvals = new Approvals(tokens, {
    timeoutMs: positive(env.AUTH_TIMEOUT_SECONDS, 60) * 1000,
    limit: positive(env.AUTH_PENDING_LIMIT, 20),
    changed,
  })
  const units = new UnitLink(ctx.storage.sql, store)
  const setAlarm = (at: number) => void ctx.storage.setAlarm(at)
  const link = units.get()
  store.revisions.linkAs(link && { projectId: link.project, unit: link.unit })
  return {
    store,
    projects,
    logs,
    // Made here: workerd gives no random values to a module's top level. A computed answer's tag
    // holds it, as what computed the answer (the code of a deploy or a restart) may differ.
    plans: new Plans(store, projects, logs, crypto.randomUUID()),
    tokens,
    approvals,
    linkCodes: new LinkCodes(store),
    desk: new WindowDesk(new SendWindows(ctx.storage.sql, changed), store, projects, logs, changes),
    sync: new Sync(store, projects, logs, units, changes, transaction, setAlarm),
    listeners: new Listeners(ctx, tokens),
    watchers: new Watchers(ctx.storage.sql, changed),
  }
}

function positive(text: string | undefined, fallback: number): number {
  const n = Number(text)
  return Number.isFinite(n) && n > 0 ? n : fallback
}

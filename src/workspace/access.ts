import { Problem, conflict, forbidden, notFound, unauthorized } from '../shared/problem'
import { TOKEN, base64url, digestsEqual, hex, randomHex, sha256 } from '../shared/secrets'
import { sha256Sync } from './sha256'
import type { Store, TokenRow } from './store'

/** Two secrets of the token pattern's fixed length, compared without an early exit. */
function secretsEqual(known: string, given: string): boolean {
  if (known.length !== given.length) return false
  let difference = 0
  for (let i = 0; i < known.length; i++) difference |= known.charCodeAt(i) ^ given.charCodeAt(i)
  return difference === 0
}

const fromHex = (text: string) => new Uint8Array(text.match(/../g)?.map((h) => parseInt(h, 16)) ?? []).buffer

/**
 * `secret` is set once a request has proven it against the digest: later requests compare it in
 * constant time instead of hashing again. It lives in this object's memory only, never in storage,
 * and goes with the record when the token is revoked.
 */
type TokenRecord = {
  row: TokenRow
  digest: ArrayBuffer
  expiresAt: number
  usedAt: number
  persistedUseAt: number
  secret?: string
}

const recordOf = (row: TokenRow, digest: ArrayBuffer): TokenRecord => ({
  row,
  digest,
  expiresAt: row.expires_at ? Date.parse(row.expires_at) : Infinity,
  usedAt: row.last_used_at ? Date.parse(row.last_used_at) : 0,
  persistedUseAt: 0,
})

export type ConnectedApp = { id: string; appName: string; createdAt: string; lastUsedAt: string | null }

/** Approved applications. Only SHA-256 digests of secrets are stored; the raw token leaves once. */
export class Tokens {
  readonly #byId = new Map<string, TokenRecord>()

  constructor(
    private readonly store: Store,
    private readonly ttlDays: number | undefined,
  ) {
    for (const row of store.tokens()) this.#byId.set(row.id, recordOf(row, fromHex(row.digest)))
  }

  async issue(appName: string): Promise<string> {
    const id = randomHex(8)
    const secret = base64url(crypto.getRandomValues(new Uint8Array(32)))
    const digest = await sha256(secret)
    const now = new Date()
    const row: TokenRow = {
      id,
      digest: hex(digest),
      app_name: appName,
      created_at: now.toISOString(),
      last_used_at: null,
      expires_at: this.ttlDays ? new Date(now.getTime() + this.ttlDays * 86_400_000).toISOString() : null,
    }
    this.store.insertToken(row)
    this.#byId.set(id, recordOf(row, digest))
    return `mls_${id}_${secret}`
  }

  /**
   * Throws 401 unless the token is one the operator approved and has not revoked. Synchronous, on
   * every request: nothing can revoke the token between the lookup and the answer.
   */
  verify(token: string | null | undefined): void {
    const match = token ? TOKEN.exec(token) : null
    const record = match ? this.#byId.get(match[1]!) : undefined
    const secret = match?.[2] ?? ''
    if (record?.secret === undefined || !secretsEqual(record.secret, secret)) {
      // Hash even when the id is unknown, so a miss costs the same as a wrong secret.
      const digest = sha256Sync(secret)
      if (!record || !digestsEqual(digest, record.digest)) throw unauthorized()
      record.secret = secret
    }
    const now = Date.now()
    if (record.expiresAt <= now) throw unauthorized()
    // Kept as a number: a date string per request is a measurable part of a small request's cost.
    record.usedAt = now
    // "Last used" is shown to the minute; writing it on every request would double the writes.
    if (now - record.persistedUseAt > 60_000) {
      record.persistedUseAt = now
      record.row.last_used_at = new Date(now).toISOString()
      this.store.touchToken(record.row.id, record.row.last_used_at)
    }
  }

  list(): ConnectedApp[] {
    return [...this.#byId.values()].map(({ row, usedAt }) => ({
      id: row.id,
      appName: row.app_name,
      createdAt: row.created_at,
      lastUsedAt: usedAt ? new Date(usedAt).toISOString() : null,
    }))
  }

  revoke(id: string) {
    if (!this.store.deleteToken(id)) throw notFound('Token')
    this.#byId.delete(id)
  }
}

const timedOut = () => new Problem('timed-out', 'Authentication request timed out')

export type PendingRequest = { id: string; appName: string; createdAt: string; expiresAt: string }
type Outcome = { token: string } | { failure: Problem }
type Pending = PendingRequest & { settle: (outcome: Outcome) => void; timer: ReturnType<typeof setTimeout> }
type Finish = 'approved' | 'denied' | 'expired' | 'withdrawn'

/**
 * Connection requests waiting for the operator. They live in memory: each one is an HTTP request
 * held open by POST /auth, which does not outlive the object either.
 */
export class Approvals {
  readonly #pending = new Map<string, Pending>()
  readonly #finished = new Map<string, Finish>()

  constructor(
    private readonly tokens: Tokens,
    private readonly options: { timeoutMs: number; limit: number; changed: () => void },
  ) {}

  /**
   * Resolves with the token once approved; rejects 403 on deny, 408 when time runs out. Abandoned
   * requests never keep an application out: one from an application already waiting replaces its
   * older request, and with `limit` waiting the oldest gives way. Either one that gives way is
   * answered as if it had expired, the one outcome every client already handles.
   */
  request(appName: string, id = crypto.randomUUID()): Promise<Outcome> {
    if (this.#pending.has(id) || this.#finished.has(id)) throw conflict('Request already exists')
    for (const pending of this.#pending.values()) {
      if (pending.appName === appName) this.#finish(pending.id, 'expired', { failure: timedOut() })
    }
    // A Map iterates in insertion order: the first entry is the one waiting longest.
    while (this.#pending.size >= this.options.limit)
      this.#finish(this.#pending.keys().next().value!, 'expired', { failure: timedOut() })
    const now = Date.now()
    return new Promise<Outcome>((resolve) => {
      const pending: Pending = {
        id,
        appName,
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + this.options.timeoutMs).toISOString(),
        settle: resolve,
        timer: setTimeout(() => this.#finish(id, 'expired', { failure: timedOut() }), this.options.timeoutMs),
      }
      this.#pending.set(id, pending)
      this.options.changed()
    })
  }

  list(): PendingRequest[] {
    return [...this.#pending.values()].map(({ id, appName, createdAt, expiresAt }) => ({
      id,
      appName,
      createdAt,
      expiresAt,
    }))
  }

  async decide(id: string, decision: 'approve' | 'deny') {
    const pending = this.#pending.get(id)
    if (!pending) {
      const finished = this.#finished.get(id)
      if (finished === 'approved' || finished === 'denied') throw conflict(`Request already ${finished}`)
      throw notFound('Request')
    }
    // Claim it before the await below, so a second decision in the meantime sees it decided.
    this.#pending.delete(id)
    this.#finished.set(id, decision === 'approve' ? 'approved' : 'denied')
    if (decision === 'deny') {
      this.#finish(id, 'denied', { failure: forbidden('access not approved') }, pending)
      return
    }
    const token = await this.tokens.issue(pending.appName)
    this.#finish(id, 'approved', { token }, pending)
  }

  /** The client went away: its request leaves the console. */
  withdraw(id: string) {
    if (this.#pending.has(id))
      this.#finish(id, 'withdrawn', { failure: new Problem('withdrawn', 'Client closed request') })
  }

  #finish(id: string, how: Finish, outcome: Outcome, pending = this.#pending.get(id)) {
    if (!pending) return
    this.#pending.delete(id)
    clearTimeout(pending.timer)
    this.#finished.set(id, how)
    // Remember enough recent outcomes to answer a late second decision with 409.
    if (this.#finished.size > 1000) this.#finished.delete(this.#finished.keys().next().value!)
    pending.settle(outcome)
    this.options.changed()
  }
}

import { base64urlnopad, hex } from '@scure/base'
import { Problem, conflict, forbidden, notFound, unauthorized, unavailable } from '../shared/problem'
import { TOKEN, digestsEqual, randomHex, sha256, sha256Sync } from '../shared/secrets'
import { readableCode } from '../shared/codes'
import { mixedScripts } from '../shared/scripts'
import type { Store, TokenRow } from './store'

/** Two secrets of the token pattern's fixed length, compared without an early exit. */
function secretsEqual(known: string, given: string): boolean {
  if (known.length !== given.length) return false
  let difference = 0
  for (let i = 0; i < known.length; i++) difference |= known.charCodeAt(i) ^ given.charCodeAt(i)
  return difference === 0
}

/**
 * `secret` is set once a request has proven it against the digest: later requests compare it in
 * constant time instead of hashing again. It lives in this object's memory only, never in storage,
 * and goes with the record when the token is revoked.
 */
type TokenRecord = {
  row: TokenRow
  digest: Uint8Array
  expiresAt: number
  usedAt: number
  persistedUseAt: number
  secret?: string
  /** Asked for by a unit's cart (docs/units.md). */
  unit: boolean
}

const recordOf = (row: TokenRow, digest: Uint8Array, unit: boolean): TokenRecord => ({
  row,
  digest,
  unit,
  expiresAt: row.expires_at ? Date.parse(row.expires_at) : Infinity,
  usedAt: row.last_used_at ? Date.parse(row.last_used_at) : 0,
  persistedUseAt: 0,
})

export type ConnectedApp = {
  id: string
  appName: string
  /** A unit's cart: on a production it only syncs. */
  unit?: true
  mixedScripts: string[]
  createdAt: string
  lastUsedAt: string | null
}

/** Who a token is: its id, the name it was approved under, and whether a unit's cart asked for it. */
export type Caller = { tokenId: string; appName: string; unit: boolean }

/** The operator, as the worker names them to the workspace once it has checked their session. */
export const OPERATOR = { operator: true } as const

/** Approved applications. Only SHA-256 digests of secrets are stored; the raw token leaves once. */
export class Tokens {
  readonly #byId = new Map<string, TokenRecord>()

  constructor(
    private readonly store: Store,
    private readonly ttlDays: number | undefined,
  ) {
    const units = store.unitTokens()
    for (const row of store.tokens()) this.#byId.set(row.id, recordOf(row, hex.decode(row.digest), units.has(row.id)))
  }

  async issue(appName: string, unit = false): Promise<string> {
    const id = randomHex(8)
    const secret = base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(32)))
    const digest = new Uint8Array(await sha256(secret))
    const now = new Date()
    const row: TokenRow = {
      id,
      digest: hex.encode(digest),
      app_name: appName,
      created_at: now.toISOString(),
      last_used_at: null,
      expires_at: this.ttlDays ? new Date(now.getTime() + this.ttlDays * 86_400_000).toISOString() : null,
    }
    this.store.insertToken(row)
    if (unit) this.store.insertUnitToken(id)
    this.#byId.set(id, recordOf(row, digest, unit))
    return `mls_${id}_${secret}`
  }

  /**
   * Throws 401 unless the token is one the operator approved and has not revoked; answers the
   * name it was approved under, and whether a unit's cart asked for it. Synchronous, on every
   * request: nothing can revoke the token between the lookup and the answer.
   */
  verify(token: string | null | undefined): Caller {
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
    return { tokenId: record.row.id, appName: record.row.app_name, unit: record.unit }
  }

  list(): ConnectedApp[] {
    return [...this.#byId.values()].map(({ row, usedAt, unit }) => ({
      id: row.id,
      appName: row.app_name,
      ...(unit && { unit: true as const }),
      mixedScripts: mixedScripts(row.app_name),
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

/** What an application says about itself when it asks; none of it is proof, all of it helps. */
export type AccessAsk = {
  appName: string
  /** A short code the application shows its user and the console shows the operator, if it has one. */
  code?: string
  /** The User-Agent header, as sent. */
  userAgent?: string
  /** Asked by a unit's cart linking to this production (docs/units.md). */
  unit?: boolean
}

/**
 * One card in the console. `createdAt` is when this application (name and code) first asked;
 * `attempts` counts its asks while the card was up; `expiresAt` moves with the latest ask.
 */
export type PendingRequest = {
  id: string
  appName: string
  code: string | null
  userAgent: string | null
  /** Scripts of a name that mixes look-alike alphabets ("Dаytalog" with a Cyrillic "а"); else []. */
  mixedScripts: string[]
  createdAt: string
  lastAskedAt: string
  attempts: number
  expiresAt: string
  /** Asked by a unit's cart: its token will only sync, on a production. */
  unit?: true
}
type Outcome = { token: string } | { failure: Problem }
/** The HTTP request holding a card: the one the token goes to. */
type Held = { requestId: string; settle: (outcome: Outcome) => void; timer: ReturnType<typeof setTimeout> }
type Card = PendingRequest & { key: string; held: Held }
type Finish = 'approved' | 'denied' | 'expired' | 'withdrawn'

const tooManyWaiting = (limit: number) =>
  new Problem(
    'too-many',
    `${limit} connection requests are already waiting for the operator: ask again once some are approved or denied`,
  )

/**
 * Connection requests waiting for the operator, one card per application. They live in memory:
 * each one is an HTTP request held open by POST /auth, which does not outlive the object either.
 *
 * Nothing a local process sends can push a request out of the operator's sight: a card goes only
 * when the operator decides, its time runs out or its client hangs up. With `limit` cards up, new
 * applications are refused with 429 and the cards already shown stay. An application that asks
 * again with the same name *and code* takes its card over (its earlier request, which it gave up
 * on, is answered as expired); without a code every request has its own card, so a process that
 * repeats another's name shows up as a second card, never in its place.
 */
export class Approvals {
  readonly #cards = new Map<string, Card>()
  /** The card each coded application holds, by name and code. */
  readonly #byKey = new Map<string, Card>()
  /** The card each held HTTP request is on. */
  readonly #byRequest = new Map<string, Card>()
  readonly #finished = new Map<string, Finish>()

  constructor(
    private readonly tokens: Tokens,
    private readonly options: { timeoutMs: number; limit: number; changed: () => void },
  ) {}

  /** Resolves with the token once approved; with a 403 failure on deny, 408 when time runs out. */
  request(ask: AccessAsk, requestId = crypto.randomUUID()): Promise<Outcome> {
    // Refusals reject rather than throw: the workspace answers a Problem it gets from the promise.
    if (this.#byRequest.has(requestId) || this.#cards.has(requestId))
      return Promise.reject(conflict('Request already exists'))
    const key = ask.code === undefined ? undefined : `${ask.appName}\u0000${ask.code}\u0000${ask.unit === true}`
    const card = key === undefined ? undefined : this.#byKey.get(key)
    if (!card && this.#cards.size >= this.options.limit) return Promise.reject(tooManyWaiting(this.options.limit))
    const now = Date.now()
    // Its expiry first: with no timer to be had (the runtime's limit), the request is refused, 503,
    // before anything of it is held.
    let timer: ReturnType<typeof setTimeout>
    try {
      timer = setTimeout(() => this.#expire(requestId), this.options.timeoutMs)
    } catch {
      return Promise.reject(unavailable())
    }
    return new Promise<Outcome>((settle) => {
      const held: Held = { requestId, settle, timer }
      if (card) {
        const earlier = card.held
        this.#release(earlier)
        earlier.settle({ failure: timedOut() })
        card.held = held
        card.attempts++
        card.lastAskedAt = new Date(now).toISOString()
        card.expiresAt = new Date(now + this.options.timeoutMs).toISOString()
        card.userAgent = ask.userAgent ?? null
        this.#byRequest.set(requestId, card)
      } else {
        const at = new Date(now).toISOString()
        const added: Card = {
          // The card keeps the id of the request that put it up, whichever request holds it later.
          id: requestId,
          key: key ?? requestId,
          appName: ask.appName,
          code: ask.code ?? null,
          userAgent: ask.userAgent ?? null,
          mixedScripts: mixedScripts(ask.appName),
          ...(ask.unit && { unit: true as const }),
          createdAt: at,
          lastAskedAt: at,
          attempts: 1,
          expiresAt: new Date(now + this.options.timeoutMs).toISOString(),
          held,
        }
        this.#cards.set(added.id, added)
        if (key !== undefined) this.#byKey.set(key, added)
        this.#byRequest.set(requestId, added)
      }
      this.options.changed()
    })
  }

  list(): PendingRequest[] {
    return [...this.#cards.values()].map(
      ({ id, appName, code, userAgent, mixedScripts, unit, createdAt, lastAskedAt, attempts, expiresAt }) => ({
        id,
        appName,
        code,
        userAgent,
        mixedScripts,
        ...(unit && { unit }),
        createdAt,
        lastAskedAt,
        attempts,
        expiresAt,
      }),
    )
  }

  async decide(id: string, decision: 'approve' | 'deny') {
    const card = this.#cards.get(id)
    if (!card) {
      const finished = this.#finished.get(id)
      if (finished === 'approved' || finished === 'denied') throw conflict(`Request already ${finished}`)
      throw notFound('Request')
    }
    // Take it down before the await below, so a second decision in the meantime sees it decided.
    this.#remove(card, decision === 'approve' ? 'approved' : 'denied')
    if (decision === 'deny') card.held.settle({ failure: forbidden('access not approved') })
    else card.held.settle({ token: await this.tokens.issue(card.appName, card.unit === true) })
    // Announced once the token is listed too: the console shows the request leave and the app arrive.
    this.options.changed()
  }

  /** The client went away: its request leaves the console. */
  withdraw(requestId: string) {
    const card = this.#byRequest.get(requestId)
    if (!card || card.held.requestId !== requestId) return
    this.#remove(card, 'withdrawn')
    card.held.settle({ failure: new Problem('withdrawn', 'Client closed request') })
    this.options.changed()
  }

  #expire(requestId: string) {
    const card = this.#byRequest.get(requestId)
    if (!card || card.held.requestId !== requestId) return
    this.#remove(card, 'expired')
    card.held.settle({ failure: timedOut() })
    this.options.changed()
  }

  #release(held: Held) {
    clearTimeout(held.timer)
    this.#byRequest.delete(held.requestId)
  }

  #remove(card: Card, how: Finish) {
    this.#release(card.held)
    this.#cards.delete(card.id)
    if (this.#byKey.get(card.key) === card) this.#byKey.delete(card.key)
    this.#finished.set(card.id, how)
    // Remember enough recent outcomes to answer a late second decision with 409.
    if (this.#finished.size > 1000) this.#finished.delete(this.#finished.keys().next().value!)
  }
}

/** How long a link code admits its application: a day, time to send it to a cart the night before. */
const LINK_CODE_HOURS = 24

/** A link code as the console lists it: never the code, which leaves once. */
export type LinkCodeListing = { id: string; name: string; unit: boolean; createdAt: string; expiresAt: string }

/** A code as typed: upper case, any spaces or dashes the person added or left out. */
const linkCodeOf = (typed: string) => {
  const chars = typed.toUpperCase().replace(/[\s-]/g, '')
  if (chars.length !== 16) return ''
  return [0, 4, 8, 12].map((at) => chars.slice(at, at + 4)).join('-')
}

/**
 * A production's link codes (docs/units.md). Deployed, a production is reachable by anyone: an
 * application asks for a token there only with a code its operator made for it, by name, which
 * admits it once, at once, within LINK_CODE_HOURS. Nothing without one is queued, held or
 * counted, so no stranger can fill the operator's cards or keep a cart from linking.
 */
export class LinkCodes {
  constructor(private readonly store: Store) {}

  async make(name: string, unit: boolean): Promise<LinkCodeListing & { code: string }> {
    const code = readableCode(4)
    const now = new Date()
    const row = {
      id: randomHex(8),
      digest: hex.encode(new Uint8Array(await sha256(code))),
      name,
      unit: unit ? 1 : 0,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + LINK_CODE_HOURS * 3_600_000).toISOString(),
    }
    this.store.insertLinkCode(row)
    return { ...listingOf(row), code }
  }

  list(): LinkCodeListing[] {
    return this.#live().map(listingOf)
  }

  revoke(id: string) {
    if (!this.store.deleteLinkCode(id)) throw notFound('Link code')
  }

  /** The live code `typed` is, if any; expired ones go as they are met. */
  find(typed: string) {
    if (!linkCodeOf(typed)) return undefined
    const digest = hex.encode(sha256Sync(linkCodeOf(typed)))
    return this.#live().find((row) => row.digest === digest)
  }

  /**
   * Spends the code on the application asking as `ask` says: 403 unless it is live and was made
   * for that name and kind (a code for Second unit does not admit a cart calling itself Main
   * unit, and stays live for the right one).
   */
  take(typed: string, ask: { appName: string; unit?: boolean }) {
    const row = this.find(typed)
    if (!row) throw noLinkCode()
    if (row.name !== ask.appName || (row.unit === 1) !== (ask.unit === true))
      throw forbidden(`This link code is for ${row.name}${row.unit ? ", a unit's cart" : ''}: ask as that`)
    this.store.deleteLinkCode(row.id)
    return row
  }

  #live() {
    const now = new Date().toISOString()
    const rows = this.store.linkCodes()
    for (const row of rows) if (row.expires_at <= now) this.store.deleteLinkCode(row.id)
    return rows.filter((row) => row.expires_at > now)
  }
}

export const noLinkCode = () =>
  forbidden("This production admits an application with a link code from its operator's console (X-Link-Code)")

const listingOf = (row: { id: string; name: string; unit: number; created_at: string; expires_at: string }) => ({
  id: row.id,
  name: row.name,
  unit: row.unit === 1,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
})

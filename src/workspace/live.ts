/**
 * Units live while online (docs/units.md): a production tells the carts listening that a log was
 * written, and each syncs at once instead of at its next round. The production's side holds the
 * sockets with the hibernation API (they cost nothing while quiet, and outlive the object's
 * eviction); the cart's side keeps one socket open to its production while linked. Polling goes
 * on whenever a socket is closed: nothing depends on a message arriving.
 */
import { Problem } from '../shared/problem'
import { TOKEN } from '../shared/secrets'
import type { Tokens } from './access'
import type { Production } from './production'

/** Carts listening at once; past it 429 (a production has a handful of units, an office app or two). */
const LISTENERS_MAX = 64
/** Writes within this long are told once: a cart's round sends up to 50 logs in a burst. */
const TELL_AFTER_MS = 50
/** The production's answer to a cart's `ping`, given by workerd without waking the object. */
const PING = 'ping'
const PONG = 'pong'

/** 429 with its reason: from `listen`, or from the socket's own fetch when the last place went between. */
export const tooManyListening = () => new Problem('too-many', `${LISTENERS_MAX} carts listen already`)

/** A socket's tag: the id of the token it was opened with. */
const tagOf = (tokenId: string) => `token:${tokenId}`
/** A socket whose cart has not pinged for this long (it pings every 20 s) is a dead one. */
const QUIET_MS = 60_000

/** The production's side: the sockets of the carts listening, told `changed` after each burst of writes. */
export class Listeners {
  #telling = false

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly tokens: Tokens,
  ) {
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG))
  }

  /** Before a socket is asked for: 429 once as many listen as may, dead ones let go first. */
  admit() {
    const sockets = this.ctx.getWebSockets()
    if (sockets.length < LISTENERS_MAX) return
    // A cart cut off never said goodbye: its socket stays until it is seen to be quiet.
    const now = Date.now()
    for (const socket of sockets) {
      const heard = this.ctx.getWebSocketAutoResponseTimestamp(socket)?.getTime() ?? 0
      if (now - heard > QUIET_MS && now - this.#openedAt(socket) > QUIET_MS) closeQuietly(socket, 4408, 'Gone quiet')
    }
    if (this.ctx.getWebSockets().length >= LISTENERS_MAX) throw tooManyListening()
  }

  /** GET /sync/live's socket, once the worker had the token and project checked (calls.ts `listen`). */
  accept(request: Request): Response {
    const token = request.headers.get('x-api-token') ?? ''
    try {
      this.tokens.verify(token)
    } catch {
      return new Response(null, { status: 401 })
    }
    // A cart listens on one socket: one it opened before (a network that dropped) goes.
    const tag = tagOf(TOKEN.exec(token)![1]!)
    for (const socket of this.ctx.getWebSockets(tag)) closeQuietly(socket, 4409, 'Listening again')
    try {
      this.admit()
    } catch {
      return new Response(null, { status: 429 })
    }
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket]
    this.ctx.acceptWebSocket(server, [tag])
    server.serializeAttachment({ openedAt: Date.now() })
    return new Response(null, { status: 101, webSocket: client })
  }

  /** Token `id` was revoked: its socket closes now. */
  revoked(id: string) {
    for (const socket of this.ctx.getWebSockets(tagOf(id))) closeQuietly(socket, 4401, 'Token revoked')
  }

  /** A log was written here: every cart listening hears it, once for the burst. */
  changed() {
    if (this.#telling) return
    this.#telling = true
    setTimeout(() => {
      this.#telling = false
      for (const socket of this.ctx.getWebSockets()) {
        try {
          socket.send('changed')
        } catch {
          // Closing already: its cart polls.
        }
      }
    }, TELL_AFTER_MS)
  }

  #openedAt(socket: WebSocket): number {
    return (socket.deserializeAttachment() as { openedAt?: number } | null)?.openedAt ?? 0
  }
}

/**
 * Closes a socket that may be closing already. A socket may be closed with 1000 or 3000–4999 only
 * (WHATWG): this service's are 4401 (token revoked), 4408 (quiet too long), 4409 (listening again).
 */
export function closeQuietly(socket: WebSocket, code: number, reason: string) {
  try {
    socket.close(code, reason)
  } catch {
    // Closed already.
  }
}

/** Between a cart's pings; a production that has not answered one by the next is given up. */
const PING_EVERY_MS = 20_000

/** Rounds a production's `changed` may ask for: at most one a second, however often it speaks. */
const HEARD_EVERY_MS = 1000
/** After a socket that could not open or closed soon after, the next try waits 5 s, 10 s, … up to this. */
const RETRY_MAX_MS = 300_000
/** A socket open this long was no failure. */
const STEADY_MS = 60_000

/**
 * The cart's side: one socket to its production, open while linked. `heard(ms)` runs a round
 * that soon; `lost` has the next one come as soon as a round without a socket would.
 */
export class Ear {
  #socket: WebSocket | undefined
  #opening = false
  #pinger: ReturnType<typeof setInterval> | undefined
  #answered = true
  /** Moves at each stop: a socket that opens after one is closed at once. */
  #wanted = 0
  #nextHeard = 0
  #failures = 0
  #retryAt = 0
  #openedAt = 0

  constructor(
    private readonly heard: (ms: number) => void,
    private readonly lost: () => void,
  ) {}

  /** Whether the production can tell this cart of a write now. */
  get open() {
    return this.#socket !== undefined
  }

  /** Opens the socket unless it is open; a production that refuses it, or cannot be reached, is polled. */
  async listen(production: Production) {
    if (this.#socket || this.#opening || Date.now() < this.#retryAt) return
    this.#opening = true
    const wanted = this.#wanted
    try {
      const socket = await production.live()
      socket.accept()
      if (wanted !== this.#wanted) return closeQuietly(socket, 1000, 'Not listening')
      this.#socket = socket
      this.#openedAt = Date.now()
      this.#answered = true
      socket.addEventListener('message', ({ data }) => {
        this.#answered = true
        if (data === 'changed') this.#hear()
      })
      // A write made while the socket was being opened is heard in a round now.
      this.#hear()
      socket.addEventListener('close', () => this.#closed(socket))
      socket.addEventListener('error', () => this.#closed(socket))
      // A cut network closes nothing: a ping unanswered by the next one does.
      this.#pinger = setInterval(() => {
        if (!this.#answered) return this.stop()
        this.#answered = false
        try {
          socket.send(PING)
        } catch {
          this.stop()
        }
      }, PING_EVERY_MS)
    } catch {
      // Polled as before; asked again later, not at every round.
      this.#failed()
    } finally {
      this.#opening = false
    }
  }

  /** Closes the socket (unlinked, another project loaded, or the production gone quiet). */
  stop() {
    this.#wanted++
    const socket = this.#socket
    if (!socket) return
    this.#closed(socket)
    closeQuietly(socket, 1000, 'Not listening')
  }

  #hear() {
    const now = Date.now()
    const at = Math.max(now, this.#nextHeard)
    this.#nextHeard = at + HEARD_EVERY_MS
    this.heard(at - now)
  }

  #failed() {
    this.#failures++
    this.#retryAt = Date.now() + Math.min(RETRY_MAX_MS, 5000 * 2 ** Math.min(this.#failures - 1, 10))
  }

  #closed(socket: WebSocket) {
    if (this.#socket !== socket) return
    this.#socket = undefined
    clearInterval(this.#pinger)
    if (Date.now() - this.#openedAt < STEADY_MS) this.#failed()
    else this.#failures = 0
    this.lost()
  }
}

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

type Attachment = { tokenId: string }

/** The production's side: the sockets of the carts listening, told `changed` after each burst of writes. */
export class Listeners {
  #telling = false

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly tokens: Tokens,
  ) {
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG))
  }

  /** Before a socket is asked for: 429 once as many listen as may. */
  admit() {
    if (this.ctx.getWebSockets().length >= LISTENERS_MAX)
      throw new Problem('too-many', `${LISTENERS_MAX} carts listen already`)
  }

  /** GET /sync/live's socket, once the worker had the token and project checked (calls.ts `listen`). */
  accept(request: Request): Response {
    const token = request.headers.get('x-api-token') ?? ''
    try {
      this.tokens.verify(token)
      this.admit()
    } catch (err) {
      const status = err instanceof Problem && err.kind === 'too-many' ? 429 : 401
      return new Response(null, { status })
    }
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket]
    this.ctx.acceptWebSocket(server)
    server.serializeAttachment({ tokenId: TOKEN.exec(token)![1]! } satisfies Attachment)
    return new Response(null, { status: 101, webSocket: client })
  }

  /** A log was written here: every cart listening hears it, once for the burst. */
  changed() {
    if (this.#telling) return
    this.#telling = true
    setTimeout(() => {
      this.#telling = false
      this.#tell()
    }, TELL_AFTER_MS)
  }

  #tell() {
    for (const socket of this.ctx.getWebSockets()) {
      const { tokenId } = socket.deserializeAttachment() as Attachment
      try {
        // A token revoked since the socket opened hears nothing more.
        if (!this.tokens.holds(tokenId)) socket.close(4401, 'Token revoked')
        else socket.send('changed')
      } catch {
        // Closing already: its cart polls.
      }
    }
  }
}

/** Between a cart's pings; a production that has not answered one by the next is given up. */
const PING_EVERY_MS = 20_000

/**
 * The cart's side: one socket to its production, open while linked. `heard` runs a round now;
 * `lost` has the next one come as soon as a round without a socket would.
 */
export class Ear {
  #socket: WebSocket | undefined
  #opening = false
  #pinger: ReturnType<typeof setInterval> | undefined
  #answered = true

  constructor(
    private readonly heard: () => void,
    private readonly lost: () => void,
  ) {}

  /** Whether the production can tell this cart of a write now. */
  get open() {
    return this.#socket !== undefined
  }

  /** Opens the socket unless it is open; a production that refuses it, or cannot be reached, is polled. */
  async listen(production: Production) {
    if (this.#socket || this.#opening) return
    this.#opening = true
    try {
      const socket = await production.live()
      socket.accept()
      this.#socket = socket
      this.#answered = true
      socket.addEventListener('message', ({ data }) => {
        this.#answered = true
        if (data === 'changed') this.heard()
      })
      // A write made while the socket was being opened is heard in a round now.
      this.heard()
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
      // Polled as before.
    } finally {
      this.#opening = false
    }
  }

  /** Closes the socket (unlinked, another project loaded, or the production gone quiet). */
  stop() {
    const socket = this.#socket
    if (!socket) return
    this.#closed(socket)
    try {
      socket.close(1000, 'Not listening')
    } catch {
      // Closed already.
    }
  }

  #closed(socket: WebSocket) {
    if (this.#socket !== socket) return
    this.#socket = undefined
    clearInterval(this.#pinger)
    this.lost()
  }
}

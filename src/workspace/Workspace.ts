/**
 * The workspace: the one Durable Object that owns all state of the service: projects and the
 * active one, logs, settings, approved tokens, the connection requests waiting for the operator,
 * the send windows and the link to a production. It is single-threaded, so work without an await
 * cannot interleave with another request's; log writes run in groups, one commit per group.
 *
 * A facade: each method is declared once (calls.ts, console-calls.ts: who may call it, whether it
 * writes, its work) and run here the one way. A Problem is returned, not thrown: workerd logs every
 * exception an RPC method throws as uncaught, and a 404 is no accident. An Error is never a value
 * otherwise, so the client tells them apart. `who` is an application's API token, or OPERATOR,
 * which the worker passes only once it has checked the operator's session.
 */
import { DurableObject } from 'cloudflare:workers'
import { Problem, forbidden, unauthorized } from '../shared/problem'
import type { Caller } from './access'
import { answerLater } from './answers'
import { CALLS } from './calls'
import { Changes } from './changes'
import { CONSOLE_CALLS } from './console-calls'
import type { Declaration, Modules, MethodsOf } from './declare'
import { GroupCommit } from './group-commit'
import { closeQuietly } from './live'
import { assemble } from './parts'
import { SYNC_AFTER_WRITE_MS } from './sync'

export type { ReportPlan } from './plans'

const DECLARED = { ...CALLS, ...CONSOLE_CALLS }

/** The operator, or the worker's own call: what a method for the worker's use runs as. */
const TRUSTED: Caller = { tokenId: '', appName: 'operator', unit: false }

// Its methods are declared in tables, typed by the interface of the same name below.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Workspace extends DurableObject<Env> {
  #modules!: Modules
  readonly #commits = new GroupCommit(() => this.#afterWrites())
  /** Whether a log was written in the group being committed (#afterWrites). */
  #logsMoved = false

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    // The set-up is synchronous; blockConcurrencyWhile takes a promise, and if the set-up throws
    // it rejects and the runtime resets the object, so nothing waits on it here.
    // eslint-disable-next-line @typescript-eslint/require-await
    void ctx.blockConcurrencyWhile(async () => {
      const changes = new Changes()
      this.#modules = { ...assemble(ctx, env, changes), changes }
      // After a restart: what was written before it and not yet sent goes at once.
      this.#modules.sync.soon(0)
    })
  }

  /** GET /sync/live's WebSocket, accepted here once `listen` passed: a WebSocket cannot cross RPC. */
  override fetch(request: Request) {
    return this.#modules.listeners.accept(request)
  }

  // What a listening cart sends is not read: its `ping` is answered by workerd (live.ts).
  override webSocketMessage() {}

  /** A cart closed its socket: the close is answered (with 1000 for a code a socket may not send). */
  override webSocketClose(socket: WebSocket, code: number) {
    closeQuietly(socket, code >= 3000 && code <= 4999 ? code : 1000, 'Closed')
  }

  override async alarm() {
    await this.#modules.sync.round(() => {
      this.#logsMoved = true
      this.#afterWrites()
    })
  }

  /**
   * One method on the prototype per declaration (workerd serves a prototype's methods over RPC),
   * each run the one way: its arguments taken (a body's own mistakes answer first), then, in one
   * synchronous step with no other request in between, the caller checked and the work done; a
   * write in the group being committed.
   */
  static {
    for (const [name, declared] of Object.entries(DECLARED) as Array<[string, Declaration]>) {
      const { who, take } = declared
      const method = function (this: Workspace, ...args: unknown[]): unknown {
        const caller = who === 'worker' ? undefined : args.shift()
        if (take)
          return answerLater(Promise.resolve(take(...(args as never[])))).then((taken) =>
            taken instanceof Problem ? taken : this.#run(declared, caller, taken as unknown[]),
          )
        return this.#run(declared, caller, args)
      }
      Object.defineProperty(Workspace.prototype, name, { value: method, writable: true, configurable: true })
    }
  }

  /** A declared method's work, once its arguments are taken. */
  #run(declared: Declaration, caller: unknown, args: unknown[]) {
    if (!declared.writes) return this.#done(declared, this.#work(declared, caller, args))
    return this.#commits.run(() => {
      const outcome = this.#work(declared, caller, args)
      // A log written: the group's end tells the console and the sync (#afterWrites).
      if (!(outcome instanceof Problem)) this.#logsMoved = true
      return outcome
    })
  }

  /** The caller checked and the work done: its value, or the Problem it threw (anything else is a 500). */
  #work({ who, syncs, work }: Declaration, caller: unknown, args: unknown[]): unknown {
    const run = work as (modules: Modules, caller: Caller, ...args: unknown[]) => unknown
    try {
      if (who === 'worker') return run(this.#modules, TRUSTED, ...args)
      if (typeof caller !== 'string') {
        // Only OPERATOR itself, and only where the operator may call: anything else is nobody.
        if (who !== 'either' || (caller as { operator?: unknown } | undefined)?.operator !== true) throw unauthorized()
        return run(this.#modules, TRUSTED, ...args)
      }
      const verified = this.#modules.tokens.verify(caller)
      if (verified.unit && this.#modules.store.role === 'production' && !syncs)
        throw forbidden(`${verified.appName} is a unit's cart: here it syncs, and does nothing else`)
      return run(this.#modules, verified, ...args)
    } catch (err) {
      if (err instanceof Problem) return err
      throw err
    }
  }

  /** Work that waits answers when it is done; a project made or changed is heard of at once. */
  #done(declared: Declaration, outcome: unknown) {
    const settled = outcome instanceof Promise ? answerLater(outcome) : outcome
    if (declared.moves && !(settled instanceof Problem)) {
      this.#modules.changes.changed()
      this.#modules.sync.soon(0)
    }
    return settled
  }

  /** After each group of log writes: the Days view and the sync hear of any log written; windows follow. */
  #afterWrites() {
    if (this.#logsMoved) {
      this.#logsMoved = false
      this.#modules.changes.changed()
      this.#modules.listeners.changed()
      this.#modules.sync.soon(SYNC_AFTER_WRITE_MS)
    }
    this.#modules.desk.follow()
  }
}

// The declared methods, as the class has them (the static block above puts them on its prototype).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Workspace extends MethodsOf<typeof DECLARED> {}

/**
 * How each method of the workspace is declared (as Cloudflare agents' `@callable` declares one):
 * who may call it, whether it writes, and its work. Workspace.ts makes one Durable Object method
 * of each declaration and runs it the one way: arguments taken, caller checked, work done, a
 * Problem returned rather than thrown.
 */
import type { Problem } from '../shared/problem'
import type { Caller, OPERATOR } from './access'
import type { Changes } from './changes'
import type { Parts } from './parts'

/** What a method's work is given: the workspace's modules, and the console's live version. */
export type Modules = Parts & { changes: Changes }

/**
 * Who may call a method.
 * - `application`: an approved application, by its API token (the first argument); on a
 *   production a unit's cart is refused unless the method `syncs`.
 * - `either`: as `application`, or OPERATOR once the worker has checked the operator's session.
 * - `worker`: the worker itself, which has checked whoever it serves (the operator's session, or
 *   nothing for what anyone may ask): no caller argument.
 */
export type Who = 'application' | 'either' | 'worker'

type Declared<W extends Who, A extends unknown[], T extends unknown[], R> = {
  who: W
  /** On a production, a unit's cart may call it: the sync routes and what linking asks. */
  syncs?: true
  /** A log write: run in the group being committed (group-commit.ts); the console and the sync hear of it after. */
  writes?: true
  /** The active project was made or changed: the console hears of it, and a linked one syncs at once. */
  moves?: true
  /**
   * What the arguments become before the caller is checked: bytes RPC brought as a stream read,
   * a body parsed (its own mistakes answer first, as for every endpoint).
   */
  take?: (...args: A) => T | Promise<T>
  work: (desk: Modules, caller: Caller, ...args: T) => R
}

export type Declaration = Declared<Who, never[], never[], unknown>

/** A declaration whose work takes the method's own arguments. */
export const declare = <W extends Who, A extends unknown[], R>(d: Declared<W, A, A, R> & { take?: never }) =>
  d as Declared<W, A, A, R>

/** A declaration whose arguments are first taken (`take`) into what its work needs. */
export const declareTaking = <W extends Who, A extends unknown[], T extends unknown[], R>(
  d: Declared<W, A, T, R> & { take: (...args: A) => T | Promise<T> },
) => d

/** The caller's argument a method of `who` begins with. */
type CallerArg<W> = W extends 'worker' ? [] : W extends 'either' ? [who: string | typeof OPERATOR] : [token: string]

/** The Durable Object method a declaration makes: a write, or work that waits, answers later. */
type MethodOf<D> =
  D extends Declared<infer W, infer A, infer _T, infer R>
    ? (...args: [...CallerArg<W>, ...A]) => Awaited<R> | Problem | Promise<Awaited<R> | Problem>
    : never

export type MethodsOf<Table> = { [K in keyof Table]: MethodOf<Table[K]> }

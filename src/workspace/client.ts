import { lazyLog, type LazyLog } from '../large-logs/read'
import { problemFrom, type Problem } from '../shared/problem'
import { bytesOf } from '../shared/utf8'
import type { Workspace } from './Workspace'

export { OPERATOR } from './access'

/** The workspace's methods. */
type Method = Exclude<
  { [K in keyof Workspace]-?: Workspace[K] extends (...args: never[]) => unknown ? K : never }[keyof Workspace],
  undefined
>

type Remote<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Exclude<Awaited<R>, Problem>> : never

/**
 * The workspace as the worker calls it: every method resolves with the object's value, or rejects
 * with the Problem it returned. Types come from the class, not from RPC's mapping of them, which
 * loses the shape of valibot's loose objects.
 */
export type WorkspaceClient = { [K in Method]: Remote<Workspace[K]> }

// An id is plain data, unlike a stub (bound to the request that made it): derived once per name.
// Deriving it on every request made a GET /log/:id cost 1.02× (bench/compare.mjs, 30 paired rounds).
const ids = new WeakMap<Env['WORKSPACE'], Map<string, DurableObjectId>>()

/**
 * The one workspace every client shares (SPEC §2: a single active project for everyone); deployed
 * with productions, the production's own (http/productions.ts).
 */
export function workspace(env: Env): WorkspaceClient {
  const stub = workspaceStub(env) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
  return new Proxy({} as WorkspaceClient, {
    get:
      (_client, method: string) =>
      async (...args: unknown[]) => {
        // RPC carries an Error with its message alone (a Problem's JSON), returned or thrown: either
        // way the Problem is rebuilt and thrown here, so a method that throws one answers its
        // status, not 500.
        let value: unknown
        try {
          value = await stub[method]!(...args)
        } catch (err) {
          throw problemFrom(err)
        }
        if (value instanceof Error) throw problemFrom(value)
        return value
      },
  })
}

/** The workspace's name: a deployment holding productions names the request's (http/productions.ts). */
export function workspaceName(env: Env): string {
  const { production } = env as Env & { production?: string }
  return production === undefined ? 'workspace' : `production:${production}`
}

/** The workspace's stub itself: for its fetch (GET /sync/live's WebSocket), which RPC cannot carry. */
export function workspaceStub(env: Env) {
  let named = ids.get(env.WORKSPACE)
  if (!named) ids.set(env.WORKSPACE, (named = new Map<string, DurableObjectId>()))
  const name = workspaceName(env)
  let id = named.get(name)
  if (!id) named.set(name, (id = env.WORKSPACE.idFromName(name)))
  return env.WORKSPACE.get(id)
}

/**
 * Reads the logs of a report or a message one call each, when the report draws them: a range of
 * big days in one RPC value passed its 32 MiB limit, and held at once they pass the isolate's memory.
 */
export const logReader =
  (ws: WorkspaceClient, projectId: string) =>
  async (id: string): Promise<LazyLog> => {
    const stored = await ws.storedLog(projectId, id)
    return lazyLog(stored instanceof ReadableStream ? await bytesOf(stored) : stored)
  }

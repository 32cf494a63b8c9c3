import { fromFailure, type Failure } from '../http/errors'
import type { LogOutput } from '../schemas/log'
import { textOf } from '../shared/utf8'
import type { BareReply, LogBody, Reply } from './Workspace'

// An id is plain data, unlike a stub (bound to the request that made it): derived once per namespace.
const ids = new WeakMap<Env['WORKSPACE'], DurableObjectId>()

/** The one workspace every client shares (SPEC §2: a single active project for everyone). */
export function workspace(env: Env) {
  let id = ids.get(env.WORKSPACE)
  if (!id) ids.set(env.WORKSPACE, (id = env.WORKSPACE.idFromName('workspace')))
  return env.WORKSPACE.get(id)
}

/** Awaits a workspace reply and turns a failure back into the StatusError the router answers with. */
export function unwrap<T>(pending: PromiseLike<Reply<T>>): Promise<T> {
  // then(), not an async function: one promise less on every request.
  return (pending as Promise<Reply<T>>).then(({ value, failure }) => {
    if (failure) throw fromFailure(failure)
    return value as T
  })
}

/**
 * unwrap for a bare reply: the value itself (text, bytes or nothing), or an object with a failure.
 * RPC's type mapping turns the union into a union of promises, hence the parameter's type.
 */
export function unwrapBare<T extends LogBody | void>(pending: Promise<T> | PromiseLike<{ failure: Failure }>): Promise<T> {
  return (pending as Promise<BareReply<T>>).then((reply) => {
    if (typeof reply === 'object' && 'failure' in reply) throw fromFailure(reply.failure)
    return reply
  })
}

/**
 * The logs of a report or a message, parsed, each read in its own call: a range of big days in
 * one RPC value passed its 32 MiB limit.
 */
export async function storedLogs(ws: ReturnType<typeof workspace>, projectId: string, ids: string[]): Promise<LogOutput[]> {
  const logs: LogOutput[] = []
  for (const id of ids) logs.push(JSON.parse(await textOf(await unwrapBare<LogBody>(ws.storedLog(projectId, id)))) as LogOutput)
  return logs
}

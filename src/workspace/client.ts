import { fromFailure } from '../http/errors'
import type { Reply } from './Workspace'

/** The one workspace every client shares (SPEC §2: a single active project for everyone). */
export function workspace(env: Env) {
  return env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace'))
}

/** Awaits a workspace reply and turns a failure back into the StatusError the router answers with. */
export async function unwrap<T>(pending: PromiseLike<Reply<T>>): Promise<T> {
  const { value, failure } = await pending
  if (failure) throw fromFailure(failure)
  return value as T
}

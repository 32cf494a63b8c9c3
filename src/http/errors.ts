import { StatusError } from 'itty-router'
import { Problem, type IssueDetail, type ProblemKind } from '../shared/problem'

/** The JSON body every failure answers with (seed §7). */
type ErrorBody = { error: string; details?: IssueDetail[] }

/** SPEC §3: the status of each kind of problem. 499: the client went away (nginx's code). */
const STATUS: Record<ProblemKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'timed-out': 408,
  conflict: 409,
  'too-many': 429,
  withdrawn: 499,
  failed: 500,
  unavailable: 503,
}

export const statusOf = (problem: Problem) => STATUS[problem.kind]

const json = (body: ErrorBody, status: number, headers?: HeadersInit) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })

/**
 * The router's one catch: a Problem of the service, or an HTTP refusal of this layer (StatusError:
 * 405, 413, 415, a bad Host), keeps its status and body; anything else is a bare 500.
 */
export function errorResponse(err: unknown): Response {
  if (err instanceof Problem)
    return json(err.details ? { error: err.error, details: err.details } : { error: err.error }, STATUS[err.kind])
  if (err instanceof StatusError) {
    const { status, error, details } = err as StatusError & ErrorBody
    const allow = (err as { allow?: string }).allow
    return json(details ? { error, details } : { error }, status, allow ? { allow } : undefined)
  }
  console.error('unexpected failure', err)
  return json({ error: 'Internal Server Error' }, 500)
}

/**
 * What went wrong, in the service's words rather than HTTP's. The workspace, its store and the
 * schemas throw a Problem; the router alone turns it into a status and a body (http/errors.ts).
 *
 * Durable Object RPC keeps nothing of a thrown error but its message, so a Problem's message is
 * its own JSON: the workspace client rebuilds the Problem on the worker's side (problemFrom).
 */
export type IssueDetail = { prop: string; message: string }

export type ProblemKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'timed-out'
  | 'too-many'
  | 'withdrawn'
  /** The service could not do what was asked and can say why (a PDF that could not be drawn). */
  | 'failed'
  /** The service cannot take the request now; the next may work. */
  | 'unavailable'

export class Problem extends Error {
  constructor(
    readonly kind: ProblemKind,
    /** The answer's `error` text (seed §7): `Log not found`, `No Project Loaded`, … */
    readonly error: string,
    readonly details?: IssueDetail[],
  ) {
    super(JSON.stringify(details ? { problem: kind, error, details } : { problem: kind, error }))
  }
}

/**
 * Failing properties one answer lists; one more entry counts the rest. A 0.6 MiB log of 60,000 bad
 * clips gave 180,000 of them, an answer of megabytes that said nothing more than its first page.
 */
export const LISTED_DETAILS = 1000

/** The seed's validation error; `unlisted` counts failures that were not even collected. */
export function invalid(details: IssueDetail[], unlisted = 0): Problem {
  const more = unlisted + Math.max(0, details.length - LISTED_DETAILS)
  if (!more) return new Problem('invalid', 'Validation Error', details)
  const listed = details.slice(0, LISTED_DETAILS)
  listed.push({ prop: '', message: `and ${more.toLocaleString('en-US')} more problems like these` })
  return new Problem('invalid', 'Validation Error', listed)
}
export const invalidBody = (message: string, prop = '') => invalid([{ prop, message }])
export const notFound = (thing: string) => new Problem('not-found', `${thing} not found`)
export const conflict = (error: string) => new Problem('conflict', error)
export const unauthorized = () => new Problem('unauthorized', 'Unauthorized')
export const forbidden = (error: string) => new Problem('forbidden', error)
export const unavailable = () => new Problem('unavailable', 'Service busy: try again')

/** The Problem an RPC rejection carries, rebuilt; any other error as it is. */
export function problemFrom(err: unknown): unknown {
  if (err instanceof Problem || !(err instanceof Error) || !err.message.startsWith('{"problem":')) return err
  try {
    const { problem, error, details } = JSON.parse(err.message) as {
      problem: ProblemKind
      error: string
      details?: IssueDetail[]
    }
    return new Problem(problem, error, details)
  } catch {
    return err
  }
}

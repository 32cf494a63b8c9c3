import { StatusError } from 'itty-router'

export type IssueDetail = { prop: string; message: string }

/** The JSON body every failure answers with (seed §7). */
export type ErrorBody = { error: string; details?: IssueDetail[] }

export const validationError = (details: IssueDetail[]) =>
  new StatusError(400, { error: 'Validation Error', details })

export const notFound = (resource: string) => new StatusError(404, { error: `${resource} not found` })

export const conflict = (error: string) => new StatusError(409, { error })

export const unauthorized = () => new StatusError(401, { error: 'Unauthorized' })

export const forbidden = (error = 'Forbidden') => new StatusError(403, { error })

/** A failure that crosses the Durable Object boundary: RPC keeps only an error's message, so it travels as data. */
export type Failure = { status: number; body: ErrorBody }

export function toFailure(err: unknown): Failure | undefined {
  if (!(err instanceof StatusError)) return undefined
  const { status, error, details } = err as StatusError & ErrorBody
  return { status, body: details ? { error, details } : { error } }
}

export const fromFailure = ({ status, body }: Failure) => new StatusError(status, body)

const json = (body: ErrorBody, status: number, headers?: HeadersInit) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })

/** The router's one catch: known failures keep their status and body; anything else is a bare 500. */
export function errorResponse(err: unknown): Response {
  const failure = toFailure(err)
  if (failure) {
    const headers = (err as { allow?: string }).allow ? { allow: (err as { allow: string }).allow } : undefined
    return json(failure.body, failure.status, headers)
  }
  console.error('unexpected failure', err)
  return json({ error: 'Internal Server Error' }, 500)
}

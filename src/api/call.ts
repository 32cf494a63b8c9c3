/**
 * What a route's handler is given and what it answers, both from the route's declaration
 * (api/routes.ts): the router reads and checks the path, the token, the query and the body as
 * declared, and hands the handler parsed values; the handler's answer is typed against the
 * declared shape, and the router sends it with the declared status.
 */
import type { IRequest } from 'itty-router'
import type * as v from 'valibot'
import type { ROUTES, RouteName } from './routes'
import type { JsonBody } from '../http/body'
import type { JsonAnswer } from '../http/headers'

type Declared<N extends RouteName> = (typeof ROUTES)[N]

/** The declared query, parsed: its schema's output. */
type QueryOf<N extends RouteName> =
  Declared<N> extends { query: { in: infer S extends v.GenericSchema } } ? v.InferOutput<S> : Record<string, never>

/**
 * The declared body: parsed by its schema (each property optional for a patch), a JSON object
 * checked where it is merged (`read: 'object'`), or the bytes as sent (`read: 'bytes'`).
 */
type BodyOf<N extends RouteName> =
  Declared<N> extends { read: 'bytes' }
    ? JsonBody
    : Declared<N> extends { read: 'object' }
      ? Record<string, unknown>
      : Declared<N> extends { body: infer S extends v.GenericSchema }
        ? v.InferOutput<S>
        : never

export type Call<N extends RouteName> = {
  request: IRequest
  env: Env
  ctx: ExecutionContext
  /** The path's parameters, percent-decoded; `id` checked as a log id where the route says `logId`. */
  params: Record<string, string>
  /** An application's API token, well-formed (the workspace verifies it with the work); '' elsewhere. */
  token: string
  query: QueryOf<N>
  /**
   * The body, read and checked when first asked for: so a handler may check what must come first
   * (a link code, a token before a large body) before any of it is read.
   */
  body: () => Promise<BodyOf<N>>
  /** The request's If-None-Match: a conditional route's workspace call may leave out what it names. */
  ifNoneMatch: string | undefined
}

/**
 * The declared answer's shape, as a handler may give it (its input: before any transform); any
 * object where the route declares JSON without a schema (the OpenAPI document).
 */
type ShapeOf<N extends RouteName> = Declared<N>['ok'][1] extends infer S extends v.GenericSchema
  ? v.InferInput<S>
  : Declared<N>['ok'][1] extends 'application/json'
    ? object
    : never

/** An answer: the declared shape, JSON text of it, or a Response (a file, a page, a cookie set). */
type Answer<N extends RouteName> = ShapeOf<N> | JsonAnswer<ShapeOf<N>> | Response

/**
 * A conditional route's answer (`conditional` in its declaration): its tag, and how to make it. The
 * router answers 304 when the request names the tag, and never makes it then.
 */
export type Conditional<A> = { etag: string; answer: () => A | Promise<A> }

export type Handler<N extends RouteName> = (
  call: Call<N>,
) => Declared<N> extends { conditional: true }
  ? Promise<Conditional<Answer<N>>> | Conditional<Answer<N>>
  : Promise<Answer<N>> | Answer<N>

export type Handlers = { [N in RouteName]: Handler<N> }

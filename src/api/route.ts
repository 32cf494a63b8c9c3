/** What a route's declaration holds (api/routes.ts). */
import type * as v from 'valibot'
import { ChecksQuerySchema } from '../schemas/requests'

/** Who may call a route: anyone, an approved application (x-api-token), the operator (key or console session). */
export type Who = 'anyone' | 'application' | 'operator'

type Tag = 'Logs' | 'Projects' | 'Reports and e-mail' | 'Checks' | 'Units' | 'Service' | 'Approval' | 'Operator'

/** One route. `ok`: the success status and its body (a schema, or a media type for files and pages). */
export type Route = {
  method: 'get' | 'post' | 'patch' | 'delete'
  /** OpenAPI's form: `/log/{id}`. */
  path: string
  summary: string
  /** What a caller must know beyond the summary and the shapes. */
  description?: string
  tag: Tag
  who: Who
  body?: v.GenericSchema
  /** The body is a patch: the schema's properties, none of them required. */
  partial?: true
  /**
   * Query parameters: what each means, and its JSON Schema, or the valibot object schema the
   * route reads the query with (`in`), whose property of that name the document shows.
   */
  query?: Record<string, { description: string } & ({ schema: object } | { in: v.GenericSchema })>
  ok: readonly [status: number, body: v.GenericSchema | string]
  /** Another success status with the same body, and what it means. */
  alsoOk?: readonly [status: number, description: string]
  errors: readonly number[]
  example?: { request?: unknown; response?: unknown }
  /**
   * A GET answered with an entity tag of what the answer is made from, kept by the client
   * (`Cache-Control: private, no-cache`); a request naming the tag (If-None-Match) is answered 304
   * with no body, the answer neither read nor computed (http/conditional.ts).
   */
  conditional?: true
}

export const ID = 'the log, project request, token or window id (URL-encoded)'

/** A range of days as GET /checks, the range PDFs and the console's range take it. */
export const DAY_RANGE = {
  from: { description: 'first day: a day number (1–999) or a date YYYY-MM-DD', in: ChecksQuerySchema },
  to: { description: 'last day, included: a day number or a date', in: ChecksQuerySchema },
}

/** What a route's declaration holds (api/routes.ts). */
import type * as v from 'valibot'
import { ChecksQuerySchema } from '../schemas/requests'

/** Who may call a route: anyone, an approved application (x-api-token), the operator (key or console session). */
export type Who = 'anyone' | 'application' | 'operator'

type Tag =
  | 'Logs'
  | 'Projects'
  | 'Reports and e-mail'
  | 'Checks'
  | 'Units'
  | 'Watch folders'
  | 'Service'
  | 'Approval'
  | 'Operator'

/** One route. `ok`: the success status and its body (a schema, or a media type for files and pages). */
export type Route = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
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
   * How the router reads the body. Unless said, parsed by `body` (its mistakes a 400 listing each).
   * `bytes`: the bytes as sent, which the handler checks as it stores them (a log is checked a
   * clip at a time, and kept byte for byte). `object`: a JSON object, checked whole where it is
   * merged (settings: a patch's field may be valid only beside the stored ones).
   */
  read?: 'bytes' | 'object'
  /** The largest body taken (413 beyond): a command's 1 MiB unless `log` (64 MiB) or `open` (4 KiB). */
  limit?: 'log' | 'open'
  /** The query: the valibot object schema the router parses it with, and what each parameter means. */
  query?: {
    in: v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>
    about: Record<string, string>
  }
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

/** An `{id}` in a path under these is a log's id, checked as one before the handler runs. */
export const isLogPath = (path: string) => /^\/(?:log|approve\/days|sync\/logs|approve\/conflicts)\/\{id\}/.test(path)

/** A range of days as GET /checks, the range PDFs and the console's range take it. */
export const DAY_RANGE = {
  in: ChecksQuerySchema,
  about: {
    from: 'first day: a day number (1–999) or a date YYYY-MM-DD',
    to: 'last day, included: a day number or a date',
  },
}

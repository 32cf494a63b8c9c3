/**
 * A declared route served: the path's parameters decoded (a log's id checked), the token and the
 * query checked, the body read and checked as declared when the handler asks for it, and the
 * handler's answer sent with the declared status; a conditional route answered 304 without its
 * answer being made when the request names its tag (RFC 9110 §13).
 */
import type { IRequest } from 'itty-router'
import { isLogPath, type Route } from './api/route'
import type { RouteName } from './api/routes'
import { LogIdSchema } from './schemas/log'
import { parseObject } from './schemas/json'
import { parseOrThrow } from './schemas/requests'
import { namesTag } from './shared/etag'
import { invalid, unauthorized } from './shared/problem'
import { TOKEN } from './shared/secrets'
import { workspace } from './workspace/client'
import { BODY_LIMIT_BYTES, COMMAND_BODY_BYTES, LARGE_BODY_BYTES, OPEN_BODY_BYTES, readJsonBody } from './http/body'
import type { Call, Conditional, Handler } from './api/call'
import { JsonAnswer, notModified, tagged } from './http/headers'

const LIMITS = { log: BODY_LIMIT_BYTES, open: OPEN_BODY_BYTES }

const NO_QUERY = Object.freeze({})
const NO_PARAMS: Record<string, string> = Object.freeze({})

/** The route's step for the router's table. */
export function serve(route: Route, handler: Handler<RouteName>) {
  const { who, read, conditional } = route
  const [status] = route.ok
  const logId = isLogPath(route.path)
  const hasParams = route.path.includes('{')
  const limit = route.limit ? LIMITS[route.limit] : COMMAND_BODY_BYTES
  // A patch (`partial`) is read as bytes or an object and checked where it is merged: never parsed here.
  const schema = read ? undefined : route.body
  const query = route.query?.in
  // A body up to 64 MiB is read only once the token is known good (below); a command's is small.
  const askFirst = route.limit === 'log' && who === 'application'
  // On a production a unit's cart calls only the sync routes: its token is asked as theirs.
  const syncs = route.tag === 'Units'

  return async (request: IRequest, env: Env, ctx: ExecutionContext): Promise<unknown> => {
    // An application's token, refused at once when it cannot be one (so no body is read for it);
    // verifying it is the workspace's job, in the same call as the work.
    let token = ''
    if (who === 'application') {
      token = request.headers.get('x-api-token') ?? ''
      if (!TOKEN.test(token)) throw unauthorized()
    }
    const call: Call<RouteName> = {
      request,
      env,
      ctx,
      params: hasParams ? paramsOf(request.params, logId) : NO_PARAMS,
      token,
      query: query ? parseOrThrow(query, { ...request.query }) : NO_QUERY,
      body: async () => {
        // No one unapproved can make the service read and parse a large body (or one of unknown
        // size): the workspace is asked first. A small body costs no extra call; its mistakes are
        // answered before the token is looked at, as everywhere.
        if (askFirst && !(Number(request.headers.get('content-length') ?? NaN) <= LARGE_BODY_BYTES)) {
          const ws = workspace(env)
          await (syncs ? ws.checkSyncToken(token) : ws.checkToken(token))
        }
        const sent = await readJsonBody(request, limit)
        if (read === 'bytes') return sent as never
        const object = parseObject(sent.text)
        return (schema ? parseOrThrow(schema, object) : object) as never
      },
      ifNoneMatch: request.headers.get('if-none-match') ?? undefined,
    }
    const answer = await handler(call)
    if (!conditional)
      return answer instanceof Response || answer instanceof JsonAnswer
        ? answer
        : new JsonAnswer(JSON.stringify(answer), status)
    const { etag, answer: make } = answer as unknown as Conditional<unknown>
    if (namesTag(call.ifNoneMatch, etag)) return notModified(etag)
    return answerOf(await make(), status, etag)
  }
}

/** A handler's answer as the router sends it: a Response as it is, JSON with the status and tag. */
function answerOf(answer: unknown, status: number, etag?: string): Response | JsonAnswer {
  if (answer instanceof Response) return etag === undefined ? answer : tagged(answer, etag)
  if (answer instanceof JsonAnswer)
    return etag === undefined ? answer : new JsonAnswer(answer.body, answer.status, etag)
  return new JsonAnswer(JSON.stringify(answer), status, etag)
}

/** The path's parameters, percent-decoded; a malformed escape is the client's mistake, not a 500. */
function paramsOf(raw: Record<string, string> | undefined, logId: boolean): Record<string, string> {
  const params: Record<string, string> = {}
  for (const name in raw) {
    try {
      params[name] = decodeURIComponent(raw[name]!)
    } catch {
      throw invalid([{ prop: name, message: 'is not a valid percent-encoded path segment' }])
    }
  }
  // The common case checked here, the rest by the log id's schema.
  const id = params.id
  if (logId && id !== undefined && !(id.length >= 1 && id.length <= 50)) parseOrThrow(LogIdSchema, id, 'id')
  return params
}

import { IttyRouter, StatusError, json, type IRequest } from 'itty-router'
import { errorResponse } from './http/errors'
import { withAllowedHost, withOperator } from './http/guards'
import { JsonAnswer, withStandardHeaders } from './http/headers'
import { requestToken } from './routes/auth'
import * as checks from './routes/checks'
import * as operatorConsole from './routes/console'
import * as logs from './routes/logs'
import * as mail from './routes/mail'
import * as meta from './routes/meta'
import * as operator from './routes/operator'
import * as projects from './routes/projects'
import { importFiles } from './routes/import'
import { generatePdf } from './routes/reports'

type Args = [env: Env, ctx: ExecutionContext]

// The route table. itty-router compiles each path into a pattern; `handle` below walks the table.
export const router = IttyRouter<IRequest, Args>()

router
  // logs of the active project: one shooting day each. First because clients call them all day and
  // the table is tried in order, a pattern match for each route of the request's method.
  .post('/log', logs.createLog)
  .get('/log/:id', logs.getLog)
  .patch('/log/:id', logs.patchLog)
  .delete('/log/:id', logs.deleteLog)
  .get('/logs', logs.listLogs)
  // what offload tools and cameras wrote (MHL, ASC MHL, ALE), merged into a day's log
  .post('/log/:id/import', importFiles)
  // what the logs promise, computed: copies and hashes, numbering, proxies, sound (one day, or a range)
  .get('/log/:id/checks', checks.logChecks)
  .get('/checks', checks.rangeChecks)
  // liveness, version and the contract (no token)
  .get('/ping', meta.ping)
  .get('/version', meta.version)
  .get('/openapi.json', meta.openApi)
  // an application asks the operator for a token (no token)
  .post('/auth', requestToken)
  // projects: create-and-load, load by path, list, the active one and its settings
  .post('/project/create', projects.createProject)
  .post('/project/load', projects.loadProject)
  .get('/projects', projects.listProjects)
  .get('/project', projects.getProject)
  .get('/project/config', projects.getConfig)
  .patch('/project/config', projects.patchConfig)
  .get('/pdf-presets', projects.listPdfPresets)
  .get('/email-presets', projects.listEmailPresets)
  // actions
  .post('/generate-pdf', generatePdf)
  .post('/open-email-window', mail.openEmailWindow)
  // operator console: the page (signs in once with ?key=), its script and style, the session, the live state
  .get('/approve', operatorConsole.openConsole)
  .get('/approve/console/:file', operatorConsole.script)
  .get('/approve/console.css', operatorConsole.style)
  .post('/approve/session', operatorConsole.signIn)
  .delete('/approve/session', withOperator, operatorConsole.signOut)
  .get('/approve/state', withOperator, operatorConsole.liveState)
  // operator JSON endpoints: x-operator-key header or the console's session (never an API token)
  .get('/approve/requests', withOperator, operator.listRequests)
  .post('/approve/requests/:id', withOperator, operator.decideRequest)
  .get('/approve/tokens', withOperator, operator.listTokens)
  .delete('/approve/tokens/:id', withOperator, operator.revokeToken)
  // send windows (SPEC §9): the operator edits, sends or discards what /open-email-window opened
  .get('/approve/windows', withOperator, mail.listWindows)
  .get('/approve/windows/:id', withOperator, mail.getWindow)
  .patch('/approve/windows/:id', withOperator, mail.editWindow)
  .delete('/approve/windows/:id', withOperator, mail.discardWindow)
  .post('/approve/windows/:id/send', withOperator, mail.sendWindow)
  .get('/approve/windows/:id/attachments/:presetId', withOperator, mail.downloadAttachment)
  .get('/approve/windows/:id/message.eml', withOperator, mail.downloadEml)

// A known path asked with another method answers 405 with the methods it has (SPEC §3).
const methodsByPath = new Map<string, Set<string>>()
for (const [method, , , path] of router.routes) {
  if (!methodsByPath.has(path!)) methodsByPath.set(path!, new Set())
  methodsByPath.get(path!)!.add(method)
}
for (const [path, methods] of methodsByPath) {
  const allow = [...methods].join(', ')
  router.all(path, () => {
    throw Object.assign(new StatusError(405, { error: 'Method Not Allowed' }), { allow })
  })
}

const NO_QUERY: IRequest['query'] = Object.freeze(Object.create(null))

/**
 * Every request: the Host check, then the first route whose method and path match, its handlers
 * in turn until one answers. Every answer and every failure leaves with the standard headers.
 * itty-router's own fetch would also build a URLSearchParams and its iterator for every request,
 * query or not, and await each step: walking the table here costs 5–6% less CPU per POST /log.
 */
export function handle(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  return dispatch(request as IRequest, env, ctx)
    .then(respond)
    .catch(fail)
}

async function dispatch(request: IRequest, env: Env, ctx: ExecutionContext): Promise<unknown> {
  withAllowedHost(request, env)
  // new URL in a try, not URL.parse: in workerd URL.parse made a GET /log/:id cost 1.08× (paired rounds).
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    throw new StatusError(400, { error: 'Invalid request URL' })
  }
  request.query = url.search ? queryOf(url.searchParams) : NO_QUERY
  const { method } = request
  const path = url.pathname
  for (const [routeMethod, pattern, handlers] of router.routes) {
    if (routeMethod !== method && routeMethod !== 'ALL') continue
    const match = pattern.exec(path)
    if (!match) continue
    request.params = match.groups ?? {}
    for (const handler of handlers) {
      const answer = await handler(request, env, ctx)
      if (answer != null) return answer
    }
  }
  throw new StatusError(404, { error: 'Not found' })
}

/** itty-router's reading of a query: a repeated name gives a list. */
function queryOf(params: URLSearchParams): IRequest['query'] {
  const query: Record<string, string | string[]> = Object.create(null)
  for (const [name, value] of params) {
    const seen = query[name]
    query[name] = seen === undefined ? value : [seen, value].flat()
  }
  return query
}

const respond = (answer: unknown) => withStandardHeaders(answer instanceof JsonAnswer ? answer : json(answer))

const fail = (err: unknown) => withStandardHeaders(errorResponse(err))

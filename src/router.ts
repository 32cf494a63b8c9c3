import { IttyRouter, StatusError, type IRequest } from 'itty-router'
import { ROUTES, type Route, type RouteName } from './api/routes'
import { serve } from './serve'
import type { Handlers } from './api/call'
import { errorResponse } from './http/errors'
import { withAllowedHost, withOperator } from './http/guards'
import { withStandardHeaders, type JsonAnswer } from './http/headers'
import { routedTo } from './http/productions'
import { requestToken } from './routes/auth'
import * as checks from './routes/checks'
import * as copies from './routes/copies'
import * as days from './routes/days'
import * as operatorConsole from './routes/console'
import * as logs from './routes/logs'
import * as mail from './routes/mail'
import * as meta from './routes/meta'
import * as operator from './routes/operator'
import * as projects from './routes/projects'
import { importFiles, importToDay } from './routes/import'
import * as reports from './routes/reports'
import * as setAside from './routes/set-aside'
import * as sync from './routes/sync'
import * as watchers from './routes/watchers'

type Args = [env: Env, ctx: ExecutionContext]
type Step = (request: IRequest, env: Env, ctx: ExecutionContext) => unknown

/**
 * The handler of each declared route (api/routes.ts holds its method, path, schemas and who may
 * call it; an operator's route is guarded by withOperator here). The compiler holds this table to
 * the declarations: a route without a handler, or a handler without a route, does not build, and
 * each handler's answer is typed against what its route declares (http/call.ts).
 */
const HANDLERS: Handlers = {
  // logs of the active project: one shooting day each
  createLog: logs.createLog,
  getLog: logs.getLog,
  patchLog: logs.patchLog,
  deleteLog: logs.deleteLog,
  listLogs: logs.listLogs,
  // what offload tools and cameras wrote (MHL, ASC MHL, ALE, transfer reports), merged into a day's log
  importFiles,
  importToDay,
  // a day's copies apart from its log: what a read-back found, a volume renamed or taken off the day
  readBack: copies.readBack,
  renameVolume: copies.renameVolume,
  removeVolume: copies.removeVolume,
  // what the logs promise, computed: copies and hashes, numbering, proxies, sound (one day, or a range)
  logChecks: checks.logChecks,
  rangeChecks: checks.rangeChecks,
  // liveness, version and the contract (no token)
  ping: meta.ping,
  version: meta.version,
  openApi: meta.openApi,
  // an application asks the operator for a token (no token)
  requestToken,
  // projects: create-and-load, load by path, list, the active one and its settings
  createProject: projects.createProject,
  loadProject: projects.loadProject,
  listProjects: projects.listProjects,
  getProject: projects.getProject,
  getConfig: projects.getConfig,
  patchConfig: projects.patchConfig,
  listPdfPresets: projects.listPdfPresets,
  listEmailPresets: projects.listEmailPresets,
  // actions
  generatePdf: reports.generatePdf,
  // the same reports as files (application/pdf), for applications without base64
  logPdf: reports.logPdf,
  rangePdf: reports.rangePdf,
  openEmailWindow: mail.openEmailWindow,
  // operator console: the page (signs in once with ?key=), its script and style, the session, the live state
  openConsole: operatorConsole.openConsole,
  consoleScript: operatorConsole.script,
  consoleStyle: operatorConsole.style,
  consoleIcon: operatorConsole.icon,
  signIn: operatorConsole.signIn,
  signOut: operatorConsole.signOut,
  liveState: operatorConsole.liveState,
  // approvals and tokens: x-operator-key header or the console's session (never an API token)
  listRequests: operator.listRequests,
  decideRequest: operator.decideRequest,
  listTokens: operator.listTokens,
  revokeToken: operator.revokeToken,
  // a production's link codes: each admits one application it names, once, within a day
  makeLinkCode: operator.makeLinkCode,
  listLinkCodes: operator.listLinkCodes,
  revokeLinkCode: operator.revokeLinkCode,
  // send windows (SPEC §9): the operator opens one from the Days view, edits, sends or discards
  // what it or /open-email-window opened
  listWindows: mail.listWindows,
  openWindow: mail.openWindow,
  getWindow: mail.getWindow,
  editWindow: mail.editWindow,
  discardWindow: mail.discardWindow,
  sendWindow: mail.sendWindow,
  downloadAttachment: mail.downloadAttachment,
  downloadEml: mail.downloadEml,
  // the console's Days view (operator): the active project's days, one day's findings and copies,
  // and the PDF of a day or a range
  listDays: days.listDays,
  getDay: days.getDay,
  renameDayVolume: copies.renameDayVolume,
  removeDayVolume: copies.removeDayVolume,
  dayPdf: reports.dayPdf,
  rangeOfDaysPdf: reports.rangeOfDaysPdf,
  // units: a cart's link to its production, and the versions of logs they exchange
  syncStatus: sync.syncStatus,
  // a cart hears of its production's writes at once (workspace/live.ts)
  syncLive: sync.syncLive,
  syncChanges: sync.syncChanges,
  syncMissing: sync.syncMissing,
  getVersion: sync.getVersion,
  sendVersion: sync.sendVersion,
  linkStatus: sync.linkStatus,
  link: sync.link,
  listConflicts: sync.listConflicts,
  compareConflict: sync.compareConflict,
  // the versions a resolution did not keep, listed under their day and retrievable as they were
  listSetAside: setAside.listSetAside,
  getSetAside: setAside.getSetAside,
  daySetAside: setAside.daySetAside,
  daySetAsideVersion: setAside.daySetAsideVersion,
  resolveConflict: sync.resolveConflict,
  unlink: sync.unlink,
  // the watchers of offload folders: each `media-log watch` reports itself; the console lists them
  reportWatcher: watchers.reportWatcher,
  stopWatcher: watchers.stopWatcher,
  dismissWatcher: watchers.dismissWatcher,
}

// The route table, in the declarations' order. itty-router compiles each path into a pattern;
// `handle` below walks the table.
export const router = IttyRouter<IRequest, Args>()
for (const [name, route] of Object.entries(ROUTES) as Array<[RouteName, Route]>) {
  const path = route.path.replace(/\{(\w+)\}/g, ':$1')
  const served = serve(route, HANDLERS[name])
  if (route.who === 'operator') router[route.method](path, withOperator as Step, served)
  else router[route.method](path, served)
}

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

const NO_QUERY = Object.freeze(Object.create(null) as IRequest['query'])

/**
 * Every request: the Host check, then the first route whose method and path match, its handlers
 * in turn until one answers. Every answer and every failure leaves with the standard headers.
 * itty-router's own fetch would also build a URLSearchParams and its iterator for every request,
 * query or not, and await each step: walking the table here costs 5–6% less CPU per POST /log.
 */
export async function handle(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  try {
    withAllowedHost(request as IRequest, env)
    // new URL in a try, not URL.parse: in workerd URL.parse made a GET /log/:id cost 1.08× (paired rounds).
    let url: URL
    try {
      url = new URL(request.url)
    } catch {
      throw new StatusError(400, { error: 'Invalid request URL' })
    }
    const asked = request as IRequest
    asked.query = url.search ? queryOf(url.searchParams) : NO_QUERY
    const { method } = request
    // A laptop's request names no production: the common case asks nothing of http/productions.ts.
    const routed =
      env.PRODUCTIONS || url.pathname.startsWith('/productions/')
        ? routedTo(url.pathname, env)
        : { path: url.pathname, env }
    const path = routed.path
    for (const [routeMethod, pattern, steps] of router.routes) {
      if (routeMethod !== method && routeMethod !== 'ALL') continue
      const match = pattern.exec(path)
      if (!match) continue
      asked.params = match.groups ?? {}
      for (const step of steps) {
        // Each route's last step answers (http/serve.ts): a Response, or JSON to be made one.
        const answer = (await step(asked, routed.env, ctx)) as Response | JsonAnswer | undefined
        if (answer != null) return withStandardHeaders(answer)
      }
    }
    throw new StatusError(404, { error: 'Not found' })
  } catch (err) {
    return withStandardHeaders(errorResponse(err))
  }
}

/** itty-router's reading of a query: a repeated name gives a list. */
function queryOf(params: URLSearchParams): IRequest['query'] {
  const query = Object.create(null) as Record<string, string | string[]>
  for (const [name, value] of params) {
    const seen = query[name]
    query[name] = seen === undefined ? value : [seen, value].flat()
  }
  return query
}

import { StatusError } from 'itty-router'
import type { Handler } from '../api/call'
import pkg from '../../package.json'
import { CONSOLE_CSP, consolePage, signInPage } from '../console/page'
import { CONSOLE_SCRIPTS, CONSOLE_STYLE } from '../console/assets'
import { unauthorized } from '../shared/problem'
import { clearedSessionCookie, createSession, isOperatorKey, refuseCrossOrigin, sessionOf } from '../http/guards'
import { mailConfig } from '../mail/config'
import { workspace } from '../workspace/client'
import { baseOf } from '../http/productions'
import { consoleWindows } from '../flows/windows'

const page = (html: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CONSOLE_CSP,
      'x-frame-options': 'DENY',
      ...headers,
    },
  })

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json; charset=utf-8', ...headers } })

/**
 * Everything the console shows, in one call to the workspace once its version differs from
 * `since` (or `waitMs` passed). Windows are what GET /approve/windows lists, plus the titles of
 * their shooting days; a window whose logs moved is drawn again once, by the first look after.
 */
async function consoleState(env: Env, since?: number, waitMs = 0) {
  const ws = workspace(env)
  const { windows: listings, ...state } = await ws.consoleState(since ?? -1, waitMs)
  const windows = await consoleWindows(ws, listings, mailConfig(env))
  return { ...state, windows, service: { version: pkg.version } }
}

/**
 * GET /approve: the console's shell for a signed-in operator, otherwise the sign-in form. `?key=`
 * signs in and redirects to the bare URL, so the key stays out of the address bar and history; the
 * CSRF token rides in the fragment, which the page moves into its own storage. The page itself
 * never carries the token nor any state: another server on this machine that received the
 * (port-blind) cookie and replays it gets nothing but the shell.
 */
export const openConsole: Handler<'openConsole'> = async ({ request, env, query: { key } }) => {
  const base = baseOf(env)
  if (key !== undefined) {
    if (await isOperatorKey(key, env)) {
      const { cookie, csrf } = await createSession(request, env)
      return new Response(null, {
        status: 303,
        headers: { location: `${base}/approve#session=${csrf}`, 'set-cookie': cookie },
      })
    }
    return page(
      signInPage({
        problem: 'The key in that link is not this service’s operator key. Enter the current one.',
        base,
      }),
      401,
    )
  }
  if (!(await sessionOf(request, env))) return page(signInPage({ base }))
  return page(consolePage({ serviceVersion: pkg.version, base }))
}

/** GET /approve/console/<name>: one module of the console's script. */
export const script: Handler<'consoleScript'> = ({ params: { file } }) => {
  const text = Object.hasOwn(CONSOLE_SCRIPTS, file!) ? CONSOLE_SCRIPTS[file!] : undefined
  if (text === undefined) throw new StatusError(404, { error: 'Not found' })
  return new Response(text, { headers: { 'content-type': 'text/javascript; charset=utf-8' } })
}

export const style = () => new Response(CONSOLE_STYLE, { headers: { 'content-type': 'text/css; charset=utf-8' } })

/**
 * The tab's icon: a reel on the service's green, so the console is found among a day's tabs (and
 * the browser does not ask for /favicon.ico, a 404 in its console).
 */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#15803d"/><circle cx="16" cy="16" r="10" fill="none" stroke="#fff" stroke-width="2.5"/><g fill="#fff"><circle cx="16" cy="10.5" r="2.6"/><circle cx="16" cy="21.5" r="2.6"/><circle cx="10.5" cy="16" r="2.6"/><circle cx="21.5" cy="16" r="2.6"/></g></svg>`

export const icon = () => new Response(ICON, { headers: { 'content-type': 'image/svg+xml' } })

/**
 * POST /approve/session {key}: the sign-in form, sent by the page's own script. JSON only and
 * same-origin only, so no other page (another localhost port included) can post it. The answer is
 * the one place besides the key link's redirect that hands out the CSRF token.
 */
export const signIn: Handler<'signIn'> = async ({ request, env, body }) => {
  refuseCrossOrigin(request)
  const { key } = await body()
  if (!(await isOperatorKey(key, env))) throw unauthorized()
  const { cookie, csrf } = await createSession(request, env)
  return json({ success: true, csrf }, { 'set-cookie': cookie })
}

/** DELETE /approve/session (behind withOperator): the browser forgets its session cookie. */
export const signOut: Handler<'signOut'> = ({ request }) =>
  json({ success: true }, { 'set-cookie': clearedSessionCookie(request) })

/**
 * GET /approve/state?since=<version>&wait=<seconds>: answers at once when the state's version
 * differs from `since` (or `since` is absent), otherwise as soon as it changes or `wait` runs out.
 */
export const liveState: Handler<'liveState'> = ({ env, query: { since, wait } }) =>
  consoleState(env, since, wait * 1000)

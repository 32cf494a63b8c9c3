import { describe, expect, it } from 'vitest'
import { withOperator } from '../src/http/guards'
import { router } from '../src/router'
import {
  approvedToken,
  call,
  fetchWorker,
  makeLog,
  OPERATOR_KEY,
  operator,
  pendingRequestOf,
  withProject,
  type Answer,
} from './helpers'

const OWN_ORIGIN = 'http://localhost:5252'
const HOSTILE_NAME = '<img src=x onerror=alert(1)>'

type Session = { cookie: string; csrf: string }

/** GET that shows a redirect as it is, body read. */
async function visit(path: string) {
  const response = await fetchWorker(new Request(`http://localhost:5252${path}`, { redirect: 'manual' }))
  return { status: response.status, headers: response.headers, body: await response.text() }
}

/** Opens the console link with the key, as the operator does: the cookie, and the token from the fragment. */
async function signIn(): Promise<Session> {
  const link = await visit(`/approve?key=${encodeURIComponent(OPERATOR_KEY)}`)
  expect(link.status).toBe(303)
  const cookie = link.headers.get('set-cookie')!.split(';')[0]!
  return { cookie, csrf: /^\/approve#session=(.+)$/.exec(link.headers.get('location')!)![1]! }
}

/** What an operator call carries from the console page: the cookie and the token from its storage. */
const sessionHeaders = ({ cookie, csrf }: Session) => ({ cookie, 'x-csrf-token': csrf })

/** The page must hold no token and no state: nothing a replayed cookie could read. */
function expectShellOnly(html: string, session: Session) {
  expect(html).toContain('<main id="console-main">')
  expect(html).not.toContain(session.csrf)
  expect(html).not.toMatch(/csrf/i)
  expect(html).not.toContain('application/json')
}

/** A decision as the console's script sends it, with the headers a browser adds. */
function decide(id: string, session: Partial<Session>, headers: Record<string, string> = {}, decision = 'approve') {
  return call('POST', `/approve/requests/${id}`, {
    body: { decision },
    headers: {
      origin: OWN_ORIGIN,
      'sec-fetch-site': 'same-origin',
      ...(session.cookie ? { cookie: session.cookie } : {}),
      ...(session.csrf ? { 'x-csrf-token': session.csrf } : {}),
      ...headers,
    },
  })
}

/** POST /auth left waiting, and its pending request id. */
async function ask(appName: string) {
  const answer = call('POST', '/auth', { body: { appName } })
  return { answer, id: await pendingRequestOf(appName) }
}

const stillPending = async (id: string) =>
  (await operator('GET', '/approve/requests')).body.requests.some((r: { id: string }) => r.id === id)

describe('console sign-in', () => {
  it('turns the key link into an HttpOnly, SameSite=Strict session and hands the CSRF token over in the fragment', async () => {
    const { status, headers, body } = await visit(`/approve?key=${OPERATOR_KEY}`)
    expect(status).toBe(303)
    expect(body).toBe('')
    expect(headers.get('location')).toMatch(/^\/approve#session=[A-Za-z0-9_-]{43}$/)
    const cookie = headers.get('set-cookie')!
    expect(cookie).toMatch(/^mls_operator=[0-9a-z]+\.[0-9a-f]{32}\.[A-Za-z0-9_-]{43}; /)
    expect(cookie.split('; ').slice(1)).toEqual(['Path=/', 'HttpOnly', 'SameSite=Strict', 'Max-Age=604800'])
    expect(cookie).not.toContain(OPERATOR_KEY)
    expect(headers.get('location')).not.toContain(OPERATOR_KEY)
    // The fragment's token is the one the cookie's session takes.
    const session = { cookie: cookie.split(';')[0]!, csrf: headers.get('location')!.split('#session=')[1]! }
    expect(await call('GET', '/approve/state', { headers: sessionHeaders(session) })).toMatchObject({
      status: 200,
      body: { requests: [] },
    })
  })

  it('names the session cookie __Host- and marks it Secure over HTTPS, as deployed, and finds it there', async () => {
    const https = (method: string, path: string, headers: Record<string, string> = {}) =>
      fetchWorker(new Request(`https://localhost${path}`, { method, redirect: 'manual', headers }))
    const link = await https('GET', `/approve?key=${OPERATOR_KEY}`)
    await link.arrayBuffer()
    expect(link.status).toBe(303)
    const cookie = link.headers.get('set-cookie')!
    expect(cookie).toMatch(/^__Host-mls_operator=[0-9a-z]+\.[0-9a-f]{32}\.[A-Za-z0-9_-]{43}; /)
    const session = { cookie: cookie.split(';')[0]!, csrf: link.headers.get('location')!.split('#session=')[1]! }
    const state = await https('GET', '/approve/state', { cookie: session.cookie, 'x-csrf-token': session.csrf })
    expect([state.status, (await state.json<{ requests: unknown[] }>()).requests]).toEqual([200, []])
    // The plain name is the laptop's: over HTTPS it opens nothing.
    const plain = await https('GET', '/approve/state', {
      cookie: session.cookie.replace('__Host-', ''),
      'x-csrf-token': session.csrf,
    })
    expect([plain.status, await plain.json()]).toEqual([401, { error: 'Unauthorized' }])
    expect(cookie.split('; ').slice(1)).toEqual(['Path=/', 'HttpOnly', 'SameSite=Strict', 'Max-Age=604800', 'Secure'])
    const out = await https('DELETE', '/approve/session', { 'x-operator-key': OPERATOR_KEY })
    expect(await out.json()).toEqual({ success: true })
    expect(out.headers.get('set-cookie')).toBe(
      '__Host-mls_operator=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
    )
  })

  it('shows the session only the page shell: no token, no state, the service version', async () => {
    const session = await signIn()
    const { id, answer } = await ask('Offload Tool')
    const { status, headers, body } = await call('GET', '/approve', { headers: { cookie: session.cookie } })
    expect(status).toBe(200)
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(body).toContain('<span id="service-version">0.1.0</span>')
    expectShellOnly(body, session)
    expect(body).not.toContain('Offload Tool')
    expect(body).not.toContain(id)
    expect(body).not.toContain(OPERATOR_KEY)
    // Without a token in its storage the page offers the key form to unlock this browser.
    expect(body).toContain('Enter the operator key to unlock this browser.')
    expect(body).toMatch(/<div class="sign-in-box" id="unlock" hidden>[\s\S]*<form id="sign-in-form"/)
    expect((await decide(id, session, {}, 'deny')).status).toBe(200)
    expect((await answer).status).toBe(403)
  })

  it('gives every session its own CSRF token', async () => {
    const a = await signIn()
    const b = await signIn()
    expect(a.cookie).not.toBe(b.cookie)
    expect(a.csrf).not.toBe(b.csrf)
  })

  it('asks for the key without a session, and refuses a wrong key without setting a cookie', async () => {
    const plain = await call('GET', '/approve')
    expect(plain.status).toBe(200)
    expect(plain.body).toContain('<form id="sign-in-form"')
    expect(plain.body).not.toContain('console-main')
    expect(plain.headers.get('set-cookie')).toBeNull()

    const wrong = await call('GET', '/approve?key=not-the-key-but-long-enough')
    expect(wrong.status).toBe(401)
    expect(wrong.body).toContain('<form id="sign-in-form"')
    expect(wrong.body).not.toContain('not-the-key-but-long-enough')
    expect(wrong.headers.get('set-cookie')).toBeNull()
  })

  it('does not accept a tampered or foreign cookie', async () => {
    const session = await signIn()
    const { cookie } = session
    const [issued, nonce, mac] = cookie.split('=')[1]!.split('.')
    for (const forged of [
      `mls_operator=${issued}.${nonce}.${mac!.slice(0, -2)}AA`,
      `mls_operator=${issued}.${'0'.repeat(32)}.${mac}`,
      'mls_operator=x',
      'other=1',
    ]) {
      const page = await call('GET', '/approve', { headers: { cookie: forged } })
      expect(page.body).toContain('<form id="sign-in-form"')
      expect(page.body).not.toContain('console-main')
      expect(await call('GET', '/approve/requests', { headers: { cookie: forged } })).toMatchObject({
        status: 401,
        body: { error: 'Unauthorized' },
      })
      expect(
        await call('GET', '/approve/requests', { headers: { cookie: forged, 'x-csrf-token': session.csrf } }),
      ).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
    }
  })

  it('finds the real session behind cookies of the same name another localhost page set', async () => {
    const session = await signIn()
    // The browser sends the cookie with the longer path first: the junk one for /approve/….
    const cookie = `mls_operator=junk; mls_operator=1.${'0'.repeat(32)}.${'A'.repeat(43)}; other=1; ${session.cookie}`
    expect(await call('GET', '/approve/state', { headers: { cookie, 'x-csrf-token': session.csrf } })).toMatchObject({
      status: 200,
      body: { requests: [] },
    })
    expect((await call('GET', '/approve', { headers: { cookie } })).body).toContain('console-main')
  })

  it('tries every copy a browser can hold: the session behind 8, 50 and 179 well-formed junk copies', async () => {
    const session = await signIn()
    const issued = Date.now().toString(36)
    const junk = (i: number) => `mls_operator=${issued}.${i.toString(16).padStart(32, '0')}.${'A'.repeat(43)}`
    for (const planted of [8, 50, 179]) {
      const cookie = [...Array.from({ length: planted }, (_, i) => junk(i)), session.cookie].join('; ')
      const state = await call('GET', '/approve/state', { headers: { cookie, 'x-csrf-token': session.csrf } })
      expect([planted, state.status, state.body.requests]).toEqual([planted, 200, []])
    }
    // Past what any browser keeps for one host, the header was made by hand: the rest is not read.
    const stuffed = [...Array.from({ length: 180 }, (_, i) => junk(i)), session.cookie].join('; ')
    expect(
      await call('GET', '/approve/state', { headers: { cookie: stuffed, 'x-csrf-token': session.csrf } }),
    ).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
  })

  it('signs in by POST /approve/session {key} from the page itself, answering the CSRF token', async () => {
    const ok = await call('POST', '/approve/session', {
      body: { key: OPERATOR_KEY },
      headers: { origin: OWN_ORIGIN, 'sec-fetch-site': 'same-origin' },
    })
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ success: true, csrf: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) })
    const cookie = ok.headers.get('set-cookie')!
    expect(cookie).toContain('HttpOnly; SameSite=Strict')
    const session = { cookie: cookie.split(';')[0]!, csrf: ok.body.csrf }
    expect(await call('GET', '/approve/state', { headers: sessionHeaders(session) })).toMatchObject({
      status: 200,
      body: { requests: [] },
    })
    expectShellOnly((await call('GET', '/approve', { headers: { cookie: session.cookie } })).body, session)
  })

  it('refuses POST /approve/session with a wrong key, from another origin or site, or as a form', async () => {
    const cases: Array<[Record<string, string>, unknown, number, unknown]> = [
      [{}, { key: 'wrong-key-wrong-key-wrong-key' }, 401, { error: 'Unauthorized' }],
      [{ origin: 'http://localhost:5399' }, { key: OPERATOR_KEY }, 403, { error: 'Cross-origin request refused' }],
      [{ origin: 'http://evil.example' }, { key: OPERATOR_KEY }, 403, { error: 'Cross-origin request refused' }],
      [{ 'sec-fetch-site': 'same-site' }, { key: OPERATOR_KEY }, 403, { error: 'Cross-site request refused' }],
      [{ 'sec-fetch-site': 'cross-site' }, { key: OPERATOR_KEY }, 403, { error: 'Cross-site request refused' }],
      [{}, { key: '' }, 400, { error: 'Validation Error', details: [{ prop: 'key', message: 'must not be empty' }] }],
      [{}, { key: 42 }, 400, { error: 'Validation Error', details: [{ prop: 'key', message: 'must be a string' }] }],
    ]
    for (const [headers, body, status, answer] of cases) {
      const res = await call('POST', '/approve/session', { body, headers })
      expect([headers, res.status, res.body]).toEqual([headers, status, answer])
      expect(res.headers.get('set-cookie')).toBeNull()
    }
    const form = await call('POST', '/approve/session', {
      raw: `key=${OPERATOR_KEY}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect([form.status, form.body]).toEqual([415, { error: 'Unsupported Media Type' }])
    expect(form.headers.get('set-cookie')).toBeNull()
  })

  it('never lets an API token open the console', async () => {
    const token = await approvedToken()
    const asHeader = await call('GET', '/approve', { token })
    expect(asHeader.body).toContain('<form id="sign-in-form"')
    expect(asHeader.body).not.toContain('console-main')
    const asKey = await call('GET', `/approve?key=${token}`)
    expect(asKey.status).toBe(401)
    expect(asKey.headers.get('set-cookie')).toBeNull()
    const posted = await call('POST', '/approve/session', { body: { key: token } })
    expect([posted.status, posted.body]).toEqual([401, { error: 'Unauthorized' }])
    for (const [method, path] of [
      ['GET', '/approve/state'],
      ['DELETE', '/approve/session'],
      ['GET', '/approve/requests'],
      ['GET', '/approve/tokens'],
    ]) {
      expect(await call(method!, path!, { token })).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
    }
  })

  it('signs out: DELETE /approve/session clears the cookie, and only with the CSRF token', async () => {
    const session = await signIn()
    const headers = { cookie: session.cookie, origin: OWN_ORIGIN, 'sec-fetch-site': 'same-origin' }
    const refused = await call('DELETE', '/approve/session', { headers })
    expect([refused.status, refused.body]).toEqual([403, { error: 'Missing or invalid CSRF token' }])
    const out = await call('DELETE', '/approve/session', { headers: { ...headers, 'x-csrf-token': session.csrf } })
    expect([out.status, out.body]).toEqual([200, { success: true }])
    expect(out.headers.get('set-cookie')).toBe('mls_operator=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0')
  })
})

describe('console defences', () => {
  it('refuses a foreign Host (DNS rebinding) with 403', async () => {
    for (const host of ['evil.example', 'evil.example:5252', '192.168.1.20:5252', 'localhost.evil.example']) {
      const res = await call('GET', '/approve', { headers: { host } })
      expect([host, res.status, res.body]).toEqual([host, 403, { error: 'Host not allowed' }])
    }
    // The same through a URL that names the other host.
    const response = await fetchWorker(
      new Request('http://rebound.example:5252/approve/state', { headers: { 'x-operator-key': OPERATOR_KEY } }),
    )
    expect([response.status, await response.json()]).toEqual([403, { error: 'Host not allowed' }])
    for (const host of ['localhost:5252', '127.0.0.1:5252', '[::1]:5252']) {
      expect((await call('GET', '/approve', { headers: { host } })).status).toBe(200)
    }
  })

  it('sends CSP, X-Frame-Options and nosniff with the console and the sign-in page', async () => {
    const { cookie } = await signIn()
    for (const res of [
      await call('GET', '/approve', { headers: { cookie } }),
      await call('GET', '/approve'),
      await call('GET', '/approve?key=wrong-key-wrong-key'),
    ]) {
      const csp = res.headers.get('content-security-policy')!
      const directives = csp.split('; ')
      expect(directives).toContain("default-src 'self'")
      expect(directives).toContain("script-src 'self'")
      expect(directives).toContain("style-src 'self'")
      expect(directives).toContain("frame-ancestors 'none'")
      expect(directives).toContain("object-src 'none'")
      expect(directives).toContain("base-uri 'none'")
      // Style attributes only, for the e-mail preview's sandboxed frame; never inline script or <style>.
      expect(directives.filter((d) => d.includes('unsafe'))).toEqual(["style-src-attr 'unsafe-inline'"])
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
      // The only script: the console's own file.
      expect([...res.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
        '<script type="module" src="/approve/console/main.browser.js">',
      ])
      expect(res.body).not.toMatch(/\son[a-z]+=/i)
    }
  })

  it('serves its script modules and style from the service, without a session, and nothing else under their path', async () => {
    const main = await call('GET', '/approve/console/main.browser.js')
    expect(main.status).toBe(200)
    expect(main.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    // Every module the script imports is served, and none reaches beyond the service.
    const imported = [...main.body.matchAll(/from '\.\/([\w.]+)'/g)].map((m) => m[1])
    expect(imported.sort()).toEqual([
      'apps.browser.js',
      'core.browser.js',
      'days.browser.js',
      'live.browser.js',
      'requests.browser.js',
      'units.browser.js',
      'watchers.browser.js',
      'windows.browser.js',
    ])
    for (const name of imported) {
      const js = await call('GET', `/approve/console/${name}`)
      expect(js.status, name).toBe(200)
      expect(js.body, name).toMatch(/^\/\/ @ts-check/)
      expect(js.body, name).not.toMatch(/\.(inner|outer)HTML\b|insertAdjacentHTML|document\.write/)
      expect(js.body, name).not.toMatch(/https?:\/\//)
    }
    for (const name of ['nope.js', 'console.css', '..%2Fpage.ts', 'constructor', '__proto__']) {
      expect(await call('GET', `/approve/console/${name}`), name).toMatchObject({
        status: 404,
        body: { error: 'Not found' },
      })
    }
    const css = await call('GET', '/approve/console.css')
    expect(css.status).toBe(200)
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(css.body).not.toMatch(/@import|url\(/)
    // The tab's icon, which the pages link (so the browser never asks /favicon.ico): a plain image.
    const icon = await call('GET', '/approve/icon.svg')
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    expect(icon.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(icon.body).not.toMatch(/<script|on\w+=|href=/)
    const { body: page } = await call('GET', '/approve')
    expect(page).toContain('<link rel="icon" href="/approve/icon.svg" type="image/svg+xml">')
  })

  it('keeps an application name that is markup out of the page, and hands it to the script as JSON', async () => {
    const session = await signIn()
    const names = [HOSTILE_NAME, '</script><script>alert(2)</script>', '"><svg onload=alert(3)>']
    const asked = await Promise.all(names.map(ask))
    const { body: html } = await call('GET', '/approve', { headers: { cookie: session.cookie } })
    for (const name of names) expect(html).not.toContain(name)
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<svg')
    expect(html.match(/<\/script>/g)).toHaveLength(1)
    const state = await call('GET', '/approve/state', { headers: sessionHeaders(session) })
    expect(state.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(state.body.requests.map((r: { appName: string }) => r.appName).sort()).toEqual([...names].sort())
    for (const { id, answer } of asked) {
      expect((await decide(id, session, {}, 'deny')).status).toBe(200)
      expect((await answer).status).toBe(403)
    }
  })

  it('needs the page’s CSRF token for a decision made with the cookie', async () => {
    const session = await signIn()
    const other = await signIn()
    const { id, answer } = await ask('Offload Tool')
    const refusals: Array<[string, Partial<Session>]> = [
      ['no token', { cookie: session.cookie }],
      ['wrong token', { cookie: session.cookie, csrf: session.csrf.slice(0, -3) + 'AAA' }],
      ['token of another session', { cookie: session.cookie, csrf: other.csrf }],
      ['empty token', { cookie: session.cookie, csrf: '' }],
    ]
    for (const [what, credentials] of refusals) {
      const res = await decide(id, credentials)
      expect([what, res.status, res.body]).toEqual([what, 403, { error: 'Missing or invalid CSRF token' }])
    }
    expect(await stillPending(id)).toBe(true)
    expect(await decide(id, session)).toMatchObject({ status: 200, body: { success: true } })
    expect((await answer).status).toBe(200)
  })

  it('refuses a decision from another origin or site, even with cookie and token', async () => {
    const session = await signIn()
    const { id, answer } = await ask('Offload Tool')
    const cases: Array<[Record<string, string>, string]> = [
      [{ origin: 'http://localhost:5399' }, 'Cross-origin request refused'],
      [{ origin: 'http://127.0.0.1:5252' }, 'Cross-origin request refused'],
      [{ origin: 'https://localhost:5252' }, 'Cross-origin request refused'],
      [{ origin: 'null' }, 'Cross-origin request refused'],
      [{ 'sec-fetch-site': 'same-site' }, 'Cross-site request refused'],
      [{ 'sec-fetch-site': 'cross-site' }, 'Cross-site request refused'],
      [{ 'sec-fetch-site': 'none' }, 'Cross-site request refused'],
    ]
    for (const [headers, error] of cases) {
      const res = await decide(id, session, headers)
      expect([headers, res.status, res.body]).toEqual([headers, 403, { error }])
    }
    // With the operator key as well: the Origin check comes first.
    const keyed = await call('POST', `/approve/requests/${id}`, {
      body: { decision: 'approve' },
      headers: { 'x-operator-key': OPERATOR_KEY, origin: 'http://localhost:5399' },
    })
    expect([keyed.status, keyed.body]).toEqual([403, { error: 'Cross-origin request refused' }])
    expect(await stillPending(id)).toBe(true)
    expect((await decide(id, session, {}, 'deny')).status).toBe(200)
    expect((await answer).status).toBe(403)
  })

  it('refuses what a hostile page can send: a form post, with the cookie but no token', async () => {
    const session = await signIn()
    const { id, answer } = await ask('Offload Tool')
    const form = await call('POST', `/approve/requests/${id}`, {
      raw: 'decision=approve',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: session.cookie,
        origin: 'http://127.0.0.1:5399',
        'sec-fetch-site': 'same-site',
      },
    })
    expect([form.status, form.body]).toEqual([403, { error: 'Cross-origin request refused' }])
    // A same-origin form (no custom headers possible) still lacks the token.
    const sameOrigin = await call('POST', `/approve/requests/${id}`, {
      raw: '{"decision":"approve"}',
      headers: {
        'content-type': 'text/plain',
        cookie: session.cookie,
        origin: OWN_ORIGIN,
        'sec-fetch-site': 'same-origin',
      },
    })
    expect([sameOrigin.status, sameOrigin.body]).toEqual([403, { error: 'Missing or invalid CSRF token' }])
    // And with the token, the body must still be JSON.
    const plain = await call('POST', `/approve/requests/${id}`, {
      raw: '{"decision":"approve"}',
      headers: {
        'content-type': 'text/plain',
        cookie: session.cookie,
        'x-csrf-token': session.csrf,
        origin: OWN_ORIGIN,
      },
    })
    expect([plain.status, plain.body]).toEqual([415, { error: 'Unsupported Media Type' }])
    expect(await stillPending(id)).toBe(true)
    expect((await decide(id, session, {}, 'deny')).status).toBe(200)
    expect((await answer).status).toBe(403)
  })

  it('answers no CORS preflight, so another origin cannot send JSON or custom headers', async () => {
    const res = await call('OPTIONS', '/approve/requests/x', {
      headers: {
        origin: 'http://localhost:5399',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-csrf-token',
      },
    })
    expect(res.status).toBe(405)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('access-control-allow-headers')).toBeNull()
  })

  it('answers the Local Explorer paths from its own router, with no data', async () => {
    const paths: Array<[string, string, unknown?]> = [
      ['GET', '/cdn-cgi/explorer/api/workers/durable_objects/namespaces'],
      [
        'POST',
        '/cdn-cgi/explorer/api/workers/durable_objects/namespaces/Workspace/query',
        { durable_object_name: 'workspace', queries: [{ sql: 'select * from tokens' }] },
      ],
      ['GET', '/cdn-cgi/explorer/'],
    ]
    await approvedToken()
    for (const [method, path, body] of paths) {
      const res: Answer = await call(method, path, { body })
      expect([path, res.status, res.body]).toEqual([path, 404, { error: 'Not found' }])
    }
  })
})

/** A project with a PDF and an e-mail preset, two logs, and one send window for both days. */
async function projectWithWindow(name = 'NightShoot') {
  const { token } = await withProject(name)
  const config = await call('PATCH', '/project/config', {
    token,
    body: {
      pdfs: [
        { id: 'CLIPS', label: 'Clips report', output_name: '<project>_<yyyymmdd>_clips.pdf', template: 'clips-report' },
      ],
      emails: [
        {
          id: 'DAILY',
          label: 'Daily report',
          recipients: ['producer@example.com'],
          subject: '<project> – Day <d>',
          message: 'Hello',
          attachments: ['CLIPS'],
          template: 'day-summary',
        },
      ],
    },
  })
  expect(config.status).toBe(200)
  expect((await call('POST', '/log', { token, body: makeLog('D001', 2) })).status).toBe(201)
  expect((await call('POST', '/log', { token, body: makeLog('D002', 1, { day: 2, date: '2024-01-02' }) })).status).toBe(
    201,
  )
  return token
}

const openWindow = (token: string, logId: unknown = ['D001', 'D002']) =>
  call('POST', '/open-email-window', { token, body: { logId, presetId: 'DAILY' } })

describe('a replayed session cookie (cookies are not port-scoped: any other local server gets it)', () => {
  it('is refused on every operator endpoint without the CSRF token, and changes nothing', async () => {
    const session = await signIn()
    const token = await projectWithWindow()
    expect(await openWindow(token)).toMatchObject({ status: 200, body: { success: true } })
    const { id: requestId, answer } = await ask('Target App')
    const watcherId = '0f8c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b'
    const watching = { folders: ['/Volumes/SHUTTLE_01'], everySeconds: 15, taken: 0, problems: [], walkedOnly: [] }
    expect((await call('PUT', `/watchers/${watcherId}`, { token, body: watching })).status).toBe(201)
    const before = {
      state: (await operator('GET', '/approve/state')).body,
      windows: (await operator('GET', '/approve/windows')).body.windows,
    }
    const [window] = before.windows
    const tokenId = token.split('_')[1]

    // Every route behind withOperator, by its pattern, with what a replay would send to it.
    const attempts: Record<string, [string, unknown?]> = {
      'GET /approve/state': ['/approve/state?since=0&wait=0'],
      'DELETE /approve/session': ['/approve/session'],
      'GET /approve/requests': ['/approve/requests'],
      'POST /approve/requests/:id': [`/approve/requests/${requestId}`, { decision: 'approve' }],
      'GET /approve/tokens': ['/approve/tokens'],
      'DELETE /approve/tokens/:id': [`/approve/tokens/${tokenId}`],
      'GET /approve/windows': ['/approve/windows'],
      'GET /approve/windows/:id': [`/approve/windows/${window.id}`],
      'PATCH /approve/windows/:id': [
        `/approve/windows/${window.id}`,
        { subject: 'Taken over', recipients: ['thief@example.com'] },
      ],
      'DELETE /approve/windows/:id': [`/approve/windows/${window.id}`],
      'POST /approve/windows/:id/send': [`/approve/windows/${window.id}/send`],
      'GET /approve/windows/:id/attachments/:presetId': [window.attachments[0].url],
      'GET /approve/windows/:id/message.eml': [window.emlUrl],
      'GET /approve/days': ['/approve/days'],
      'GET /approve/days/:id': ['/approve/days/D001'],
      'GET /approve/days/:id/pdf/:presetId': ['/approve/days/D001/pdf/DAILY'],
      'GET /approve/days/pdf/:presetId': ['/approve/days/pdf/DAILY'],
      'PATCH /approve/days/:id/volumes/:volume': ['/approve/days/D001/volumes/RAID', { name: 'THIEF' }],
      'DELETE /approve/days/:id/volumes/:volume': ['/approve/days/D001/volumes/RAID'],
      'POST /approve/windows': ['/approve/windows', { logId: 'D001' }],
      'GET /approve/link': ['/approve/link'],
      'POST /approve/link': [
        '/approve/link',
        { url: 'https://media-log.example.com/productions/x', unit: 'Thief', linkCode: 'QPM8-X6HC-6QVV-8JBY' },
      ],
      'POST /approve/link-codes': ['/approve/link-codes', { name: 'Thief', unit: true }],
      'GET /approve/link-codes': ['/approve/link-codes'],
      'DELETE /approve/link-codes/:id': ['/approve/link-codes/0123456789abcdef'],
      'DELETE /approve/link': ['/approve/link'],
      'GET /approve/conflicts': ['/approve/conflicts'],
      'GET /approve/conflicts/:id': ['/approve/conflicts/D001'],
      'GET /approve/days/:id/set-aside': ['/approve/days/D001/set-aside'],
      'GET /approve/days/:id/set-aside/:rev': ['/approve/days/D001/set-aside/1-0123456789abcdef'],
      'POST /approve/conflicts/:id': ['/approve/conflicts/D001', { keep: '1-0123456789abcdef' }],
      'DELETE /approve/watchers/:id': [`/approve/watchers/${watcherId}`],
    }
    const guarded = router.routes
      .filter(([, , handlers]) => handlers.includes(withOperator))
      .map(([method, , , path]) => `${method} ${path}`)
    expect(guarded.sort()).toEqual(Object.keys(attempts).sort())

    for (const [route, [path, body]] of Object.entries(attempts)) {
      const method = route.split(' ')[0]!
      // A server-side replay: the cookie, no Origin, no Sec-Fetch-* (as Node's fetch sends it).
      const replayed = await call(method, path, { body, headers: { cookie: session.cookie } })
      expect([route, replayed.status, replayed.body]).toEqual([route, 403, { error: 'Missing or invalid CSRF token' }])
      expect(replayed.headers.get('set-cookie')).toBeNull()
    }

    // The page it can fetch is the shell: no token to scrape, no request, window or application in it.
    const page = await call('GET', '/approve', { headers: { cookie: session.cookie } })
    expect(page.status).toBe(200)
    expectShellOnly(page.body, session)
    for (const secret of [requestId, 'Target App', window.id, window.subject, 'producer@example.com', 'Offload Tool'])
      expect(page.body).not.toContain(secret)

    const after = (await operator('GET', '/approve/state')).body
    expect(after.version).toBe(before.state.version)
    expect(after.requests.map((r: { id: string }) => r.id)).toEqual([requestId])
    expect(after.tokens.map((t: { id: string }) => t.id)).toEqual([tokenId])
    expect(after.watchers).toEqual(before.state.watchers)
    expect((await operator('GET', '/approve/windows')).body.windows).toEqual(before.windows)
    // The cookie still works for the operator's own page, which has the token.
    expect((await decide(requestId, session, {}, 'deny')).status).toBe(200)
    expect((await answer).status).toBe(403)
  })
})

describe('send windows in the live state', () => {
  it('lists them as GET /approve/windows does, with the titles of their days', async () => {
    const token = await projectWithWindow()
    const { body: now } = await operator('GET', '/approve/state')
    expect(now.windows).toEqual([])
    const polled = operator('GET', `/approve/state?since=${now.version}`)
    const started = Date.now()
    expect(await openWindow(token, ['D002', 'D001'])).toMatchObject({ status: 200 })
    const { status, body } = await polled
    expect(status).toBe(200)
    expect(Date.now() - started).toBeLessThan(5000)
    const { body: listed } = await operator('GET', '/approve/windows')
    expect(listed.windows).toHaveLength(1)
    expect(body.windows).toEqual([{ ...listed.windows[0], days: ['Day 1 — 2024-01-01', 'Day 2 — 2024-01-02'] }])
    expect(body.windows[0]).toMatchObject({
      project: 'NightShoot',
      presetLabel: 'Daily report',
      subject: 'NightShoot – Day 1-2',
      status: 'draft',
    })
  })

  it('ends the long poll on an edit and on a discard', async () => {
    const token = await projectWithWindow()
    await openWindow(token, 'D001')
    await openWindow(token, 'D002')
    const { body: now } = await operator('GET', '/approve/state')
    expect(now.windows.map((w: { days: string[] }) => w.days)).toEqual([['Day 1 — 2024-01-01'], ['Day 2 — 2024-01-02']])
    const [first, second] = now.windows
    const edited = operator('GET', `/approve/state?since=${now.version}`)
    expect((await operator('PATCH', `/approve/windows/${first.id}`, { subject: 'Day 1 from set' })).status).toBe(200)
    const afterEdit = (await edited).body
    expect(afterEdit.windows.map((w: { subject: string }) => w.subject)).toEqual(['Day 1 from set', second.subject])
    const discarded = operator('GET', `/approve/state?since=${afterEdit.version}`)
    expect((await operator('DELETE', `/approve/windows/${second.id}`)).status).toBe(200)
    expect((await discarded).body.windows.map((w: { id: string }) => w.id)).toEqual([first.id])
  })
})

describe('GET /approve/state (the console’s long poll)', () => {
  it('answers at once without `since`: version, requests, tokens and the service version', async () => {
    const token = await approvedToken('Offload Tool')
    const { id, answer } = await ask('Rushes Script')
    const { status, body } = await operator('GET', '/approve/state')
    expect(status).toBe(200)
    expect(body).toEqual({
      version: expect.any(Number),
      requests: [
        {
          id,
          appName: 'Rushes Script',
          code: null,
          userAgent: null,
          mixedScripts: [],
          createdAt: expect.any(String),
          lastAskedAt: expect.any(String),
          attempts: 1,
          expiresAt: expect.any(String),
        },
      ],
      tokens: [
        {
          id: token.split('_')[1],
          appName: 'Offload Tool',
          mixedScripts: [],
          createdAt: expect.any(String),
          lastUsedAt: null,
        },
      ],
      windows: [],
      project: null,
      sync: { linked: false, conflicts: [] },
      watchers: [],
      now: expect.any(String),
      service: { version: '0.1.0' },
    })
    await operator('POST', `/approve/requests/${id}`, { decision: 'deny' })
    expect((await answer).status).toBe(403)
  })

  it('names the active project and the time zone the console reads its times in', async () => {
    const { token } = await withProject('Harbour')
    // A project made here takes the service's zone (UTC under test), and may be given another.
    expect((await operator('GET', '/approve/state')).body.project).toEqual({ name: 'Harbour', timeZone: 'UTC' })
    const patched = await call('PATCH', '/project/config', { token, body: { time_zone: 'Europe/Berlin' } })
    expect(patched.status).toBe(200)
    expect((await operator('GET', '/approve/state')).body.project).toEqual({
      name: 'Harbour',
      timeZone: 'Europe/Berlin',
    })
  })

  it('answers the console’s session only with its CSRF token', async () => {
    const session = await signIn()
    const other = await signIn()
    const res = await call('GET', '/approve/state', { headers: sessionHeaders(session) })
    expect(res.status).toBe(200)
    expect(res.body.service).toEqual({ version: '0.1.0' })
    const attempts: Array<Record<string, string>> = [
      { cookie: session.cookie },
      { cookie: session.cookie, 'x-csrf-token': other.csrf },
      { cookie: session.cookie, 'x-csrf-token': '' },
    ]
    for (const headers of attempts) {
      const refused = await call('GET', '/approve/state', { headers })
      expect([refused.status, refused.body]).toEqual([403, { error: 'Missing or invalid CSRF token' }])
    }
    expect(await call('GET', '/approve/state')).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
  })

  it('holds while nothing changes, then answers with the same version', async () => {
    const { body: now } = await operator('GET', '/approve/state')
    const started = Date.now()
    const { status, body } = await operator('GET', `/approve/state?since=${now.version}&wait=1`)
    expect(status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    // The same state, answered later: only the service's time moved.
    expect({ ...body, now: 0 }).toEqual({ ...now, now: 0 })
    expect(Date.parse(body.now) - Date.parse(now.now)).toBeGreaterThanOrEqual(900)
  })

  it('answers as soon as a request arrives, with the request in it', async () => {
    const { body: now } = await operator('GET', '/approve/state')
    const polled = operator('GET', `/approve/state?since=${now.version}`)
    const started = Date.now()
    const asked = call('POST', '/auth', { body: { appName: 'Offload Tool' } })
    const { status, body } = await polled
    expect(status).toBe(200)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(body.version).not.toBe(now.version)
    expect(body.requests.map((r: { appName: string }) => r.appName)).toEqual(['Offload Tool'])
    // A decision is a change too: the next poll returns without waiting.
    const next = operator('GET', `/approve/state?since=${body.version}`)
    await operator('POST', `/approve/requests/${body.requests[0].id}`, { decision: 'approve' })
    const after = await next
    expect(after.body.requests).toEqual([])
    expect(after.body.tokens.map((t: { appName: string }) => t.appName)).toEqual(['Offload Tool'])
    expect((await asked).status).toBe(200)
  })

  it('answers at once when `since` is not the current version (the service restarted)', async () => {
    const { body: now } = await operator('GET', '/approve/state')
    const started = Date.now()
    const res = await operator('GET', `/approve/state?since=${now.version + 1000}`)
    expect({ ...res.body, now: 0 }).toEqual({ ...now, now: 0 })
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('rejects a `since` or `wait` that is not a whole number in range', async () => {
    for (const [query, prop, message] of [
      ['since=abc', 'since', 'must be a whole number from 0 to 9007199254740991'],
      ['since=-1', 'since', 'must be a whole number from 0 to 9007199254740991'],
      ['since=1.5', 'since', 'must be a whole number from 0 to 9007199254740991'],
      ['since=1&since=2', 'since', 'must be a whole number from 0 to 9007199254740991'],
      ['wait=26', 'wait', 'must be a whole number from 0 to 25'],
      ['wait=', 'wait', 'must be a whole number from 0 to 25'],
    ]) {
      const res = await operator('GET', `/approve/state?${query}`)
      expect([query, res.status, res.body]).toEqual([
        query,
        400,
        { error: 'Validation Error', details: [{ prop, message }] },
      ])
    }
  })
})

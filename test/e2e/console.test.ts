/**
 * The operator console in a real browser against the real service under `wrangler dev`: sign-in
 * by link, requests appearing live, Approve / Deny / Revoke, errors in words, and a hostile page
 * on another localhost port that tries to approve with the operator's cookie in the browser, and
 * its server that replays the cookie the browser sent it.
 */
import { mkdir } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, type Page, type Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MediaLogClient } from 'media-log-service/client'
import { LAPTOP, PHONE, openBrowser } from './browser'
import { freePort, jsonCaller, startService, type Service } from './server'

// Screenshots for a person to look at; never part of the repository.
const SHOTS = join(tmpdir(), 'media-log-console-shots')
const HOSTILE_NAME = '<img src=x onerror=alert(1)>'
/** Every path the console calls, and the folders above them: where a planted cookie is sent first. */
const TOSSED_PATHS = [
  '/approve/state',
  '/approve',
  '/approve/',
  '/',
  '/approve/requests',
  '/approve/requests/',
  '/approve/tokens',
  '/approve/tokens/',
  '/approve/session',
  '/approve/windows',
  '/approve/windows/',
  '/approve/state/',
  '/log',
  '/log/',
  '/logs',
  '/checks',
  '/project',
  '/projects',
  '/pdf-presets',
  '/email-presets',
  '/open-email-window',
  '/send',
  '/generate-pdf',
  '/ping',
  '/version',
]

/**
 * Lets the test hold the console's long poll, so the page does not learn of a change made
 * elsewhere: the situation in which a click meets a request that is already gone.
 */
class PollGate {
  holding = false
  readonly held: Route[] = []
  async attach(page: Page) {
    await page.route('**/approve/state*', (route) => {
      if (this.holding) this.held.push(route)
      else void route.continue()
    })
  }
  /** The poll in flight still answers (with the next change); the one after it is held. */
  holdNext() {
    this.holding = true
  }
  async caught() {
    for (let i = 0; i < 300 && !this.held.length; i++) await new Promise((r) => setTimeout(r, 100))
    if (!this.held.length) throw new Error('the console did not poll again')
  }
  release() {
    this.holding = false
    for (const route of this.held.splice(0)) void route.continue()
  }
}

/**
 * What another server on this machine can do with the operator's cookie once the browser sent it
 * there: load the console, look for a token or state in it, call the JSON endpoints, approve.
 */
async function replay(cookie: string, target: string) {
  const base = new URL(target).origin
  const page = await fetch(`${base}/approve`, { headers: { cookie } })
  const html = await page.text()
  const scraped = /csrf-token" content="([^"]+)"/.exec(html)?.[1] ?? /session=([\w-]{20,})/.exec(html)?.[1] ?? ''
  const headers: Record<string, string> = { cookie, ...(scraped ? { 'x-csrf-token': scraped } : {}) }
  const answer = async (response: Response) => [response.status, await response.json()]
  return {
    gotCookie: /(^|; )mls_operator=/.test(cookie),
    page: page.status,
    scraped,
    pageShowsState: html.includes('Target App') || html.includes('initial-state'),
    state: await answer(await fetch(`${base}/approve/state`, { headers })),
    requests: await answer(await fetch(`${base}/approve/requests`, { headers })),
    approve: await answer(
      await fetch(target, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'approve' }),
      }),
    ),
  }
}

/** An application asking for a token: the answer comes once the operator decides. */
const auth = (service: Service, appName: string) => jsonCaller(service)('POST', '/auth', { body: { appName } })

const operatorCall = (service: Service, method: string, path: string, body?: unknown) =>
  jsonCaller(service)(method, path, { operator: true, body })

async function pendingId(service: Service, appName: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const { body } = await operatorCall(service, 'GET', '/approve/requests')
    const found = body.requests.find((r: { appName: string }) => r.appName === appName)
    if (found) return found.id
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`no pending request from ${appName}`)
}

const projectsWith = async (service: Service, token: string) =>
  (await jsonCaller(service)('GET', '/projects', { token })).status

/** Settles within `ms`? */
const settles = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))])

async function shoot(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true })
  for (const [size, viewport] of [
    ['laptop', LAPTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport)
    await page.screenshot({ path: join(SHOTS, `${name}-${size}.png`), fullPage: true })
  }
  await page.setViewportSize(LAPTOP)
}

describe('operator console under wrangler dev', () => {
  let service: Service
  let browser: Awaited<ReturnType<typeof openBrowser>>
  let page: Page
  let context: BrowserContext
  const gate = new PollGate()
  const dialogs: string[] = []

  beforeAll(async () => {
    const port = await freePort(5800, 5819)
    service = await startService({ port, vars: { AUTH_TIMEOUT_SECONDS: '60', AUTH_PENDING_LIMIT: '3' } })
    browser = await openBrowser()
    context = browser.context
    page = context.pages()[0] ?? (await context.newPage())
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    await gate.attach(page)
  })

  afterAll(async () => {
    await browser?.close()
    await service?.stop()
  })

  it('answers the Local Explorer paths with its own 404 and no data (X_LOCAL_EXPLORER=false)', async () => {
    const list = await fetch(`${service.base}/cdn-cgi/explorer/api/workers/durable_objects/namespaces`)
    expect([list.status, await list.json()]).toEqual([404, { error: 'Not found' }])
    const query = await fetch(
      `${service.base}/cdn-cgi/explorer/api/workers/durable_objects/namespaces/Workspace/query`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ durable_object_name: 'workspace', queries: [{ sql: 'select * from tokens' }] }),
      },
    )
    expect([query.status, await query.json()]).toEqual([404, { error: 'Not found' }])
  })

  it('signs in once with the key link and lands on the bare /approve', async () => {
    const signIn = await page.goto(`${service.base}/approve?key=${service.operatorKey}`)
    expect(page.url()).toBe(`${service.base}/approve`)
    expect(signIn!.status()).toBe(200)
    const cookie = (await context.cookies(service.base)).find((c) => c.name === 'mls_operator')
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' })
    expect(await page.evaluate(() => document.cookie)).toBe('')
    // The token from the redirect's fragment sits in this origin's storage only, not in the page.
    const stored = await page.evaluate(() => [
      sessionStorage.getItem('mls-operator-csrf'),
      localStorage.getItem('mls-operator-csrf'),
    ])
    expect(stored[0]).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(stored[1]).toBe(stored[0])
    expect(await page.content()).not.toContain(stored[0])
    await page.getByText('No application is waiting.').waitFor()
    await page.getByText('No application is connected yet.').waitFor()
    expect(await page.locator('#service-version').textContent()).toBe('0.1.0')
    expect(await page.locator('#live').textContent()).toBe('Live')
    await shoot(page, '1-empty')
  })

  it('shows a new request without reload and Approve answers /auth with a working token', async () => {
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true))
    const asked = Date.now()
    const answer = auth(service, 'Offload Tool')
    const approve = page.getByRole('button', { name: 'Approve Offload Tool' })
    await approve.waitFor({ timeout: 5000 })
    // The long poll answers on the change itself; the bound only catches a fallback to slow polling.
    expect(Date.now() - asked).toBeLessThan(3000)
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
    const card = page.locator('#requests-list li', { hasText: 'Offload Tool' })
    expect(await card.locator('.countdown').textContent()).toMatch(/^Expires in (1:00|0:[0-5]\d)$/)
    expect(await card.locator('.meta').textContent()).toMatch(/^First asked at \d\d:\d\d:\d\d · (just now|\d+ s ago)$/)
    expect(await card.locator('.code-line').textContent()).toBe('No code: this application does not show one')
    expect(await page.title()).toBe('(1) Operator console — Media Log')

    await approve.click()
    const { status, body } = await answer
    expect(status).toBe(200)
    expect(await projectsWith(service, body.token)).toBe(200)
    await approve.waitFor({ state: 'detached' })
    await page.getByText('“Offload Tool” is approved and connected.').waitFor()
    await page.getByRole('button', { name: 'Revoke Offload Tool' }).waitFor()
    expect(await page.locator('#apps-list li').first().locator('.meta').textContent()).toMatch(
      /^Approved today, \d\d:\d\d · (not used yet|last used (just now|\d+ s ago))$/,
    )
    expect(await page.title()).toBe('Operator console — Media Log')
  })

  it('Deny (from the keyboard) answers /auth with 403 and connects nothing', async () => {
    const answer = auth(service, 'Rushes Script')
    const deny = page.getByRole('button', { name: 'Deny Rushes Script' })
    await deny.focus()
    await page.keyboard.press('Enter')
    expect(await answer).toEqual({ status: 403, body: { error: 'access not approved' } })
    await deny.waitFor({ state: 'detached' })
    // Focus does not fall back to the page's start when the decided item leaves.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('requests-title')
    await page.getByText('“Rushes Script” was denied.').waitFor()
    const { body } = await operatorCall(service, 'GET', '/approve/tokens')
    expect(body.tokens.map((t: { appName: string }) => t.appName)).toEqual(['Offload Tool'])
  })

  it('shows an application named with markup as text, and runs none of it', async () => {
    const hostile = auth(service, HOSTILE_NAME)
    const other = auth(service, 'Silverstack Sync')
    await page.getByRole('button', { name: `Approve ${HOSTILE_NAME}` }).waitFor()
    await page.getByRole('button', { name: 'Approve Silverstack Sync' }).waitFor()
    expect(await page.locator('#requests-list .app-name').allTextContents()).toEqual([HOSTILE_NAME, 'Silverstack Sync'])
    expect(await page.locator('main img').count()).toBe(0)
    expect(await page.locator('#requests-count').textContent()).toBe('2 waiting')
    await shoot(page, '2-two-pending')
    expect(dialogs).toEqual([])

    await page.getByRole('button', { name: `Deny ${HOSTILE_NAME}` }).click()
    await page.getByRole('button', { name: 'Approve Silverstack Sync' }).click()
    expect((await hostile).status).toBe(403)
    expect((await other).status).toBe(200)
    await page.getByRole('button', { name: 'Revoke Silverstack Sync' }).waitFor()
    await shoot(page, '3-connected')
  })

  it('Revoke asks first; after confirming, the token answers 401', async () => {
    const answer = auth(service, 'Pomfort Dashboard')
    await page.getByRole('button', { name: 'Approve Pomfort Dashboard' }).click()
    const { body } = await answer
    expect(await projectsWith(service, body.token)).toBe(200)

    await page.getByRole('button', { name: 'Revoke Pomfort Dashboard' }).click()
    await page
      .getByText('Revoke “Pomfort Dashboard”? It stops working at once and has to ask again to reconnect.')
      .waitFor()
    await shoot(page, '4-confirm-revoke')
    await page.getByRole('button', { name: 'Keep Pomfort Dashboard connected' }).click()
    expect(await projectsWith(service, body.token)).toBe(200)

    await page.getByRole('button', { name: 'Revoke Pomfort Dashboard' }).click()
    await page.getByRole('button', { name: 'Yes, revoke Pomfort Dashboard' }).click()
    await page.getByText('“Pomfort Dashboard” is revoked. It has to ask again to reconnect.').waitFor()
    await page.getByRole('button', { name: 'Revoke Pomfort Dashboard' }).waitFor({ state: 'detached' })
    expect(await projectsWith(service, body.token)).toBe(401)
  })

  it('says so when a request was already decided elsewhere (409)', async () => {
    gate.holdNext()
    try {
      const answer = auth(service, 'Second Tab')
      const approve = page.getByRole('button', { name: 'Approve Second Tab' })
      await approve.waitFor()
      await gate.caught()
      const id = await pendingId(service, 'Second Tab')
      expect(await operatorCall(service, 'POST', `/approve/requests/${id}`, { decision: 'deny' })).toEqual({
        status: 200,
        body: { success: true },
      })
      expect((await answer).status).toBe(403)
      await approve.click()
      await page.getByText('“Second Tab”: this request was already denied (in another tab or by a script).').waitFor()
      await approve.waitFor({ state: 'detached' })
    } finally {
      gate.release()
    }
  })

  it('holds AUTH_PENDING_LIMIT (3 here) requests: a fourth is refused with 429 and none leaves the page', async () => {
    const cams = ['Cam A', 'Cam B', 'Cam C']
    const answers = cams.map((name) => auth(service, name))
    for (const name of cams) await page.getByRole('button', { name: `Deny ${name}` }).waitFor()
    expect(await auth(service, 'Cam D')).toEqual({
      status: 429,
      body: {
        error: '3 connection requests are already waiting for the operator: ask again once some are approved or denied',
      },
    })
    expect(await page.locator('#requests-list li .app-name').allTextContents()).toEqual(cams)
    for (const name of cams) await page.getByRole('button', { name: `Deny ${name}` }).click()
    for (const answer of answers) expect((await answer).status).toBe(403)
  })

  it("shows each request's code, how often it asked, who it says it is, and warns of namesakes", async () => {
    const asking = (code: string, userAgent: string) =>
      new MediaLogClient({ baseUrl: service.base, userAgent }).send('POST', '/auth', { appName: 'media-log', code })
    const real = asking('K7QM-2XPD', 'media-log (pid 4242)')
    await page.getByText('K7QM-2XPD').waitFor()
    const impostor = asking('ZZZZ-0000', 'curl/8.5')
    // The real application asks again (it gave up on its first request): the same card, counted.
    const again = asking('K7QM-2XPD', 'media-log (pid 4242)')
    expect((await real).status).toBe(408)
    const cards = page.locator('#requests-list li')
    const realCard = cards.filter({ hasText: 'K7QM-2XPD' })
    await realCard.locator('.attempts', { hasText: 'asked 2 times' }).waitFor()
    expect(await realCard.locator('.says').textContent()).toBe('Says it is: media-log (pid 4242)')
    expect(await realCard.locator('.same-name').textContent()).toBe(
      '2 requests use this name. Approve the one whose code the application shows.',
    )
    const lookAlike = auth(service, 'D\u0430ytalog')
    await page.getByText('mixed letters: Latin + Cyrillic').waitFor()
    await shoot(page, '7-approval-codes')
    await realCard.getByRole('button', { name: 'Approve media-log' }).click()
    expect((await again).status).toBe(200)
    await cards.filter({ hasText: 'ZZZZ-0000' }).getByRole('button', { name: 'Deny media-log' }).click()
    await page.getByRole('button', { name: 'Deny D\u0430ytalog' }).click()
    for (const answer of [impostor, lookAlike]) expect((await answer).status).toBe(403)
  })

  describe('a hostile page on another localhost port, with the operator signed in', () => {
    let hostile: Server
    let hostileBase: string
    let requestId: string
    let answer: ReturnType<typeof auth>

    beforeAll(async () => {
      answer = auth(service, 'Target App')
      requestId = await pendingId(service, 'Target App')
      const target = `${service.base}/approve/requests/${requestId}`
      const pages: Record<string, string> = {
        // A JSON body smuggled through a text/plain form, then a plain urlencoded one.
        '/form-json': `<form method="post" action="${target}" enctype="text/plain"><input name='{"decision":"approve","x":"' value='"}'></form><script>document.forms[0].submit()</script>`,
        '/form': `<form method="post" action="${target}"><input name="decision" value="approve"></form><script>document.forms[0].submit()</script>`,
        '/fetch': `<script>
          const results = {}
          const attempt = async (name, url, init) => {
            try { const r = await fetch(url, init); results[name] = r.type === 'opaque' ? 'opaque' : r.status + ' ' + (await r.text()) }
            catch (e) { results[name] = 'blocked' }
          }
          ;(async () => {
            const body = JSON.stringify({ decision: 'approve' })
            await attempt('no-cors', ${JSON.stringify(target)}, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body })
            await attempt('cors-json', ${JSON.stringify(target)}, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json', 'x-csrf-token': 'guess' }, body })
            await attempt('read-console', ${JSON.stringify(`${service.base}/approve`)}, { credentials: 'include' })
            await attempt('read-state', ${JSON.stringify(`${service.base}/approve/state`)}, { credentials: 'include' })
            window.results = results
          })()
        </script>`,
        '/frame': `<iframe src="${service.base}/approve" width="600" height="400"></iframe>`,
      }
      hostile = createServer((req, res) => {
        if (req.url === '/replay') {
          void replay(req.headers.cookie ?? '', target).then((results) => {
            res.writeHead(200, { 'content-type': 'application/json' })
            res.end(JSON.stringify(results))
          })
          return
        }
        const html = pages[req.url ?? '']
        res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
        res.end(html ? `<!doctype html><title>hostile</title>${html}` : '')
      })
      const port = await freePort(5890, 5899)
      await new Promise<void>((resolve) => hostile.listen(port, '127.0.0.1', resolve))
      hostileBase = `http://127.0.0.1:${port}`
    })

    afterAll(async () => {
      // The browser's kept-alive connections would hold close() for a minute.
      hostile?.closeAllConnections()
      await new Promise((resolve) => hostile?.close(resolve))
    })

    it('cannot approve by form post', async () => {
      const attacker = await context.newPage()
      for (const path of ['/form-json', '/form']) {
        await attacker.goto(`${hostileBase}${path}`)
        await attacker.waitForURL(`${service.base}/approve/requests/${requestId}`)
        expect(JSON.parse((await attacker.locator('body').textContent()) ?? '')).toEqual({
          error: 'Cross-origin request refused',
        })
      }
      await attacker.close()
      expect(await settles(answer, 0)).toBe(false)
    })

    it('cannot approve, read the console or read the state by fetch', async () => {
      const attacker = await context.newPage()
      await attacker.goto(`${hostileBase}/fetch`)
      const results = await attacker
        .waitForFunction(() => (window as unknown as { results?: unknown }).results)
        .then((h) => h.jsonValue())
      // The no-cors post reached the service and was refused (opaque to the page); the others never got an answer out.
      expect(results).toEqual({
        'no-cors': 'opaque',
        'cors-json': 'blocked',
        'read-console': 'blocked',
        'read-state': 'blocked',
      })
      await attacker.close()
      expect(await settles(answer, 0)).toBe(false)
    })

    it('cannot read or approve anything by replaying, from its server, the cookie the browser sent it', async () => {
      const attacker = await context.newPage()
      await attacker.goto(`${hostileBase}/replay`)
      const results = JSON.parse((await attacker.locator('body').textContent()) ?? '')
      await attacker.close()
      const refused = [403, { error: 'Missing or invalid CSRF token' }]
      expect(results).toEqual({
        // Cookies are not port-scoped: the browser did hand the operator's session to this server.
        gotCookie: true,
        page: 200,
        scraped: '',
        pageShowsState: false,
        state: refused,
        requests: refused,
        approve: refused,
      })
      expect(await settles(answer, 0)).toBe(false)
    })

    it('cannot show the console in a frame', async () => {
      const attacker = await context.newPage()
      await attacker.goto(`${hostileBase}/frame`)
      await attacker.waitForTimeout(500)
      const frame = attacker.frames().find((f) => f !== attacker.mainFrame())!
      expect(await frame.locator('#requests').count()).toBe(0)
      await attacker.close()
    })

    it('left the request pending for the operator to decide', async () => {
      const { body } = await operatorCall(service, 'GET', '/approve/requests')
      expect(body.requests.map((r: { id: string }) => r.id)).toEqual([requestId])
      expect(await settles(answer, 0)).toBe(false)
      await page.getByRole('button', { name: 'Deny Target App' }).click()
      expect((await answer).status).toBe(403)
    })
  })

  it('works in a new tab of the same browser, through the token in localStorage', async () => {
    const tab = await context.newPage()
    await tab.goto(`${service.base}/approve`)
    await tab.getByText('No application is waiting.').waitFor()
    expect(await tab.locator('#live').textContent()).toBe('Live')
    await tab.close()
  })

  it('asks for the key when the browser has the cookie but no token, then works again', async () => {
    const tab = await context.newPage()
    await tab.goto(`${service.base}/approve/console.css`)
    await tab.evaluate(() => {
      localStorage.clear()
      sessionStorage.clear()
    })
    await tab.goto(`${service.base}/approve`)
    await tab.getByText('Enter the operator key to unlock this browser.', { exact: false }).waitFor()
    expect(await tab.locator('#console-main').isHidden()).toBe(true)
    await shoot(tab, '5-unlock')
    await tab.getByLabel('Operator key').fill(service.operatorKey)
    await tab.getByRole('button', { name: 'Open console' }).click()
    await tab.getByText('No application is waiting.').waitFor()
    expect(await tab.evaluate(() => localStorage.getItem('mls-operator-csrf'))).toMatch(/^[A-Za-z0-9_-]{43}$/)
    await tab.close()
    // The key form started a new session: the first tab picks up its token from localStorage.
    const answer = auth(service, 'After Unlock')
    await page.getByRole('button', { name: 'Deny After Unlock' }).click()
    expect((await answer).status).toBe(403)
  })

  it('signs out, then signs in again through the key form', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByLabel('Operator key').waitFor()
    // The form is the page's once its script has wired it (and focused the field): a click before
    // that, on a loaded machine, would submit the plain HTML form instead.
    await page.waitForFunction(() => document.activeElement?.id === 'key')
    expect((await context.cookies(service.base)).find((c) => c.name === 'mls_operator')).toBeUndefined()
    expect(
      await page.evaluate(() => [
        sessionStorage.getItem('mls-operator-csrf'),
        localStorage.getItem('mls-operator-csrf'),
      ]),
    ).toEqual([null, null])
    await page.getByLabel('Operator key').fill('not-the-operator-key-at-all')
    await page.getByRole('button', { name: 'Open console' }).click()
    await page.getByText('That is not the operator key.', { exact: false }).waitFor()
    await shoot(page, '0-sign-in')
    await page.getByLabel('Operator key').fill(service.operatorKey)
    await page.getByRole('button', { name: 'Open console' }).click()
    await page.getByRole('heading', { name: 'Waiting for approval' }).waitFor()
    expect(page.url()).toBe(`${service.base}/approve`)
  })
})

describe('operator console with a short approval timeout', () => {
  let service: Service
  let browser: Awaited<ReturnType<typeof openBrowser>>
  let page: Page
  const gate = new PollGate()

  beforeAll(async () => {
    const port = await freePort(5800, 5819)
    service = await startService({ port, vars: { AUTH_TIMEOUT_SECONDS: '4' } })
    browser = await openBrowser()
    page = browser.context.pages()[0] ?? (await browser.context.newPage())
    await gate.attach(page)
    await page.goto(`${service.base}/approve?key=${service.operatorKey}`)
    await page.getByText('No application is waiting.').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    await service?.stop()
  })

  it('drops an expired request from the list without reload', async () => {
    const answer = auth(service, 'Forgotten App')
    const approve = page.getByRole('button', { name: 'Approve Forgotten App' })
    await approve.waitFor()
    expect(await answer).toEqual({ status: 408, body: { error: 'Authentication request timed out' } })
    await approve.waitFor({ state: 'detached', timeout: 3000 })
    await page.getByText('No application is waiting.').waitFor()
  })

  it('says the request expired when Approve comes too late (404)', async () => {
    gate.holdNext()
    try {
      const answer = auth(service, 'Too Late')
      const approve = page.getByRole('button', { name: 'Approve Too Late' })
      await approve.waitFor()
      await gate.caught()
      expect((await answer).status).toBe(408)
      await page.locator('#requests-list li .countdown', { hasText: 'Time is up' }).waitFor()
      await approve.click()
      await page
        .getByText('“Too Late”: this request already expired or the application gave up. It can ask again.')
        .waitFor()
      await approve.waitFor({ state: 'detached' })
    } finally {
      gate.release()
    }
  })

  it('shows that the service is unreachable, and asks again at once when the operator comes back to the page', async () => {
    const refuse = (route: Route) => route.abort('connectionrefused')
    await page.route('**/approve/state*', refuse)
    // A change ends the poll in flight; the polls after it fail until the route is lifted.
    const answer = auth(service, 'Wake Up')
    await page.getByText('Reconnecting…').waitFor({ timeout: 10_000 })
    const notice = page.getByText('The service cannot be reached. Is it still running? Retrying…')
    await notice.waitFor()
    // Back to the page (focus) asks again at once, not at the next retry (500 ms to 1 s away after
    // the second failure).
    let failed = await page.waitForEvent('requestfailed', (r) => r.url().includes('/approve/state'))
    failed = await page.waitForEvent('requestfailed', (r) => r.url().includes('/approve/state'))
    await page.unroute('**/approve/state*', refuse)
    const asked = page.waitForRequest('**/approve/state*', { timeout: 240 })
    await page.evaluate(() => window.dispatchEvent(new Event('focus')))
    expect((await asked).url()).toContain('/approve/state')
    expect(failed.failure()?.errorText).toBe('net::ERR_CONNECTION_REFUSED')
    await page.getByText('Live', { exact: true }).waitFor({ timeout: 15_000 })
    await notice.waitFor({ state: 'detached' })
    expect((await answer).status).toBe(408)
    await page.getByText('No application is waiting.').waitFor()
  })
})

describe('operator console against a tossed cookie, and names with bidi controls', () => {
  let service: Service
  let browser: Awaited<ReturnType<typeof openBrowser>>
  let page: Page
  let hostile: Server
  let hostilePort: number

  beforeAll(async () => {
    service = await startService({ port: await freePort(5800, 5819) })
    browser = await openBrowser()
    page = browser.context.pages()[0] ?? (await browser.context.newPage())
    // Cookies are not port-scoped: a page on another port of 127.0.0.1 sets them for the console too,
    // for every path the console calls, partitioned (CHIPS) or not, well-formed so each costs a try.
    hostile = createServer((req, res) => {
      const count = Number(new URL(req.url!, 'http://x').searchParams.get('n'))
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><title>hostile</title><script>
        const paths = ${JSON.stringify(TOSSED_PATHS)}
        const issued = Date.now().toString(36)
        for (let i = 0; i < ${count}; i++) {
          const value = issued + '.' + String(i).padStart(32, '0') + '.' + 'A'.repeat(43)
          const partitioned = i % 2 ? '; Secure; Partitioned' : ''
          document.cookie = 'mls_operator=' + value + '; path=' + paths[i >> 1] + partitioned
        }
        document.title = 'tossed'
      </script>`)
    })
    hostilePort = await freePort(5890, 5899)
    await new Promise<void>((resolve) => hostile.listen(hostilePort, '127.0.0.1', resolve))
  })

  /** Lets the hostile page plant `count` cookies named like the console's session. */
  async function plant(count: number) {
    const attacker = await browser.context.newPage()
    await attacker.goto(`http://127.0.0.1:${hostilePort}/?n=${count}`)
    await attacker.waitForFunction(() => document.title === 'tossed')
    await attacker.close()
    return (await browser.context.cookies()).filter((c) => c.name === 'mls_operator' && c.domain === '127.0.0.1')
  }

  afterAll(async () => {
    hostile?.closeAllConnections()
    await new Promise((resolve) => hostile?.close(resolve))
    await browser?.close()
    await service?.stop()
  })

  for (const planted of [8, 50]) {
    it(`signs in, approves and revokes although another localhost page planted ${planted} cookies of its name`, async () => {
      const tossed = await plant(planted)
      expect(tossed.length).toBeGreaterThanOrEqual(planted - 1)
      await page.goto(`${service.base}/approve?key=${service.operatorKey}`)
      await page.locator('#live', { hasText: 'Live' }).waitFor()
      const name = `After ${planted} Tossed`
      const answer = auth(service, name)
      await page.getByRole('button', { name: `Approve ${name}` }).click()
      const { status, body } = await answer
      expect(status).toBe(200)
      expect(await projectsWith(service, body.token)).toBe(200)
      await page.getByRole('button', { name: `Revoke ${name}` }).click()
      await page.getByRole('button', { name: `Yes, revoke ${name}` }).click()
      await page.getByRole('button', { name: `Revoke ${name}` }).waitFor({ state: 'detached' })
      expect(await projectsWith(service, body.token)).toBe(401)
    })
  }

  it('shows a name with a right-to-left override as it was sent, the control marked', async () => {
    const answer = auth(service, '\u202Eloot.exe Offload Tool')
    const deny = page.getByRole('button', { name: 'Deny [U+202E]loot.exe Offload Tool' })
    await deny.waitFor()
    const name = page.locator('#requests-list li .app-name')
    expect(await name.textContent()).toBe('U+202Eloot.exe Offload Tool')
    // Read left to right: the mark first, then the text in the order it was sent.
    const [mark, heading] = await Promise.all([name.locator('.control').boundingBox(), name.boundingBox()])
    expect(mark!.x - heading!.x).toBeLessThan(8)
    expect(await name.evaluate((h) => getComputedStyle(h).unicodeBidi)).toBe('isolate')
    await shoot(page, '6-bidi-name')
    await deny.click()
    await page.getByText('“[U+202E]loot.exe Offload Tool” was denied.').waitFor()
    expect((await answer).status).toBe(403)
  })
})

// Units (docs/units.md), end to end: a production in deploy configuration and two carts, each
// `npm start` with its own state, the carts reaching the production through a TCP proxy that slows
// the link and cuts it. Both carts write while cut off; once it is back all three hold the same
// logs, byte for byte; a day both wrote is a conflict on all three, resolved in a console; an
// office note and a unit's new clip of one day merge; kill -9 of a cart mid-push and of the
// production mid-pull lose nothing acknowledged.
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyOfTree, launch, type Launched } from './launch'
import { openBrowser } from './browser'
import { runCommand } from './command'
import { startProxy, type Proxy } from './proxy'
import { call, tokenOn } from './service-calls'

const PRODUCTION_PORT = 5681
const CART_PORTS = [5682, 5683] as const
const PROXY_PORT = 5684
/** How long the network may take to bring everyone level once it is back (rounds every 5 s, backoff). */
const CONVERGE_MS = 45_000

const productionTree = copyOfTree()
const cartTree = copyOfTree()
const productionKey = randomBytes(24).toString('base64url')
writeFileSync(join(productionTree.dir, '.dev.vars'), `OPERATOR_KEY=${productionKey}\n`)
// The production as docs/units.md has it tried on one laptop: the same folder's npm start, named.
const AS_PRODUCTION = { MEDIA_LOG_PRODUCTION: 'feature' }
writeFileSync(join(cartTree.dir, '.dev.vars'), `OPERATOR_KEY=${randomBytes(24).toString('base64url')}\n`)

let production: Launched
const carts: Launched[] = []
let proxy: Proxy
/** Where the carts find the production: through the proxy. */
const PRODUCTION_URL = `http://127.0.0.1:${PROXY_PORT}/productions/feature`

const productionBase = () => `${production.base}/productions/feature`

/** A link code a production's operator made for `name` (`unit`: a unit's cart). */
async function linkCodeOn(base: string, operatorKey: string, name: string, unit = false) {
  const made = await call(base, 'POST', '/approve/link-codes', { operatorKey, body: { name, unit } })
  expect(made.status).toBe(201)
  return made.body as { code: string }
}

/** An office application's token on a production: its operator makes it a link code. */
async function productionTokenOn(base: string, operatorKey: string, appName: string): Promise<string> {
  const { code } = await linkCodeOn(base, operatorKey, appName)
  const response = await fetch(base + '/auth', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-link-code': code },
    body: JSON.stringify({ appName }),
  })
  const body = (await response.json()) as { token: string }
  expect(response.status).toBe(200)
  return body.token
}

const tokens: string[] = []
let observer: string

/** What each of the three answers to GET /logs, as sent. */
const listings = () =>
  Promise.all([
    ...carts.map((cart, i) => call(cart.base, 'GET', '/logs', { token: tokens[i] })),
    call(productionBase(), 'GET', '/logs', { token: observer }),
  ]).then((answers) => answers.map((answer) => answer.text))

/** Waits until the three list the same logs, byte for byte, holding `ids`; how long it took. */
async function converged(ids: string[]): Promise<number> {
  const started = Date.now()
  let last: string[] = []
  while (Date.now() - started < CONVERGE_MS) {
    last = await listings()
    const held = (JSON.parse(last[0]!) as { logs: Array<{ id: string }> }).logs.map((log) => log.id)
    if (last.every((text) => text === last[0]) && JSON.stringify(held) === JSON.stringify(ids))
      return Date.now() - started
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`not converged on ${ids.join(', ')} within ${CONVERGE_MS} ms:\n${last.join('\n')}`)
}

/** A cart's sync status once its round after the last change ended: nothing waiting, no error. */
async function settled(i: number) {
  let status: Answer | undefined
  for (let n = 0; n < 120; n++) {
    status = await call(carts[i]!.base, 'GET', '/sync/status', { token: tokens[i] })
    if (status.body.pending === 0 && status.body.error === null) break
    await new Promise((r) => setTimeout(r, 250))
  }
  return status!.body
}

const day = (id: string, dayNumber: number, unit: string, clips = 3) => ({
  id,
  day: dayNumber,
  date: `2026-03-${String((dayNumber % 28) + 1).padStart(2, '0')}`,
  unit,
  ocf: {
    clips: Array.from({ length: clips }, (_, i) => ({
      clip: `${unit[0]}${String(dayNumber).padStart(3, '0')}C${String(i + 1).padStart(3, '0')}`,
      size: 1_000_000 + i,
      copies: [{ volume: `${unit}_SSD`, hash: null }],
    })),
  },
  version: 1,
})

beforeAll(async () => {
  production = await launch('start', {
    dir: productionTree.dir,
    port: PRODUCTION_PORT,
    state: join(productionTree.dir, 'state'),
    env: AS_PRODUCTION,
  })
  for (const [i, port] of CART_PORTS.entries())
    carts.push(await launch('start', { dir: cartTree.dir, port, state: join(cartTree.dir, `state-${i}`) }))
  // A slow link as well as a cut one: every chunk each way held back 20 ms.
  proxy = await startProxy(PROXY_PORT, PRODUCTION_PORT, 20)
}, 180_000)

afterAll(async () => {
  await Promise.all([production?.stop(), ...carts.map((cart) => cart.stop())])
  await proxy?.close()
  productionTree.remove()
  cartTree.remove()
})

describe('two carts and their production', () => {
  it('start from one folder: the production named on start, its banner giving its own console', async () => {
    const banner = `Operator console: http://localhost:${PRODUCTION_PORT}/productions/feature/approve?key=${productionKey}`
    expect(production.output()).toContain(
      `Production feature on http://localhost:${PRODUCTION_PORT}/productions/feature`,
    )
    expect(production.output()).toContain(banner)
    // The printed link signs in and leads to the console's page: nothing to edit, nothing answering 404.
    const signIn = await fetch(banner.slice('Operator console: '.length), { redirect: 'manual' })
    await signIn.arrayBuffer()
    expect(signIn.status).toBe(303)
    const page = await fetch(new URL(signIn.headers.get('location')!, `http://localhost:${PRODUCTION_PORT}`), {
      headers: { cookie: signIn.headers.get('set-cookie')!.split(';')[0]! },
    })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<title>')
  })

  it(
    'link once each, with link codes made in the production console for their units',
    { timeout: 120_000 },
    async () => {
      // The production's operator makes the first code in the production's console, as a person does.
      const browser = await openBrowser()
      let firstCode: string
      try {
        const page = await browser.context.newPage()
        await page.goto(`${productionBase()}/approve?key=${encodeURIComponent(productionKey)}`)
        await page.getByLabel('For', { exact: true }).fill('Main unit')
        await page.getByRole('button', { name: 'Make a link code' }).click()
        const shown = page.locator('#units .made-code .code')
        await shown.waitFor()
        firstCode = (await shown.textContent())!
        expect(await page.locator('#units .made-code .command').textContent()).toBe(
          `npx media-log link ${productionBase()} --unit "Main unit" --code ${firstCode}`,
        )
        await page.locator('#units .link-code', { hasText: 'Main unit' }).waitFor()
        expect(await page.locator('#units .link-code span').textContent()).toBe(
          'Main unit · a unit’s cart · unused, works for 24 more hours',
        )
        await page.screenshot({ path: join(tmpdir(), 'media-log-link-codes.png'), fullPage: true })
      } finally {
        await browser.close()
      }
      for (const [i, cart] of carts.entries()) {
        tokens[i] = await tokenOn(cart.base, cart.operatorKey, 'Offload Tool')
        expect(
          (await call(cart.base, 'POST', '/project/create', { token: tokens[i], body: { project_name: 'Feature' } }))
            .status,
        ).toBe(201)
        const unit = ['Main unit', 'Second unit'][i]!
        if (i === 0) {
          // Through the console's API…
          const { status, body } = await call(cart.base, 'POST', '/approve/link', {
            operatorKey: cart.operatorKey,
            body: { url: PRODUCTION_URL, unit, linkCode: firstCode },
          })
          expect(status).toBe(200)
          expect(body).toMatchObject({ linked: true, production: PRODUCTION_URL, unit, error: null, conflicts: [] })
        } else {
          // …and as the DIT types it: the command finds the operator key in the cart's .dev.vars.
          const { code } = await linkCodeOn(productionBase(), productionKey, unit, true)
          const { status, stdout } = await runCommand(['link', PRODUCTION_URL, '--unit', unit, '--code', code], {
            base: cart.base,
            configDir: cartTree.dir,
            argv0: [process.execPath, join(cartTree.dir, 'bin', 'media-log.mjs')],
          })
          expect([status, stdout]).toEqual([
            0,
            `linked to ${PRODUCTION_URL} as ${unit}\nlast sync: not yet; 0 logs waiting to go\n`,
          ])
        }
      }
      observer = await productionTokenOn(productionBase(), productionKey, 'Production office')
      // The first cart linked gave the production its project.
      expect((await call(productionBase(), 'GET', '/project', { token: observer })).body.project_name).toBe('Feature')
      const apps = await call(productionBase(), 'GET', '/approve/tokens', { operatorKey: productionKey })
      // The carts' tokens are units' carts': on the production they sync and do nothing else.
      expect(
        apps.body.tokens.map((t: { appName: string; unit?: true }) => [t.appName, t.unit ?? false]).sort(),
      ).toEqual([
        ['Main unit', true],
        ['Production office', false],
        ['Second unit', true],
      ])
    },
  )

  it('bring each unit’s days to the others', { timeout: 120_000 }, async () => {
    const [a, b] = carts as [Launched, Launched]
    expect((await call(a.base, 'POST', '/log', { token: tokens[0], body: day('D001', 1, 'Main') })).status).toBe(201)
    expect((await call(b.base, 'POST', '/log', { token: tokens[1], body: day('D002', 2, 'Second') })).status).toBe(201)
    const took = await converged(['D001', 'D002'])
    console.log(`units: two days on three services in ${took} ms`)
    expect(await settled(0)).toMatchObject({ linked: true, pending: 0, error: null, conflicts: [] })
    // Each cart listens to the production, which tells it of other units' writes as they happen.
    for (const [i, cart] of carts.entries()) {
      let status = await call(cart.base, 'GET', '/sync/status', { token: tokens[i] })
      for (let tries = 0; tries < 50 && !status.body.live; tries++) {
        await new Promise((r) => setTimeout(r, 100))
        status = await call(cart.base, 'GET', '/sync/status', { token: tokens[i] })
      }
      expect(status.body).toMatchObject({ linked: true, live: true })
    }
    // Each day belongs to the unit that logged it: another unit's cart reads it and does not write it.
    const feed = await call(productionBase(), 'GET', '/sync/changes', { token: observer })
    expect(
      feed.body.changes.map((c: { id: string; leaves: Array<{ owner: string }> }) => [c.id, c.leaves[0]!.owner]).sort(),
    ).toEqual([
      ['D001', 'Main unit'],
      ['D002', 'Second unit'],
    ])
    const refused = await call(b.base, 'PATCH', '/log/D001', { token: tokens[1], body: { unit: 'Second' } })
    expect(refused).toMatchObject({
      status: 403,
      body: { error: "Log belongs to Main unit: it is written on that unit's cart" },
    })
    expect((await call(b.base, 'DELETE', '/log/D001', { token: tokens[1] })).status).toBe(403)
    expect((await call(b.base, 'GET', '/log/D001', { token: tokens[1] })).status).toBe(200)
  })

  it(
    'write while cut off, converge once the network is back, and show a day both wrote as a conflict on all three',
    { timeout: 180_000 },
    async () => {
      const a = carts[0]!
      proxy.cut()
      const write = (i: number, method: string, path: string, body?: unknown) =>
        call(carts[i]!.base, method, path, { token: tokens[i], body })
      expect((await write(0, 'PATCH', '/log/D001', { unit: 'Main unit, reshoot' })).status).toBe(200)
      expect((await write(0, 'POST', '/log', day('D003', 3, 'Main'))).status).toBe(201)
      expect((await write(1, 'POST', '/log', day('D004', 4, 'Second'))).status).toBe(201)
      expect((await write(1, 'DELETE', '/log/D002')).status).toBe(200)
      // Both units log day 5 under the same id: neither knows of the other's.
      expect((await write(0, 'POST', '/log', day('D005', 5, 'Main', 2))).status).toBe(201)
      expect((await write(1, 'POST', '/log', day('D005', 5, 'Second', 4))).status).toBe(201)

      // Cut off, each cart says so and counts what waits to go.
      let status: Answer | undefined
      for (let i = 0; i < 80; i++) {
        status = await call(a.base, 'GET', '/sync/status', { token: tokens[0] })
        if (status.body.error) break
        await new Promise((r) => setTimeout(r, 250))
      }
      expect(status!.body.error).toMatch(/did not answer/)
      expect(status!.body.pending).toBe(3)
      const told = await runCommand(['sync'], {
        base: a.base,
        configDir: cartTree.dir,
        argv0: [process.execPath, join(cartTree.dir, 'bin', 'media-log.mjs')],
      })
      expect(told.status).toBe(1)
      expect(told.stdout).toMatch(
        /^linked to .* as Main unit\nlast sync: .*; 3 logs waiting to go\nlast round failed: .*did not answer/,
      )

      proxy.restore()
      const took = await converged(['D001', 'D003', 'D004', 'D005'])
      console.log(`units: converged ${took} ms after the network came back`)
      // The conflict shows everywhere, and both versions can be read everywhere.
      const production = await call(productionBase(), 'GET', '/sync/changes?since=0', { token: observer })
      const leaves = production.body.changes.find((c: { id: string }) => c.id === 'D005').leaves
      expect(leaves).toHaveLength(2)
      for (const [i, cart] of carts.entries()) {
        expect(await settled(i)).toMatchObject({ pending: 0, error: null, conflicts: [{ id: 'D005', leaves: 2 }] })
        for (const leaf of leaves) {
          const version = await call(cart.base, 'GET', `/sync/logs/D005?rev=${leaf.rev}`, { token: tokens[i] })
          const there = await call(productionBase(), 'GET', `/sync/logs/D005?rev=${leaf.rev}`, { token: observer })
          expect(version.status).toBe(200)
          expect(version.text).toBe(there.text)
        }
      }
      const units = await Promise.all(
        leaves.map(
          async (leaf: { rev: string }) =>
            (await call(productionBase(), 'GET', `/sync/logs/D005?rev=${leaf.rev}`, { token: observer })).body.unit,
        ),
      )
      expect(units.sort()).toEqual(['Main', 'Second'])
      // The production's operator sees it too.
      const seen = await call(productionBase(), 'GET', '/approve/link', { operatorKey: productionKey })
      expect(seen.body).toEqual({ linked: false, conflicts: [{ id: 'D005', leaves: 2 }] })
    },
  )

  it(
    'resolve the conflict in the production’s console, not a cart’s: the kept version everywhere, no conflict left',
    { timeout: 120_000 },
    async () => {
      const a = carts[0]!
      const { body } = await call(a.base, 'GET', '/approve/conflicts', { operatorKey: a.operatorKey })
      const [conflict] = body.conflicts
      expect(conflict.id).toBe('D005')
      const kept = conflict.versions.find((version: { served: boolean }) => !version.served)
      const keptText = (await call(a.base, 'GET', `/sync/logs/D005?rev=${kept.rev}`, { token: tokens[0] })).text
      const dropped = conflict.versions.find((version: { served: boolean }) => version.served)
      const droppedText = (await call(a.base, 'GET', `/sync/logs/D005?rev=${dropped.rev}`, { token: tokens[0] })).text
      // A version is Second unit's: Main unit's cart may not choose between them.
      expect(conflict.keptHere).toBe(false)
      expect(conflict.versions.map((version: { owner: string }) => version.owner).sort()).toEqual([
        'Main unit',
        'Second unit',
      ])
      const refused = await call(a.base, 'POST', '/approve/conflicts/D005', {
        operatorKey: a.operatorKey,
        body: { keep: kept.rev },
      })
      expect(refused).toMatchObject({
        status: 403,
        body: { error: "A version of this log belongs to Second unit: the production's operator keeps one" },
      })

      const office = await openBrowser()
      const cartBrowser = await openBrowser()
      try {
        // The cart's console shows the conflict, who wrote each version, and who decides.
        const page = await cartBrowser.context.newPage()
        await page.goto(`${a.base}/approve?key=${encodeURIComponent(a.operatorKey)}`)
        await page.locator('#units .link h3', { hasText: 'Linked to' }).waitFor()
        expect(await page.locator('#units .link h3').textContent()).toBe(`Linked to ${PRODUCTION_URL} as Main unit`)
        const mark = page.locator('#days .day-conflict')
        await mark.waitFor()
        expect(await mark.textContent()).toBe('2 versions: see Production')
        const card = page.locator('#units .card.conflict')
        await card.waitFor()
        expect(await card.locator('h3').textContent()).toBe('D005: 2 versions')
        expect(await card.locator('.who > .meta').textContent()).toBe(
          "Written without seeing each other; one version is another unit's, so the production's operator keeps one.",
        )
        expect((await card.locator('.version').allTextContents()).sort()).toEqual([
          expect.stringMatching(/^Main unit's · Main · day 5 · /),
          expect.stringMatching(/^Second unit's · Second · day 5 · /),
        ])
        expect(await card.getByRole('button').count()).toBe(0)
        await page.screenshot({ path: join(tmpdir(), 'media-log-units-cart.png'), fullPage: true })

        // The production's console, under its path, shows it is the production, and keeps one.
        const production = await office.context.newPage()
        await production.goto(`${productionBase()}/approve?key=${encodeURIComponent(productionKey)}`)
        await production.locator('#units .link h3', { hasText: 'This is the production' }).waitFor()
        const there = production.locator('#units .card.conflict')
        await there.waitFor()
        await production.screenshot({ path: join(tmpdir(), 'media-log-units-production.png'), fullPage: true })
        // Each version side by side with the one shown, then a question naming what will go.
        const choice = there.locator('.version').filter({ hasNotText: '(shown now)' })
        expect(await choice.locator('.meta').first().textContent()).toMatch(
          /^Volumes: .+ · checks: \d+ errors?, \d+ warnings?$/,
        )
        expect(await choice.locator('.meta').nth(1).textContent()).toMatch(/^Against the one shown: /)
        await choice.getByRole('button', { name: 'Keep this one' }).click()
        const question = choice.getByRole('group', { name: 'Confirm keeping this version' })
        const label = async (version: typeof choice) => (await version.locator('span').first().textContent())!
        const shownNow = there.locator('.version').filter({ hasText: '(shown now)' })
        const droppedLabel = (await label(shownNow)).replace(' (shown now)', '')
        expect(await question.locator('p').textContent()).toBe(
          `Keep ${await label(choice)}? No longer served, here and on every unit once synced: ${droppedLabel}.`,
        )
        await production.screenshot({ path: join(tmpdir(), 'media-log-units-confirm.png'), fullPage: true })
        await question.getByRole('button', { name: 'Yes, keep it' }).click()
        await there.waitFor({ state: 'detached' })
        // The version not kept is listed under its day, to download as it was.
        const dayCard = production.locator('#days-list > li[data-key="D005"]')
        await dayCard.locator('.day-toggle').click()
        const aside = dayCard.locator('.set-aside')
        await aside.locator('h4', { hasText: 'Versions set aside' }).waitFor()
        const listedAside = await aside.locator('.version span').allTextContents()
        expect(listedAside).toHaveLength(1)
        expect(listedAside[0]!.startsWith(`${droppedLabel} · set aside `)).toBe(true)
        await production.screenshot({ path: join(tmpdir(), 'media-log-units-set-aside.png'), fullPage: true })
        // The cart hears of it on its next round.
        await card.waitFor({ state: 'detached' })
        await mark.waitFor({ state: 'detached' })
      } finally {
        await office.close()
        await cartBrowser.close()
      }
      const took = await converged(['D001', 'D003', 'D004', 'D005'])
      console.log(`units: a resolution reached the others in ${took} ms`)
      for (const [i, cart] of carts.entries()) {
        expect((await call(cart.base, 'GET', '/log/D005', { token: tokens[i] })).text).toBe(keptText)
        // The version not kept is set aside on every service that held it, retrievable as it was.
        const aside = await call(cart.base, 'GET', '/log/D005/set-aside', { token: tokens[i] })
        expect(aside.body.versions.map((v: { rev: string; owner: string }) => [v.rev, v.owner])).toEqual([
          [dropped.rev, dropped.owner],
        ])
        const again = await call(cart.base, 'GET', `/log/D005/set-aside/${dropped.rev}`, { token: tokens[i] })
        expect(again.text).toBe(droppedText)
        for (let n = 0; n < 80; n++) {
          const seen = await call(cart.base, 'GET', '/sync/status', { token: tokens[i] })
          if (seen.body.conflicts.length === 0) break
          await new Promise((r) => setTimeout(r, 250))
        }
        expect((await call(cart.base, 'GET', '/sync/status', { token: tokens[i] })).body.conflicts).toEqual([])
      }
      const there = await call(productionBase(), 'GET', `/log/D005/set-aside/${dropped.rev}`, { token: observer })
      expect(there.text).toBe(droppedText)
      expect((await call(productionBase(), 'GET', '/approve/link', { operatorKey: productionKey })).body).toEqual({
        linked: false,
        conflicts: [],
      })
    },
  )

  it('merge the production office’s note with a unit’s new clip of the same day', { timeout: 120_000 }, async () => {
    const a = carts[0]!
    proxy.cut()
    // The office notes something on Main unit's day 1; the cart, cut off, adds a clip to it.
    const noted = await call(productionBase(), 'PATCH', '/log/D001', {
      token: observer,
      body: { notes: 'Lens swap at lunch' },
    })
    expect(noted.status).toBe(200)
    const before = (await call(a.base, 'GET', '/log/D001', { token: tokens[0] })).body
    const added = { ...before.ocf.clips[0], clip: 'M001C099' }
    const ocf = { ...before.ocf, clips: [...before.ocf.clips, added] }
    expect((await call(a.base, 'PATCH', '/log/D001', { token: tokens[0], body: { ocf } })).status).toBe(200)
    proxy.restore()
    const took = await converged(['D001', 'D003', 'D004', 'D005'])
    console.log(`units: an office note and a unit's new clip merged on all three in ${took} ms`)
    const merged = (await call(productionBase(), 'GET', '/log/D001', { token: observer })).body
    expect(merged.notes).toBe('Lens swap at lunch')
    expect(merged.ocf.clips.map((c: { clip: string }) => c.clip)).toEqual([
      ...before.ocf.clips.map((c: { clip: string }) => c.clip),
      'M001C099',
    ])
    for (const i of [0, 1]) expect((await settled(i)).conflicts).toEqual([])
  })

  it(
    'lose nothing acknowledged when a cart is killed mid-push, or the production mid-pull',
    { timeout: 180_000 },
    async () => {
      const a = carts[0]!
      const ids = Array.from({ length: 20 }, (_, i) => `K${String(i + 1).padStart(3, '0')}`)
      // Cut off, the cart's pushes fail and are tried again: it is killed between two of them.
      proxy.cut()
      for (const [i, id] of ids.entries())
        expect(
          (await call(a.base, 'POST', '/log', { token: tokens[0], body: day(id, 10 + i, 'Main', 1) })).status,
        ).toBe(201)
      for (let i = 0; i < 80; i++) {
        if ((await call(a.base, 'GET', '/sync/status', { token: tokens[0] })).body.error) break
        await new Promise((r) => setTimeout(r, 250))
      }
      process.kill(-a.child.pid!, 'SIGKILL')
      await new Promise((r) => a.child.once('exit', r))
      proxy.restore()
      expect((await call(productionBase(), 'GET', '/log/K001', { token: observer })).status).toBe(404)
      carts[0] = await launch('start', { dir: cartTree.dir, port: CART_PORTS[0], state: join(cartTree.dir, 'state-0') })
      const all = ['D001', 'D003', 'D004', 'D005', ...ids]
      const took = await converged(all)
      console.log(`units: a killed cart's 20 days reached the others ${took} ms after it started again`)

      // The production killed the moment it has a cart's new days, while the other cart pulls them.
      const more = ['M001', 'M002', 'M003']
      for (const [i, id] of more.entries())
        expect(
          (await call(carts[0]!.base, 'POST', '/log', { token: tokens[0], body: day(id, 40 + i, 'Main', 1) })).status,
        ).toBe(201)
      for (let i = 0; i < 120; i++) {
        if ((await call(productionBase(), 'GET', '/log/M003', { token: observer })).status === 200) break
        await new Promise((r) => setTimeout(r, 100))
      }
      process.kill(-production.child.pid!, 'SIGKILL')
      await new Promise((r) => production.child.once('exit', r))
      production = await launch('start', {
        dir: productionTree.dir,
        port: PRODUCTION_PORT,
        state: join(productionTree.dir, 'state'),
        env: AS_PRODUCTION,
      })
      const after = await converged([...all, ...more])
      console.log(`units: converged ${after} ms after the production started again`)
    },
  )

  it('unlink: the cart stops syncing and keeps every log it holds', { timeout: 60_000 }, async () => {
    const [a, b] = carts as [Launched, Launched]
    const before = await call(b.base, 'GET', '/logs', { token: tokens[1] })
    expect((await call(b.base, 'DELETE', '/approve/link', { operatorKey: b.operatorKey })).status).toBe(200)
    expect((await call(b.base, 'GET', '/sync/status', { token: tokens[1] })).body).toEqual({
      linked: false,
      conflicts: [],
    })
    expect((await call(a.base, 'POST', '/log', { token: tokens[0], body: day('D099', 99, 'Main') })).status).toBe(201)
    // The production takes it; the unlinked cart does not hear of it.
    for (let i = 0; i < 120; i++) {
      if ((await call(productionBase(), 'GET', '/log/D099', { token: observer })).status === 200) break
      await new Promise((r) => setTimeout(r, 250))
    }
    expect((await call(productionBase(), 'GET', '/log/D099', { token: observer })).status).toBe(200)
    await new Promise((r) => setTimeout(r, 6000))
    expect((await call(b.base, 'GET', '/logs', { token: tokens[1] })).text).toBe(before.text)
  })

  it('give one shooting date across units its reports and e-mail in the production’s console', async () => {
    const a = carts[0]!
    // Main unit's day 7 from its cart; the second unit numbers the same date its day 3 (logged at the office).
    expect((await call(a.base, 'POST', '/log', { token: tokens[0], body: day('M007', 7, 'Main') })).status).toBe(201)
    const second = { ...day('S003', 3, 'Second'), date: day('M007', 7, 'Main').date }
    expect((await call(productionBase(), 'POST', '/log', { token: observer, body: second })).status).toBe(201)
    for (let i = 0; i < 120; i++) {
      if ((await call(productionBase(), 'GET', '/log/M007', { token: observer })).status === 200) break
      await new Promise((r) => setTimeout(r, 250))
    }
    const office = await openBrowser()
    try {
      const page = await office.context.newPage()
      await page.goto(`${productionBase()}/approve?key=${encodeURIComponent(productionKey)}`)
      // The date's heading where its first day stands, both units' days of it beneath it.
      const across = page.getByRole('group', { name: `Reports and e-mail of ${second.date} across units` })
      await across.waitFor()
      const shown = await page
        .locator('#days-list > li')
        .evaluateAll((items) =>
          items.map((li) =>
            li.classList.contains('date-group')
              ? `date ${li.querySelector('.date-title')!.textContent}`
              : `${(li as HTMLElement).dataset.key}${li.hasAttribute('data-grouped') ? ' under it' : ''}`,
          ),
        )
      const at = shown.indexOf(`date ${second.date} 2 units Second: day 3 · Main: day 7`)
      expect(at).toBeGreaterThanOrEqual(0)
      expect(shown.slice(at + 1, at + 3)).toEqual(['S003 under it', 'M007 under it'])
      // Every day under a heading follows it or another day of its date; the rest stand alone.
      shown.forEach((item, i) => {
        if (item.endsWith(' under it'))
          expect(shown[i - 1]!.startsWith('date ') || shown[i - 1]!.endsWith(' under it')).toBe(true)
      })
      expect(shown.filter((item) => !item.startsWith('date ') && !item.endsWith(' under it')).length).toBeGreaterThan(0)
      expect(await across.getByRole('button').allTextContents()).toEqual([
        '⤓ Clips report (PDF)',
        '⤓ Data report (PDF)',
        '✉ Prepare e-mail',
      ])
      // The e-mail of that date takes both units' days.
      await across.getByRole('button', { name: '✉ Prepare e-mail' }).click()
      const windows = async () =>
        (await call(productionBase(), 'GET', '/approve/windows', { operatorKey: productionKey })).body
          .windows as Array<{
          logIds: string[]
        }>
      for (let i = 0; i < 40 && !(await windows()).length; i++) await new Promise((r) => setTimeout(r, 250))
      expect((await windows()).map((w) => w.logIds)).toEqual([['S003', 'M007']])
      await page.screenshot({ path: join(tmpdir(), 'media-log-units-across.png'), fullPage: true })
    } finally {
      await office.close()
    }
  })
})

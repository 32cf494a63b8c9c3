// A cart linked to a production that answers what no honest production does (docs/units.md,
// "What a cart takes from its production"): answers without end, a version declared 4 GiB, a page
// of more logs than asked, revisions that are none or that leap to the limit. Each is refused as
// it arrives, nothing of it is stored, the cart answers its applications throughout; the production
// honest again, the cart syncs everything.
import { randomBytes } from 'node:crypto'
import { request as httpRequest, createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyOfTree, launch, type Launched } from './launch'
import { call, tokenOn } from './service-calls'

const PRODUCTION_PORT = 5691
const CART_PORT = 5692
const GATEWAY_PORT = 5693
const PRODUCTION_URL = `http://127.0.0.1:${GATEWAY_PORT}/productions/feature`

const productionTree = copyOfTree()
const cartTree = copyOfTree()
const productionKey = randomBytes(24).toString('base64url')
writeFileSync(join(productionTree.dir, '.dev.vars'), `OPERATOR_KEY=${productionKey}\nPRODUCTIONS=feature\n`)
writeFileSync(join(cartTree.dir, '.dev.vars'), `OPERATOR_KEY=${randomBytes(24).toString('base64url')}\n`)

let production: Launched
let cart: Launched
let gateway: ReturnType<typeof createServer>

/**
 * What the production answers a sync route with, instead of its own answer (none: its own). The
 * gateway sits where the cart reaches the production and passes everything else through.
 */
let hostile: ((path: string, res: ServerResponse) => boolean) | undefined

function startGateway() {
  gateway = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (hostile?.(req.url ?? '', res)) {
      req.resume()
      return
    }
    const upstream = httpRequest(
      { host: '127.0.0.1', port: PRODUCTION_PORT, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  return new Promise<void>((resolve) => gateway.listen(GATEWAY_PORT, '127.0.0.1', resolve))
}

/** Writes `chunk` again and again, as fast as the cart reads, until it hangs up. */
function endless(res: ServerResponse, start: string, chunk: string) {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.write(start)
  const more = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more)
  }
  res.on('close', () => res.removeAllListeners('drain'))
  more()
}

const json = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

const productionBase = () => `${production.base}/productions/feature`

const day = (id: string, n: number, unit: string) => ({
  id,
  day: n,
  date: `2026-04-${String(n).padStart(2, '0')}`,
  unit,
  ocf: {
    clips: [{ clip: `A${String(n).padStart(3, '0')}C001`, size: 1000, copies: [{ volume: 'SSD_01', hash: null }] }],
  },
  version: 1,
})

let cartToken: string
let office: string
let written = 0
const idOf = (n: number) => `D${String(n).padStart(3, '0')}`

/**
 * Writes a day on the cart (a round follows a second later) and waits until its status says the
 * round failed as `error` says; the cart answered its application all along.
 */
async function refusedWith(error: RegExp) {
  written++
  const id = idOf(written)
  expect((await call(cart.base, 'POST', '/log', { token: cartToken, body: day(id, written, 'Main') })).status).toBe(201)
  let status: Answer | undefined
  for (let i = 0; i < 240; i++) {
    status = await call(cart.base, 'GET', '/sync/status', { token: cartToken })
    expect(status.status).toBe(200)
    if (status.body.error && error.test(status.body.error)) return status.body
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`no round failed with ${error}: ${status?.text}`)
}

/** What the cart holds, as GET /logs answers it, and the revisions of its feed. */
const held = async () => ({
  logs: (await call(cart.base, 'GET', '/logs', { token: cartToken })).text,
  revs: (await call(cart.base, 'GET', '/sync/changes', { token: cartToken })).body.changes.flatMap(
    (change: { leaves: Array<{ rev: string }> }) => change.leaves.map((leaf) => leaf.rev),
  ),
})

beforeAll(async () => {
  production = await launch('start', {
    dir: productionTree.dir,
    port: PRODUCTION_PORT,
    state: join(productionTree.dir, 'state'),
  })
  cart = await launch('start', { dir: cartTree.dir, port: CART_PORT, state: join(cartTree.dir, 'state') })
  await startGateway()
}, 180_000)

afterAll(async () => {
  hostile = undefined
  gateway?.closeAllConnections()
  await new Promise((resolve) => (gateway ? gateway.close(resolve) : resolve(undefined)))
  await Promise.all([production?.stop(), cart?.stop()])
  productionTree.remove()
  cartTree.remove()
})

describe('a cart and a production that answers what it should not', () => {
  it('links, with the production office’s day to take', { timeout: 120_000 }, async () => {
    cartToken = await tokenOn(cart.base, cart.operatorKey, 'Offload Tool')
    const created = await call(cart.base, 'POST', '/project/create', {
      token: cartToken,
      body: { project_name: 'Feature' },
    })
    expect(created.status).toBe(201)
    const codeFor = async (name: string, unit: boolean) =>
      (
        await call(productionBase(), 'POST', '/approve/link-codes', {
          operatorKey: productionKey,
          body: { name, unit },
        })
      ).body.code as string
    const linked = await call(cart.base, 'POST', '/approve/link', {
      operatorKey: cart.operatorKey,
      body: { url: PRODUCTION_URL, unit: 'Main unit', linkCode: await codeFor('Main unit', true) },
    })
    expect(linked.status).toBe(200)
    const asked = await fetch(productionBase() + '/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-link-code': await codeFor('Production office', false) },
      body: JSON.stringify({ appName: 'Production office' }),
    })
    expect(asked.status).toBe(200)
    office = ((await asked.json()) as { token: string }).token
    expect(
      (await call(productionBase(), 'POST', '/log', { token: office, body: day('D100', 28, 'Office') })).status,
    ).toBe(201)
  })

  it('refuses each bad answer as it comes, and stores nothing of it', { timeout: 300_000 }, async () => {
    const before = await held()
    const feed = (res: ServerResponse, changes: unknown[], last = changes.length) => json(res, { changes, last })
    const leaf = (rev: string) => ({ rev, ancestors: [], deleted: false })

    // A page without end: given up past 16 MiB, not read for minutes…
    const entry = JSON.stringify({ id: 'D200', leaves: [leaf(`1-${'a'.repeat(16)}`)] }) + ','
    hostile = (path, res) => path.includes('/sync/changes') && (endless(res, '{"changes":[', entry.repeat(800)), true)
    await refusedWith(/answered more than 16 MiB to GET \/sync\/changes/)
    // …nor sent a few bytes at a time, which would hold the cart from its applications' calls.
    hostile = (path, res) => path.includes('/sync/changes') && (endless(res, '{"changes":[', entry), true)
    await refusedWith(/answered GET \/sync\/changes a few bytes at a time/)

    // More logs than asked for, in a small page.
    hostile = (path, res) =>
      path.includes('/sync/changes') &&
      (feed(
        res,
        Array.from({ length: 3000 }, (_, i) => ({ id: `X${i}`, leaves: [leaf(`1-${'b'.repeat(16)}`)] })),
      ),
      true)
    await refusedWith(/answered GET \/sync\/changes with changes must list at most 50 logs/)

    // A revision that is none.
    hostile = (path, res) =>
      path.includes('/sync/changes') && (feed(res, [{ id: 'D201', leaves: [leaf('not a revision')] }]), true)
    await refusedWith(/changes\.0\.leaves\.0\.rev must be a revision/)

    // A version that says it is 4 GiB: refused before a byte of it is read.
    hostile = (path, res) => {
      if (path.includes('/sync/changes'))
        return (feed(res, [{ id: 'D202', leaves: [leaf(`1-${'c'.repeat(16)}`)] }]), true)
      if (!path.includes('/sync/logs/D202')) return false
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(4 * 1024 ** 3) })
      res.write('{"id":"D202",')
      return true
    }
    await refusedWith(/answered more than 64 MiB to GET \/sync\/logs\/D202/)

    // …and one that goes on without saying.
    hostile = (path, res) => {
      if (path.includes('/sync/changes'))
        return (feed(res, [{ id: 'D203', leaves: [leaf(`1-${'d'.repeat(16)}`)] }]), true)
      if (!path.includes('/sync/logs/D203')) return false
      endless(res, '{"id":"D203","notes":"', 'x'.repeat(64 * 1024))
      return true
    }
    await refusedWith(/answered more than 64 MiB to GET \/sync\/logs\/D203/)

    // A generation at the limit, whose next write no service would take: this one version is set
    // aside, named, and not stored.
    const leap = `999999999999999-${'e'.repeat(16)}`
    hostile = (path, res) => {
      if (path.includes('/sync/changes')) return (feed(res, [{ id: 'D204', leaves: [leaf(leap)] }]), true)
      if (path.includes('/sync/logs/D204')) return (json(res, day('D204', 20, 'Main')), true)
      return false
    }
    await refusedWith(
      /Its version 999999999999999-e{16} of D204 is none this service takes: it must be at most 1,000,000 generations past/,
    )

    // Nothing any of them said is held: the cart has its own days and nothing else, and no
    // version was set aside for what was the production's failure.
    const after = await held()
    const ids = (JSON.parse(after.logs) as { logs: Array<{ id: string }> }).logs.map((log) => log.id)
    expect(ids).toEqual(Array.from({ length: written }, (_, i) => idOf(i + 1)))
    expect(after.revs).toHaveLength(written)
    expect(after.revs.every((rev: string) => /^1-[0-9a-f]{16}$/.test(rev))).toBe(true)
    expect(before).toEqual({ logs: '{"logs":[]}', revs: [] })
    const status = await call(cart.base, 'GET', '/sync/status', { token: cartToken })
    expect(status.body).toMatchObject({ pending: 0, refused: [] })
  })

  it('syncs everything once the production answers honestly again', { timeout: 180_000 }, async () => {
    hostile = undefined
    written++
    const id = idOf(written)
    expect((await call(cart.base, 'POST', '/log', { token: cartToken, body: day(id, written, 'Main') })).status).toBe(
      201,
    )
    let cartLogs = ''
    let productionLogs = ''
    for (let i = 0; i < 240; i++) {
      cartLogs = (await call(cart.base, 'GET', '/logs', { token: cartToken })).text
      productionLogs = (await call(productionBase(), 'GET', '/logs', { token: office })).text
      if (cartLogs === productionLogs) break
      await new Promise((r) => setTimeout(r, 250))
    }
    expect(cartLogs).toBe(productionLogs)
    const ids = (JSON.parse(cartLogs) as { logs: Array<{ id: string }> }).logs.map((log) => log.id)
    expect(ids).toEqual([...Array.from({ length: written }, (_, i) => idOf(i + 1)), 'D100'])
    // The round that brought it ends with nothing waiting and nothing wrong.
    let status: Answer | undefined
    for (let i = 0; i < 80; i++) {
      status = await call(cart.base, 'GET', '/sync/status', { token: cartToken })
      if (status.body.error === null) break
      await new Promise((r) => setTimeout(r, 250))
    }
    expect(status!.body).toMatchObject({ linked: true, pending: 0, error: null, refused: [], conflicts: [] })
  })
})

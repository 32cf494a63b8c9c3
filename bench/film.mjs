// npm run bench:scale -- --only=film: a production at film scale, its V8 heap held to 64 MB.
//
// UNITS units × DAYS days × CLIPS clips (10 × 60 × 2,000: 1.2 million clips, about 1 GB of logs)
// are written once into a production (npm start with PRODUCTIONS) by an office application, each
// day carrying its unit, the units' days sharing their dates. The production is then started again
// on that state with V8's heap held to HEAP MB (the worker and the workspace share that one isolate,
// stricter than Cloudflare's own for each), as bench/heap.mjs holds it, and asked for:
// - the console's Days view of every day (GET /approve/days);
// - the wrap report across units: the data report of every day of every unit (GET /pdf/{preset});
// - a new cart's first pull: a cart (npm start, its heap held the same) linked as another unit,
//   until it serves every day.
// An operation completes when it answers what it must and workerd never ran out of heap (npm start
// starts it again, with another pid). Writes bench/results/film.{json,md}.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { api, machine, makeLog, memoryOf, sampleMemory, startServer } from './client.mjs'

const UNITS = Number(process.env.UNITS ?? 10)
const DAYS = Number(process.env.DAYS ?? 60)
const CLIPS = Number(process.env.CLIPS ?? 2000)
const HEAP = Number(process.env.HEAP ?? 64)
const PORTS = { production: 5781, cart: 5782 }
const NAME = 'film'

const idOf = (unit, day) => `U${String(unit).padStart(2, '0')}D${String(day).padStart(3, '0')}`

async function linkCode(office, key, name, unit) {
  const { code } = await office('POST', '/approve/link-codes', {
    headers: { 'x-operator-key': key },
    body: { name, unit },
  })
  return code
}

/** The production's days, written once with no limit: answers the office token and the bytes written. */
async function prepare(state) {
  const production = await startServer({ kind: 'start', port: PORTS.production, state, vars: { PRODUCTIONS: NAME } })
  try {
    const office = api(`${production.base}/productions/${NAME}`)
    const key = production.operatorKey()
    const headers = { 'x-link-code': await linkCode(office, key, 'film office', false) }
    const { token } = await office('POST', '/auth', { headers, body: { appName: 'film office' } })
    await office('POST', '/project/create', { token, body: { project_name: 'Film' } })
    let bytes = 0
    const started = performance.now()
    for (let day = 1; day <= DAYS; day++)
      for (let unit = 1; unit <= UNITS; unit++) {
        const log = { ...makeLog(idOf(unit, day), CLIPS, day), unit: `Unit ${unit}` }
        const text = JSON.stringify(log)
        bytes += Buffer.byteLength(text)
        await office('POST', '/log', { token, text })
      }
    console.log(
      `written: ${UNITS * DAYS} days, ${(UNITS * DAYS * CLIPS).toLocaleString('en-US')} clips, ` +
        `${(bytes / 2 ** 30).toFixed(2)} GiB in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    )
    return { token, bytes }
  } finally {
    await production.stop({ keepState: true })
  }
}

/** `work` against a server: its time, workerd's RSS above idle, and whether workerd ran out (restarted). */
async function measured(server, work) {
  const workerd = server.workerd()
  const idle = memoryOf(workerd).rss
  const peak = sampleMemory(workerd, 20)
  const started = performance.now()
  try {
    const detail = await work()
    return { ok: server.workerd() === workerd, ms: performance.now() - started, rssAboveIdle: peak() - idle, detail }
  } catch (err) {
    peak()
    return { ok: false, ms: performance.now() - started, detail: String(err.message ?? err).slice(0, 200) }
  }
}

async function main() {
  const host = machine()
  console.log(
    `A production at film scale: ${UNITS} units × ${DAYS} days × ${CLIPS.toLocaleString('en-US')} clips, V8 heap held to ${HEAP} MB`,
  )
  console.log(`${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, Node ${host.node}`)
  const state = mkdtempSync(join(tmpdir(), 'media-log-film-'))
  const rows = []
  let production
  let cart
  try {
    const { token, bytes } = await prepare(state)
    process.env.MINIFLARE_WORKERD_V8_FLAGS = `--max-heap-size=${HEAP}`
    production = await startServer({ kind: 'start', port: PORTS.production, state, vars: { PRODUCTIONS: NAME } })
    cart = await startServer({ kind: 'start', port: PORTS.cart })
    delete process.env.MINIFLARE_WORKERD_V8_FLAGS
    const office = api(`${production.base}/productions/${NAME}`)
    const key = production.operatorKey()
    const operator = { 'x-operator-key': key }
    const total = UNITS * DAYS

    rows.push({
      name: `the Days view of every day (GET /approve/days)`,
      ...(await measured(production, async () => {
        const text = await office('GET', '/approve/days', { headers: operator, raw: true })
        const { days } = JSON.parse(text)
        if (days.length !== total) throw new Error(`${days.length} days listed, not ${total}`)
        const units = new Set(days.map((d) => d.unit))
        return `${days.length} days of ${units.size} units, ${(text.length / 2 ** 20).toFixed(1)} MiB`
      })),
    })
    rows.push({
      name: `the wrap report across units: data report of days 1–${DAYS}, every unit`,
      ...(await measured(production, async () => {
        const pdf = await office('GET', `/pdf/dat01?from=1&to=${DAYS}`, { token, raw: true })
        if (!pdf.startsWith('%PDF-')) throw new Error('not a PDF')
        return `${Math.round(pdf.length / 1024)} KiB PDF`
      })),
    })
    rows.push({
      name: `a new cart's first pull of every day (${(bytes / 2 ** 30).toFixed(2)} GiB)`,
      ...(await measured(production, async () => {
        const request = api(cart.base)
        const { approvedToken } = await import('./client.mjs')
        const cartToken = await approvedToken(request, cart.operatorKey(), 'film cart')
        await request('POST', '/project/create', { token: cartToken, body: { project_name: 'Film' } })
        const code = await linkCode(office, key, 'Unit 11', true)
        const cartWorkerd = cart.workerd()
        await request('POST', '/approve/link', {
          headers: { 'x-operator-key': cart.operatorKey() },
          body: { url: `${production.base}/productions/${NAME}`, unit: 'Unit 11', linkCode: code },
        })
        // The cart's changes feed names each day it holds, a line each (GET /logs would be the GB itself).
        for (const started = performance.now(); ;) {
          const { changes } = await request('GET', '/sync/changes?since=0&limit=1000', { token: cartToken })
          if (changes.length === total) break
          if (performance.now() - started > 1_800_000)
            throw new Error(`${changes.length} of ${total} days after 30 minutes`)
          await new Promise((r) => setTimeout(r, 1000))
        }
        // And serves them: the last day written, as the production serves it.
        const last = idOf(UNITS, DAYS)
        const there = await office('GET', `/log/${last}`, { token, raw: true })
        if ((await request('GET', `/log/${last}`, { token: cartToken, raw: true })) !== there)
          throw new Error(`${last} differs on the cart`)
        if (cart.workerd() !== cartWorkerd) throw new Error("the cart's workerd ran out of heap")
        return `${total} days on the cart, its heap held to ${HEAP} MB too`
      })),
    })
  } finally {
    await cart?.stop()
    await production?.stop({ keepState: true })
    rmSync(state, { recursive: true, force: true })
  }
  const s = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`)
  const lines = [
    `| ${UNITS} units × ${DAYS} days × ${CLIPS.toLocaleString('en-US')} clips | V8 heap held to ${HEAP} MB | time | workerd RSS above idle | |`,
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.ok ? 'completes' : '**fails**'} | ${s(r.ms)} | ${r.rssAboveIdle === undefined ? '—' : `${Math.round(r.rssAboveIdle)} MiB`} | ${r.detail} |`,
    ),
  ]
  console.log(`\n${lines.join('\n')}`)
  return { host, rows, lines }
}

export { main as filmTable }

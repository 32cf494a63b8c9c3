// npm run bench:units [-- --days 5 --clips 2000]
//
// A day offline, then the network back (docs/units.md): a production (npm start with PRODUCTIONS)
// and two carts (npm start, each its own state), the carts reaching the production through a TCP
// proxy that counts bytes and can cut the link. Both carts are linked while online; cut off, each
// logs `days` days of `clips` clips; then the link comes back and the clock runs until all three
// hold the same days, byte for byte. Printed: the time to converge, the bytes that crossed the
// link against the days' size, and the production's memory: its workerd runs with V8's heap held
// to `heap` MiB (128, Cloudflare's limit for an isolate; through the patched Miniflare's
// MINIFLARE_WORKERD_V8_FLAGS, as bench/heap.mjs does), where the worker and the workspace share one
// isolate, and a workerd that ran out of heap (npm start starts it again) fails the run.
// The baseline, in the same run: the same days sent once through the same link with POST /log
// into another production, one request after another, as a client would upload them.
import { createServer, connect } from 'node:net'
import { parseArgs } from 'node:util'
import { api, approvedToken, makeLog, machine, memoryOf, sampleMemory, startServer } from './client.mjs'

const { values } = parseArgs({
  options: { days: { type: 'string' }, clips: { type: 'string' }, heap: { type: 'string' } },
})
const DAYS = Number(values.days ?? 5)
const CLIPS = Number(values.clips ?? 2000)
const HEAP_MIB = Number(values.heap ?? 128)
const PORTS = { production: 5791, carts: [5792, 5793], proxy: 5794 }

/** Bytes each way through a TCP proxy that can be cut (connections reset, new ones refused). */
async function countingProxy(port, target) {
  const counts = { up: 0, down: 0 }
  let open = true
  // A proxy that passes no WebSocket: a connection asking for an upgrade is closed.
  let webSockets = true
  const sockets = new Set()
  const server = createServer((client) => {
    sockets.add(client)
    client.on('error', () => client.destroy())
    client.once('close', () => sockets.delete(client))
    if (!open) return client.resetAndDestroy()
    // Any request of the connection: a kept-alive one carries the upgrade after other requests.
    client.on('data', (chunk) => {
      if (!webSockets && /\r\nupgrade: *websocket\r\n/i.test(chunk.toString('latin1'))) client.resetAndDestroy()
    })
    const upstream = connect(target, '127.0.0.1')
    sockets.add(upstream)
    upstream.on('error', () => upstream.destroy())
    upstream.once('close', () => sockets.delete(upstream))
    client.on('data', (chunk) => (counts.up += chunk.length))
    upstream.on('data', (chunk) => (counts.down += chunk.length))
    client.pipe(upstream).pipe(client)
    client.once('close', () => upstream.destroy())
    upstream.once('close', () => client.destroy())
  })
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    counts,
    cut() {
      open = false
      for (const socket of sockets) socket.resetAndDestroy()
    },
    restore: () => (open = true),
    passWebSockets: (pass) => (webSockets = pass),
    reset: () => Object.assign(counts, { up: 0, down: 0 }),
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

/** A link code a production's operator made for `name` (`unit`: a unit's cart). */
async function linkCode(request, key, name, unit = false) {
  const { code } = await request('POST', '/approve/link-codes', {
    headers: { 'x-operator-key': key },
    body: { name, unit },
  })
  return code
}

/** An office application's token on a production: its POST /auth with a link code, answered at once. */
async function officeToken(request, key, appName) {
  const headers = { 'x-link-code': await linkCode(request, key, appName) }
  return (await request('POST', '/auth', { headers, body: { appName } })).token
}

const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1)

/** Writes in the live phase. */
const LIVE_WRITES = 20

/** Until every cart's status says `live` is `want`. */
async function untilLive(carts, tokens, want) {
  for (const [i, cart] of carts.entries()) {
    for (let tries = 0; ; tries++) {
      const status = await api(cart.base)('GET', '/sync/status', { token: tokens[i] })
      if (status.live === want) break
      if (tries > 300) throw new Error(`cart ${i + 1} not ${want ? 'live' : 'polling'} within 30 s`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

/** For each of `writes` small days, written on one cart in turn: ms until the other cart serves it. */
async function latencies(carts, tokens, prefix, writes) {
  await untilLive(carts, tokens, prefix === 'L')
  const times = []
  for (let n = 0; n < writes; n++) {
    const from = n % 2
    const to = 1 - from
    const id = `${prefix}${String(n).padStart(3, '0')}`
    await api(carts[from].base)('POST', '/log', { token: tokens[from], body: makeLog(id, 20, 100 + n) })
    const written = performance.now()
    const request = api(carts[to].base)
    for (;;) {
      const { status } = await request('GET', `/log/${id}`, { token: tokens[to], ok: false })
      if (status === 200) break
      if (performance.now() - written > 30_000) throw new Error(`${id} did not reach the other cart within 30 s`)
      await new Promise((r) => setTimeout(r, 10))
    }
    times.push(performance.now() - written)
    // Not in step with the rounds: each write lands at another point of the other cart's poll.
    await new Promise((r) => setTimeout(r, 300 + ((n * 1237) % 1700)))
  }
  return times
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
}
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`.padStart(7)

async function main() {
  process.env.MINIFLARE_WORKERD_V8_FLAGS = `--max-heap-size=${HEAP_MIB}`
  const production = await startServer({
    kind: 'start',
    port: PORTS.production,
    vars: { PRODUCTIONS: 'feature,baseline' },
  })
  delete process.env.MINIFLARE_WORKERD_V8_FLAGS
  const carts = []
  const proxy = await countingProxy(PORTS.proxy, PORTS.production)
  try {
    for (const port of PORTS.carts) carts.push(await startServer({ kind: 'start', port }))
    const productionKey = production.operatorKey()
    const office = api(`${production.base}/productions/feature`)
    const through = `http://127.0.0.1:${PORTS.proxy}/productions`

    // Linked while online, each cart with its project.
    const tokens = []
    for (const [i, cart] of carts.entries()) {
      const request = api(cart.base)
      const token = await approvedToken(request, cart.operatorKey(), 'bench units')
      tokens.push(token)
      await request('POST', '/project/create', { token, body: { project_name: 'Bench units' } })
      const unit = `Unit ${i + 1}`
      // The production's operator makes the unit a link code; the cart's links with it.
      const code = await linkCode(office, productionKey, unit, true)
      await request('POST', '/approve/link', {
        headers: { 'x-operator-key': cart.operatorKey() },
        body: { url: `${through}/feature`, unit, linkCode: code },
      })
    }
    const observer = await officeToken(office, productionKey, 'bench office')

    // Live: a day written on one cart, until the other cart serves it; the carts take turns.
    // Baseline, in the same run: the same through a proxy that passes no WebSocket (polling).
    const live = await latencies(carts, tokens, 'L', LIVE_WRITES)
    proxy.passWebSockets(false)
    proxy.cut()
    proxy.restore()
    await untilLive(carts, tokens, false)
    const polled = await latencies(carts, tokens, 'P', LIVE_WRITES)
    proxy.passWebSockets(true)

    // A day offline: each cart logs its days with the production out of reach.
    proxy.cut()
    const sent = []
    for (const [i, cart] of carts.entries()) {
      const request = api(cart.base)
      for (let d = 1; d <= DAYS; d++) {
        const day = i * DAYS + d
        const text = JSON.stringify(makeLog(`U${i + 1}D${String(d).padStart(2, '0')}`, CLIPS, day))
        sent.push(text)
        await request('POST', '/log', { token: tokens[i], text })
      }
    }
    const size = sent.reduce((total, text) => total + Buffer.byteLength(text), 0)
    const ids = sent.map((text) => JSON.parse(text).id).sort()

    // The network comes back.
    await new Promise((r) => setTimeout(r, 1000))
    const workerd = production.workerd()
    const idle = memoryOf(workerd).rss
    const peak = sampleMemory(workerd)
    proxy.reset()
    proxy.restore()
    const started = performance.now()
    const feeds = [
      ...carts.map((cart, i) => [cart.base, tokens[i]]),
      [`${production.base}/productions/feature`, observer],
    ]
    for (;;) {
      const held = await Promise.all(
        feeds.map(async ([base, token]) => {
          const { changes } = await api(base)('GET', '/sync/changes?limit=1000', { token })
          // The days logged offline (the live phase's are there too).
          return changes
            .map((c) => c.id)
            .filter((id) => id.startsWith('U'))
            .sort()
        }),
      )
      if (held.every((list) => JSON.stringify(list) === JSON.stringify(ids))) break
      if (performance.now() - started > 600_000) throw new Error('not converged within 10 minutes')
      await new Promise((r) => setTimeout(r, 200))
    }
    const converged = performance.now() - started
    const peakRss = peak()
    const restarted = production.workerd() !== workerd
    const { up, down } = proxy.counts
    const listings = await Promise.all(feeds.map(([base, token]) => api(base)('GET', '/logs', { token, raw: true })))
    const identical = listings.every((text) => text === listings[0])

    // Baseline: the same days sent once, one POST /log after another, through the same link.
    proxy.reset()
    const baseline = api(`${through}/baseline`)
    const token = await officeToken(api(`${production.base}/productions/baseline`), productionKey, 'bench upload')
    await baseline('POST', '/project/create', { token, body: { project_name: 'Baseline' } })
    const uploadStarted = performance.now()
    for (const text of sent) await baseline('POST', '/log', { token, text })
    const upload = performance.now() - uploadStarted
    const uploadBytes = proxy.counts.up + proxy.counts.down

    const m = machine()
    console.log(`machine: ${m.cpu}, ${m.cores} cores, load ${m.load}`)
    console.log(`a day written on one cart until the other cart serves it (${LIVE_WRITES} writes, the carts in turn):`)
    console.log(`| how the cart hears of it                         | median  | p90     | slowest |`)
    console.log(`| ------------------------------------------------ | ------- | ------- | ------- |`)
    for (const [what, times] of [
      [`live: the production says "changed" (WebSocket)`, live],
      ['baseline: polling every 5 s (no WebSocket)', polled],
    ])
      console.log(
        `| ${what.padEnd(48)} | ${seconds(quantile(times, 0.5))} | ${seconds(quantile(times, 0.9))} | ${seconds(quantile(times, 1))} |`,
      )
    console.log(`${carts.length} carts × ${DAYS} days × ${CLIPS} clips offline: ${mib(size)} MiB of logs`)
    console.log(`| what                                   | time     | bytes over the link      |`)
    console.log(`| -------------------------------------- | -------- | ------------------------ |`)
    console.log(
      `| baseline: the days uploaded once (POST) | ${(upload / 1000).toFixed(1)} s | ${mib(uploadBytes)} MiB (${(uploadBytes / size).toFixed(2)}× the logs) |`,
    )
    console.log(
      `| converge after the network came back    | ${(converged / 1000).toFixed(1)} s | ${mib(up)} MiB up, ${mib(down)} MiB down (${((up + down) / size).toFixed(2)}× the logs) |`,
    )
    console.log(`each cart sends its days once and receives the other's: 2× the logs is the least`)
    console.log(
      `production: V8 heap held to ${HEAP_MIB} MiB, ${restarted ? 'RAN OUT (workerd started again)' : 'never ran out'}; ` +
        `workerd ${idle.toFixed(0)} MiB resident idle, ${peakRss.toFixed(0)} MiB at most while converging`,
    )
    console.log(`the three GET /logs byte for byte the same: ${identical ? 'yes' : 'NO'}`)
    if (!identical || restarted) process.exitCode = 1
  } finally {
    await proxy.close()
    await Promise.all([production.stop(), ...carts.map((cart) => cart.stop())])
  }
}

await main()

// Where a request's time goes: the service (or the ceiling) bundled and served as npm start serves
// it, loaded with autocannon while V8's sampling profiler runs in workerd.
//
//   node bench/profile.mjs [--target=ours|ceiling] [--scenario=get|many|poll|ping|post|patch] [--seconds=8] [--top=30]
//
// Prints self and inclusive time per function (per request too), and writes the profile to
// $TMPDIR/media-log-<target>-<scenario>.cpuprofile (open it in Chrome DevTools' Performance panel).
import autocannon from 'autocannon'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import { serveBundled } from './bundle.mjs'
import { ROOT, api, approvedToken, makeLog, manyLogsRequest, postManyLogs } from './client.mjs'

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')))
const TARGET = args.target ?? 'ours'
const SCENARIO = args.scenario ?? 'get'
const SECONDS = Number(args.seconds ?? 8)
const TOP = Number(args.top ?? 30)
const PORT = Number(args.port ?? 5790)
const INSPECTOR = PORT + 1
const KEY = 'profile-operator-key-0123456789abcdef'

const state = mkdtempSync(join(tmpdir(), 'media-log-profile-'))
const config = TARGET === 'ceiling' ? join(ROOT, 'bench/ceiling/wrangler.toml') : join(ROOT, 'wrangler.toml')
const served = await serveBundled({
  config,
  port: PORT,
  state,
  inspectorPort: INSPECTOR,
  bindings: { OPERATOR_KEY: KEY },
})
const base = `http://127.0.0.1:${PORT}`

try {
  const request = api(base)
  let token
  if (TARGET === 'ours') {
    token = await approvedToken(request, KEY, 'profile')
    await request('POST', '/project/create', { token, body: { project_name: 'Profile' } })
  }
  await request('POST', '/log', { token, body: makeLog('B0001', 20) })
  if (SCENARIO === 'many') await postManyLogs(request, token)
  const [before, after] = JSON.stringify(makeLog('@ID@', 20)).split('@ID@')
  let n = 0
  // `poll`: the GET of a client that names the tag of the copy it holds (304, no body).
  const tagged = await fetch(`${base}/log/B0001`, { headers: token ? { 'x-api-token': token } : {} })
  await tagged.arrayBuffer()
  const scenario = {
    get: { method: 'GET', path: '/log/B0001' },
    poll: { method: 'GET', path: '/log/B0001', headers: { 'if-none-match': tagged.headers.get('etag') ?? '' } },
    ping: { method: 'GET', path: '/ping' },
    many: manyLogsRequest(),
    post: { method: 'POST', path: '/log', setupRequest: (r) => ((r.body = `${before}p${n++}${after}`), r) },
    patch: { method: 'PATCH', path: '/log/B0001', body: JSON.stringify({ ocf: makeLog('x', 20).ocf }) },
  }[SCENARIO]
  const options = {
    url: base,
    connections: 10,
    requests: [
      {
        ...scenario,
        headers: { 'content-type': 'application/json', ...(token && { 'x-api-token': token }), ...scenario.headers },
      },
    ],
  }
  await autocannon({ ...options, duration: 2 })

  const targets = await (await fetch(`http://127.0.0.1:${INSPECTOR}/json`)).json()
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0]
  const ws = new WebSocket(target.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  let id = 0
  const pending = new Map()
  ws.on('message', (data) => {
    const message = JSON.parse(data)
    if (message.id && pending.has(message.id)) pending.get(message.id)(message)
  })
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve)
      ws.send(JSON.stringify({ id, method, params }))
    })
  await send('Profiler.enable')
  await send('Profiler.setSamplingInterval', { interval: 100 })
  await send('Profiler.start')
  const result = await autocannon({ ...options, duration: SECONDS })
  const {
    result: { profile },
  } = await send('Profiler.stop')
  ws.close()
  console.log(
    `${TARGET} ${SCENARIO}: ${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx, ${result.errors} errors while profiling`,
  )

  const file = join(tmpdir(), `media-log-${TARGET}-${SCENARIO}.cpuprofile`)
  writeFileSync(file, JSON.stringify(profile))
  console.log(`profile written to ${file}`)
  summarize(profile, result.requests.total)
} finally {
  await served.dispose()
  rmSync(state, { recursive: true, force: true })
}

function summarize(profile, requests) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const label = ({ callFrame: f }) =>
    `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.split('/').pop()}:${f.lineNumber + 1}` : ''}`.trim()
  const self = new Map()
  const total = new Map()
  let all = 0
  profile.samples.forEach((sample, i) => {
    const dt = profile.timeDeltas[i] ?? 0
    all += dt
    const node = byId.get(sample)
    self.set(label(node), (self.get(label(node)) ?? 0) + dt)
    const seen = new Set()
    for (let at = sample; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at))
      if (seen.has(name)) continue
      seen.add(name)
      total.set(name, (total.get(name) ?? 0) + dt)
    }
  })
  const busy = all - (self.get('(idle)') ?? 0)
  const pct = (t) => `${((t / busy) * 100).toFixed(1).padStart(5)}% ${(t / requests).toFixed(1).padStart(6)} µs/req`
  console.log(
    `\nsampled ${(all / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (${((busy / all) * 100).toFixed(0)}%), ${(busy / requests).toFixed(0)} µs per request — shares of busy time`,
  )
  console.log('\nself time')
  for (const [name, t] of [...self]
    .filter(([n]) => n !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP))
    console.log(`  ${pct(t)}  ${name}`)
  console.log('\ninclusive time')
  for (const [name, t] of [...total]
    .filter(([n]) => !/^\((root|idle|program)\)/.test(n))
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP))
    console.log(`  ${pct(t)}  ${name}`)
}

// Two builds side by side, for performance work: which one costs less per request?
//
//   node bench/compare.mjs [--scenario=get|many|post|patch|list] [--rounds=5] [configA] [configB]
//
// Defaults: the ceiling (bench/ceiling/wrangler.toml) against the service (wrangler.toml). To try a
// change, copy the tree (src, wrangler.toml, package.json, node_modules as a link) elsewhere, edit
// it, and pass the two wrangler.toml paths. Both are bundled and served as npm start serves the
// service and loaded at the same time (5 connections each), so a neighbour taking the cores slows
// both alike; what is compared is each workerd's CPU time per answer. On these shared 2-core
// machines req/s of runs taken one after the other swing by ±30%, this ratio by about ±10%.
import autocannon from 'autocannon'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { serveBundled } from './bundle.mjs'
import { ROOT, api, approvedToken, cpuMsOf, descendants, makeLog, manyLogsRequest, postManyLogs } from './client.mjs'

const flags = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => a.slice(2).split('=')),
)
const configs = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map((c) => resolve(c))
const [A = join(ROOT, 'bench/ceiling/wrangler.toml'), B = join(ROOT, 'wrangler.toml')] = configs
const SCENARIO = flags.scenario ?? 'get'
const ROUNDS = Number(flags.rounds ?? 5)
const SECONDS = Number(flags.seconds ?? 4)
const KEY = 'compare-operator-key-0123456789abcdef'

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]

async function serve(config, port) {
  const before = new Set(descendants(process.pid))
  const state = mkdtempSync(join(tmpdir(), 'media-log-compare-'))
  const served = await serveBundled({ config, port, state, bindings: { OPERATOR_KEY: KEY } })
  const workerd = descendants(process.pid).find(
    (pid) => !before.has(pid) && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'workerd',
  )
  const request = api(`http://127.0.0.1:${port}`)
  // The service answers /version; the ceiling has no tokens or projects.
  let token
  if ((await request('GET', '/version', { ok: false })).status === 200) {
    token = await approvedToken(request, KEY, 'compare')
    await request('POST', '/project/create', { token, body: { project_name: 'Compare' } })
  }
  await request('POST', '/log', { token, body: makeLog('B0001', 20) })
  // `list`: GET /logs of a year of days, as `npm run bench` lists them (the ceiling has no listing).
  if (SCENARIO === 'list')
    for (let day = 1; day <= 365; day++)
      await request('POST', '/log', { token, body: makeLog(`Y${String(day).padStart(3, '0')}`, 20, day) })
  if (SCENARIO === 'many') await postManyLogs(request, token)
  return {
    name: config.replace(`${ROOT}/`, ''),
    port,
    token,
    workerd,
    runs: [],
    stop: () => served.dispose().then(() => rmSync(state, { recursive: true, force: true })),
  }
}

const [before, after] = JSON.stringify(makeLog('@ID@', 20)).split('@ID@')
let posted = 0
const scenario = () =>
  SCENARIO === 'post'
    ? {
        method: 'POST',
        path: '/log',
        setupRequest: (r) => Object.assign(r, { body: `${before}c${(posted++).toString(36)}${after}` }),
      }
    : SCENARIO === 'patch'
      ? // The whole clip list again, as an offload tool updates a day's copies.
        { method: 'PATCH', path: '/log/B0001', body: JSON.stringify({ ocf: makeLog('B0001', 20).ocf }) }
      : SCENARIO === 'many'
        ? manyLogsRequest()
        : { method: 'GET', path: SCENARIO === 'list' ? '/logs' : '/log/B0001' }

const servers = [await serve(A, 5780), await serve(B, 5781)]
try {
  const options = (s) => ({
    url: `http://127.0.0.1:${s.port}`,
    connections: 5,
    requests: [
      { headers: { 'content-type': 'application/json', ...(s.token && { 'x-api-token': s.token }) }, ...scenario() },
    ],
  })
  await Promise.all(servers.map((s) => autocannon({ ...options(s), duration: 1 })))
  for (let round = 0; round < ROUNDS; round++) {
    const cpu = servers.map((s) => cpuMsOf(s.workerd))
    const results = await Promise.all(servers.map((s) => autocannon({ ...options(s), duration: SECONDS })))
    servers.forEach((s, i) => {
      const r = results[i]
      if (r.non2xx || r.errors) throw new Error(`${s.name}: ${JSON.stringify(r.statusCodeStats)}, ${r.errors} errors`)
      s.runs.push({ rps: r.requests.total / r.duration, us: ((cpuMsOf(s.workerd) - cpu[i]) * 1000) / r.requests.total })
    })
  }
  console.log(`${scenario().method} ${scenario().path}, ${ROUNDS} rounds of ${SECONDS} s, both loaded at once`)
  for (const s of servers) {
    console.log(
      `  ${s.name.padEnd(36)} ${Math.round(median(s.runs.map((r) => r.us)))} µs CPU per request (${s.runs.map((r) => Math.round(r.us)).join(' ')})`,
    )
  }
  const ratios = servers[1].runs.map((r, i) => r.us / servers[0].runs[i].us)
  console.log(
    `  B costs ${median(ratios).toFixed(2)}× A per request (rounds: ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
  )
} finally {
  for (const s of servers) await s.stop()
}

// npm run bench [-- --dev] [--duration=10] [--rounds=1] [--only=get,many,poll,post,patch,list,pdf,checks,import,reports,verify]
//
// Starts the service as users run it (`npm start`, or `npm run dev` with --dev) on its own port and
// state, gets a token through the approval endpoints, and loads it with autocannon on 127.0.0.1
// (10 connections, a warm-up, then a bounded run per scenario). The ceiling, a bare Worker with one
// SQLite Durable Object served the same way, runs beside it: each GET and POST of ours is measured
// next to the ceiling's, so both see the same neighbours. Writes bench/results/latest.{json,md}
// (latest-dev.* under --dev).
import autocannon from 'autocannon'
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  ROOT,
  api,
  approvedToken,
  cardManifest,
  cpuMsOf,
  machine,
  makeLog,
  manyLogsRequest,
  MANY_LOGS,
  postManyLogs,
  startServer,
} from './client.mjs'

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=')
    return [k, v ?? 'true']
  }),
)
const DEV = args.dev === 'true'
const DURATION = Number(args.duration ?? 10)
const WARMUP = Number(args.warmup ?? 2)
const ROUNDS = Number(args.rounds ?? 1)
const CONNECTIONS = 10
const ONLY = new Set((args.only ?? 'get,many,poll,post,patch,list,pdf,checks,import,reports,verify').split(','))
// 5700–5799 belong to the benchmarks: ours, then the ceiling.
const PORT = Number(args.port ?? (DEV ? 5710 : 5700))

const LOG_CLIPS = 20
const LIST_LOGS = 365
const PDF_CLIPS = 1000
const CHECK_DAYS = [2000, 20_000]
const IMPORT_CLIPS = 5000
const IMPORT_RUNS = 15

/**
 * POST /log/:id/import of a 5,000-clip manifest into a new log, one request at a time, beside the
 * baseline of the same run: POST /log of the very log that import made, as an application sends it.
 */
async function importTimings(request, token) {
  const manifest = cardManifest(IMPORT_CLIPS)
  const body = (name) => JSON.stringify({ files: [{ name, content: manifest }], day: 14, date: '2025-06-14' })
  const raw = (method, path, text) => request(method, path, { token, text, raw: true })
  const timed = async (run) => {
    const times = []
    for (let i = 0; i < IMPORT_RUNS + 2; i++) {
      const started = performance.now()
      await run(i)
      if (i >= 2) times.push(performance.now() - started) // two warm-up requests
    }
    times.sort((a, b) => a - b)
    return { p50: median(times), p90: times[Math.floor(times.length * 0.9)], runs: times }
  }
  const imported = await timed((i) =>
    raw('POST', `/log/IMPORT${i}/import`, body(`/Volumes/SHUTTLE_A/D014/A001/ascmhl/0001_A001_2025-06-14_081500Z.mhl`)),
  )
  const log = JSON.parse(await raw('GET', '/log/IMPORT0'))
  if (log.ocf.clips.length !== IMPORT_CLIPS) throw new Error(`the import made ${log.ocf.clips.length} clips`)
  const posted = await timed((i) => raw('POST', '/log', JSON.stringify({ ...log, id: `POSTED${i}` })))
  const result = {
    clips: IMPORT_CLIPS,
    manifestBytes: Buffer.byteLength(manifest),
    logBytes: Buffer.byteLength(JSON.stringify(log)),
    import: imported,
    post: posted,
  }
  console.log(
    `  import of a ${IMPORT_CLIPS.toLocaleString('en-US')}-clip ASC MHL: p50 ${ms(imported.p50)}, p90 ${ms(imported.p90)}; ` +
      `POST /log of the same day: p50 ${ms(posted.p50)} (${(imported.p50 / posted.p50).toFixed(2)}×)`,
  )
  return result
}

/** A day for the checks: the benchmark's clips, each with a proxy and a sound clip running with it. */
function checkedDay(id, clips) {
  const log = makeLog(id, clips)
  const copies = [{ volume: 'SSD_01', hash: null }]
  log.proxy = {
    clips: log.ocf.clips.map((c) => ({
      clip: `${c.clip}.mov`,
      size: 1e6,
      format: 'mov',
      codec: 'ProRes',
      resolution: 'HD',
    })),
  }
  log.sound = {
    clips: log.ocf.clips.map((c, i) => ({
      clip: `S${i}.wav`,
      size: 1e6,
      tc_start: c.tc_start,
      tc_end: c.tc_end,
      copies,
    })),
  }
  return log
}

/**
 * One autocannon run. Latencies are taken from every response (autocannon's own histogram keeps
 * whole milliseconds, too coarse for a 5 ms answer); req/s counts 2xx answers, and the status
 * `expect` names (304 for a poll naming its tag), only.
 */
async function load(
  server,
  { title, method, path, token, body, setupRequest, headers: extra, expect, duration = DURATION, timeout = 30 },
) {
  const base = server.base
  const headers = { 'content-type': 'application/json', ...(token && { 'x-api-token': token }), ...extra }
  const options = {
    url: base,
    connections: CONNECTIONS,
    timeout,
    requests: [{ method, path, headers, ...(body !== undefined && { body }), ...(setupRequest && { setupRequest }) }],
  }
  // The warm-up's answers are not measured, but a failure there is still a failure: kept and shown.
  const warm = WARMUP > 0 ? await autocannon({ ...options, duration: WARMUP }) : undefined
  // A POST run leaves ~100 MB of SQLite pages for the kernel to write back: flushed now, not
  // during the next run, which would pay for it.
  spawnSync('sync')
  const latencies = []
  // The server's own CPU per answer: steadier than req/s when neighbours take turns on the cores.
  const cpuBefore = cpuMsOf(server.pid)
  const instance = autocannon({ ...options, duration })
  const ok = (status) => (status >= 200 && status < 300) || status === expect
  instance.on('response', (_client, status, _bytes, ms) => {
    if (ok(status)) latencies.push(ms)
  })
  // What a failed request saw (reset, timeout…), so a non-zero error count can be explained.
  const errorKinds = {}
  instance.on('reqError', (err) => {
    const kind = err.code ?? err.message
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1
  })
  const result = await instance
  const cpuMs = cpuMsOf(server.pid) - cpuBefore
  spawnSync('sync')
  latencies.sort((a, b) => a - b)
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN
  const measured = {
    title,
    requests: result.requests.sent,
    ok: latencies.length,
    rps: latencies.length / result.duration,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies.at(-1) ?? NaN,
    cpuPerRequestUs: (cpuMs * 1000) / Math.max(1, result.requests.total),
    errors: result.errors,
    errorKinds,
    timeouts: result.timeouts,
    non2xx: result.non2xx - (expect ? (codes(result)[expect] ?? 0) : 0),
    statusCodes: codes(result),
    warmup: warm && {
      requests: warm.requests.sent,
      failures: warm.errors + warm.timeouts + warm.non2xx - (expect ? (codes(warm)[expect] ?? 0) : 0),
      statusCodes: codes(warm),
    },
  }
  console.log(
    `  ${title.padEnd(44)} ${fmt(measured.rps).padStart(7)} req/s  p50 ${ms(measured.p50).padStart(7)}  p99 ${ms(measured.p99).padStart(7)}` +
      `  CPU ${fmt(measured.cpuPerRequestUs).padStart(6)} µs/req  errors ${measured.errors}  non-2xx ${measured.non2xx}`,
  )
  if (result.errors) console.log(`    errors: ${JSON.stringify(errorKinds)}`)
  if (measured.warmup?.failures)
    console.log(
      `    warm-up: ${measured.warmup.failures} of ${measured.warmup.requests} failed ${JSON.stringify(measured.warmup.statusCodes)}`,
    )
  return measured
}

const codes = (result) =>
  Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]))

const fmt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—')
const ms = (n) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n)} ms` : '—')

/** The tag a GET answers with now. */
async function tagOf(server, path, token) {
  const response = await fetch(`${server.base}${path}`, { headers: { 'x-api-token': token } })
  await response.arrayBuffer()
  const etag = response.headers.get('etag')
  if (!response.ok || !etag) throw new Error(`GET ${path} answered ${response.status} without a tag`)
  return etag
}

/** POST bodies with an id unique to each request: the log text is cut at its id once. */
function uniquePosts(prefix) {
  const [before, after] = JSON.stringify(makeLog('@ID@', LOG_CLIPS)).split('@ID@')
  let n = 0
  return (request) => {
    request.body = `${before}${prefix}${(n++).toString(36)}${after}`
    return request
  }
}

/** A copy finished: the client sends the whole `ocf` again with the new checksums. */
function copyFinished() {
  const { ocf } = makeLog('x', LOG_CLIPS)
  for (const clip of ocf.clips) clip.copies[2].hash = `xxh64:${clip.copies[0].hash.slice(6)}`
  return JSON.stringify({ ocf, offload_done: true })
}

async function prepareOurs(server) {
  const request = api(server.base)
  const token = await approvedToken(request, server.operatorKey(), `bench-${server.kind}-${process.pid}`)
  // A year of shooting days for GET /logs, then the working project the other scenarios use.
  await request('POST', '/project/create', { token, body: { project_name: `Bench Year ${Date.now()}` } })
  const pending = Array.from({ length: LIST_LOGS }, (_, i) =>
    makeLog(`Y${String(i + 1).padStart(3, '0')}`, LOG_CLIPS, i + 1),
  )
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let log; (log = pending.shift());) await request('POST', '/log', { token, body: log })
    }),
  )
  const listed = await request('GET', '/logs', { token })
  if (listed.logs.length !== LIST_LOGS) throw new Error(`GET /logs listed ${listed.logs.length} logs, not ${LIST_LOGS}`)
  const listBytes = JSON.stringify(listed).length
  return { request, token, listBytes }
}

async function prepareWorkingProject({ request, token }) {
  await request('POST', '/project/create', { token, body: { project_name: `Bench ${Date.now()}` } })
  await request('PATCH', '/project/config', {
    token,
    body: {
      unit: 'Main Unit',
      pdfs: [
        {
          id: 'BENCH',
          label: 'Daily Report',
          output_name: '<project>_<log>.pdf',
          template: 'clips-report',
          enabled: true,
        },
      ],
    },
  })
  await request('POST', '/log', { token, body: makeLog('B0001', LOG_CLIPS) })
  for (let i = 0; i < CONNECTIONS; i++) await request('POST', '/log', { token, body: makeLog(`P${i}`, LOG_CLIPS) })
  await request('POST', '/log', { token, body: makeLog('PDF1000', PDF_CLIPS) })
  for (const clips of CHECK_DAYS) await request('POST', '/log', { token, body: checkedDay(`CHECK${clips}`, clips) })
}

/** The same GET answers the same bytes on both servers, else the comparison means nothing. */
async function sameLog(request, token) {
  const text = JSON.stringify(makeLog('B0001', LOG_CLIPS))
  const answer = await request('GET', '/log/B0001', { token })
  if (JSON.stringify(answer) !== text) throw new Error('GET /log/B0001 did not answer the log as posted')
  return text.length
}

function patchBodies() {
  let n = 0
  return (request) => {
    request.path = `/log/P${n++ % CONNECTIONS}`
    return request
  }
}

async function main() {
  const kinds = DEV ? { ours: 'dev', ceiling: 'ceiling-dev' } : { ours: 'start', ceiling: 'ceiling' }
  const how = DEV ? '`npm run dev` (wrangler dev)' : '`npm start` (Miniflare API, direct socket)'
  const host = machine()
  console.log(
    `Media-Log Service benchmark: ${how}, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per run, ${ROUNDS} round(s)`,
  )
  console.log(`${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, Node ${host.node}, load ${host.load.join(' ')}`)

  const ours = await startServer({ kind: kinds.ours, port: PORT })
  const ceiling = await startServer({ kind: kinds.ceiling, port: PORT + 1 })
  const runs = { ours: {}, ceiling: {} }
  const push = (side, key, result) => (runs[side][key] ??= []).push(result)
  let logBytes = 0
  let listBytes = 0
  let imports
  try {
    const ctx = await prepareOurs(ours)
    listBytes = ctx.listBytes
    const { request, token } = ctx
    if (ONLY.has('list')) {
      console.log(`\nGET /logs on a project of ${LIST_LOGS} logs (${(listBytes / 2 ** 20).toFixed(1)} MiB)`)
      for (let r = 0; r < ROUNDS; r++)
        push(
          'ours',
          'list',
          await load(ours, { title: `ours: GET /logs (${LIST_LOGS} logs)`, method: 'GET', path: '/logs', token }),
        )
    }
    await prepareWorkingProject(ctx)
    logBytes = await sameLog(request, token)
    const ceilingRequest = api(ceiling.base)
    await ceilingRequest('POST', '/log', { body: makeLog('B0001', LOG_CLIPS) })
    if ((await sameLog(ceilingRequest)) !== logBytes) throw new Error('the ceiling answers another log')
    if (ONLY.has('many')) {
      await postManyLogs(request, token)
      await postManyLogs(ceilingRequest)
    }

    for (let r = 0; r < ROUNDS; r++) {
      console.log(`\nRound ${r + 1} of ${ROUNDS} (load ${machine().load.join(' ')})`)
      // Each pair in turn, the ceiling first in odd rounds and ours first in even ones.
      const pair = async (ceilingRun, oursRun) => {
        const order = r % 2 ? [oursRun, ceilingRun] : [ceilingRun, oursRun]
        for (const run of order) await run()
      }
      if (ONLY.has('get')) {
        await pair(
          async () =>
            push(
              'ceiling',
              'get',
              await load(ceiling, { title: 'ceiling: GET /log/:id', method: 'GET', path: '/log/B0001' }),
            ),
          async () =>
            push(
              'ours',
              'get',
              await load(ours, { title: 'ours: GET /log/:id', method: 'GET', path: '/log/B0001', token }),
            ),
        )
      }
      if (ONLY.has('many')) {
        // More logs in turn than the worker keeps the texts of (http/kept-logs.ts): every GET
        // carries its text from the Durable Object, as the ceiling's does.
        const many = manyLogsRequest()
        await pair(
          async () => push('ceiling', 'many', await load(ceiling, { title: 'ceiling: GET /log/:id, many', ...many })),
          async () => push('ours', 'many', await load(ours, { title: 'ours: GET /log/:id, many', ...many, token })),
        )
      }
      if (ONLY.has('poll')) {
        // A client polling a day that did not change, naming its copy's tag, beside the ceiling's
        // whole answer; and a 20,000-clip day polled so, beside GET /ping.
        await pair(
          async () =>
            push(
              'ceiling',
              'poll',
              await load(ceiling, { title: 'ceiling: GET /log/:id', method: 'GET', path: '/log/B0001' }),
            ),
          async () =>
            push(
              'ours',
              'poll',
              await load(ours, {
                title: 'ours: GET /log/:id, its tag named',
                method: 'GET',
                path: '/log/B0001',
                token,
                headers: { 'if-none-match': await tagOf(ours, '/log/B0001', token) },
                expect: 304,
              }),
            ),
        )
        const large = `/log/CHECK${CHECK_DAYS.at(-1)}`
        await pair(
          async () =>
            push('ceiling', 'pollLarge', await load(ours, { title: 'ours: GET /ping', method: 'GET', path: '/ping' })),
          async () =>
            push(
              'ours',
              'pollLarge',
              await load(ours, {
                title: `ours: GET ${large}, its tag named`,
                method: 'GET',
                path: large,
                token,
                headers: { 'if-none-match': await tagOf(ours, large, token) },
                expect: 304,
              }),
            ),
        )
      }
      if (ONLY.has('post')) {
        await pair(
          async () =>
            push(
              'ceiling',
              'post',
              await load(ceiling, {
                title: 'ceiling: POST /log',
                method: 'POST',
                path: '/log',
                setupRequest: uniquePosts(`c${r}-`),
              }),
            ),
          async () =>
            push(
              'ours',
              'post',
              await load(ours, {
                title: 'ours: POST /log',
                method: 'POST',
                path: '/log',
                token,
                setupRequest: uniquePosts(`o${r}-`),
              }),
            ),
        )
      }
      if (ONLY.has('patch')) {
        push(
          'ours',
          'patch',
          await load(ours, {
            title: 'ours: PATCH /log/:id',
            method: 'PATCH',
            path: '/log/P0',
            token,
            body: copyFinished(),
            setupRequest: patchBodies(),
          }),
        )
      }
      if (ONLY.has('pdf')) {
        const body = JSON.stringify({ presetId: 'BENCH', logId: 'PDF1000' })
        push(
          'ours',
          'pdf',
          await load(ours, {
            title: `ours: POST /generate-pdf (${PDF_CLIPS.toLocaleString('en-US')} clips)`,
            method: 'POST',
            path: '/generate-pdf',
            token,
            body,
            duration: Math.max(DURATION, 15),
            timeout: 120,
          }),
        )
      }
      if (ONLY.has('checks'))
        for (const clips of CHECK_DAYS)
          push(
            'ours',
            `checks${clips}`,
            await load(ours, {
              title: `ours: GET /log/:id/checks (${clips.toLocaleString('en-US')} clips)`,
              method: 'GET',
              path: `/log/CHECK${clips}/checks`,
              token,
              duration: Math.max(DURATION, 15),
              timeout: 120,
            }),
          )
    }
    if (ONLY.has('import')) {
      console.log(`\nImport (one request at a time, ${IMPORT_RUNS} runs after 2 warm-up)`)
      imports = await importTimings(request, token)
    }
    // What the POST runs stored is really there, intact.
    for (const id of ['o0-0', 'o0-1f']) {
      if (!runs.ours.post) break
      const stored = await request('GET', `/log/${id}`, { token })
      if (JSON.stringify(stored) !== JSON.stringify(makeLog(id, LOG_CLIPS)))
        throw new Error(`log ${id} posted under load is not stored as sent`)
    }
  } finally {
    await ours.stop()
    await ceiling.stop()
  }

  const report = summarize({ runs, host, how, logBytes, listBytes, imports })
  console.log(`\n${report.markdown}`)
  const dir = join(ROOT, 'bench/results')
  mkdirSync(dir, { recursive: true })
  const name = DEV ? 'latest-dev' : 'latest'
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(report.json, null, 2) + '\n')
  writeFileSync(join(dir, `${name}.md`), report.markdown)
  console.log(`Written to bench/results/${name}.json and ${name}.md`)
  if (!report.json.clean) {
    console.error('Some requests failed or answered non-2xx: see the table.')
    process.exitCode = 1
  }
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = sorted.length / 2
  return Number.isInteger(mid) ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[Math.floor(mid)]
}

/** The median run of each scenario (by req/s) stands for it; every run is kept in the JSON. */
function summarize({ runs, host, how, logBytes, listBytes, imports }) {
  const pick = (list) => {
    if (!list?.length) return undefined
    // The median run by req/s stands for the scenario (of two, the slower one).
    const run = [...list].sort((a, b) => a.rps - b.rps)[Math.floor((list.length - 1) / 2)]
    return {
      ...run,
      spread: list.length > 1 ? [Math.min(...list.map((r) => r.rps)), Math.max(...list.map((r) => r.rps))] : undefined,
    }
  }
  const kb = (b) => `${(b / 1024).toFixed(0)} KB`
  const scenarios = [
    ['get', `GET /log/:id (${LOG_CLIPS} clips, ${kb(logBytes)})`],
    ['many', `GET /log/:id, ${MANY_LOGS} logs in turn (none kept in the worker)`],
    ['poll', `GET /log/:id, unchanged, its tag named: 304 (${LOG_CLIPS} clips; ceiling: its whole GET)`],
    [
      'pollLarge',
      `GET /log/:id, unchanged, its tag named: 304 (${CHECK_DAYS.at(-1).toLocaleString('en-US')} clips; beside: GET /ping)`,
    ],
    ['post', `POST /log (${LOG_CLIPS} clips, new id each)`],
    ['patch', `PATCH /log/:id (${LOG_CLIPS} clips, \`ocf\` replaced)`],
    ['list', `GET /logs (${LIST_LOGS} logs, ${(listBytes / 2 ** 20).toFixed(1)} MiB)`],
    ['pdf', `POST /generate-pdf (${PDF_CLIPS.toLocaleString('en-US')} clips)`],
    ...CHECK_DAYS.map((clips) => [
      `checks${clips}`,
      `GET /log/:id/checks (${clips.toLocaleString('en-US')} clips, proxies, sound)`,
    ]),
  ]
  const rows = []
  const json = {
    imports,
    how,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    warmupSeconds: WARMUP,
    rounds: ROUNDS,
    machine: host,
    scenarios: {},
    clean: true,
  }
  for (const [id, label] of scenarios) {
    const ours = pick(runs.ours[id])
    if (!ours) continue
    const ceiling = pick(runs.ceiling[id])
    const all = runs.ours[id].concat(runs.ceiling[id] ?? [])
    const failures = all.reduce((n, r) => n + r.errors + r.non2xx + r.timeouts, 0)
    const kinds = {}
    for (const r of all)
      for (const [kind, n] of Object.entries(r.errorKinds ?? {})) kinds[kind] = (kinds[kind] ?? 0) + n
    const named = Object.keys(kinds).length
      ? ` (${Object.entries(kinds)
          .map(([kind, n]) => `${n} ${kind}`)
          .join(', ')})`
      : ''
    const warmFailures = all.reduce((n, r) => n + (r.warmup?.failures ?? 0), 0)
    if (failures || warmFailures) json.clean = false
    // Ratios of the runs taken side by side in one round, then their median: neighbours come and go
    // between rounds, and a ratio of medians would set runs of different rounds against each other.
    const paired = (f) => runs.ours[id].map((r, i) => f(r) / f(runs.ceiling[id][i]))
    const ratio = ceiling && {
      rps: median(paired((r) => r.rps)),
      p99: median(paired((r) => r.p99)),
      cpu: median(paired((r) => r.cpuPerRequestUs)),
      rounds: paired((r) => r.rps),
    }
    json.scenarios[id] = { label, ours, ceiling, ratio, runs: { ours: runs.ours[id], ceiling: runs.ceiling[id] } }
    const spread = ours.spread ? ` (${fmt(ours.spread[0])}–${fmt(ours.spread[1])})` : ''
    const cpu = (side) => `${fmt(median(runs[side][id].map((r) => r.cpuPerRequestUs)))} µs`
    rows.push(
      `| ${label} | ${fmt(ours.rps)}${spread} | ${ms(ours.p50)} | ${ms(ours.p99)} | ${cpu('ours')}${ceiling ? ` / ${cpu('ceiling')}` : ''} | ` +
        `${ceiling ? `${fmt(ceiling.rps)} / ${ms(ceiling.p99)}` : '—'} | ` +
        `${ratio ? `${Math.round(ratio.rps * 100)}%${ratio.rounds.length > 1 ? ` (${ratio.rounds.map((x) => `${Math.round(x * 100)}%`).join(', ')})` : ''} / ${ratio.p99.toFixed(2)}×` : '—'} | ${failures}${named}${warmFailures ? ` (warm-up: ${warmFailures})` : ''} |`,
    )
  }
  const markdown = [
    `Served by ${how}; autocannon, ${CONNECTIONS} connections on 127.0.0.1, ${WARMUP} s warm-up then ${DURATION} s${ROUNDS > 1 ? `, median of ${ROUNDS} rounds (range of req/s in brackets; ratios are the median of each round's pair, every round's in brackets)` : ''}.`,
    'Ceiling: a bare Worker + one SQLite Durable Object served the same way, storing and returning the same JSON.',
    "Server CPU: user + system time of the server's processes (workerd, and wrangler's node under `npm run dev`) per answer during the run.",
    '',
    '| Scenario | req/s | p50 | p99 | server CPU per request (ours / ceiling) | ceiling req/s / p99 | ours ÷ ceiling (req/s / p99) | errors + non-2xx |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...(imports
      ? [
          `Import, one request at a time (${IMPORT_RUNS} runs after 2 warm-up; a new log each):`,
          '',
          '| Scenario | p50 | p90 | ÷ baseline (p50) |',
          '|---|---|---|---|',
          `| POST /log/:id/import, ASC MHL of ${imports.clips.toLocaleString('en-US')} clips (${(imports.manifestBytes / 2 ** 20).toFixed(1)} MiB) | ${ms(imports.import.p50)} | ${ms(imports.import.p90)} | ${(imports.import.p50 / imports.post.p50).toFixed(2)}× |`,
          `| baseline: POST /log of the log that import made (${(imports.logBytes / 2 ** 20).toFixed(1)} MiB) | ${ms(imports.post.p50)} | ${ms(imports.post.p90)} | 1× |`,
          '',
        ]
      : []),
    `Machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB RAM, Node ${host.node}; ${host.date.slice(0, 16).replace('T', ' ')} UTC; load average at start ${host.load.join(' / ')}.`,
    '',
  ].join('\n')
  return { json, markdown }
}

if ([...ONLY].some((only) => only !== 'reports' && only !== 'verify')) await main()
// Transfer reports at scale, on a server of their own with V8's heap held to 64 MB
// (bench/reports.mjs, which writes bench/results/reports.{json,md}).
if (ONLY.has('reports') && !DEV) {
  console.log('\nTransfer reports (a 5,000-row CSV and a 5,000-row hash ALE, heap held to 64 MB)')
  const reports = spawnSync(process.execPath, [join(ROOT, 'bench/reports.mjs')], { stdio: 'inherit' })
  if (reports.status !== 0) process.exitCode = 1
}
// `media-log verify` reading back 8 GiB against xxhsum, md5sum, sha1sum and cat (bench/verify.mjs,
// which writes bench/results/verify.{json,md}).
if (ONLY.has('verify') && !DEV) {
  console.log("\nmedia-log verify (8 GiB from the page cache, against the platform's tools)")
  const verify = spawnSync(process.execPath, [join(ROOT, 'bench/verify.mjs')], { stdio: 'inherit' })
  if (verify.status !== 0) process.exitCode = 1
}

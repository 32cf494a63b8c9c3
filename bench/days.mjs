// The console's Days view over a 20,000-clip day: how long GET /approve/days takes the first time
// (the day's checks computed and cached) and after, how long a day's detail (GET /approve/days/{id},
// its findings and its copies by reel) takes, and how large each answer is; against the day's
// GET /log/{id}/checks measured in the same run.
//
//   node bench/days.mjs [-- --clips=20000 --rounds=5]
//
// One of the three volumes misses every tenth clip, so the detail lists findings and the copies
// table has something to show. Prints and writes bench/results/days.{json,md}.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT, api, approvedToken, machine, makeLog, startServer } from './client.mjs'

const flags = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => a.slice(2).split('=')),
)
const CLIPS = Number(flags.clips ?? 20000)
const ROUNDS = Number(flags.rounds ?? 5)
const PORT = 5767

const log = makeLog('D001', CLIPS)
for (const [i, clip] of log.ocf.clips.entries()) if (i % 10 === 0) clip.copies = clip.copies.slice(0, 2)

const state = mkdtempSync(join(tmpdir(), 'media-log-days-'))
const server = await startServer({ kind: 'start', port: PORT, state })
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const rows = []
try {
  const request = api(server.base)
  const token = await approvedToken(request, server.operatorKey(), 'days-bench')
  const operator = { 'x-operator-key': server.operatorKey() }
  await request('POST', '/project/create', { token, body: { project_name: 'Days' } })
  await request('POST', '/log', { token, body: log })
  /** @param {string} path */
  const timed = async (path) => {
    const started = performance.now()
    const text = await request('GET', path, { headers: operator, raw: true })
    return { ms: performance.now() - started, bytes: Buffer.byteLength(text) }
  }
  const first = await timed('/approve/days')
  rows.push({ what: 'GET /approve/days, first (checks computed)', ms: first.ms, bytes: first.bytes })
  const again = []
  for (let i = 0; i < ROUNDS; i++) again.push(await timed('/approve/days'))
  rows.push({ what: 'GET /approve/days, cached', ms: median(again.map((r) => r.ms)), bytes: again[0].bytes })
  const detail = []
  for (let i = 0; i < ROUNDS; i++) detail.push(await timed('/approve/days/D001'))
  rows.push({ what: 'GET /approve/days/D001', ms: median(detail.map((r) => r.ms)), bytes: detail[0].bytes })
  // The baseline, in the same run: the day's checks as an application reads them, the work a
  // detail cannot avoid (it reads every clip once and checks it).
  const checks = []
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now()
    const text = await request('GET', '/log/D001/checks', { token, raw: true })
    checks.push({ ms: performance.now() - started, bytes: Buffer.byteLength(text) })
  }
  rows.push({
    what: 'baseline: GET /log/D001/checks',
    ms: median(checks.map((r) => r.ms)),
    bytes: checks[0].bytes,
  })
} finally {
  await server.stop()
  rmSync(state, { recursive: true, force: true })
}

const host = machine()
const lines = [
  `# Days view, one day of ${CLIPS.toLocaleString('en-US')} clips on three volumes`,
  '',
  `${host.cpu}, ${host.cores} cores, Node ${host.node}, load ${host.load.join(' ')}, ${host.date}; median of ${ROUNDS} where repeated.`,
  '',
  '| request | ms | ÷ baseline | answer bytes |',
  '| --- | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.what} | ${Math.round(r.ms)} | ${(r.ms / rows.at(-1).ms).toFixed(2)}× | ${r.bytes.toLocaleString('en-US')} |`,
  ),
]
console.log(lines.join('\n'))
writeFileSync(
  join(ROOT, 'bench/results/days.json'),
  JSON.stringify({ machine: host, clips: CLIPS, rounds: ROUNDS, rows }, null, 2),
)
writeFileSync(join(ROOT, 'bench/results/days.md'), lines.join('\n') + '\n')

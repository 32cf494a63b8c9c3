// The big operations timed on two builds side by side: a change against the commit before it.
//
//   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/
//   node bench/pair.mjs /tmp/before/wrangler.toml [--only=report] [--rounds=9]
//
// Both builds are bundled and served as npm start serves them, each with the same data (a 2,000- and
// a 20,000-clip day); every operation then runs on each in turn, alternating which goes first, and
// the medians are compared. compare.mjs measures throughput of small requests under load; this
// measures one request that takes a second.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { serveBundled } from './bundle.mjs'
import { ROOT, api, approvedToken, cardManifest, makeLog } from './client.mjs'

const flags = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => a.slice(2).split('=')),
)
const [before] = process.argv.slice(2).filter((a) => !a.startsWith('--'))
if (!before) throw new Error('usage: node bench/pair.mjs <the other build’s wrangler.toml> [--only=…] [--rounds=9]')
const ROUNDS = Number(flags.rounds ?? 9)
const KEY = 'pair-operator-key-0123456789abcdef'
const SIZES = [2000, 20_000]
const IMPORTED = cardManifest(5000)

const builds = []
for (const [name, config, port] of [
  ['before', resolve(before), 5783],
  ['this', join(ROOT, 'wrangler.toml'), 5784],
]) {
  await serveBundled({
    config,
    port,
    state: mkdtempSync(join(tmpdir(), 'media-log-pair-')),
    bindings: { OPERATOR_KEY: KEY },
  })
  const request = api(`http://127.0.0.1:${port}`)
  const token = await approvedToken(request, KEY, 'pair')
  await request('POST', '/project/create', { token, body: { project_name: 'Pair' } })
  const pdfs = [{ id: 'CLIPS', label: 'Clips', output_name: 'c.pdf', template: 'clips-report', enabled: true }]
  await request('PATCH', '/project/config', { token, body: { pdfs } })
  for (const n of SIZES) await request('POST', '/log', { token, body: makeLog(`L${n}`, n) })
  builds.push({ name, request, token })
}

let posted = 0
const operations = SIZES.flatMap((n) => [
  [
    `POST /log, ${n.toLocaleString('en-US')} clips`,
    async ({ request, token }) => {
      const id = `P${++posted}`
      await request('POST', '/log', { token, body: makeLog(id, n) })
      return () => request('DELETE', `/log/${id}`, { token })
    },
  ],
  [`GET /log/:id, ${n.toLocaleString('en-US')} clips`, ({ request, token }) => request('GET', `/log/L${n}`, { token })],
  [
    `clips report, ${n.toLocaleString('en-US')} clips`,
    ({ request, token }) => request('POST', '/generate-pdf', { token, body: { presetId: 'CLIPS', logId: `L${n}` } }),
  ],
  [
    `PATCH of unit, ${n.toLocaleString('en-US')}-clip log`,
    ({ request, token }) => request('PATCH', `/log/L${n}`, { token, body: { unit: `Unit ${Math.random()}` } }),
  ],
  [
    `checks, ${n.toLocaleString('en-US')} clips`,
    ({ request, token }) => request('GET', `/log/L${n}/checks`, { token }),
  ],
])
  .concat([
    [
      'import of a 5,000-clip ASC MHL',
      async ({ request, token }) => {
        const id = `I${++posted}`
        const files = [{ name: '/Volumes/S/ascmhl/0001_A_2025-06-14_100000Z.mhl', content: IMPORTED }]
        await request('POST', `/log/${id}/import`, { token, body: { files, day: 1 } })
        return () => request('DELETE', `/log/${id}`, { token })
      },
    ],
  ])
  .filter(([name]) => !flags.only || name.includes(flags.only))

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(`median of ${ROUNDS} runs each, alternating which build goes first`)
console.log('| Operation | before | this | ratio |\n|---|---|---|---|')
for (const [name, run] of operations) {
  const times = { before: [], this: [] }
  for (let round = 0; round < ROUNDS; round++)
    for (const build of round % 2 ? builds : [...builds].reverse()) {
      const start = performance.now()
      const after = await run(build)
      times[build.name].push(performance.now() - start)
      // What a step leaves behind (a posted log) is taken away untimed.
      if (typeof after === 'function') await after()
    }
  const [a, b] = [median(times.before), median(times.this)]
  console.log(`| ${name} | ${a.toFixed(0)} ms | ${b.toFixed(0)} ms | ${(b / a).toFixed(2)}× |`)
}
process.exit(0)

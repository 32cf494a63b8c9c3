// Where POST /log's time goes in the worker and in the Durable Object, the service's steps against
// the ceiling's, each step repeated inside workerd (bench/steps/worker.js says how).
//
//   node bench/steps.mjs [--rounds=150] [--n=100]
//
// Each step's figure is its fastest round: a loop that does the same work every time is only ever
// slowed down by its neighbours, and here they come and go in bursts of seconds, so many short
// rounds catch every step undisturbed at least once. Differences between steps then say what one
// step adds to another.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serveBundled } from './bundle.mjs'
import { ROOT, makeLog } from './client.mjs'

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')))
const ROUNDS = Number(args.rounds ?? 150)
const N = Number(args.n ?? 100)
const PORT = Number(args.port ?? 5795)

const WORKER_STEPS = ['request', 'text', 'read', 'parse', 'walk', 'check', 'ceiling', 'service']
const OBJECT_STEPS = ['store', 'workspace']

// What each figure is, from the fastest round of each step.
const FIGURES = [
  ['worker', 'a fresh request and its body (taken off every figure below)', (t) => t.request],
  ['worker', "the ceiling's fetch: text(), JSON.parse, a Response", (t) => t.ceiling - t.request],
  ['worker', "the service's fetch", (t) => t.service - t.request],
  ['worker', '  more than the ceiling', (t) => t.service - t.ceiling],
  ['worker', '    reading bytes and strict UTF-8 instead of text()', (t) => t.read - t.text],
  ['worker', '    the depth/key walk', (t) => t.walk - t.parse],
  ['worker', '    the quick log check', (t) => t.check - t.walk],
  [
    'worker',
    '    the rest: router, Host and token checks, answer headers',
    (t) => t.service - t.ceiling - (t.read - t.text) - (t.check - t.parse),
  ],
  ['worker', 'JSON.parse, which both pay', (t) => t.parse - t.text],
  ['object', "the ceiling's put", (t) => t.store],
  ['object', "the workspace's createLog of a checked log: token, project, insert", (t) => t.workspace],
  ['object', '  more than the ceiling', (t) => t.workspace - t.store],
]

const state = mkdtempSync(join(tmpdir(), 'media-log-steps-'))
const served = await serveBundled({ config: join(ROOT, 'bench/steps/wrangler.toml'), port: PORT, state })
const body = JSON.stringify(makeLog('@ID@', 20))
const call = async (step, n) => {
  const started = performance.now()
  const response = await fetch(`http://127.0.0.1:${PORT}/?step=${step}&n=${n}`, { method: 'POST', body })
  const text = await response.text()
  if (text !== 'done') throw new Error(text)
  return ((performance.now() - started) * 1000) / n
}

try {
  await call('approve', 0)
  const steps = [...WORKER_STEPS, ...OBJECT_STEPS]
  const rounds = []
  for (let round = 0; round < ROUNDS; round++) {
    const times = {}
    // Every other round in reverse, so no step always follows the same one.
    for (const step of round % 2 ? [...steps].reverse() : steps)
      times[step] = await call(step, OBJECT_STEPS.includes(step) ? Math.ceil(N / 2) : N)
    if (round >= 2) rounds.push(times)
  }
  const fastest = Object.fromEntries(steps.map((step) => [step, Math.min(...rounds.map((times) => times[step]))]))
  console.log(
    `POST /log with a 20-clip log (${body.length} bytes): µs per request, each step's fastest of ${rounds.length} rounds`,
  )
  for (const [where, heading] of [
    ['worker', `In the worker, ${N} requests a round; the Durable Object a stub that answers at once:`],
    [
      'object',
      `In the Durable Object, ${Math.ceil(N / 2)} logs a round in one call (the commit each request pays is left out):`,
    ],
  ]) {
    console.log(`\n${heading}`)
    for (const [at, label, figure] of FIGURES) {
      if (at !== where) continue
      console.log(`  ${label.padEnd(64)} ${figure(fastest).toFixed(1).padStart(6)}`)
    }
  }
} finally {
  await served.dispose()
  rmSync(state, { recursive: true, force: true })
}

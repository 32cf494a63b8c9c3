// npm run bench:scale [-- --sizes=5000,10000,20000]
//
// Big logs end to end, as users run the service (npm start, own port and state): for each size a
// fresh service posts, reads, patches and reports (PDF) one log of that many clips; then a project
// of 365 shooting days is listed, once at a time and then by ten clients for 10 s. Prints the time
// of each step and the workerd process's memory (VmRSS sampled every 20 ms during the step, VmHWM
// at the end), and how each grows per clip.
// Then bench/heap.mjs: what each big operation needs of V8's heap, against Cloudflare's 128 MB.
// Writes bench/results/scale.{json,md}. `--only=heap` runs the heap table alone; `--only=film` a
// production at film scale (bench/film.mjs), not part of the full run: it writes 1 GB first.
import autocannon from 'autocannon'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, api, approvedToken, machine, makeLog, memoryOf, sampleMemory, startServer } from './client.mjs'
import { filmTable } from './film.mjs'
import { heapMarkdown, heapTable } from './heap.mjs'

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')))
const SIZES = (args.sizes ?? '5000,10000,20000').split(',').map(Number)
const LIST_LOGS = Number(args.logs ?? 365)
const PORT = Number(args.port ?? 5750)
const PRESET = {
  id: 'DAILY',
  label: 'Daily Report',
  output_name: '<project>_<log>.pdf',
  template: 'clips-report',
  enabled: true,
}

const REPS = Number(args.reps ?? 3)
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]

/**
 * One step of a pass: its time, and workerd's peak memory while it ran. The first pass (post,
 * read, patch, report, once each, as a day's work goes) gives the memory figures; the
 * collector has had no reason yet to reclaim what later passes leave behind.
 */
async function timed(workerd, work) {
  const stop = sampleMemory(workerd)
  const started = performance.now()
  const detail = await work()
  return { ms: performance.now() - started, peakMiB: stop(), ...detail }
}

/** One small log through every step first: the JIT, the report fonts and the SQL statements warm up. */
async function warmUp(request, token) {
  await request('POST', '/log', { token, body: makeLog('WARM', 500) })
  await request('GET', '/log/WARM', { token })
  await request('PATCH', '/log/WARM', { token, body: { unit: 'Warm-up' } })
  await request('POST', '/generate-pdf', { token, body: { presetId: 'DAILY', logId: 'WARM' } })
}

async function prepare(server) {
  const request = api(server.base)
  const token = await approvedToken(request, server.operatorKey(), `scale-bench-${process.pid}`)
  await request('POST', '/project/create', { token, body: { project_name: `Scale ${Date.now()}` } })
  await request('PATCH', '/project/config', { token, body: { unit: 'Main Unit', pdfs: [PRESET] } })
  return { request, token }
}

async function oneSize(size) {
  const server = await startServer({ kind: 'start', port: PORT })
  try {
    const workerd = server.workerd()
    const { request, token } = await prepare(server)
    await warmUp(request, token)
    const idle = memoryOf(workerd)
    const log = makeLog('BIG', size)
    const text = JSON.stringify(log)
    const steps = { post: [], get: [], patch: [], pdf: [] }
    let passHwm = 0
    for (let pass = 0; pass < REPS; pass++) {
      // Each pass stores a log of its own: the same text under another id of the same length.
      const id = `BG${pass}`
      const sent = text.replace('"id":"BIG"', `"id":"${id}"`)
      steps.post.push(
        await timed(workerd, async () => {
          await request('POST', '/log', { token, text: sent })
        }),
      )
      steps.get.push(
        await timed(workerd, async () => {
          const read = await request('GET', `/log/${id}`, { token })
          if (JSON.stringify(read) !== sent)
            throw new Error(`GET /log/${id} did not return the ${size}-clip log as posted`)
        }),
      )
      // An offload tool reports the LTO copy done: the whole `ocf` again, every clip's third hash set.
      for (const clip of log.ocf.clips) clip.copies[2].hash = `${clip.copies[0].hash}-${pass}`
      steps.patch.push(
        await timed(workerd, async () => {
          const { data } = await request('PATCH', `/log/${id}`, { token, body: { ocf: log.ocf } })
          if (
            data.ocf.clips.length !== size ||
            data.ocf.clips[size - 1].copies[2].hash !== log.ocf.clips[size - 1].copies[2].hash
          )
            throw new Error('PATCH did not land')
        }),
      )
      steps.pdf.push(
        await timed(workerd, async () => {
          const { data } = await request('POST', '/generate-pdf', { token, body: { presetId: 'DAILY', logId: id } })
          const bytes = Buffer.from(data.base64, 'base64')
          if (bytes.subarray(0, 5).toString() !== '%PDF-') throw new Error('generate-pdf did not answer a PDF')
          return { pdfBytes: bytes.length }
        }),
      )
      if (pass === 0) passHwm = memoryOf(workerd).hwm
    }
    const summary = Object.fromEntries(
      Object.entries(steps).map(([name, runs]) => [
        name,
        { ms: median(runs.map((r) => r.ms)), peakMiB: runs[0].peakMiB, pdfBytes: runs[0].pdfBytes, runs },
      ]),
    )
    return {
      size,
      jsonMiB: text.length / 2 ** 20,
      idleMiB: idle.rss,
      steps: summary,
      passHwmMiB: passHwm,
      hwmMiB: memoryOf(workerd).hwm,
    }
  } finally {
    await server.stop()
  }
}

async function listing() {
  const server = await startServer({ kind: 'start', port: PORT })
  try {
    const workerd = server.workerd()
    const { request, token } = await prepare(server)
    const pending = Array.from({ length: LIST_LOGS }, (_, i) =>
      makeLog(`D${String(i + 1).padStart(3, '0')}`, 20, i + 1),
    )
    const fill = await timed(workerd, async () => {
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let log; (log = pending.shift());) await request('POST', '/log', { token, body: log })
        }),
      )
    })
    const runs = []
    for (let pass = 0; pass < REPS; pass++) {
      runs.push(
        await timed(workerd, async () => {
          const { logs } = await request('GET', '/logs', { token })
          if (logs.length !== LIST_LOGS || logs[0].id !== 'D001' || logs.at(-1).id !== `D${LIST_LOGS}`)
            throw new Error('GET /logs did not list every day in order')
          return { bytes: JSON.stringify({ logs }).length }
        }),
      )
    }
    const list = { ms: median(runs.map((r) => r.ms)), peakMiB: runs[0].peakMiB, bytes: runs[0].bytes, runs }
    const hwmMiB = memoryOf(workerd).hwm
    // Clients polling the listing: what workerd holds when answers follow each other for a while.
    const stop = sampleMemory(workerd)
    const loaded = await autocannon({
      url: server.base,
      connections: 10,
      duration: 10,
      timeout: 60,
      requests: [{ method: 'GET', path: '/logs', headers: { 'x-api-token': token } }],
    })
    const sustained = {
      connections: 10,
      seconds: 10,
      rps: loaded.requests.average,
      non2xx: loaded.non2xx,
      errors: loaded.errors,
      peakMiB: stop(),
      afterMiB: memoryOf(workerd).rss,
    }
    if (loaded.non2xx || loaded.errors)
      throw new Error(`GET /logs under load: ${loaded.non2xx} non-2xx, ${loaded.errors} errors`)
    return { logs: LIST_LOGS, fill, list, hwmMiB, sustained }
  } finally {
    await server.stop()
  }
}

const s = (ms) =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`
const mib = (m) => `${Math.round(m)} MiB`

async function main() {
  const host = machine()
  if (args.only === 'heap') return heapOnly(host)
  if (args.only === 'film') return filmOnly()
  console.log(`Scale: logs of ${SIZES.join(' / ')} clips and a ${LIST_LOGS}-log project, served by npm start`)
  console.log(
    `${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, Node ${host.node}, load ${host.load.join(' ')}\n`,
  )
  const sizes = []
  for (const size of SIZES) {
    const result = await oneSize(size)
    sizes.push(result)
    const { post, get, patch, pdf } = result.steps
    console.log(
      `${size} clips (${result.jsonMiB.toFixed(1)} MiB): POST ${s(post.ms)}, GET ${s(get.ms)}, PATCH ${s(patch.ms)}, PDF ${s(pdf.ms)} (${(pdf.pdfBytes / 2 ** 20).toFixed(1)} MiB); workerd idle ${mib(result.idleMiB)}, peak ${mib(result.passHwmMiB)} in one pass`,
    )
  }
  const list = await listing()
  console.log(
    `GET /logs of ${LIST_LOGS} logs (${(list.list.bytes / 2 ** 20).toFixed(1)} MiB): ${s(list.list.ms)}; workerd peak ${mib(list.hwmMiB)}`,
  )
  console.log(
    `  10 clients for 10 s: ${list.sustained.rps.toFixed(0)} req/s, workerd peak ${mib(list.sustained.peakMiB)}, ${mib(list.sustained.afterMiB)} after`,
  )

  // Linear growth: each step's time and memory above idle, per 1,000 clips, should stay flat.
  const first = sizes[0]
  const perK = (r, stepName) => (r.steps[stepName].ms / r.size) * 1000
  const STEPS = ['post', 'get', 'patch', 'pdf']
  const rows = sizes.map((r) => {
    const cells = STEPS.map((name) => `${s(r.steps[name].ms)} (${Math.round(perK(r, name))} ms)`)
    return `| ${r.size.toLocaleString('en-US')} clips, ${r.jsonMiB.toFixed(1)} MiB JSON | ${cells.join(' | ')} |`
  })
  const memoryRows = sizes.map((r) => {
    const peaks = STEPS.map((name) => mib(r.steps[name].peakMiB))
    const above = (r.passHwmMiB - r.idleMiB) / (r.size / 1000)
    return `| ${r.size.toLocaleString('en-US')} clips | ${mib(r.idleMiB)} | ${peaks.join(' | ')} | ${mib(r.passHwmMiB)} | ${above.toFixed(1)} MiB | ${mib(r.hwmMiB)} |`
  })
  const last = sizes.at(-1)
  const growth = STEPS.map(
    (name) => `${name.toUpperCase()} ×${(last.steps[name].ms / first.steps[name].ms).toFixed(1)}`,
  ).join(', ')
  const firstPeak = (r) => r.passHwmMiB - r.idleMiB
  const hwmGrowth = firstPeak(last) / firstPeak(first)
  console.log('\nV8 heap needed by each big operation (bench/heap.mjs):')
  const heap = await heapTable()
  const markdown = [
    `Served by \`npm start\`, a fresh service per size, warmed up with a 500-clip log; each time is the median of ${REPS} passes, one request each from a client on 127.0.0.1 (per 1,000 clips in brackets).`,
    '',
    '| Log | POST /log | GET /log/:id | PATCH /log/:id (whole `ocf`) | POST /generate-pdf |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    `From ${first.size.toLocaleString('en-US')} to ${last.size.toLocaleString('en-US')} clips (×${last.size / first.size}): ${growth}; workerd's peak above idle ×${hwmGrowth.toFixed(1)}.`,
    '',
    `The workerd process's resident memory during the first pass (POST, GET, PATCH, PDF once each, as a day's work goes): idle after the warm-up, the highest 20 ms sample during each step, VmHWM after the pass and that above idle per 1,000 clips; then VmHWM after all ${REPS} passes, garbage the collector had no reason to reclaim yet included.`,
    '',
    `| Log | idle | POST | GET | PATCH | PDF | VmHWM, one pass | above idle per 1k clips | VmHWM, ${REPS} passes |`,
    '|---|---|---|---|---|---|---|---|---|',
    ...memoryRows,
    '',
    `GET /logs on a project of ${LIST_LOGS} logs of 20 clips (${(list.list.bytes / 2 ** 20).toFixed(1)} MiB): ${s(list.list.ms)} (median of ${REPS}), workerd peak ${mib(list.list.peakMiB)} (VmHWM ${mib(list.hwmMiB)}). ` +
      `Ten clients listing it over and over for ${list.sustained.seconds} s: ${list.sustained.rps.toFixed(0)} req/s, workerd peak ${mib(list.sustained.peakMiB)}, ${mib(list.sustained.afterMiB)} resident after.`,
    '',
    heapMarkdown(heap),
    `Machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB RAM, Node ${host.node}; ${host.date.slice(0, 16).replace('T', ' ')} UTC; load average at start ${host.load.join(' / ')}.`,
    '',
  ].join('\n')
  console.log(`\n${markdown}`)
  const dir = join(ROOT, 'bench/results')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'scale.json'), JSON.stringify({ machine: host, sizes, list, heap }, null, 2) + '\n')
  writeFileSync(join(dir, 'scale.md'), markdown)
  console.log('Written to bench/results/scale.json and scale.md')
}

async function heapOnly(host) {
  const markdown = heapMarkdown(await heapTable())
  console.log(`\n${markdown}`)
  const dir = join(ROOT, 'bench/results')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'heap.md'), `${markdown}\nMachine: ${host.cpu}, ${host.cores} cores, Node ${host.node}.\n`)
}

/** A production at film scale (bench/film.mjs): long, so run alone. */
async function filmOnly() {
  const { host, rows, lines } = await filmTable()
  const dir = join(ROOT, 'bench/results')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'film.json'), JSON.stringify({ machine: host, rows }, null, 2) + '\n')
  writeFileSync(
    join(dir, 'film.md'),
    `${lines.join('\n')}\n\nMachine: ${host.cpu}, ${host.cores} cores, Node ${host.node}; ${new Date().toISOString().slice(0, 10)}.\n`,
  )
}

await main()

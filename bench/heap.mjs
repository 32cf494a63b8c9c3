// What each big operation needs of V8's heap, measured against Cloudflare's 128 MB per isolate.
//
//   npm run bench:scale [-- --only=heap]   (the last part of bench:scale, or alone)
//
// Sampling the heap from outside misses the peak: the inspector answers only between tasks. So the
// bound is proven instead: workerd runs with V8's heap held to a limit (--max-heap-size, young and
// old generation together, through the patched Miniflare's MINIFLARE_WORKERD_V8_FLAGS), and each
// operation is run at every limit of the ladder; the smallest limit it completes at is what it
// needs. Locally the worker and the workspace share one isolate, which is stricter than Cloudflare,
// where each has its own. Bytes held in ArrayBuffers live outside V8's heap and are not in these
// figures; the process's resident memory above idle during the run at 128 MB is shown beside them.
//
// The data is written once, with no limit, into one state folder; every limit then starts a
// service on that state. An operation that writes cleans up after itself, so each run sees the
// same data.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  api,
  approvedToken,
  cardManifest,
  fiveHashManifest,
  framesManifest,
  makeLog,
  memoryOf,
  sampleMemory,
  startServer,
} from './client.mjs'

const LIMITS = [24, 32, 48, 64, 96, 128]
const PORT = 5760
const DAYS = 60
const DAY_CLIPS = 2000
const BIG_CLIPS = 20_000
const BODY_MIB = 60
const MANIFEST_CLIPS = 50_000
const TOO_MANY_CLIPS = 100_000
const MANIFEST_FRAMES = 100_000
const FIVE_HASH_FILES = 100_000
const BAD_CLIPS = 200_000

const PRESETS = {
  unit: 'Main Unit',
  pdfs: [
    { id: 'CLIPS', label: 'Clips', output_name: 'clips.pdf', template: 'clips-report', enabled: true },
    { id: 'DATA1', label: 'Data', output_name: 'data.pdf', template: 'data-report', enabled: true },
  ],
  emails: [
    {
      id: 'WRAP1',
      label: 'Wrap',
      recipients: ['production@example.com'],
      subject: 'Days <d>',
      attachments: ['CLIPS', 'DATA1'],
      enabled: true,
    },
  ],
}

const dayId = (day) => `D${String(day).padStart(3, '0')}`
const days = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => dayId(from + i))

/** A log of about `mib` MiB: the benchmark's clips (about 870 bytes each) as many as it takes. */
const logOfMiB = (id, mib) => makeLog(id, Math.ceil((mib * 2 ** 20) / 860))

/** The operations, in the issue's words; each returns a short proof of what it did. */
function operations(request, token, key) {
  const op = { 'x-operator-key': key }
  const big = makeLog('BIG', BIG_CLIPS)
  const bigText = JSON.stringify(big)
  const body = JSON.stringify(logOfMiB('BODY', BODY_MIB))
  const manifest = cardManifest(MANIFEST_CLIPS)
  const imported = JSON.stringify({ files: [{ name: '/Volumes/SHUTTLE_A/A001.mhl', content: manifest }], day: 1 })
  const frames = framesManifest(MANIFEST_FRAMES, 5000)
  const importedFrames = JSON.stringify({ files: [{ name: '/Volumes/SHUTTLE_A/A001.mhl', content: frames }], day: 1 })
  const fiveHash = fiveHashManifest(FIVE_HASH_FILES)
  const importedFiveHash = JSON.stringify({
    files: [{ name: '/Volumes/SHUTTLE_A/ascmhl/0001_A_2025-06-14_100000Z.mhl', content: fiveHash }],
    day: 1,
  })
  const bad = JSON.stringify({
    ...makeLog('BAD', 0),
    ocf: { clips: Array.from({ length: BAD_CLIPS }, () => ({ clip: 1 })) },
  })
  const refused = async (method, path, text) => {
    const { status, body } = await request(method, path, { token, text, ok: false })
    if (status !== 400 || body.details?.length !== 1001) throw new Error(`${path} answered ${status}, not 400`)
    return `400, ${body.details.at(-1).message.replace(' like these', '')}`
  }
  const tooMany = cardManifest(TOO_MANY_CLIPS)
  const importedTooMany = JSON.stringify({ files: [{ name: '/Volumes/SHUTTLE_A/A001.mhl', content: tooMany }], day: 1 })
  /** An import refused, as it must be: the reason it gives. */
  const refusedImport = async (text) => {
    const { status, body } = await request('POST', '/log/IMPORTED/import', { token, text, ok: false })
    if (status !== 400) throw new Error(`the import answered ${status}, not 400`)
    return `400: ${body.details[0].message.replace(/^[^:]*: /, '')}`
  }
  const importOf = async (text, clips) => {
    await request('DELETE', '/log/IMPORTED', { token, ok: false })
    const { added } = await request('POST', '/log/IMPORTED/import', { token, text })
    if (added.length !== clips) throw new Error(`the import added ${added.length} clips, not ${clips}`)
    await request('DELETE', '/log/IMPORTED', { token })
    return `${clips.toLocaleString('en-US')} clips`
  }
  const pdf = async (presetId, logId) => {
    const { data } = await request('POST', '/generate-pdf', { token, body: { presetId, logId } })
    return `${Math.round(Buffer.from(data.base64, 'base64').length / 1024).toLocaleString('en-US')} KiB PDF`
  }
  return [
    {
      group: `one ${BIG_CLIPS.toLocaleString('en-US')}-clip day (${(bigText.length / 2 ** 20).toFixed(1)} MiB)`,
      name: 'POST /log',
      run: async () => {
        await request('DELETE', '/log/BIG2', { token, ok: false })
        await request('POST', '/log', { token, text: bigText.replace('"id":"BIG"', '"id":"BIG2"') })
        await request('DELETE', '/log/BIG2', { token })
        return 'stored'
      },
    },
    {
      name: 'GET /log/:id',
      run: async () => {
        const read = await request('GET', '/log/BIG', { token, raw: true })
        if (read !== bigText) throw new Error('GET /log/BIG did not answer the log as posted')
        return 'byte-identical'
      },
    },
    {
      name: 'PATCH /log/:id (whole `ocf`)',
      run: async () => {
        const { data } = await request('PATCH', '/log/BIG', { token, body: { ocf: big.ocf } })
        if (data.ocf.clips.length !== BIG_CLIPS) throw new Error('PATCH did not land')
        return 'merged'
      },
    },
    { name: 'clips report', run: () => pdf('CLIPS', 'BIG') },
    {
      group: `a project of ${DAYS} days × ${DAY_CLIPS.toLocaleString('en-US')} clips`,
      name: 'GET /logs',
      run: async () => {
        const text = await request('GET', '/logs', { token, raw: true })
        return `${(text.length / 2 ** 20).toFixed(0)} MiB listed`
      },
    },
    { name: `data report, ${DAYS} days`, run: () => pdf('DATA1', days(1, DAYS)) },
    { name: 'clips report, 5 days', run: () => pdf('CLIPS', days(1, 5)) },
    {
      name: '/open-email-window, 7 days, PDFs attached (.eml)',
      run: async () => {
        const discard = async () => {
          const { windows } = await request('GET', '/approve/windows', { headers: op })
          for (const w of windows) await request('DELETE', `/approve/windows/${w.id}`, { headers: op })
          return windows
        }
        await discard()
        await request('POST', '/open-email-window', { token, body: { logId: days(1, 7), presetId: 'WRAP1' } })
        const [window] = await request('GET', '/approve/windows', { headers: op }).then((r) => r.windows)
        const eml = await request('GET', `/approve/windows/${window.id}/message.eml`, { headers: op, raw: true })
        await discard()
        return `${(eml.length / 2 ** 20).toFixed(1)} MiB message`
      },
    },
    {
      group: `an ASC MHL of ${MANIFEST_CLIPS.toLocaleString('en-US')} clips (${(manifest.length / 2 ** 20).toFixed(1)} MiB)`,
      name: 'POST /log/:id/import (a new log)',
      run: () => importOf(imported, MANIFEST_CLIPS),
    },
    {
      group: `an ASC MHL of ${MANIFEST_FRAMES.toLocaleString('en-US')} ARRIRAW frames (${(frames.length / 2 ** 20).toFixed(1)} MiB)`,
      name: 'POST /log/:id/import (a new log)',
      run: () => importOf(importedFrames, MANIFEST_FRAMES / 5000),
    },
    {
      group: `an ASC MHL of ${FIVE_HASH_FILES.toLocaleString('en-US')} files, five hashes each (${(fiveHash.length / 2 ** 20).toFixed(1)} MiB)`,
      name: 'POST /log/:id/import (a new log)',
      run: () => refusedImport(importedFiveHash),
    },
    {
      group: `an ASC MHL of ${TOO_MANY_CLIPS.toLocaleString('en-US')} clips (${(tooMany.length / 2 ** 20).toFixed(1)} MiB)`,
      name: 'POST /log/:id/import (a new log)',
      run: () => refusedImport(importedTooMany),
    },
    {
      group: `a log of ${BAD_CLIPS.toLocaleString('en-US')} invalid clips (${(bad.length / 2 ** 20).toFixed(1)} MiB)`,
      name: 'POST /log',
      run: () => refused('POST', '/log', bad),
    },
    {
      name: 'POST /sync/logs/:id (a cart’s version)',
      run: () => refused('POST', `/sync/logs/BAD?rev=1-${'a'.repeat(16)}&ancestors=`, bad),
    },
    {
      group: `a ${BODY_MIB} MiB log body`,
      name: 'POST /log',
      run: async () => {
        await request('DELETE', '/log/BODY', { token, ok: false })
        await request('POST', '/log', { token, text: body })
        await request('DELETE', '/log/BODY', { token })
        return 'stored'
      },
    },
  ]
}

async function prepare(state) {
  const server = await startServer({ kind: 'start', port: PORT, state })
  try {
    const request = api(server.base)
    const token = await approvedToken(request, server.operatorKey(), 'heap-bench')
    await request('POST', '/project/create', { token, body: { project_name: 'Heap' } })
    await request('PATCH', '/project/config', { token, body: PRESETS })
    for (let day = 1; day <= DAYS; day++)
      await request('POST', '/log', { token, body: makeLog(dayId(day), DAY_CLIPS, day) })
    // Day 1, as operations() sends it: GET /log/BIG must answer exactly that text.
    await request('POST', '/log', { token, body: makeLog('BIG', BIG_CLIPS) })
    return { token, key: server.operatorKey() }
  } finally {
    await server.stop()
  }
}

/**
 * While `work` runs, a small question to the workspace (GET /project) asked again and again: the
 * longest answer is about how long the operation held the workspace from everyone else.
 */
async function heldWhile(ask, work) {
  let done = false
  let longest = 0
  const probing = (async () => {
    while (!done) {
      const asked = performance.now()
      await ask().catch(() => {})
      longest = Math.max(longest, performance.now() - asked)
    }
  })()
  try {
    return { result: await work(), heldMs: longest }
  } finally {
    done = true
    await probing
  }
}

/** Runs `ops` at one heap limit; a failure (the isolate out of memory) restarts the service. */
async function atLimit(limit, ops, state, ask) {
  process.env.MINIFLARE_WORKERD_V8_FLAGS = limit ? `--max-heap-size=${limit}` : ''
  const outcomes = []
  let server
  try {
    for (const operation of ops) {
      server ??= await startServer({ kind: 'start', port: PORT, state })
      const workerd = server.workerd()
      const idle = memoryOf(workerd).rss
      const stop = sampleMemory(workerd, 5)
      const started = performance.now()
      try {
        const { result: detail, heldMs } = await heldWhile(ask, operation.run)
        const ms = performance.now() - started
        outcomes.push({ operation, ok: true, ms, heldMs, rssAboveIdle: stop() - idle, detail })
      } catch (err) {
        stop()
        outcomes.push({ operation, ok: false, error: String(err.message ?? err).slice(0, 200) })
        await server.stop({ keepState: true })
        server = undefined
      }
    }
  } finally {
    await server?.stop({ keepState: true })
    delete process.env.MINIFLARE_WORKERD_V8_FLAGS
  }
  return outcomes
}

/**
 * Every operation at every limit, from the top down: one that fails at a limit is not tried below
 * it. Each result: the smallest limit it completed at (`needs`), the first it failed at, and its
 * time and the process's resident memory above idle in the run at the highest limit.
 */
export async function heapTable() {
  const state = mkdtempSync(join(tmpdir(), 'media-log-heap-'))
  try {
    const { token, key } = await prepare(state)
    const request = api(`http://127.0.0.1:${PORT}`)
    const ask = () => request('GET', '/project', { token })
    const only = process.env.HEAP_ONLY
    const ops = operations(request, token, key).filter(
      (op, i, all) => !only || `${all.findLast((o, k) => k <= i && o.group)?.group} ${op.name}`.includes(only),
    )
    const results = ops.map((op) => ({ group: op.group, name: op.name }))
    const top = Math.max(...LIMITS)
    let trying = ops.map((_, i) => i)
    for (const limit of [...LIMITS].sort((a, b) => b - a)) {
      const outcomes = await atLimit(
        limit,
        trying.map((i) => ops[i]),
        state,
        ask,
      )
      const next = []
      outcomes.forEach(({ ok, ms, heldMs, rssAboveIdle, detail, error }, k) => {
        const result = results[trying[k]]
        if (!ok) return void (result.failedAt = { limit, error })
        result.needs = limit
        if (limit === top) Object.assign(result, { ms, heldMs, rssAboveIdle, detail })
        next.push(trying[k])
      })
      console.log(`  V8 heap held to ${limit} MB: ${next.length} of ${trying.length} operations completed`)
      trying = next
      if (!trying.length) break
    }
    return { limits: LIMITS, results }
  } finally {
    rmSync(state, { recursive: true, force: true })
  }
}

const s = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`)

/** The table as the README shows it. */
export function heapMarkdown({ limits, results }) {
  const low = Math.min(...limits)
  const top = Math.max(...limits)
  const needs = (r) =>
    r.needs === undefined ? `**over ${top} MB**` : r.needs === low && !r.failedAt ? `≤ ${low} MB` : `≤ ${r.needs} MB`
  const rows = results.map(
    (r) =>
      `| ${r.group ?? ''} | ${r.name} | ${needs(r)} | ${r.failedAt ? `${r.failedAt.limit} MB` : '—'} | ${r.ms === undefined ? '—' : s(r.ms)} | ${r.heldMs === undefined ? '—' : s(r.heldMs)} | ${r.rssAboveIdle === undefined ? '—' : `${Math.round(r.rssAboveIdle)} MiB`} | ${r.detail ?? r.failedAt?.error ?? ''} |`,
  )
  return [
    `V8's heap of the service's isolate (worker and workspace together), held to each of ${limits.join(' / ')} MB in turn: the smallest limit each operation completed at, and the first it failed at. Time, the longest a GET /project sent again and again meanwhile waited (how long the operation held the workspace from others), and workerd's resident memory above idle (sampled every 5 ms), from the run at ${top} MB.`,
    '',
    '| Data | Operation | Completes with V8 heap | Fails at | Time | Others waited | RSS above idle | |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n')
}

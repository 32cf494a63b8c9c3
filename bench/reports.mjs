// Offload reports imported at scale: a 5,000-row CSV transfer report (UTF-16LE with a BOM, quoted
// fields, a comment over two lines, as Silverstack writes it) and a 5,000-row hash ALE (MD5 and
// xxHash columns, as YoYotta writes it), each into a new log, one request at a time.
//
//   npm run bench:reports [-- --limits=32,64]
//
// V8's heap is held to each limit (MB) in turn, as bench/heap.mjs does it (workerd's
// --max-heap-size through the patched Miniflare's MINIFLARE_WORKERD_V8_FLAGS): an import that
// completes at 64 needs less than 64 MB of heap. Prints and writes each import's time and the
// service's resident memory above idle to bench/results/reports.{json,md}.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT, api, approvedToken, machine, memoryOf, sampleMemory, startServer } from './client.mjs'

const flags = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => a.slice(2).split('=')),
)
const LIMITS = (flags.limits ?? '64').split(',').map(Number)
const ROWS = 5000
const PORT = 5765

const hex = (n, width) => n.toString(16).padStart(width, '0')
const clipName = (i) =>
  `A${String(Math.floor(i / 999) + 1).padStart(3, '0')}C${String((i % 999) + 1).padStart(3, '0')}_250614_R1AB`

/** Silverstack-style: a title line, a quoted header, a row a file, UTF-16LE with a byte-order mark. */
function csvReport(rows) {
  const quoted = (cell) => `"${String(cell).replace(/"/g, '""')}"`
  const lines = [
    quoted('Offload Report D014'),
    ['File Name', 'Volume', 'Destination Path', 'File Size', 'xxHash64', 'MD5', 'Comment'].map(quoted).join(','),
  ]
  for (let i = 0; i < rows; i++)
    lines.push(
      [
        `${clipName(i)}.mxf`,
        'SHUTTLE_A',
        `/Volumes/SHUTTLE_A/D014/Clips/${clipName(i)}.mxf`,
        (2e9 + i).toLocaleString('en-US'),
        hex(0x1000 + i, 16),
        hex(0x2000 + i, 32),
        i === 0 ? 'Card checked\nsecond line' : '',
      ]
        .map(quoted)
        .join(','),
    )
  const text = `\ufeff${lines.join('\r\n')}\r\n`
  return Buffer.from(text, 'utf16le')
}

/** YoYotta-style: an ALE whose rows carry size, paths, destination, MD5 and xxHash64BE. */
function hashAle(rows) {
  const lines = [
    'Heading',
    'FIELD_DELIM\tTABS',
    'VIDEO_FORMAT\t1080',
    'FPS\t25',
    '',
    'Column',
    ['Name', 'Source File', 'Destination', 'Destination Path', 'File Size', 'MD5', 'xxHash64BE', 'Camera_Model'].join(
      '\t',
    ),
    '',
    'Data',
  ]
  for (let i = 0; i < rows; i++)
    lines.push(
      [
        clipName(i),
        `${clipName(i)}.mxf`,
        'SHUTTLE_B',
        '/Volumes/SHUTTLE_B/D014/Clips',
        String(2e9 + i),
        hex(0x2000 + i, 32).toUpperCase(),
        hex(0x1000 + i, 16),
        'ALEXA 35',
      ].join('\t'),
    )
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8')
}

const REPORTS = [
  {
    label: `CSV transfer report, ${ROWS.toLocaleString('en-US')} rows (UTF-16LE)`,
    name: 'D014.csv',
    bytes: csvReport(ROWS),
  },
  { label: `hash ALE, ${ROWS.toLocaleString('en-US')} rows`, name: 'D014_transfer.ale', bytes: hashAle(ROWS) },
]

const results = []
for (const limit of LIMITS) {
  process.env.MINIFLARE_WORKERD_V8_FLAGS = `--max-heap-size=${limit}`
  const state = mkdtempSync(join(tmpdir(), 'media-log-reports-'))
  const server = await startServer({ kind: 'start', port: PORT, state })
  try {
    const request = api(server.base)
    const token = await approvedToken(request, server.operatorKey(), 'reports-bench')
    await request('POST', '/project/create', { token, body: { project_name: 'Reports' } })
    for (const [i, report] of REPORTS.entries()) {
      const workerd = server.workerd()
      const idle = memoryOf(workerd).rss
      const stop = sampleMemory(workerd, 5)
      const body = JSON.stringify({
        files: [{ name: report.name, content: report.bytes.toString('base64'), encoding: 'base64' }],
        date: '2025-06-14',
      })
      const started = performance.now()
      let outcome
      try {
        const answer = JSON.parse(await request('POST', `/log/D${14 + i}/import`, { token, text: body, raw: true }))
        if (answer.added?.length !== ROWS)
          throw new Error(`added ${answer.added?.length}: ${JSON.stringify(answer).slice(0, 300)}`)
        outcome = { ok: true, ms: Math.round(performance.now() - started) }
      } catch (err) {
        outcome = { ok: false, error: String(err.message ?? err).slice(0, 300) }
      }
      const rssAboveIdle = Math.round(stop() - idle)
      const result = {
        report: report.label,
        bytes: report.bytes.length,
        heapLimitMB: limit,
        ...outcome,
        rssAboveIdleMiB: rssAboveIdle,
      }
      results.push(result)
      console.log(
        `  ${report.label}, ${(report.bytes.length / 1048576).toFixed(1)} MiB, heap held to ${limit} MB: ` +
          (outcome.ok ? `${outcome.ms} ms` : `FAILED (${outcome.error})`) +
          `, resident memory +${rssAboveIdle} MiB`,
      )
    }
  } finally {
    await server.stop()
    rmSync(state, { recursive: true, force: true })
    delete process.env.MINIFLARE_WORKERD_V8_FLAGS
  }
}

const when = new Date().toISOString()
const host = machine()
writeFileSync(
  join(ROOT, 'bench/results/reports.json'),
  `${JSON.stringify({ when, machine: host, results }, null, 2)}\n`,
)
writeFileSync(
  join(ROOT, 'bench/results/reports.md'),
  [
    `# Offload reports imported (${when})`,
    '',
    "One POST /log/{id}/import a report, into a new log, V8's heap held to the limit (npm start, workerd --max-heap-size).",
    '',
    '| report | bytes | heap limit | time | resident memory above idle |',
    '|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.report} | ${r.bytes.toLocaleString('en-US')} | ${r.heapLimitMB} MB | ${r.ok ? `${r.ms} ms` : `failed: ${r.error}`} | ${r.rssAboveIdleMiB} MiB |`,
    ),
    '',
  ].join('\n'),
)

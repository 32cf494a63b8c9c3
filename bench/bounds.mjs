// The requests that once made the service do work or hold memory out of proportion to their size,
// sent to `npm start` one at a time: what each answers, how long it takes, and how far workerd's
// resident memory rises above where it stood before. A small import of the same run is the
// baseline each is set against.
//
//   npm run bench:bounds
//
// Writes bench/results/bounds.{json,md}.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  ROOT,
  api,
  approvedToken,
  cardManifest,
  fiveHashManifest,
  machine,
  memoryOf,
  sampleMemory,
  startServer,
} from './client.mjs'

const PORT = 5770
const hex = (i, width) => i.toString(16).padStart(width, '0')
const aleOf = (rows, prefix = 'X') =>
  ['Heading', 'FIELD_DELIM\tTABS', 'FPS\t25', '', 'Column', 'Name', '', 'Data']
    .concat(Array.from({ length: rows }, (_, i) => `${prefix}${i}`))
    .join('\r\n')

/** One request: its status, time, answer size and workerd's memory rise while it ran. */
async function measure(server, label, send) {
  const workerd = server.workerd()
  const before = memoryOf(workerd).rss
  const stop = sampleMemory(workerd)
  const started = performance.now()
  const { status, body } = await send()
  const ms = performance.now() - started
  const peak = stop()
  const row = { label, status, ms, answerBytes: Buffer.byteLength(JSON.stringify(body)), riseMiB: peak - before }
  console.log(
    `  ${label.padEnd(62)} ${String(status).padStart(3)}  ${fmtMs(ms).padStart(9)}  +${row.riseMiB.toFixed(0).padStart(4)} MiB  answer ${kb(row.answerBytes)}`,
  )
  return row
}

const fmtMs = (ms) => (ms < 100 ? `${ms.toFixed(1)} ms` : `${Math.round(ms).toLocaleString('en-US')} ms`)
const kb = (bytes) => `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KiB`

async function main() {
  const host = machine()
  console.log(`Bounded work: one request at a time against \`npm start\`; ${host.cpu}, ${host.cores} cores`)
  const server = await startServer({ kind: 'start', port: PORT })
  const rows = []
  try {
    const request = api(server.base)
    const token = await approvedToken(request, server.operatorKey())
    await request('POST', '/project/create', { token, body: { project_name: `Bounds ${Date.now()}` } })
    const send = (method, path, body, as = token) => request(method, path, { token: as, text: body, ok: false })
    const imported = (id, files) => send('POST', `/log/${id}/import`, JSON.stringify({ files, day: 1 }))

    rows.push(
      await measure(server, 'baseline: import of a 100-clip ASC MHL', () =>
        imported('BASE', [{ name: '/Volumes/S/ascmhl/0001_A_2025-06-14_100000Z.mhl', content: cardManifest(100) }]),
      ),
    )
    const longName = `/Volumes/SHUTTLE_A/${'Reports/'.repeat(508)}camera.ale`
    rows.push(
      await measure(server, 'ALE with a 4 KiB name, 150,000 rows naming no clip', () =>
        imported('BASE', [{ name: longName, content: aleOf(150_000) }]),
      ),
    )
    rows.push(
      await measure(server, '35 MiB of one-column ALE rows in 175 files', () =>
        imported(
          'BASE',
          Array.from({ length: 175 }, (_, f) => ({ name: `A${f}.ale`, content: aleOf(20_000, `F${f}_`) })),
        ),
      ),
    )
    rows.push(
      await measure(server, 'valid ASC MHL of 100,000 clips, five hashes each (42 MiB)', () =>
        imported('BIG', [
          { name: '/Volumes/SHUTTLE_A/ascmhl/0001_A_2025-06-14_100000Z.mhl', content: fiveHashManifest(100_000) },
        ]),
      ),
    )
    await send('DELETE', '/log/BIG')
    const stranger = `mls_${'0'.repeat(16)}_${'x'.repeat(43)}`
    rows.push(
      await measure(server, 'a stranger’s import of 978 KiB of ALE (made-up token)', () =>
        send(
          'POST',
          '/log/BASE/import',
          JSON.stringify({ files: [{ name: 'A.ale', content: aleOf(120_000) }] }),
          stranger,
        ),
      ),
    )
    const oneClip = {
      id: 'WIDE',
      day: 2,
      date: '2025-06-15',
      ocf: {
        clips: [
          {
            clip: 'A001C001',
            size: 1,
            copies: Array.from({ length: 10_000 }, (_, i) => ({ volume: `V${i}`, hash: `xxh64:${hex(i, 16)}` })),
          },
        ],
      },
    }
    await send('POST', '/log', JSON.stringify(oneClip))
    rows.push(await measure(server, 'checks of one clip on 10,000 volumes', () => send('GET', '/log/WIDE/checks')))
    const planned = {
      id: 'PLANNED',
      day: 3,
      date: '2025-06-16',
      ocf: {
        copies: ['A', 'B', 'C', 'D', 'E', 'F'],
        clips: Array.from({ length: 20_000 }, (_, i) => ({
          clip: `A001C${String(i).padStart(5, '0')}`,
          size: 1,
          copies: [],
        })),
      },
    }
    await send('POST', '/log', JSON.stringify(planned))
    rows.push(
      await measure(server, 'GET /checks: 20,000 clips planned on 6 volumes, no copies', () =>
        send('GET', '/checks?from=3&to=3'),
      ),
    )
    rows.push(
      await measure(server, 'POST /log of 60,000 bad clips (0.6 MiB)', () =>
        send(
          'POST',
          '/log',
          JSON.stringify({ id: 'BAD', day: 4, date: '2025-06-17', ocf: { clips: Array(60_000).fill({ clip: 1 }) } }),
        ),
      ),
    )
  } finally {
    await server.stop()
  }
  const markdown = [
    'One request at a time against `npm start`; rise: workerd resident memory at its peak during the request above where it stood before.',
    '',
    '| Request | Status | Time | Memory rise | Answer |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) => `| ${r.label} | ${r.status} | ${fmtMs(r.ms)} | ${r.riseMiB.toFixed(0)} MiB | ${kb(r.answerBytes)} |`,
    ),
    '',
    `Machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB RAM, Node ${host.node}; ${host.date.slice(0, 16).replace('T', ' ')} UTC.`,
    '',
  ].join('\n')
  console.log(`\n${markdown}`)
  const dir = join(ROOT, 'bench/results')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'bounds.json'), JSON.stringify({ machine: host, rows }, null, 2) + '\n')
  writeFileSync(join(dir, 'bounds.md'), markdown)
  if (rows.some((r) => r.status >= 500)) {
    console.error('A request answered 5xx.')
    process.exitCode = 1
  }
}

await main()

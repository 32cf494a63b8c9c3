// PDF report timings through the HTTP API of a running service (npm start or npm run dev).
//
//   npm run bench:pdf                      against http://localhost:5252, key from .dev.vars
//   BASE_URL=http://localhost:5501 OPERATOR_KEY=… SIZES=100,1000,10000,20000 REPS=5 npm run bench:pdf
//
// Creates its own project (the service's active project changes to it), posts one log per size,
// then times POST /generate-pdf: one warm-up call, then REPS calls; prints the median and the PDF size.
import { api, approvedToken, clip, operatorKey } from './client.mjs'

const BASE = (process.env.BASE_URL ?? 'http://localhost:5252').replace(/\/$/, '')
const SIZES = (process.env.SIZES ?? '100,1000,10000').split(',').map(Number)
const REPS = Number(process.env.REPS ?? 5)
const TEMPLATE = process.env.TEMPLATE ?? 'clips-report'
const request = api(BASE)

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const apiToken = await approvedToken(request, operatorKey(), `pdf-bench-${process.pid}`)
await request('POST', '/project/create', { token: apiToken, body: { project_name: `PDF Bench ${Date.now()}` } })
await request('PATCH', '/project/config', {
  token: apiToken,
  body: {
    unit: 'Main Unit',
    pdfs: [
      { id: 'BENCH', label: 'Daily Report', output_name: '<project>_<log>.pdf', template: TEMPLATE, enabled: true },
    ],
  },
})

console.log(`POST /generate-pdf on ${BASE}, ${TEMPLATE}, median of ${REPS} warm runs`)
console.log('clips\tms (median)\tms (min)\tKB\tKB per 1,000 clips')
for (const size of SIZES) {
  const id = `BENCH_${size}`
  await request('POST', '/log', {
    token: apiToken,
    body: {
      id,
      day: 1,
      date: '2024-01-01',
      ocf: { copies: ['SSD_01', 'RAID_A'], clips: Array.from({ length: size }, (_, i) => clip(i + 1)) },
    },
  })
  const times = []
  let bytes = 0
  for (let i = 0; i <= REPS; i++) {
    const t = performance.now()
    const { data } = await request('POST', '/generate-pdf', { token: apiToken, body: { presetId: 'BENCH', logId: id } })
    const ms = performance.now() - t
    bytes = Buffer.from(data.base64, 'base64').length
    if (i > 0) times.push(ms) // the first call warms the isolate, the font cache and the JIT
  }
  const kb = bytes / 1024
  console.log(
    `${size}\t${median(times).toFixed(0)}\t${Math.min(...times).toFixed(0)}\t${kb.toFixed(0)}\t${((kb * 1000) / size).toFixed(0)}`,
  )
}

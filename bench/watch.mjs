// npm run bench:watch: `media-log watch` while an offload lands at once in the watched folder:
// MEDIA media files (MEDIA_SMALL first, as the baseline of the same run, then MEDIA) and REPORTS
// classic MHLs of 20 clips each, all written together, then one of the watch's 30-second walks of
// every file. Prints how long until every report was taken and the watch process's peak resident
// memory: the memory must not grow with the files the watch sees (the issue's bound), so the
// larger run's peak is given against the smaller's. Writes bench/results/watch.{json,md}.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT, api, approvedToken, machine, sampleMemory, startServer } from './client.mjs'

const PORT = 5796
const MEDIA_SMALL = Number(process.env.MEDIA_SMALL ?? 2000)
const MEDIA = Number(process.env.MEDIA ?? 50_000)
const REPORTS = Number(process.env.REPORTS ?? 200)
const CLIPS_PER_REPORT = 20
/** Longer than the watch's walk interval: one walk of every file falls inside the measure. */
const AFTER_MS = 32_000

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** A classic MHL of its card's clips, hashed on the day. */
const report = (card, clips) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<hashlist version="1.1">\n  <creatorinfo><startdate>2025-09-01T09:00:00Z</startdate></creatorinfo>\n${clips
    .map(
      (clip) =>
        `  <hash><file>${card}/${clip}.mov</file><size>1024</size><xxhash64be>${'0'.repeat(8)}${clip.slice(-8).padStart(8, '0')}</xxhash64be></hash>`,
    )
    .join('\n')}\n</hashlist>\n`

/** One offload landing: `media` files in cards of 100, and REPORTS reports naming 20 of them each. */
function land(folder, media) {
  for (let i = 0; i < media; i++) {
    const card = `C${String(Math.floor(i / 100)).padStart(4, '0')}`
    if (i % 100 === 0) mkdirSync(join(folder, card), { recursive: true })
    writeFileSync(join(folder, card, `K${String(i).padStart(8, '0')}.mov`), Buffer.alloc(1024, i % 251))
  }
  for (let r = 0; r < REPORTS; r++) {
    const card = `C${String(r % Math.max(1, Math.floor(media / 100))).padStart(4, '0')}`
    const clips = Array.from(
      { length: CLIPS_PER_REPORT },
      (_, k) => `R${String(r * CLIPS_PER_REPORT + k).padStart(8, '0')}`,
    )
    writeFileSync(join(folder, `report-${String(r).padStart(4, '0')}.mhl`), report(card, clips))
  }
}

/** The watch on a fresh folder; the offload lands; until every report is taken and a walk passed. */
async function measure({ server, config, dir, media, log }) {
  const folder = join(dir, `SHUTTLE_${media}`)
  mkdirSync(folder, { recursive: true })
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/media-log.mjs'), 'watch', folder, '--log', log, '--settle', '1'],
    {
      env: { ...process.env, MEDIA_LOG_URL: server.base, MEDIA_LOG_CONFIG_DIR: config },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  for (let waited = 0; !stderr.includes('watching '); waited += 50) {
    if (waited > 20_000) throw new Error(`the watch did not start:\n${stderr}`)
    await sleep(50)
  }
  const peak = sampleMemory(child.pid, 50)
  const started = performance.now()
  // A run that fails leaves no watch behind.
  const gone = () => child.exitCode === null && child.kill('SIGKILL')
  process.once('exit', gone)
  land(folder, media)
  const taken = () => stdout.split('\n').filter((l) => l.startsWith('taken ')).length
  while (taken() < REPORTS) {
    if (performance.now() - started > 600_000) throw new Error(`${taken()} of ${REPORTS} reports taken in 10 minutes`)
    await sleep(100)
  }
  const seconds = (performance.now() - started) / 1000
  await sleep(AFTER_MS)
  const peakMiB = peak()
  child.kill('SIGINT')
  await new Promise((done) => child.once('exit', done))
  if (/not taken/.test(stderr)) throw new Error(`a report was refused:\n${stderr}`)
  return { media, reports: REPORTS, seconds, peakMiB }
}

async function main() {
  const host = machine()
  console.log(
    `media-log watch: ${REPORTS} reports of ${CLIPS_PER_REPORT} clips landing with ${MEDIA_SMALL} and then ${MEDIA} media files`,
  )
  console.log(`${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, Node ${host.node}, load ${host.load.join(' ')}`)
  const dir = mkdtempSync(join(tmpdir(), 'media-log-watch-bench-'))
  const config = join(dir, '.config')
  const server = await startServer({ port: PORT })
  try {
    const request = api(server.base)
    const token = await approvedToken(request, server.operatorKey(), 'media-log')
    await request('POST', '/project/create', { token, body: { project_name: 'Watch bench' } })
    mkdirSync(config, { recursive: true })
    writeFileSync(join(config, 'tokens.json'), JSON.stringify({ [server.base]: token }), { mode: 0o600 })
    const small = await measure({ server, config, dir, media: MEDIA_SMALL, log: 'D001' })
    const large = await measure({ server, config, dir, media: MEDIA, log: 'D002' })
    const rows = [small, large]
    const ratio = large.peakMiB / small.peakMiB
    const lines = [
      `| media files | reports | every report taken | watch's peak RSS |`,
      `|---|---|---|---|`,
      ...rows.map(
        (r) =>
          `| ${r.media.toLocaleString('en-US')} | ${r.reports} | ${r.seconds.toFixed(1)} s | ${r.peakMiB.toFixed(0)} MiB |`,
      ),
      '',
      `Peak with ${MEDIA.toLocaleString('en-US')} media files against ${MEDIA_SMALL.toLocaleString('en-US')}, same run: ${ratio.toFixed(2)}× ` +
        `(bound: the memory does not grow with the files seen, ≤ 1.10×: ${ratio <= 1.1 ? 'met' : 'NOT met'}).`,
      '',
      `Machine: ${host.cpu}, ${host.cores} cores, Node ${host.node}; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    ]
    console.log(`\n${lines.join('\n')}`)
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true })
    writeFileSync(join(ROOT, 'bench/results/watch.json'), `${JSON.stringify({ host, rows, ratio }, null, 2)}\n`)
    writeFileSync(join(ROOT, 'bench/results/watch.md'), `# media-log watch\n\n${lines.join('\n')}\n`)
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()

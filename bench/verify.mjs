// npm run bench:verify (and part of npm run bench): `media-log verify` reading back an 8 GiB set of
// camera files from the page cache, against the platform's own tools in the same run: Debian's
// xxhsum (installed here when missing and apt-get can), md5sum and sha1sum, and `cat > /dev/null`
// as the limit of reading alone. Each algorithm's log is made by importing an ASC MHL whose digests
// are the tools' own: the command's "verified" is checked against another implementation too.
// Rounds alternate the tool and the command (one thread, all threads, and WASM for the xxHash
// kinds); the median round stands. FILES (8) files of 256 MiB. Writes
// bench/results/verify.{json,md}.
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { randomFillSync } from 'node:crypto'
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { ROOT, api, approvedToken, machine, startServer } from './client.mjs'

// 8 GiB: a run's fixed cost (Node's start, the service asked, the outcome recorded: some 0.3 s)
// is a small part of it, as of a shuttle's hundreds of GB, where 2 GiB made it a third.
const FILES = Number(process.env.FILES ?? 32)
const FILE_BYTES = 256 * 2 ** 20
const TOTAL = FILES * FILE_BYTES
const ROUNDS = Number(process.env.ROUNDS ?? 3)
// ALGORITHMS=xxh64,xxh3: those alone.
const ONLY = process.env.ALGORITHMS ? new Set(process.env.ALGORITHMS.split(',')) : undefined
const PORT = 5790
/** The platform's tool for each algorithm, and how its output line gives the digest. */
const TOOLS = {
  xxh64: { tool: 'xxhsum', args: ['-H1'] },
  xxh128: { tool: 'xxhsum', args: ['-H2'] },
  xxh3: { tool: 'xxhsum', args: ['-H3'] },
  md5: { tool: 'md5sum', args: [] },
  sha1: { tool: 'sha1sum', args: [] },
}

const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0

/** xxhsum, from Debian's `xxhash` package, when it is missing and this user may install it. */
function ensureXxhsum() {
  if (has('xxhsum')) return true
  if (process.getuid?.() !== 0 || !has('apt-get')) return false
  console.log('installing xxhsum (apt-get install xxhash)')
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' })
  spawnSync('apt-get', ['install', '-y', '-qq', 'xxhash'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
  return has('xxhsum')
}

/** The file set: FILES clips of random bytes (a block of 8 MiB, each copy of it numbered). */
function writeFiles(dir) {
  const block = randomFillSync(Buffer.alloc(8 * 2 ** 20))
  const paths = []
  for (let i = 1; i <= FILES; i++) {
    const path = join(dir, 'D001', 'A001', `A001C00${i}_261126_R1AB.mov`)
    mkdirSync(join(path, '..'), { recursive: true })
    const fd = openSync(path, 'w')
    for (let at = 0, n = 0; at < FILE_BYTES; at += block.length, n++) {
      block.writeUInt32LE(i * 100_000 + n, 0)
      writeSync(fd, block)
    }
    closeSync(fd)
    paths.push(path)
  }
  return paths
}

// Asynchronous: the event loop stays free to see the service close an idle connection.
const run = async (file, args, options = {}) =>
  (await promisify(execFile)(file, args, { maxBuffer: 64 * 2 ** 20, ...options })).stdout
const seconds = async (work) => {
  const started = performance.now()
  const out = await work()
  return { seconds: (performance.now() - started) / 1000, out }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]
const mibs = (bytes, s) => bytes / 2 ** 20 / s

/** The tool's digests of the files, by path, as its output lines give them. */
function toolDigests(output) {
  const digests = new Map()
  for (const line of output.trim().split('\n')) {
    const tagged = /^XXH3 \((.+)\) = ([0-9a-f]+)$/.exec(line)
    const plain = /^([0-9a-f]+) {2}(.+)$/.exec(line)
    if (tagged) digests.set(tagged[1], tagged[2])
    else if (plain) digests.set(plain[2], plain[1])
  }
  return digests
}

/** An ASC MHL generation of the files with `algorithm`'s digests, as a copy tool writes it. */
function manifest(dir, paths, algorithm, digests) {
  const hashes = paths.map(
    (path) =>
      `<hash><path size="${FILE_BYTES}">${relative(dir, path)}</path><${algorithm} action="original" hashdate="2026-11-26T09:00:00Z">${digests.get(path)}</${algorithm}></hash>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>
<hashlist version="2.0" xmlns="urn:ASC:MHL:v2.0"><creatorinfo><creationdate>2026-11-26T09:00:00Z</creationdate><tool version="1">copy</tool></creatorinfo>
<hashes>${hashes.join('')}</hashes></hashlist>`
}

async function main() {
  const xxhsum = ensureXxhsum()
  const dir = mkdtempSync(join(tmpdir(), 'media-log-verify-bench-'))
  const config = join(dir, '.config')
  const drive = join(dir, 'SHUTTLE_01')
  const server = await startServer({ port: PORT })
  try {
    const paths = writeFiles(drive)
    const request = api(server.base)
    const key = server.operatorKey()
    const token = await approvedToken(request, key, 'media-log')
    await request('POST', '/project/create', { token, body: { project_name: 'Verify bench' } })
    mkdirSync(config, { recursive: true })
    writeFileSync(join(config, 'tokens.json'), JSON.stringify({ [server.base]: token }))
    const env = { ...process.env, MEDIA_LOG_URL: server.base, MEDIA_LOG_CONFIG_DIR: config }
    const command = (log, extra, runEnv) =>
      run(process.execPath, [join(ROOT, 'bin/media-log.mjs'), 'verify', drive, '--log', log, ...extra, '--json'], {
        env: runEnv,
      })

    // Into the page cache, and the limit of reading alone.
    const catAll = () => run('sh', ['-c', `cat ${paths.map((p) => `'${p}'`).join(' ')} > /dev/null`])
    await catAll()
    const cat = []
    for (let r = 0; r < ROUNDS; r++) cat.push((await seconds(catAll)).seconds)

    // The command's xxHash made WASM, as on a machine where the native binary cannot load.
    const preload = join(dir, 'unloadable-xxhash.cjs')
    writeFileSync(
      preload,
      "const dlopen = process.dlopen\nprocess.dlopen = (m, f, ...r) => { if (f.includes('xxhash-addon')) throw new Error('unloadable'); return dlopen(m, f, ...r) }\n",
    )
    const wasmEnv = { ...env, NODE_OPTIONS: `--require ${preload}` }

    const rows = []
    for (const [algorithm, { tool, args }] of Object.entries(TOOLS)) {
      if (ONLY && !ONLY.has(algorithm)) continue
      if (tool === 'xxhsum' && !xxhsum) {
        rows.push({ algorithm, tool, skipped: 'xxhsum is not installed (apt-get install xxhash)' })
        continue
      }
      const xxh = algorithm.startsWith('xxh')
      const log = `V${algorithm.toUpperCase()}`
      const digests = toolDigests(await run(tool, [...args, ...paths]))
      await request('POST', `/log/${log}/import`, {
        token,
        body: {
          files: [
            {
              name: 'SHUTTLE_01/ascmhl/0001.mhl',
              content: manifest(drive, paths, algorithm, digests),
              volume: 'SHUTTLE_01',
            },
          ],
          day: 1,
          date: '2026-11-26',
        },
      })
      /** The whole command, start to exit, checked to have verified every file. */
      const verify = async (extra, runEnv = env) => {
        const { seconds: wall, out } = await seconds(async () => JSON.parse(await command(log, extra, runEnv)))
        const [volume] = out.volumes
        if (volume.verified.length !== FILES || volume.read.bytes !== TOTAL)
          throw new Error(`${algorithm}: the command did not verify every file: ${JSON.stringify(volume)}`)
        return { wall, read: volume.read.seconds, xxhash: out.xxhash }
      }
      const runs = { tool: [], one: [], oneReading: [], all: [], wasm: [] }
      let kind
      for (let r = 0; r < ROUNDS; r++) {
        runs.tool.push((await seconds(() => run(tool, [...args, ...paths]))).seconds)
        const one = await verify(['--threads', '1'])
        kind = one.xxhash
        runs.one.push(one.wall)
        runs.oneReading.push(one.read)
        runs.all.push((await verify([])).wall)
        if (xxh) runs.wasm.push((await verify(['--threads', '1'], wasmEnv)).wall)
      }
      rows.push({
        algorithm,
        tool: `${tool} ${args.join(' ')}`.trim(),
        digests: xxh ? `${kind}` : 'node:crypto',
        toolMiBs: mibs(TOTAL, median(runs.tool)),
        oneMiBs: mibs(TOTAL, median(runs.one)),
        oneReadingMiBs: mibs(TOTAL, median(runs.oneReading)),
        // Each round's command against the tool run just before it, the median of those.
        ratios: Object.fromEntries(
          ['one', 'oneReading', 'all', 'wasm'].map((k) => [
            k,
            runs[k].length ? median(runs[k].map((t, r) => runs.tool[r] / t)) : undefined,
          ]),
        ),
        // What the command does besides reading (Node's start, the log asked for, the outcome
        // recorded): each round's whole run less its reading.
        fixedSeconds: median(runs.one.map((t, r) => t - runs.oneReading[r])),
        allMiBs: mibs(TOTAL, median(runs.all)),
        wasmMiBs: xxh ? mibs(TOTAL, median(runs.wasm)) : undefined,
        runs,
      })
    }
    const nodeStart = []
    for (let r = 0; r < ROUNDS; r++) nodeStart.push((await seconds(() => run(process.execPath, ['-e', '0']))).seconds)
    const host = machine()
    const catMiBs = mibs(TOTAL, median(cat))
    const f = (n) => Math.round(n).toLocaleString('en-US')
    const pct = (ratio) => `${Math.round(100 * ratio)}%`
    const markdown = [
      `\`media-log verify\` over ${FILES} files of ${FILE_BYTES / 2 ** 20} MiB (${TOTAL / 2 ** 30} GiB) from the page cache, median of ${ROUNDS} rounds alternating tool and command.`,
      "Start to exit: the tool's process, and the whole command (Node's start, the service asked for the log, the walk, the reading, the outcome recorded). Reading: the command's own `read.seconds`, first byte read to last digest. Besides reading: the one-thread command's whole run less its reading, the median round. One thread: `--threads 1`; all: one a core, four at most. WASM: the command where xxhash-addon's binary cannot load, one thread. ÷ tool: each round's command against the tool's run beside it, the median round.",
      '',
      '| Algorithm | digests | platform tool | tool (MiB/s) | one thread, reading (MiB/s) | ÷ tool | one thread, whole (MiB/s) | ÷ tool | besides reading (ms) | all threads, whole (MiB/s) | ÷ tool | WASM, whole (MiB/s) | ÷ tool |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows.map((row) =>
        row.skipped
          ? `| ${row.algorithm} | | ${row.tool} | — | | | | | | | | | ${row.skipped} |`
          : `| ${row.algorithm} | ${row.digests} | ${row.tool} | ${f(row.toolMiBs)} | ${f(row.oneReadingMiBs)} | ${pct(row.ratios.oneReading)} | ${f(row.oneMiBs)} | ${pct(row.ratios.one)} | ${f(row.fixedSeconds * 1000)} | ${f(row.allMiBs)} | ${pct(row.ratios.all)} | ${row.wasmMiBs ? `${f(row.wasmMiBs)} | ${pct(row.ratios.wasm)}` : '| '} |`,
      ),
      `| (read limit) | | cat > /dev/null | ${f(catMiBs)} | | | | | | | | | |`,
      '',
      `Node's own start (\`node -e 0\`): ${Math.round(median(nodeStart) * 1000)} ms.`,
      '',
      `Machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB RAM, Node ${host.node}; ${host.date.slice(0, 16).replace('T', ' ')} UTC.`,
      '',
    ].join('\n')
    console.log(`\n${markdown}`)
    const out = join(ROOT, 'bench/results')
    mkdirSync(out, { recursive: true })
    writeFileSync(
      join(out, 'verify.json'),
      JSON.stringify({ host, files: FILES, bytes: TOTAL, catMiBs, cat, nodeStart, rows }, null, 2) + '\n',
    )
    writeFileSync(join(out, 'verify.md'), markdown)
    console.log('Written to bench/results/verify.json and verify.md')
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()

// The digests copies are read back with, against published values: the xxHash specification's
// (as Debian's xxhsum 0.8.1 prints them), RFC 1321's and FIPS 180's test vectors, and the C4 ID of
// nothing from SMPTE ST 2114; then a file larger than a read, against a digest made in one go.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { xxhash128, xxhash3, xxhash64 } from 'hash-wasm'
import { Worker } from 'node:worker_threads'
import { afterAll, describe, expect, it } from 'vitest'

/** bin/digests.mjs, as the compiler of the tests sees it (the module itself is checked with bin/). */
type Digested = { digest: string; size: number }
type Xxhash = 'native' | 'wasm'
type Digests = {
  CHUNK: number
  NATIVE_CHUNK: number
  computable: (name: string) => boolean
  xxhashKind: () => { kind: Xxhash; why?: string }
  digestFile: (
    path: string,
    algorithm: string,
    options?: { onRead?: (bytes: number) => void; xxhash?: Xxhash },
  ) => Promise<Digested>
  DigestPool: new (options?: { threads?: number; onRead?: (bytes: number) => void; xxhash?: Xxhash }) => {
    digest: (path: string, algorithm: string) => Promise<Digested>
    stop: () => void
    close: () => Promise<unknown>
  }
}
const DIGESTS = join(import.meta.dirname, '..', 'bin', 'digests.mjs')
const { CHUNK, NATIVE_CHUNK, computable, xxhashKind, digestFile, DigestPool } = (await import(DIGESTS)) as Digests
const digestOf = async (path: string, algorithm: string, xxhash?: Xxhash) =>
  (await digestFile(path, algorithm, { xxhash })).digest
// Every platform xxhash-addon ships a binary for; elsewhere the WASM is this machine's only kind.
const PREBUILT = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64']
const KINDS = PREBUILT.includes(`${process.platform}-${process.arch}`)
  ? (['native', 'wasm'] as const)
  : (['wasm'] as const)

const dir = mkdtempSync(join(tmpdir(), 'digests-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const file = (name: string, bytes: Uint8Array | string) => {
  const path = join(dir, name)
  writeFileSync(path, bytes)
  return path
}

const VECTORS = {
  '': {
    xxh64: 'ef46db3751d8e999',
    xxh128: '99aa06d3014798d86001c324468d497f',
    xxh3: '2d06800538d394c2',
    xxh32: '02cc5d05',
    md5: 'd41d8cd98f00b204e9800998ecf8427e',
    sha1: 'da39a3ee5e6b4b0d3255bfef95601890afd80709',
    c4: 'c459dsjfscH38cYeXXYogktxf4Cd9ibshE3BHUo6a58hBXmRQdZrAkZzsWcbWtDg5oQstpDuni4Hirj75GEmTc1sFT',
  },
  abc: {
    xxh64: '44bc2cf5ad770999',
    xxh128: '06b05ab6733a618578af5f94892f3950',
    xxh3: '78af5f94892f3950',
    xxh32: '32d153ff',
    md5: '900150983cd24fb0d6963f7d28e17f72',
    sha1: 'a9993e364706816aba3e25717850c26c9cd0d89d',
  },
} as const

describe('digests of a copy read back', () => {
  for (const [text, digests] of Object.entries(VECTORS))
    for (const [algorithm, digest] of Object.entries(digests))
      it(`${algorithm} of "${text}" is the published ${digest.slice(0, 12)}…`, async () => {
        expect(computable(algorithm)).toBe(true)
        const path = file(`${algorithm}-${text || 'empty'}`, text)
        expect(await digestFile(path, algorithm)).toEqual({ digest, size: text.length })
        // The xxHash kinds, both ways they are computed: the native binary and its WASM fallback.
        if (algorithm.startsWith('xxh'))
          for (const xxhash of KINDS)
            expect(await digestFile(path, algorithm, { xxhash })).toEqual({ digest, size: text.length })
      })

  it('takes the native xxHash where a binary ships for the platform, and says why not otherwise', () => {
    const platform = `${process.platform}-${process.arch}`
    if (PREBUILT.includes(platform)) expect(xxhashKind()).toEqual({ kind: 'native' })
    else expect(xxhashKind()).toEqual({ kind: 'wasm', why: expect.any(String) })
  })

  it('reads a file larger than a read in several, to the digest of its bytes in one go', async () => {
    // Two reads and a byte: the last read is short, the digest spans them all.
    const bytes = new Uint8Array(2 * CHUNK + 1)
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24
    const path = file('large.bin', bytes)
    const reads: number[] = []
    expect(await digestFile(path, 'md5', { onRead: (n) => reads.push(n) })).toEqual({
      digest: createHash('md5').update(bytes).digest('hex'),
      size: bytes.length,
    })
    expect(reads).toEqual([CHUNK, CHUNK, 1])
    expect(await digestOf(path, 'sha1')).toBe(createHash('sha1').update(bytes).digest('hex'))
    for (const xxhash of KINDS) {
      expect(await digestOf(path, 'xxh64', xxhash)).toBe(await xxhash64(bytes))
      expect(await digestOf(path, 'xxh128', xxhash)).toBe(await xxhash128(bytes))
      expect(await digestOf(path, 'xxh3', xxhash)).toBe(await xxhash3(bytes))
    }
    // The native xxHash reads in its own smaller pieces, heard as they come.
    if (KINDS.includes('native' as never)) {
      const native: number[] = []
      await digestFile(path, 'xxh3', { onRead: (n) => native.push(n), xxhash: 'native' })
      expect(native).toHaveLength(Math.ceil(bytes.length / NATIVE_CHUNK))
      expect(native.reduce((a, b) => a + b)).toBe(bytes.length)
    }
  })

  for (const xxhash of KINDS)
    it(`reads several files at once on its threads, each to its own digest, and hears every read (${xxhash})`, async () => {
      const files = Array.from({ length: 5 }, (_, i) => {
        const bytes = new Uint8Array(CHUNK + i * 1000).fill(i + 1)
        return { path: file(`pooled-${i}.bin`, bytes), bytes }
      })
      let heard = 0
      const pool = new DigestPool({ threads: 2, onRead: (n) => (heard += n), xxhash })
      try {
        const digests = await Promise.all(files.map(({ path }) => pool.digest(path, 'xxh64')))
        expect(digests).toEqual(
          await Promise.all(files.map(async ({ bytes }) => ({ digest: await xxhash64(bytes), size: bytes.length }))),
        )
        expect(heard).toBe(files.reduce((sum, f) => sum + f.bytes.length, 0))
        await expect(pool.digest(join(dir, 'none.bin'), 'xxh64')).rejects.toMatchObject({ code: 'ENOENT' })
      } finally {
        await pool.close()
      }
    })

  for (const xxhash of KINDS)
    it(`gives up the reads under way when closed, before it ends its threads (${xxhash})`, async () => {
      // 256 GiB with no blocks (a sparse file): a minute's read at the fastest, never finished
      // before the pool closes.
      const path = file(`large-${xxhash}.bin`, '')
      truncateSync(path, 256 * 1024 ** 3)
      let firstRead = () => {}
      const reading = new Promise<void>((resolve) => (firstRead = resolve))
      const pool = new DigestPool({ threads: 2, onRead: () => firstRead(), xxhash })
      const digests = [pool.digest(path, 'xxh128'), pool.digest(path, 'xxh64'), pool.digest(path, 'md5')]
      const settled = Promise.allSettled(digests)
      await reading
      await pool.close()
      // Given up by the threads themselves (a terminated thread fails its file as `fatal`), and
      // the one still waiting for a thread never started.
      expect(
        (await settled).map((s) => (s.status === 'rejected' ? { code: s.reason.code, fatal: s.reason.fatal } : s)),
      ).toEqual(
        [{ code: 'ESTOPPED' }, { code: 'ESTOPPED' }, { code: 'ESTOPPED' }].map((e) => ({ ...e, fatal: undefined })),
      )
      await expect(pool.digest(path, 'xxh64')).rejects.toMatchObject({ code: 'ESTOPPED' })
    })

  it('fails a digest as fatal, and closes, when its threads ended between two files', async () => {
    const path = file('after-the-threads.bin', 'abc')
    // Each thread ended as the pool takes it: as one that dies between files (out of memory).
    const unref = Worker.prototype.unref
    const ended: Promise<number>[] = []
    Worker.prototype.unref = function (this: Worker) {
      ended.push(this.terminate())
      unref.call(this)
    }
    let pool: InstanceType<Digests['DigestPool']>
    try {
      pool = new DigestPool({ threads: 2 })
    } finally {
      Worker.prototype.unref = unref
    }
    expect(await Promise.all(ended)).toHaveLength(2)
    await expect(pool.digest(path, 'xxh64')).rejects.toMatchObject({
      message: expect.stringMatching(/^a reading thread stopped/),
      fatal: true,
    })
    await pool.close()
  })

  it('takes the threads started before its pool, and ends those it does not take', async () => {
    const bytes = new Uint8Array(CHUNK + 77).fill(9)
    const path = file('prestarted.bin', bytes)
    const expected = await xxhash64(bytes)
    // A thread left running would keep the command from ending: each run must end by itself.
    // Threads are numbered in the order they start, so the next one's number less one is how
    // many the run started: three prestarted, and those the pool could not take.
    const run = (pool: string) => {
      const script = file(
        'prestarted.mjs',
        `const { Worker } = await import('node:worker_threads')
        const { prestart, DigestPool, xxhashKind } = await import(${JSON.stringify(DIGESTS)})
        prestart('3')
        const pool = new DigestPool(${pool})
        const { digest } = await pool.digest(${JSON.stringify(path)}, 'xxh64')
        await pool.close()
        const next = new Worker('', { eval: true })
        console.log(JSON.stringify({ digest, started: next.threadId - 1, kind: xxhashKind().kind }))
        await next.terminate()`,
      )
      return spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 20_000 })
    }
    const runs = [
      { pool: '{ threads: 1 }', started: () => 3 },
      // Another kind of xxHash than this machine's: none is taken, two more start.
      { pool: "{ threads: 2, xxhash: 'wasm' }", started: (kind: string) => (kind === 'wasm' ? 3 : 5) },
      { pool: '{ threads: 4 }', started: () => 4 },
    ]
    for (const { pool, started } of runs) {
      const { status, stdout, stderr } = run(pool)
      expect({ pool, status, stderr }).toEqual({ pool, status: 0, stderr: '' })
      const said = JSON.parse(stdout)
      expect(said).toEqual({ digest: expected, started: started(said.kind), kind: said.kind })
    }
  })

  it('does not read through a symbolic link put in a file’s place', async () => {
    const target = file('target.bin', 'abc')
    const link = join(dir, 'link.bin')
    symlinkSync(target, link)
    await expect(digestFile(link, 'md5')).rejects.toMatchObject({ code: 'ELOOP' })
  })

  it('names what it cannot compute', () => {
    for (const name of ['sha256', 'xxhash64be', 'constructor']) expect(computable(name)).toBe(false)
  })
})

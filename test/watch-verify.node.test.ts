// `watch --verify` stopping: every read-back still due is said with the command that does it, a
// report taken while the watch stops included (it came in as Ctrl-C did).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

type ReadBacksClass = new (how: {
  idleMs: number
  client: unknown
  usage: string
  problem: (message: string) => void
}) => {
  taken: (root: string, log: string, volume: string | undefined, clips: string[]) => void
  tick: (waiting: (root: string) => boolean, walkedOnly: (root: string) => boolean) => void
  stop: () => Promise<void>
}
const { ReadBacks } = (await import('../bin/watch-verify.mjs' as string)) as { ReadBacks: ReadBacksClass }

type Found = { name: string; size: number; ino: bigint; mtimeMs: number; ctimeMs: number; hashdate?: string }
type ResumeFileClass = new (
  baseUrl: string,
  log: string,
  volume: string,
  roots: readonly string[],
  again: boolean | undefined,
  part?: string,
) => {
  path: string
  kept: (file: Found, algorithm: string) => { digest: string } | undefined
  add: (file: Found, algorithm: string, digest: string) => void
  done: () => void
}
const { ResumeFile } = (await import('../bin/verify-reading.mjs' as string)) as { ResumeFile: ResumeFileClass }

describe('watch --verify, stopped', () => {
  it('says each read-back still due, those of a report taken while it stops too', async () => {
    const said: string[] = []
    const readBacks = new ReadBacks({ idleMs: 60_000, client: {}, usage: '', problem: (m) => said.push(m) })
    readBacks.taken('/Volumes/SHUTTLE_A', 'D012', undefined, ['A001C001', 'A001C002'])
    await readBacks.stop()
    readBacks.taken('/Volumes/SHUTTLE_B', 'D012', 'SHUTTLE_B', ['B001C001'])
    // Nothing is read once stopped, however idle the folder is.
    readBacks.tick(
      () => false,
      () => false,
    )
    expect(said).toEqual([
      'not read back: 2 clips of D012 in /Volumes/SHUTTLE_A (media-log verify /Volumes/SHUTTLE_A --log D012 reads them)',
      'not read back: 1 clip of D012 in /Volumes/SHUTTLE_B (media-log verify /Volumes/SHUTTLE_B --log D012 --volume SHUTTLE_B reads them)',
    ])
  })
})

describe('a read-back stopped inside watch --verify', () => {
  const config = mkdtempSync(join(tmpdir(), 'media-log-resume-'))
  process.env.MEDIA_LOG_CONFIG_DIR = config
  afterEach(() => rmSync(join(config, 'verify'), { recursive: true, force: true }))
  const file = (name: string): Found => ({
    name,
    size: 5,
    ino: 7n,
    mtimeMs: 1,
    ctimeMs: 2,
    hashdate: '2026-11-29T10:00:00Z',
  })
  const drive = ['http://localhost:5252', 'D012', 'SHUTTLE_A', ['/Volumes/SHUTTLE_A']] as const

  it('is gone on from by the media-log verify it names, which takes the part’s file away when done', () => {
    const part = new ResumeFile(...drive, undefined, 'A001C001')
    part.add(file('A001/A001C001.mov'), 'xxh64', '0123456789abcdef')
    // Another part, and another drive's whole read-back: only the same drive's parts are taken.
    new ResumeFile(...drive, undefined, 'A001C002').add(file('A001/A001C002.mov'), 'xxh64', 'fedcba9876543210')
    new ResumeFile('http://localhost:5252', 'D012', 'SHUTTLE_B', ['/Volumes/SHUTTLE_B'], undefined).add(
      file('B001/B001C001.mov'),
      'xxh64',
      'aaaaaaaaaaaaaaaa',
    )
    const whole = new ResumeFile(...drive, undefined)
    expect(whole.kept(file('A001/A001C001.mov'), 'xxh64')?.digest).toBe('0123456789abcdef')
    expect(whole.kept(file('A001/A001C002.mov'), 'xxh64')?.digest).toBe('fedcba9876543210')
    expect(whole.kept(file('B001/B001C001.mov'), 'xxh64')).toBeUndefined()
    // A part does not take another part's reads, nor the whole one's.
    expect(new ResumeFile(...drive, undefined, 'A001C002').kept(file('A001/A001C001.mov'), 'xxh64')).toBeUndefined()
    expect(readdirSync(join(config, 'verify'))).toHaveLength(3)
    whole.done()
    expect(readdirSync(join(config, 'verify'))).toHaveLength(1)
  })

  it('is read again, and its file taken away, by a media-log verify --again', () => {
    new ResumeFile(...drive, undefined, 'A001C001').add(file('A001/A001C001.mov'), 'xxh64', '0123456789abcdef')
    const again = new ResumeFile(...drive, true)
    expect(again.kept(file('A001/A001C001.mov'), 'xxh64')).toBeUndefined()
    expect(readdirSync(join(config, 'verify'))).toEqual([])
  })
})

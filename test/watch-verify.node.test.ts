// `watch --verify` stopping: every read-back still due is said with the command that does it, a
// report taken while the watch stops included (it came in as Ctrl-C did).
import { describe, expect, it } from 'vitest'

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

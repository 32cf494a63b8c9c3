// What the command writes to a terminal: its progress line drawn in place, and a warning said on a
// line of its own, never run on from the end of that progress line.
import { afterEach, describe, expect, it, vi } from 'vitest'

type Terminal = {
  Progress: new () => { say: (text: string) => void; done: () => void }
  warn: (text: string) => void
}
const { Progress, warn } = (await import('../bin/terminal.mjs' as string)) as Terminal

/** What the command wrote to stderr while `work` ran, as a terminal (isTTY) or not. */
function written(tty: boolean, work: () => void) {
  const out: string[] = []
  const isTTY = process.stderr.isTTY
  process.stderr.isTTY = tty
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true))
  try {
    work()
  } finally {
    write.mockRestore()
    process.stderr.isTTY = isTTY
  }
  return out.join('')
}

describe('the terminal', () => {
  afterEach(() => vi.restoreAllMocks())

  it('clears the progress line before a warning, draws it again at its next change, and ends it once', () => {
    const progress = new Progress()
    expect(
      written(true, () => {
        progress.say('SHUTTLE_01: 120 files')
        warn('asking for a token: approve "media-log" showing code 4KQ-7TD')
        progress.say('SHUTTLE_01: 240 files')
        progress.done()
        warn('done')
      }),
    ).toBe(
      '\r\x1b[KSHUTTLE_01: 120 files' +
        '\r\x1b[Kasking for a token: approve "media-log" showing code 4KQ-7TD\n' +
        '\r\x1b[KSHUTTLE_01: 240 files\n' +
        'done\n',
    )
  })

  // On a terminal the line a warning cleared is not ended again; elsewhere every line is whole.
  for (const [where, tty, expected] of [
    ['a terminal', true, '\r\x1b[Kwalking\r\x1b[Ka warning\n'],
    ['a pipe', false, 'walking\na warning\n'],
  ] as const)
    it(`says a warning after a progress line on ${where}, and ends each line once`, () => {
      const progress = new Progress()
      expect(
        written(tty, () => {
          progress.say('walking')
          warn('a warning')
          progress.done()
        }),
      ).toBe(expected)
    })
})

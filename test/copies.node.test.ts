// The one account of a day's copies on its own, in plain Node: each state a copy can be in and
// which wins when two are true, each volume's counts and words, the e-mail's verdict, and the
// edits a read-back or a renamed volume makes. Through every surface: test/e2e/one-account.test.ts.
import { describe, expect, it } from 'vitest'
import { VolumeTally, copiesOf } from '../src/copies/account'
import { editLog } from '../src/copies/edits'
import { chipOf, verificationLines, volumeWords } from '../src/copies/words'
import { Problem } from '../src/shared/problem'

const x = (n: number) => `xxh64:${n.toString(16).padStart(16, '0')}`
const states = (copies: unknown[]) => Object.fromEntries([...copiesOf(copies)].map(([v, c]) => [v, c.state]))

describe('a copy’s state', () => {
  it('is what a read-back found, else how its checksum compares with the clip’s other copies', () => {
    expect(
      states([
        { volume: 'A', hash: x(1), action: 'verified' },
        { volume: 'B', hash: x(1) },
        { volume: 'C', hash: x(9), action: 'failed', original: x(1) },
        { volume: 'D', hash: x(1), action: 'missing' },
        { volume: 'E', hash: null },
        { volume: 'F', hash: '' },
      ]),
    ).toEqual({ A: 'verified', B: 'match', C: 'failed', D: 'not-found', E: 'no-checksum', F: 'no-checksum' })
  })

  it('is recorded where nothing can be compared: one copy, another algorithm, unlabelled text', () => {
    expect(states([{ volume: 'A', hash: x(1) }])).toEqual({ A: 'recorded' })
    expect(
      states([
        { volume: 'A', hash: x(1) },
        { volume: 'B', hash: `md5:${'a'.repeat(32)}` },
      ]),
    ).toEqual({
      A: 'recorded',
      B: 'recorded',
    })
    // An unlabelled hash equal to a labelled one's value agrees with it (shared/digests.ts).
    expect(
      states([
        { volume: 'A', hash: x(1) },
        { volume: 'B', hash: x(1).slice(6) },
      ]),
    ).toEqual({
      A: 'match',
      B: 'match',
    })
  })

  it('differs where it disagrees and agrees with none: both of two, the odd one of three', () => {
    expect(
      states([
        { volume: 'A', hash: x(1) },
        { volume: 'B', hash: x(2) },
      ]),
    ).toEqual({ A: 'differ', B: 'differ' })
    expect(
      states([
        { volume: 'A', hash: x(1) },
        { volume: 'B', hash: x(1) },
        { volume: 'C', hash: x(2) },
      ]),
    ).toEqual({ A: 'match', B: 'match', C: 'differ' })
    // Read back equal to what it was copied with, and that disagrees with the other copy: in doubt.
    const [a] = copiesOf([
      { volume: 'A', hash: x(1), action: 'verified' },
      { volume: 'B', hash: x(2) },
    ]).values()
    expect(a).toMatchObject({ state: 'differ', against: { volume: 'B', hash: x(2) } })
  })

  it('keeps the facts behind it: who read it back and when, a sequence’s frames', () => {
    const frames = { changed: ['F.0000002.ari'], missing: [], changed_count: 1, missing_count: 0 }
    const [copy] = copiesOf([
      {
        volume: 'A',
        hash: `xxh64-frames:${'b'.repeat(64)}`,
        action: 'failed',
        original: `xxh64-frames:${'a'.repeat(64)}`,
        hashdate: '2026-11-26T21:04:00Z',
        tool: 'media-log 0.1.0',
        bad_frames: frames,
      },
    ]).values()
    expect(copy).toEqual({
      volume: 'A',
      state: 'failed',
      hash: `xxh64-frames:${'b'.repeat(64)}`,
      original: `xxh64-frames:${'a'.repeat(64)}`,
      hashdate: '2026-11-26T21:04:00Z',
      tool: 'media-log 0.1.0',
      frames,
    })
  })
})

describe('a volume’s account', () => {
  const tally = (clips: unknown[][], listed?: string[]) => {
    const t = new VolumeTally()
    for (const copies of clips) t.add(copiesOf(copies))
    return t.counts(listed)
  }

  it('owes every clip where the day plans it, only what it holds where it does not', () => {
    const clips = [
      [
        { volume: 'A', hash: x(1) },
        { volume: 'X', hash: x(1) },
      ],
      [{ volume: 'A', hash: x(2) }],
      [],
    ]
    expect(tally(clips, ['A', 'B'])).toEqual([
      { volume: 'A', clips: 3, states: { match: 1, recorded: 1, missing: 1 } },
      { volume: 'B', clips: 3, states: { missing: 3 } },
      { volume: 'X', clips: 1, states: { match: 1 } },
    ])
    // Without a list, every volume a clip is on is planned.
    expect(tally(clips)).toEqual([
      { volume: 'A', clips: 3, states: { match: 1, recorded: 1, missing: 1 } },
      { volume: 'X', clips: 3, states: { match: 1, missing: 2 } },
    ])
  })

  it('is said the same way wherever it is said', () => {
    const mixed = { volume: 'SHUTTLE_C', clips: 3, states: { verified: 2, 'not-found': 1 } }
    expect(chipOf(mixed)).toEqual({
      volume: 'SHUTTLE_C',
      held: 2,
      clips: 3,
      verdict: 'error',
      mark: '✕',
      words: '3 clips: 1 not found on read-back, 2 verified (read back)',
    })
    expect(volumeWords({ volume: 'R', clips: 2, states: { verified: 2 } })).toBe('2 clips, all verified (read back)')
    expect(volumeWords({ volume: 'R', clips: 12, states: { match: 12 }, days: 2 })).toBe(
      '12 clips on 2 days, checksums match (not read back)',
    )
    expect(volumeWords({ volume: 'F', clips: 2, states: { verified: 2 }, otherFailed: 1 })).toBe(
      '2 clips, all verified (read back); 1 file that is not media (a sidecar) failed verification',
    )
    expect(chipOf({ volume: 'S', clips: 2, states: { recorded: 1, 'no-checksum': 1 } })).toMatchObject({
      verdict: 'warning',
      mark: '!',
    })
  })

  it('gives the e-mail one verdict: every volume’s one good state, or what is wrong where', () => {
    const verified = { volume: 'A', clips: 2, states: { verified: 2 } }
    expect(verificationLines([verified, { ...verified, volume: 'B' }])).toEqual(['2 copies, all verified (read back)'])
    expect(verificationLines([verified, { volume: 'B', clips: 2, states: { match: 2 } }])).toEqual([
      '2 copies: nothing missing or different; not every copy read back',
    ])
    expect(
      verificationLines([verified, { volume: 'C', clips: 3, states: { verified: 1, 'not-found': 1, failed: 1 } }]),
    ).toEqual(['C: 1 clip not found on read-back, 1 clip read back and different'])
  })
})

describe('edits of a day’s copies', () => {
  const day = () => ({
    id: 'D001',
    day: 1,
    date: '2026-11-26',
    ocf: {
      copies: ['RAID', 'reports'],
      clips: [
        {
          clip: 'A001C001_261126_R1AB',
          size: 1,
          copies: [
            { volume: 'RAID', hash: x(1) },
            { volume: 'reports', hash: x(1) },
          ],
        },
        { clip: 'A001C002_261126_R1AB', size: 1, copies: [{ volume: 'RAID', hash: x(2) }] },
      ],
    },
    other_files: [{ volume: 'reports', path: 'A001/side.xml', hash: null, action: 'failed' }],
  })
  const at = '2026-11-26T21:04:00Z'

  it('records what a read-back found: verified, different (its checksum kept as original), not found', () => {
    const { log, outcome, written } = editLog(day(), {
      kind: 'read-back',
      volume: 'RAID',
      tool: 'media-log 0.1.0',
      clips: [
        { part: 'ocf', clip: 'A001C001_261126_R1AB.mov', found: 'verified', hash: x(1), hashdate: at },
        { part: 'ocf', clip: 'A001C002_261126_R1AB', found: 'failed', hash: x(7), hashdate: at },
        { part: 'ocf', clip: 'Z999C001', found: 'missing', hashdate: at },
      ],
    })
    expect(written).toBe(true)
    expect(outcome).toEqual({ copies: 2, unknown: ['Z999C001'] })
    const clips = (log.ocf as { clips: Array<{ copies: unknown[] }> }).clips
    expect(clips[0]!.copies[0]).toEqual({
      volume: 'RAID',
      hash: x(1),
      action: 'verified',
      hashdate: at,
      tool: 'media-log 0.1.0',
    })
    expect(clips[1]!.copies[0]).toEqual({
      volume: 'RAID',
      hash: x(7),
      action: 'failed',
      original: x(2),
      hashdate: at,
      tool: 'media-log 0.1.0',
    })
    // Not found, then found good again: the checksum it was copied with is what it is compared with.
    const lost = editLog(log, {
      kind: 'read-back',
      volume: 'RAID',
      clips: [{ part: 'ocf', clip: 'A001C002_261126_R1AB', found: 'missing', hashdate: at }],
    }).log
    expect((lost.ocf as { clips: Array<{ copies: unknown[] }> }).clips[1]!.copies[0]).toEqual({
      volume: 'RAID',
      hash: x(2),
      action: 'missing',
      hashdate: at,
    })
  })

  it('holds what a read-back says to the log’s own checksums: a digest that differs is a failure, whatever the caller claims', () => {
    const { log } = editLog(day(), {
      kind: 'read-back',
      volume: 'RAID',
      clips: [
        // Claimed verified, but not the checksum it was copied with.
        { part: 'ocf', clip: 'A001C001_261126_R1AB', found: 'verified', hash: x(9), hashdate: at },
        // Claimed failed, and equal to it.
        { part: 'ocf', clip: 'A001C002_261126_R1AB', found: 'failed', hash: x(2), hashdate: at },
      ],
    })
    const clips = (log.ocf as { clips: Array<{ copies: Array<Record<string, unknown>> }> }).clips
    expect(clips[0]!.copies[0]).toMatchObject({ action: 'failed', hash: x(9), original: x(1) })
    expect(clips[1]!.copies[0]).toMatchObject({ action: 'verified', hash: x(2) })
    expect(clips[1]!.copies[0]).not.toHaveProperty('original')
    // A volume the log has no copy on is held to another volume's checksum.
    const added = editLog(day(), {
      kind: 'read-back',
      volume: 'LTO',
      clips: [{ part: 'ocf', clip: 'A001C002_261126_R1AB', found: 'verified', hash: x(3), hashdate: at }],
    }).log
    expect((added.ocf as { clips: Array<{ copies: unknown[] }> }).clips[1]!.copies.at(-1)).toMatchObject({
      volume: 'LTO',
      action: 'failed',
      original: x(2),
    })
  })

  it('renames a volume everywhere the day names it, and takes one off', () => {
    const renamed = editLog(day(), { kind: 'rename-volume', volume: 'reports', to: 'areca' })
    expect(renamed.outcome).toEqual({ copies: 1, unknown: [] })
    expect(JSON.stringify(renamed.log)).not.toContain('"reports"')
    expect((renamed.log.ocf as { copies: string[] }).copies).toEqual(['RAID', 'areca'])
    expect(renamed.log.other_files).toEqual([{ volume: 'areca', path: 'A001/side.xml', hash: null, action: 'failed' }])
    const removed = editLog(day(), { kind: 'remove-volume', volume: 'reports' })
    expect((removed.log.ocf as { copies: string[] }).copies).toEqual(['RAID'])
    expect(removed.log.other_files).toEqual([])
    expect(JSON.stringify(removed.log)).not.toContain('"reports"')
  })

  it('refuses a rename onto a volume holding the same clips, and a volume the day does not have', () => {
    expect(() => editLog(day(), { kind: 'rename-volume', volume: 'reports', to: 'RAID' })).toThrow(
      expect.objectContaining({
        kind: 'invalid',
        details: [
          {
            prop: 'name',
            message:
              'RAID already holds a copy of the same clips (A001C001_261126_R1AB): remove one of the two volumes from the day first',
          },
        ],
      }),
    )
    const unknown = (() => {
      try {
        editLog(day(), { kind: 'remove-volume', volume: 'LTO_9' })
      } catch (err) {
        return err
      }
    })()
    expect(unknown).toBeInstanceOf(Problem)
    expect(unknown).toMatchObject({ kind: 'not-found', error: 'Volume not found' })
  })
})

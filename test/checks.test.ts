// The day checks through the service: GET /log/{id}/checks and GET /checks, a 20,000-clip day,
// the reports and e-mail that print them. The checks on their own are in day-checks.node.test.ts.
import { describe, expect, it } from 'vitest'
import { call, operator, withProject } from './helpers'
import { env } from 'cloudflare:workers'
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test'
import type { Workspace } from '../src/workspace/Workspace'
import { cleanDay, hex16, tc, type Clip } from './day-fixtures'

const ocfClips = (day: { ocf: Clip }) => day.ocf.clips as Clip[]

describe('checks bounded by the day, whatever it holds', () => {
  it(
    'a 20,000-clip day planned on six volumes with no copies yet lists 1,000 and counts 120,000',
    { tags: 'slow' },
    async () => {
      const { token } = await withProject()
      const volumes = ['A', 'B', 'C', 'D', 'E', 'F']
      const clips = Array.from({ length: 20_000 }, (_, i) => ({
        clip: `A001C${String(i + 1).padStart(5, '0')}`,
        size: 1,
        copies: [],
      }))
      const day = { id: 'D001', day: 1, date: '2024-01-01', ocf: { copies: volumes, size: 20_000, clips } }
      expect((await call('POST', '/log', { token, body: day })).status).toBe(201)
      const summary = { errors: 120_000, warnings: 0, info: 0, kinds: { 'copy-missing': 120_000 } }
      const one = await call('GET', '/log/D001/checks', { token })
      expect(one.status).toBe(200)
      expect(one.body.checks).toHaveLength(1000)
      expect(one.body.checks[999]).toMatchObject({ clip: 'A001C00167', volume: 'D' })
      expect(one.body.summary).toEqual(summary)
      expect(one.body.unlisted).toEqual({ 'copy-missing': 119_000 })
      const range = await call('GET', '/checks', { token })
      expect(range.status).toBe(200)
      expect(range.body.checks).toHaveLength(1000)
      expect(range.body.summary).toEqual(summary)
      expect(range.body.unlisted).toEqual({ 'copy-missing': 119_000 })
      expect(range.body.days).toEqual([{ log: 'D001', day: 1, date: '2024-01-01', summary }])
      // The e-mail's verification lines count every missing copy, not the ones listed.
      expect((await call('POST', '/open-email-window', { token, body: { logId: 'D001' } })).status).toBe(200)
      const [window] = (await operator('GET', '/approve/windows')).body.windows
      expect(window.checks.days[0].lines).toEqual([
        ...volumes.map(
          (v) =>
            `Missing copies — ${v}: 20,000 clips (A001C00001, A001C00002, A001C00003, A001C00004, A001C00005, and 19,995 more)`,
        ),
        'no other findings',
      ])
    },
  )
})

describe('GET /log/{id}/checks and GET /checks', () => {
  it("answer a day's findings and their counts, following the project's match_sound", async () => {
    const { token } = await withProject()
    const day = cleanDay()
    ocfClips(day)[1]!.copies = [{ volume: 'SSD_01', hash: `xxh64:${hex16(2)}` }]
    ;(day.sound!.clips as Clip[])[3]!.tc_start = tc(60_000)
    ;(day.sound!.clips as Clip[])[3]!.tc_end = tc(60_010)
    expect((await call('POST', '/log', { token, body: day })).status).toBe(201)
    const copyMissing = {
      kind: 'copy-missing',
      severity: 'error',
      part: 'ocf',
      clip: 'A001C002_240101_R1AB',
      volume: 'RAID_A',
      message: 'A001C002_240101_R1AB on RAID_A: missing',
    }
    const answer = await call('GET', '/log/D001/checks', { token })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      checks: [
        copyMissing,
        {
          kind: 'no-sound',
          severity: 'info',
          clip: 'A001C004_240101_R1AB',
          message: 'A001C004_240101_R1AB has no sound running during it',
        },
        {
          kind: 'sound-without-clip',
          severity: 'info',
          clip: 'S004.wav',
          message: 'The sound clip S004.wav runs during no OCF clip',
        },
      ],
      summary: {
        errors: 1,
        warnings: 0,
        info: 2,
        kinds: { 'copy-missing': 1, 'no-sound': 1, 'sound-without-clip': 1 },
      },
      groups: [
        {
          kind: 'copy-missing',
          severity: 'error',
          title: 'Missing copies',
          volume: 'RAID_A',
          part: 'ocf',
          count: 1,
          words: 'Missing copies — RAID_A: 1 clip (A001C002_240101_R1AB)',
        },
        {
          kind: 'no-sound',
          severity: 'info',
          title: 'Camera clips without sound',
          count: 1,
          words: 'Camera clips without sound: 1 clip (A001C004_240101_R1AB)',
        },
        {
          kind: 'sound-without-clip',
          severity: 'info',
          title: 'Sound without a camera clip',
          count: 1,
          words: 'Sound without a camera clip: 1 clip (S004.wav)',
        },
      ],
      // Each copy in one state of the one account: none was read back; a checksum matches another
      // volume's, or is only recorded where the clip has no other copy to compare with.
      copies: [
        {
          part: 'ocf',
          volume: 'SSD_01',
          clips: 4,
          held: 4,
          states: { recorded: 1, match: 3 },
          verdict: 'ok',
          mark: '✓',
          words: '4 clips: 1 checksum recorded (not read back), 3 checksums match (not read back)',
        },
        {
          part: 'ocf',
          volume: 'RAID_A',
          clips: 4,
          held: 3,
          states: { missing: 1, match: 3 },
          verdict: 'error',
          mark: '✕',
          words: '4 clips: 1 missing, 3 checksums match (not read back)',
        },
        ...['SSD_01', 'RAID_A'].map((volume) => ({
          part: 'sound',
          volume,
          clips: 4,
          held: 4,
          states: { match: 4 },
          verdict: 'ok',
          mark: '✓',
          words: '4 clips, checksums match (not read back)',
        })),
      ],
    })

    expect((await call('PATCH', '/project/config', { token, body: { match_sound: false } })).status).toBe(200)
    const unmatched = (await call('GET', '/log/D001/checks', { token })).body
    expect(unmatched).toEqual({
      checks: [copyMissing],
      summary: { errors: 1, warnings: 0, info: 0, kinds: { 'copy-missing': 1 } },
      groups: [answer.body.groups[0]],
      copies: answer.body.copies,
    })
    // A copy read back (an ASC MHL `verified` action), one without a checksum, one that failed.
    ocfClips(day)[0]!.copies = [
      { volume: 'SSD_01', hash: `xxh64:${hex16(1)}`, action: 'verified' },
      { volume: 'RAID_A', hash: null },
    ]
    ocfClips(day)[2]!.copies = [
      { volume: 'SSD_01', hash: `xxh64:${hex16(3)}`, action: 'failed' },
      { volume: 'RAID_A', hash: `xxh64:${hex16(3)}` },
    ]
    expect((await call('PATCH', '/log/D001', { token, body: { ocf: day.ocf } })).status).toBe(200)
    expect((await call('GET', '/log/D001/checks', { token })).body.copies.slice(0, 2)).toEqual([
      {
        part: 'ocf',
        volume: 'SSD_01',
        clips: 4,
        // The copy read back different is not held intact.
        held: 3,
        states: { failed: 1, recorded: 1, match: 1, verified: 1 },
        verdict: 'error',
        mark: '✕',
        words:
          '4 clips: 1 read back and different, 1 checksum recorded (not read back), 1 checksum matches (not read back), 1 verified (read back)',
      },
      {
        part: 'ocf',
        volume: 'RAID_A',
        clips: 4,
        held: 3,
        states: { missing: 1, 'no-checksum': 1, recorded: 1, match: 1 },
        verdict: 'error',
        mark: '✕',
        words:
          '4 clips: 1 missing, 1 without a checksum, 1 checksum recorded (not read back), 1 checksum matches (not read back)',
      },
    ])
  })

  it('answer a range of days by day number or date, each end optional', async () => {
    const { token } = await withProject()
    for (const [i, reel] of ['A001', 'A003', 'A004'].entries()) {
      const day = { ...cleanDay(2, `D00${i + 1}`, reel), date: `2024-01-0${i + 1}` }
      expect((await call('POST', '/log', { token, body: day })).status).toBe(201)
    }
    const gap = {
      kind: 'reel-gap',
      severity: 'warning',
      reel: 'A002',
      message: 'A002 was never logged between A001 (log D001) and A003 (log D002)',
    }
    const none = { errors: 0, warnings: 0, info: 0, kinds: {} }
    const all = await call('GET', '/checks', { token })
    expect(all).toMatchObject({ status: 200 })
    const copies = (part: string, volume: string) => ({
      part,
      volume,
      clips: 6,
      held: 6,
      states: { match: 6 },
      verdict: 'ok',
      mark: '✓',
      words: '6 clips, checksums match (not read back)',
    })
    expect(all.body).toEqual({
      checks: [gap],
      summary: { errors: 0, warnings: 1, info: 0, kinds: { 'reel-gap': 1 } },
      groups: [
        {
          kind: 'reel-gap',
          severity: 'warning',
          title: 'Reels never logged',
          count: 1,
          words: 'Reels never logged: A002 was never logged between A001 (log D001) and A003 (log D002)',
        },
      ],
      copies: [copies('ocf', 'SSD_01'), copies('ocf', 'RAID_A'), copies('sound', 'SSD_01'), copies('sound', 'RAID_A')],
      days: [
        { log: 'D001', day: 1, date: '2024-01-01', summary: none },
        { log: 'D002', day: 2, date: '2024-01-02', summary: none },
        { log: 'D003', day: 3, date: '2024-01-03', summary: none },
      ],
    })
    const later = await call('GET', '/checks?from=2', { token })
    expect(later.body.checks).toEqual([])
    expect(later.body.days.map((d: { log: string }) => d.log)).toEqual(['D002', 'D003'])
    const byDate = await call('GET', '/checks?from=2024-01-01&to=2024-01-02', { token })
    expect(byDate.body.checks).toEqual([gap])
    expect(byDate.body.days.map((d: { log: string }) => d.log)).toEqual(['D001', 'D002'])
  })

  it('refuse what they cannot answer: no token 401, unknown log 404, a bad range 400', async () => {
    const { token } = await withProject()
    expect(await call('GET', '/log/D001/checks')).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
    expect(await call('GET', '/log/nope/checks', { token })).toMatchObject({
      status: 404,
      body: { error: 'Log not found' },
    })
    expect(await call('GET', '/checks?from=0', { token })).toMatchObject({
      status: 400,
      body: {
        error: 'Validation Error',
        details: [{ prop: 'from', message: 'must be a day number from 1 to 999 or a date YYYY-MM-DD' }],
      },
    })
    expect((await call('GET', '/checks?to=yesterday', { token })).status).toBe(400)
    expect(await call('GET', '/checks?from=2025-02-30', { token })).toMatchObject({
      status: 400,
      body: { details: [{ prop: 'from', message: 'must be a real calendar date' }] },
    })
  })
})

describe('check counts kept for data reports', () => {
  const cached = () =>
    runInDurableObject(env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace')), (_: Workspace, state) =>
      Object.fromEntries(
        state.storage.sql
          .exec<{ id: string; checks: string | null }>('SELECT id, checks FROM logs ORDER BY id')
          .toArray()
          .map((row) => [row.id, row.checks === null ? null : JSON.parse(row.checks)]),
      ),
    )

  it('are computed by the first data report, kept, and dropped when the log is written again', async () => {
    const { token } = await withProject()
    const pdfs = [{ id: 'DATA1', label: 'Data', output_name: 'data.pdf', template: 'data-report' }]
    expect((await call('PATCH', '/project/config', { token, body: { pdfs } })).status).toBe(200)
    const missing = cleanDay(4, 'D002')
    ocfClips(missing)[0]!.copies = [{ volume: 'SSD_01', hash: `xxh64:${hex16(1)}` }]
    for (const day of [cleanDay(4, 'D001'), missing])
      expect((await call('POST', '/log', { token, body: day })).status).toBe(201)
    expect(await cached()).toEqual({ D001: null, D002: null })

    const report = () => call('POST', '/generate-pdf', { token, body: { presetId: 'DATA1', logId: ['D001', 'D002'] } })
    expect((await report()).status).toBe(200)
    expect(await cached()).toEqual({ D001: {}, D002: { 'copy-missing': 1 } })

    expect((await call('PATCH', '/log/D002', { token, body: { unit: 'B' } })).status).toBe(200)
    expect(await cached()).toEqual({ D001: {}, D002: null })
    expect((await report()).status).toBe(200)
    expect(await cached()).toEqual({ D001: {}, D002: { 'copy-missing': 1 } })
  })

  it('start empty in a store kept before them (schema 3), and work from there', async () => {
    const { token } = await withProject()
    const pdfs = [{ id: 'DATA1', label: 'Data', output_name: 'data.pdf', template: 'data-report' }]
    expect((await call('PATCH', '/project/config', { token, body: { pdfs } })).status).toBe(200)
    expect((await call('POST', '/log', { token, body: cleanDay(2, 'D001') })).status).toBe(201)
    const stub = env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace'))
    await runInDurableObject(stub, (_: Workspace, state) => {
      state.storage.sql.exec(
        `ALTER TABLE logs DROP COLUMN revision; ALTER TABLE logs DROP COLUMN checks; UPDATE meta SET value = '3' WHERE key = 'schema'`,
      )
    })
    await abortAllDurableObjects()
    expect(await cached()).toEqual({ D001: null })
    expect((await call('POST', '/generate-pdf', { token, body: { presetId: 'DATA1', logId: 'D001' } })).status).toBe(
      200,
    )
    expect(await cached()).toEqual({ D001: {} })
    expect((await call('POST', '/log', { token, body: cleanDay(2, 'D002') })).status).toBe(201)
    expect(await cached()).toEqual({ D001: {}, D002: null })
  })
})

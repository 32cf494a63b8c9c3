// The one account of a day's copies through the service: what a read-back records
// (POST /log/{id}/read-back), a volume renamed or taken off a day (by an application and from the
// console), sizes no report stated, sidecars whose read-back failed, and transfer reports that
// name their own volumes. Each answer is read whole, and what a refusal leaves is read back.
import { describe, expect, it } from 'vitest'
import { MediaLogClient } from '../src/client'
import { BASE, call, operator, viaWorker, withProject } from './helpers'
import { reportedCard, scenario04, yoyottaAle, yoyottaCsv } from './offload-fixtures'

const x = (n: number) => `xxh64:${n.toString(16).padStart(16, '0')}`
const AT = '2026-11-26T21:04:00Z'

/** A day on two shuttles, each clip's checksum recorded on both. */
const day = () => ({
  id: 'D003',
  day: 3,
  date: '2026-11-26',
  ocf: {
    copies: ['SHUTTLE_A', 'SHUTTLE_C'],
    clips: [1, 2, 3].map((n) => ({
      clip: `C001C00${n}_261126_R1AB`,
      size: 1000 * n,
      copies: [
        { volume: 'SHUTTLE_A', hash: x(n) },
        { volume: 'SHUTTLE_C', hash: x(n) },
      ],
    })),
  },
})

async function withDay() {
  const { token } = await withProject()
  expect((await call('POST', '/log', { token, body: day() })).status).toBe(201)
  return token
}

const copiesOf = async (token: string, id = 'D003') =>
  Object.fromEntries(
    (await call('GET', `/log/${id}/checks`, { token })).body.copies.map((c: { volume: string; words: string }) => [
      c.volume,
      c.words,
    ]),
  )

describe('POST /log/{id}/read-back', () => {
  it('records what a read-back found, and every surface of the day says it: not verified while a clip is not found', async () => {
    const token = await withDay()
    const answer = await call('POST', '/log/D003/read-back', {
      token,
      body: {
        volume: 'SHUTTLE_C',
        tool: 'media-log 0.1.0',
        clips: [
          { part: 'ocf', clip: 'C001C001_261126_R1AB', found: 'verified', hash: x(1), hashdate: AT },
          { part: 'ocf', clip: 'C001C002_261126_R1AB.mov', found: 'verified', hash: x(2), hashdate: AT },
          { part: 'ocf', clip: 'C001C003_261126_R1AB', found: 'missing', hashdate: AT },
          { part: 'ocf', clip: 'C009C009', found: 'missing', hashdate: AT },
        ],
      },
    })
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 200,
      body: { success: true, copies: 3, unknown: ['C009C009'] },
    })
    const checks = (await call('GET', '/log/D003/checks', { token })).body
    expect(checks.summary).toEqual({ errors: 1, warnings: 0, info: 0, kinds: { 'copy-not-found': 1 } })
    expect(checks.checks).toEqual([
      {
        kind: 'copy-not-found',
        severity: 'error',
        part: 'ocf',
        clip: 'C001C003_261126_R1AB',
        volume: 'SHUTTLE_C',
        tool: 'media-log 0.1.0',
        hashdate: AT,
        message: `C001C003_261126_R1AB on SHUTTLE_C: not found on read-back (media-log 0.1.0, ${AT})`,
      },
    ])
    expect(checks.copies.find((c: { volume: string }) => c.volume === 'SHUTTLE_C')).toEqual({
      part: 'ocf',
      volume: 'SHUTTLE_C',
      clips: 3,
      held: 2,
      states: { 'not-found': 1, verified: 2 },
      verdict: 'error',
      mark: '✕',
      words: '3 clips: 1 not found on read-back, 2 verified (read back)',
    })
    // The console's chip and the e-mail say the same, and neither calls the shuttle verified.
    const row = (await operator('GET', '/approve/days')).body.days[0]
    expect(row.copies[1]).toMatchObject({ volume: 'SHUTTLE_C', held: 2, clips: 3, mark: '✕' })
    expect((await call('POST', '/open-email-window', { token, body: { logId: 'D003' } })).status).toBe(200)
    const [window] = (await operator('GET', '/approve/windows')).body.windows
    expect(window.checks.days[0].lines).toEqual([
      'Copies not found on read-back — SHUTTLE_C: 1 clip (C001C003_261126_R1AB)',
      'no other findings',
    ])
    expect(window.preview.text).toContain('SHUTTLE_C: 3 clips: 1 not found on read-back, 2 verified (read back)')
    expect(window.preview.text).not.toMatch(/SHUTTLE_C: [^\n]*all verified/)

    // Found good on the next read-back: the error goes.
    const again = await call('POST', '/log/D003/read-back', {
      token,
      body: {
        volume: 'SHUTTLE_C',
        clips: [{ part: 'ocf', clip: 'C001C003_261126_R1AB', found: 'verified', hash: x(3), hashdate: AT }],
      },
    })
    expect(again.status).toBe(200)
    expect(await copiesOf(token)).toEqual({
      SHUTTLE_A: '3 clips, checksums match (not read back)',
      SHUTTLE_C: '3 clips, all verified (read back)',
    })
  })

  it('refuses a read-back it cannot take, naming every mistake, and records nothing of it', async () => {
    const token = await withDay()
    const before = (await call('GET', '/log/D003', { token })).body
    const bad = await call('POST', '/log/D003/read-back', {
      token,
      body: {
        volume: '',
        clips: [
          { part: 'ocf', clip: 'C001C001_261126_R1AB', found: 'verified', hashdate: AT },
          { part: 'proxy', clip: 'C001C002_261126_R1AB', found: 'lost', hash: 'xxh64:zz', hashdate: 'yesterday' },
        ],
      },
    })
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 400,
      body: {
        error: 'Validation Error',
        details: [
          { prop: 'volume', message: 'must be 1 to 200 characters' },
          { prop: 'clips.0.hash', message: 'is required: the digest computed on read-back' },
          { prop: 'clips.1.part', message: 'must be "ocf" or "sound"' },
          { prop: 'clips.1.found', message: 'must be "verified", "failed", "missing" or "original"' },
          {
            prop: 'clips.1.hash',
            message: 'must be a labelled digest: xxh64:<16 hex digits>, md5:…, xxh64-frames:<64 hex digits>',
          },
          { prop: 'clips.1.hashdate', message: 'must be a date and time, ISO 8601 (2026-11-26T21:04:00Z)' },
        ],
      },
    })
    expect((await call('GET', '/log/D003', { token })).body).toEqual(before)
    const body = { volume: 'SHUTTLE_C', clips: [{ part: 'ocf', clip: 'X', found: 'missing', hashdate: AT }] }
    expect(await call('POST', '/log/D404/read-back', { token, body })).toMatchObject({
      status: 404,
      body: { error: 'Log not found' },
    })
    expect(await call('POST', '/log/D003/read-back', { body })).toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    })
  })
})

describe('a volume of a day renamed or taken off', () => {
  it('renames a volume for an application and from the console, and the checks follow', async () => {
    const token = await withDay()
    const renamed = await call('PATCH', '/log/D003/volumes/SHUTTLE_C', { token, body: { name: 'SHUTTLE_B' } })
    expect({ status: renamed.status, body: renamed.body }).toEqual({
      status: 200,
      body: { success: true, copies: 3, unknown: [] },
    })
    expect((await call('GET', '/log/D003', { token })).body.ocf.copies).toEqual(['SHUTTLE_A', 'SHUTTLE_B'])
    expect(Object.keys(await copiesOf(token))).toEqual(['SHUTTLE_A', 'SHUTTLE_B'])
    const removed = await operator('DELETE', '/approve/days/D003/volumes/SHUTTLE_B')
    expect({ status: removed.status, body: removed.body }).toEqual({
      status: 200,
      body: { success: true, copies: 3, unknown: [] },
    })
    expect(await copiesOf(token)).toEqual({ SHUTTLE_A: '3 clips, checksums recorded (not read back)' })
    // The console's rename, and the refusals: a volume the day has not, a name holding the same clips.
    expect((await operator('PATCH', '/approve/days/D003/volumes/SHUTTLE_A', { name: 'RAID' })).status).toBe(200)
    expect(await copiesOf(token)).toEqual({ RAID: '3 clips, checksums recorded (not read back)' })
    expect(await call('DELETE', '/log/D003/volumes/SHUTTLE_A', { token })).toMatchObject({
      status: 404,
      body: { error: 'Volume not found' },
    })
    expect((await call('PATCH', '/log/D003', { token, body: { ocf: day().ocf } })).status).toBe(200)
    const before = (await call('GET', '/log/D003', { token })).body
    const clash = await call('PATCH', '/log/D003/volumes/SHUTTLE_C', { token, body: { name: 'SHUTTLE_A' } })
    expect({ status: clash.status, body: clash.body }).toEqual({
      status: 400,
      body: {
        error: 'Validation Error',
        details: [
          {
            prop: 'name',
            message:
              'SHUTTLE_A already holds 3 copies of the same clips (C001C001_261126_R1AB, C001C002_261126_R1AB, C001C003_261126_R1AB): remove one of the two volumes from the day first',
          },
        ],
      },
    })
    expect((await call('GET', '/log/D003', { token })).body).toEqual(before)
    // `.` and `..` are no volume names: a URL would take them as steps up the path, to the log itself.
    const client = new MediaLogClient({ baseUrl: BASE, token, fetch: viaWorker })
    await expect(client.removeVolume('D003', '..')).rejects.toThrow(
      '400 Validation Error: volume cannot be "." or ".."',
    )
    expect(await call('PATCH', '/log/D003/volumes/SHUTTLE_C', { token, body: { name: '..' } })).toMatchObject({
      status: 400,
      body: { details: [{ prop: 'name', message: 'cannot be "." or ".."' }] },
    })
    expect((await call('GET', '/log/D003', { token })).body).toEqual(before)
    // An application's token never reaches the console's routes.
    expect(await call('DELETE', '/approve/days/D003/volumes/SHUTTLE_A', { token })).toMatchObject({ status: 401 })
  })
})

describe('what offload reports say of sizes, sidecars and volumes', () => {
  it('takes a size no report stated as unknown, never 0 bytes, until a report states it', async () => {
    const { token } = await withProject()
    const files = reportedCard('SHUTTLE_A').slice(0, 3)
    const ale = await call('POST', '/log/D012/import', {
      token,
      body: { files: [{ name: 'D012_transfer.ale', content: yoyottaAle(files) }], day: 12, date: '2025-06-14' },
    })
    expect(ale.status).toBe(201)
    const log = (await call('GET', '/log/D012', { token })).body
    expect(log.ocf.clips.map((c: { size: number; size_unknown?: true }) => [c.size, c.size_unknown])).toEqual([
      [0, true],
      [0, true],
      [0, true],
    ])
    const checks = (await call('GET', '/log/D012/checks', { token })).body
    expect(checks.summary.kinds).toEqual({ 'size-unknown': 3 })
    expect(JSON.stringify(checks)).not.toContain('0 bytes')
    expect(checks.groups).toEqual([
      {
        kind: 'size-unknown',
        severity: 'warning',
        title: 'Clips of unknown size (no report stated it)',
        count: 3,
        words: `Clips of unknown size (no report stated it): 3 clips (${files
          .map((f) => f.path.slice(f.path.lastIndexOf('/') + 1, -4))
          .join(', ')})`,
      },
    ])
    const row = (await operator('GET', '/approve/days')).body.days[0]
    expect(row.ocf).toEqual({ files: 3, size: 0, unknownSizes: 3, unknown: '3 clips of unknown size' })
    // A report that states the sizes fills them in.
    const csv = await call('POST', '/log/D012/import', {
      token,
      body: { files: [{ name: 'D012_transfer.csv', content: yoyottaCsv(files, 'SHUTTLE_A', '/Volumes/SHUTTLE_A') }] },
    })
    expect(csv.status).toBe(200)
    const filled = (await call('GET', '/log/D012', { token })).body
    expect(filled.ocf.clips.map((c: { size: number; size_unknown?: true }) => [c.size, c.size_unknown])).toEqual(
      files.map((f) => [f.size, undefined]),
    )
    expect((await call('GET', '/log/D012/checks', { token })).body.summary.kinds).toEqual({})
  })

  it('takes a transfer report’s volume from its own Media and Base columns, not from the folder it lay in', async () => {
    const { token } = await withProject()
    const files = reportedCard('areca').slice(0, 2)
    const answer = await call('POST', '/log/D012/import', {
      token,
      body: {
        // The command sends the folder's name only with --volume; an application may send any.
        files: [
          {
            name: 'reports/transfer.csv',
            content: yoyottaCsv(files, 'areca', '/Volumes/areca/Job_0614'),
            volume: 'reports',
          },
        ],
        day: 12,
        date: '2025-06-14',
      },
    })
    expect(answer.status).toBe(201)
    expect(answer.body.files).toEqual([
      { name: 'reports/transfer.csv', format: 'csv-transfer', volume: 'areca', clips: 2 },
    ])
    expect(Object.keys(await copiesOf(token, 'D012'))).toEqual(['areca'])
    expect((await call('GET', '/log/D012', { token })).body.ocf.copies).toEqual(['areca'])
  })

  it('keeps a sidecar’s failed read-back from the ASC’s scenario 04 as a finding of the day, and the volume says it', async () => {
    const { token } = await withProject()
    const answer = await call('POST', '/log/D001/import', {
      token,
      body: {
        files: scenario04()
          .filter((f) => f.volume === 'file_server')
          .map(({ path, content, volume }) => ({ name: path, content, volume })),
        day: 1,
      },
    })
    expect(answer.status).toBe(201)
    expect(answer.body.notes).toEqual([
      {
        name: 'file_server/A002R2EC/ascmhl/0002_A002R2EC_2020-01-17_143000.mhl',
        message:
          "1 file that is not media (a sidecar) read back and different (file_server/A002R2EC/Sidecar.txt on file_server): the day's checks name it",
      },
    ])
    const log = (await call('GET', '/log/D001', { token })).body
    expect(log.other_files).toEqual([
      {
        volume: 'file_server',
        path: 'file_server/A002R2EC/Sidecar.txt',
        hash: 'xxh64:70d2cf31aaa3eac4',
        action: 'failed',
        hashdate: '2020-01-17T14:30:00+00:00',
        tool: 'offload 1.0',
      },
    ])
    const checks = (await call('GET', '/log/D001/checks', { token })).body
    expect(checks.checks).toEqual([
      {
        kind: 'other-file-failed',
        severity: 'error',
        volume: 'file_server',
        file: 'file_server/A002R2EC/Sidecar.txt',
        message:
          'file_server/A002R2EC/Sidecar.txt on file_server: not media (a sidecar), read back and different (offload 1.0, 2020-01-17T14:30:00+00:00)',
      },
    ])
    expect(checks.copies).toEqual([
      {
        part: 'ocf',
        volume: 'file_server',
        clips: 2,
        held: 2,
        states: { verified: 2 },
        otherFailed: 1,
        verdict: 'error',
        mark: '✕',
        words: '2 clips, all verified (read back); 1 file that is not media (a sidecar) failed verification',
      },
    ])
  })
})

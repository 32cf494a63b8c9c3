// POST /import: offload files into the day their own dates name (what `media-log watch` sends
// when no log is given): the project's log of that date, else a new one from the id template.
import { describe, expect, it } from 'vitest'
import { call, withProject } from './helpers'
import { ale, classicManifest } from './offload-fixtures'

/** A classic MHL of one clip on RAID_01, hashed on `date`. */
const mhl = (clip: string, date: string) => ({
  name: `/Volumes/RAID_01/${clip}.mhl`,
  content: classicManifest({
    started: `${date}T09:00:00Z`,
    entries: [{ file: `/Volumes/RAID_01/${clip}.mov`, size: 1000, hashes: { xxhash64be: '12'.repeat(8) } }],
  }),
})

const importToDay = (token: string, body: Record<string, unknown>) => call('POST', '/import', { token, body })

describe('POST /import', () => {
  it('takes each date to its own day: the log of that date, else a new one after the last', async () => {
    const { token } = await withProject()
    const first = await importToDay(token, { files: [mhl('A001C001', '2025-06-14')] })
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({ success: true, created: true, log: 'D01_250614', added: [{ clip: 'A001C001' }] })
    // The same date again: the same log.
    const again = await importToDay(token, { files: [mhl('A001C002', '2025-06-14')] })
    expect([again.status, again.body.log, again.body.created]).toEqual([200, 'D01_250614', false])
    // The next date: the next day.
    const next = await importToDay(token, { files: [mhl('A002C001', '2025-06-15')] })
    expect([next.status, next.body.log]).toEqual([201, 'D02_250615'])
    const logs = (await call('GET', '/logs', { token })).body.logs as Array<{
      id: string
      day: number
      date: string
      ocf: { clips: Array<{ clip: string }> }
    }>
    expect(logs.map(({ id, day, date, ocf }) => [id, day, date, ocf.clips.map((c) => c.clip)])).toEqual([
      ['D01_250614', 1, '2025-06-14', ['A001C001', 'A001C002']],
      ['D02_250615', 2, '2025-06-15', ['A002C001']],
    ])
  })

  it('follows the project’s template, an existing log of the date, and `date` and `day` as given', async () => {
    const { token } = await withProject()
    expect((await call('PATCH', '/project/config', { token, body: { logid_template: 'Day<ddd>' } })).status).toBe(200)
    const made = await importToDay(token, { files: [mhl('B001C001', '2025-07-01')], day: 12 })
    expect([made.status, made.body.log]).toEqual([201, 'Day012'])
    // A log of the date written by an application, under an id of its own: the import goes there.
    const posted = { id: 'Extra', day: 20, date: '2025-07-09', ocf: { clips: [] }, version: 1 }
    expect((await call('POST', '/log', { token, body: posted })).status).toBe(201)
    const into = await importToDay(token, { files: [mhl('B002C001', '2025-06-30')], date: '2025-07-09' })
    expect([into.status, into.body.log]).toEqual([200, 'Extra'])
  })

  it('dates a classic MHL without its creator’s dates by the first file it hashed', async () => {
    const { token } = await withProject()
    // MHL 1.1 as some tools and hands write it: no <creatorinfo>, a <hashdate> in each <hash>.
    const hashed = (file: string, at: string) =>
      `<hash><file>${file}</file><size>1000</size><xxhash64be>${'34'.repeat(8)}</xxhash64be><hashdate>${at}</hashdate></hash>`
    const content =
      '<?xml version="1.0" encoding="UTF-8"?><hashlist version="1.1">' +
      hashed('A002/A002C002.mxf', '2024-03-03T00:10:00Z') +
      hashed('A002/A002C001.mxf', '2024-03-02T23:50:00Z') +
      // A date that does not read as a time names no day, however it sorts.
      hashed('A002/A002C003.mxf', '02.03.2024 18:41') +
      '</hashlist>'
    const made = await importToDay(token, { files: [{ name: '/Volumes/SHUTTLE_02/A002.mhl', content }] })
    expect([made.status, made.body.log]).toEqual([201, 'D01_240302'])
    expect((await call('GET', '/log/D01_240302', { token })).body).toMatchObject({ day: 1, date: '2024-03-02' })
  })

  it('refuses what names no day, and an id the template makes for another date; the store unchanged', async () => {
    const { token } = await withProject()
    const undated = ale({ columns: ['Name', 'Tape'], rows: [['A001C001', 'A001']] })
    expect(await importToDay(token, { files: [{ name: 'A001.ale', content: undated }] })).toMatchObject({
      status: 400,
      body: {
        error: 'Validation Error',
        details: [{ prop: 'date', message: 'is required: no file is dated, so none names a day' }],
      },
    })
    // A template whose tags make no valid id: 60 characters.
    const long = '<project>'.repeat(5)
    expect((await call('PATCH', '/project/config', { token, body: { logid_template: long } })).status).toBe(200)
    expect(await importToDay(token, { files: [mhl('C001C001', '2025-08-01')] })).toMatchObject({
      status: 400,
      body: { error: 'Validation Error', details: [{ prop: 'logid_template' }] },
    })
    // A template without a day or date tag makes one id for every date.
    expect((await call('PATCH', '/project/config', { token, body: { logid_template: 'Shoot' } })).status).toBe(200)
    expect((await importToDay(token, { files: [mhl('C001C001', '2025-08-01')] })).status).toBe(201)
    expect(await importToDay(token, { files: [mhl('C002C001', '2025-08-02')] })).toEqual({
      status: 409,
      body: { error: "The project's template makes Shoot, a log of another date: name the log" },
      headers: expect.anything(),
    })
    expect((await call('GET', '/logs', { token })).body.logs.map((l: { id: string }) => l.id)).toEqual(['Shoot'])
  })
})

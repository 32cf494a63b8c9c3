import { describe, expect, it } from 'vitest'
import { call, operator, withProject } from './helpers'

const hash = (n: number) => `xxh64:${String(n).padStart(16, '0')}`

/** A day on two volumes: one clip has no hash on the shuttle, one is not on it at all. */
const day = (id = 'D001', dayNumber = 1, date = '2024-01-01') => ({
  id,
  day: dayNumber,
  date,
  ocf: {
    copies: ['RAID', 'SHUTTLE'],
    clips: [
      {
        clip: 'A001C001_240101_R1AB',
        reel: 'A001',
        size: 100,
        copies: [
          { volume: 'RAID', hash: hash(1) },
          { volume: 'SHUTTLE', hash: hash(1) },
        ],
      },
      {
        clip: 'A001C002_240101_R1AB',
        reel: 'A001',
        size: 200,
        copies: [
          { volume: 'RAID', hash: hash(2) },
          { volume: 'SHUTTLE', hash: null },
        ],
      },
      { clip: 'B001C001_240101_R2CD', reel: 'B001', size: 300, copies: [{ volume: 'RAID', hash: hash(3) }] },
    ],
  },
  version: 1,
})

const row = (overrides: Record<string, unknown> = {}) => ({
  id: 'D001',
  written: expect.stringMatching(/^\d+$/),
  day: 1,
  date: '2024-01-01',
  unit: '',
  clips: 3,
  ocf: { files: 3, size: 600 },
  sound: null,
  proxy: null,
  copies: [
    { part: 'ocf', volume: 'RAID', present: 3, expected: 3, failed: 0, noHash: 0 },
    { part: 'ocf', volume: 'SHUTTLE', present: 2, expected: 3, failed: 0, noHash: 1 },
  ],
  checks: { errors: 1, warnings: 1, info: 0 },
  ...overrides,
})

const version = async (since?: number) =>
  (await operator('GET', since === undefined ? '/approve/state' : `/approve/state?since=${since}&wait=0`)).body
    .version as number

describe('GET /approve/days and /approve/days/{id}: the console’s Days view', () => {
  it('refuses a caller without the operator key or session, and an application’s token', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: day() })).status).toBe(201)
    for (const path of ['/approve/days', '/approve/days/D001']) {
      expect(await call('GET', path)).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
      expect(await call('GET', path, { token })).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
      expect(await call('GET', path, { headers: { 'x-operator-key': 'not-the-key' } })).toMatchObject({
        status: 401,
        body: { error: 'Unauthorized' },
      })
    }
  })

  it('lists no days with no project loaded, nor for a new project', async () => {
    expect(await operator('GET', '/approve/days')).toMatchObject({ status: 200, body: { days: [] } })
    await withProject()
    expect(await operator('GET', '/approve/days')).toMatchObject({ status: 200, body: { days: [] } })
  })

  it('lists each day in log order: parts, each volume’s copies, check counts', async () => {
    const { token } = await withProject()
    // Posted out of order: listed by day.
    const second = { ...day('D002', 2, '2024-01-02'), unit: 'Second Unit' }
    second.ocf.clips = second.ocf.clips.slice(0, 1)
    expect((await call('POST', '/log', { token, body: second })).status).toBe(201)
    expect((await call('POST', '/log', { token, body: day() })).status).toBe(201)
    const { status, body } = await operator('GET', '/approve/days')
    expect(status).toBe(200)
    expect(body).toEqual({
      days: [
        row(),
        row({
          id: 'D002',
          day: 2,
          date: '2024-01-02',
          unit: 'Second Unit',
          clips: 1,
          ocf: { files: 1, size: 100 },
          copies: [
            { part: 'ocf', volume: 'RAID', present: 1, expected: 1, failed: 0, noHash: 0 },
            { part: 'ocf', volume: 'SHUTTLE', present: 1, expected: 1, failed: 0, noHash: 0 },
          ],
          checks: { errors: 0, warnings: 0, info: 0 },
        }),
      ],
    })
  })

  it('gives a day’s findings naming the clips, most serious first, and its copies by reel and volume', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: day() })).status).toBe(201)
    const { status, body } = await operator('GET', '/approve/days/D001')
    expect(status).toBe(200)
    expect(body).toEqual({
      day: row(),
      checks: [
        {
          kind: 'copy-missing',
          title: 'Missing copies',
          severity: 'error',
          count: 1,
          findings: [
            {
              part: 'ocf',
              clip: 'B001C001_240101_R2CD',
              volume: 'SHUTTLE',
              message: 'B001C001_240101_R2CD is not on SHUTTLE',
            },
          ],
        },
        {
          kind: 'not-verified',
          title: 'Copies without a hash (not verified)',
          severity: 'warning',
          count: 1,
          findings: [
            {
              part: 'ocf',
              clip: 'A001C002_240101_R1AB',
              volume: 'SHUTTLE',
              message: 'A001C002_240101_R1AB on SHUTTLE has no hash: not verified',
            },
          ],
        },
      ],
      copies: [
        {
          part: 'ocf',
          reel: 'A001',
          clips: 2,
          volumes: [
            { volume: 'RAID', present: 2, failed: 0, noHash: 0, missing: 0 },
            { volume: 'SHUTTLE', present: 2, failed: 0, noHash: 1, missing: 0 },
          ],
        },
        {
          part: 'ocf',
          reel: 'B001',
          clips: 1,
          volumes: [
            { volume: 'RAID', present: 1, failed: 0, noHash: 0, missing: 0 },
            { volume: 'SHUTTLE', present: 0, failed: 0, noHash: 0, missing: 1 },
          ],
        },
      ],
    })
  })

  it('answers 404 for a day the active project does not have, 400 for an id that cannot be one', async () => {
    await withProject()
    expect(await operator('GET', '/approve/days/D404')).toMatchObject({ status: 404, body: { error: 'Log not found' } })
    const long = 'D'.repeat(300)
    const { status, body } = await operator('GET', `/approve/days/${long}`)
    expect(status).toBe(400)
    expect(body.error).toBe('Validation Error')
  })

  it('moves the console’s version on every log write, so the view updates without reload; a refused write does not', async () => {
    const { token } = await withProject()
    let v = await version()
    expect((await call('POST', '/log', { token, body: day() })).status).toBe(201)
    expect(await version(v)).not.toBe(v)
    v = await version()
    const written = (await operator('GET', '/approve/days')).body.days[0].written
    expect((await operator('GET', '/approve/days/D001')).body.day.written).toBe(written)
    const patched = await call('PATCH', '/log/D001', {
      token,
      body: {
        ocf: {
          copies: ['RAID', 'SHUTTLE'],
          clips: day().ocf.clips.map((c) => ({ ...c, copies: c.copies.slice(0, 1) })),
        },
      },
    })
    expect(patched.status).toBe(200)
    expect(await version(v)).not.toBe(v)
    expect((await operator('GET', '/approve/days')).body.days[0].written).not.toBe(written)
    expect((await operator('GET', '/approve/days')).body.days[0].copies).toEqual([
      { part: 'ocf', volume: 'RAID', present: 3, expected: 3, failed: 0, noHash: 0 },
      { part: 'ocf', volume: 'SHUTTLE', present: 0, expected: 3, failed: 0, noHash: 0 },
    ])
    v = await version()
    expect((await call('POST', '/log', { token: 'nope', body: day('D002', 2) })).status).toBe(401)
    expect(await version(v)).toBe(v)
    expect((await call('DELETE', '/log/D001', { token })).status).toBe(200)
    expect(await version(v)).not.toBe(v)
    expect((await operator('GET', '/approve/days')).body).toEqual({ days: [] })
  })
})

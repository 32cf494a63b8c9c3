import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { BASE, call, fetchWorker, OPERATOR_KEY, operator, withProject } from './helpers'

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

const MARK = { ok: '✓', warning: '!', error: '✕' } as const

/** A volume's chip as the service words it (src/copies/words.ts). */
const chip = (
  volume: string,
  held: number,
  clips: number,
  verdict: keyof typeof MARK,
  words: string,
  part: 'ocf' | 'sound' | null = 'ocf',
) => ({ ...(part && { part }), volume, held, clips, verdict, mark: MARK[verdict], words })

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
    chip('RAID', 3, 3, 'ok', '3 clips: 2 checksums recorded (not read back), 1 checksum matches (not read back)'),
    chip('SHUTTLE', 2, 3, 'error', '3 clips: 1 missing, 1 without a checksum, 1 checksum matches (not read back)'),
  ],
  checks: { errors: 1, warnings: 1, info: 0 },
  ...overrides,
})

/** An answer's status and body, for comparing whole. */
const plain = async (answer: Promise<{ status: number; body: unknown }>) => {
  const { status, body } = await answer
  return { status, body }
}

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
    expect(await plain(operator('GET', '/approve/days'))).toEqual({
      status: 200,
      body: { days: [], presets: { pdfs: [], emails: [] } },
    })
    await withProject()
    expect(await operator('GET', '/approve/days')).toMatchObject({
      status: 200,
      body: { days: [], presets: { pdfs: [{ id: 'clp01' }, { id: 'dat01' }] } },
    })
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
      // A new project's presets: what the view offers to draw and to e-mail.
      presets: {
        pdfs: [
          { id: 'clp01', label: 'Clips report', enabled: true, report: 'clips-report' },
          { id: 'dat01', label: 'Data report', enabled: true, report: 'data-report' },
        ],
        emails: [{ id: 'day01', label: expect.any(String), enabled: true }],
      },
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
            chip('RAID', 1, 1, 'ok', '1 clip, checksums match (not read back)'),
            chip('SHUTTLE', 1, 1, 'ok', '1 clip, checksums match (not read back)'),
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
          volume: 'SHUTTLE',
          part: 'ocf',
          count: 1,
          words: 'Missing copies — SHUTTLE: 1 clip (B001C001_240101_R2CD)',
          findings: [
            {
              part: 'ocf',
              clip: 'B001C001_240101_R2CD',
              volume: 'SHUTTLE',
              message: 'B001C001_240101_R2CD on SHUTTLE: missing',
            },
          ],
        },
        {
          kind: 'not-verified',
          title: 'Copies without a checksum',
          severity: 'warning',
          volume: 'SHUTTLE',
          part: 'ocf',
          count: 1,
          words: 'Copies without a checksum — SHUTTLE: 1 clip (A001C002_240101_R1AB)',
          findings: [
            {
              part: 'ocf',
              clip: 'A001C002_240101_R1AB',
              volume: 'SHUTTLE',
              message: 'A001C002_240101_R1AB on SHUTTLE: no checksum',
            },
          ],
        },
      ],
      // Each reel's clips on each volume, in the words of the day's chips.
      copies: [
        {
          part: 'ocf',
          reel: 'A001',
          clips: 2,
          volumes: [
            chip(
              'RAID',
              2,
              2,
              'ok',
              '2 clips: 1 checksum recorded (not read back), 1 checksum matches (not read back)',
              null,
            ),
            chip('SHUTTLE', 2, 2, 'warning', '2 clips: 1 without a checksum, 1 checksum matches (not read back)', null),
          ],
        },
        {
          part: 'ocf',
          reel: 'B001',
          clips: 1,
          volumes: [
            chip('RAID', 1, 1, 'ok', '1 clip, checksums recorded (not read back)', null),
            chip('SHUTTLE', 0, 1, 'error', '1 clip, all missing', null),
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
      chip('RAID', 3, 3, 'ok', '3 clips, checksums recorded (not read back)'),
      chip('SHUTTLE', 0, 3, 'error', '3 clips, all missing'),
    ])
    v = await version()
    expect((await call('POST', '/log', { token: 'nope', body: day('D002', 2) })).status).toBe(401)
    expect(await version(v)).toBe(v)
    expect((await call('DELETE', '/log/D001', { token })).status).toBe(200)
    expect(await version(v)).not.toBe(v)
    expect((await operator('GET', '/approve/days')).body.days).toEqual([])
  })
})

/** An operator's GET of a file: status, headers and the bytes. */
async function operatorFile(path: string, headers: Record<string, string> = { 'x-operator-key': OPERATOR_KEY }) {
  const res = await fetchWorker(new Request(`${BASE}${path}`, { headers }))
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) }
}

describe('the Days view’s actions: a day’s or a range’s PDF, an e-mail of some days', () => {
  async function threeDays() {
    const { token } = await withProject('Harbour')
    for (const [id, n] of [
      ['D001', 1],
      ['D002', 2],
      ['D003', 3],
    ] as const)
      expect((await call('POST', '/log', { token, body: day(id, n, `2024-01-0${n}`) })).status).toBe(201)
    return token
  }

  it('draws a day’s report with any of its presets, named as the preset says', async () => {
    await threeDays()
    const res = await operatorFile('/approve/days/D002/pdf/clp01')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Clips_D002.pdf"; filename*=UTF-8''Clips_D002.pdf`,
    )
    const pdf = await PDFDocument.load(res.bytes, { updateMetadata: false })
    expect(pdf.getTitle()).toBe('Harbour — Clips report — Day 2 — 2024-01-02')
  })

  it('draws a range of days (a wrap report) by day number or date', async () => {
    await threeDays()
    const res = await operatorFile('/approve/days/pdf/dat01?from=2&to=2024-01-03')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('filename="Data_D002-D003.pdf"')
    const pdf = await PDFDocument.load(res.bytes, { updateMetadata: false })
    expect(pdf.getTitle()).toBe('Harbour — Data report — Days 2–3 — 2024-01-02 – 2024-01-03')
    expect(pdf.getKeywords()).toBe('D002 D003')
    const all = await PDFDocument.load((await operatorFile('/approve/days/pdf/dat01')).bytes, { updateMetadata: false })
    expect(all.getKeywords()).toBe('D001 D002 D003')
  })

  it('answers 404 for an unknown day or preset or an empty range, 400 for a bad range end', async () => {
    await threeDays()
    for (const [path, error] of [
      ['/approve/days/D009/pdf/clp01', 'Log not found'],
      ['/approve/days/D001/pdf/nope', 'Preset not found'],
      ['/approve/days/pdf/nope', 'Preset not found'],
      ['/approve/days/pdf/dat01?from=7', 'Log not found'],
    ] as const)
      expect(await plain(operator('GET', path)), path).toEqual({ status: 404, body: { error } })
    const bad = await operator('GET', '/approve/days/pdf/dat01?from=tuesday')
    expect(bad.status).toBe(400)
    expect(bad.body.details).toEqual([{ prop: 'from', message: expect.any(String) }])
  })

  it('refuses the PDFs and the e-mail to an application’s token, and without a session', async () => {
    const token = await threeDays()
    for (const path of ['/approve/days/D001/pdf/clp01', '/approve/days/pdf/dat01']) {
      expect((await operatorFile(path, { 'x-api-token': token })).status).toBe(401)
      expect((await operatorFile(path, {})).status).toBe(401)
    }
    expect(await plain(call('POST', '/approve/windows', { token, body: { logId: 'D001' } }))).toEqual({
      status: 401,
      body: { error: 'Unauthorized' },
    })
    expect((await operator('GET', '/approve/windows')).body.windows).toEqual([])
  })

  it('opens the e-mail of some days and answers the window, which the e-mail list then holds', async () => {
    await threeDays()
    const opened = await operator('POST', '/approve/windows', { logId: ['D001', 'D002', 'D001'], presetId: 'day01' })
    expect(opened.status).toBe(201)
    const { window } = opened.body
    expect(window).toMatchObject({ status: 'draft', logIds: ['D001', 'D002'] })
    expect(window.subject).toContain('Harbour')
    const listed = await operator('GET', '/approve/windows')
    expect(listed.body.windows.map((w: { id: string }) => w.id)).toEqual([window.id])
    expect(await plain(operator('GET', `/approve/windows/${window.id}`))).toEqual({ status: 200, body: { window } })
  })

  it('answers 404 for an unknown day or e-mail preset and 400 for a bad body, and opens nothing', async () => {
    await threeDays()
    expect(await plain(operator('POST', '/approve/windows', { logId: 'D009' }))).toEqual({
      status: 404,
      body: { error: 'Log not found' },
    })
    expect(await plain(operator('POST', '/approve/windows', { logId: 'D001', presetId: 'nope' }))).toEqual({
      status: 404,
      body: { error: 'Preset not found' },
    })
    const bad = await operator('POST', '/approve/windows', { logId: 7 })
    expect(bad.status).toBe(400)
    expect(bad.body.details.map((d: { prop: string }) => d.prop)).toEqual(['logId'])
    expect((await operator('GET', '/approve/windows')).body.windows).toEqual([])
  })
})

import { base64 } from '@scure/base'
import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { approvedToken, BASE, call, clip, fetchWorker, makeLog, withProject } from './helpers'

const PRESETS = [
  {
    id: 'DAILY',
    label: 'Daily Report',
    output_name: '<project>_<log>_<yyyymmdd>.pdf',
    template: 'clips-report',
    enabled: true,
  },
  {
    id: 'RANGE',
    label: 'Week Summary',
    output_name: 'Summary_D<ddd>_<yymmdd>_<eee>.pdf',
    template: 'data-report',
    enabled: true,
  },
  {
    id: 'LEGCY',
    label: 'Reference app',
    output_name: '<unit>_<dd-mm-yyyy>_<nope>.pdf',
    react: 'DataReport.tsx',
    enabled: true,
  },
  { id: 'OFFPR', label: 'Switched off', output_name: 'off_<d>.pdf', template: 'clips-report', enabled: false },
  {
    id: 'PORTR',
    label: 'Portrait',
    output_name: 'portrait.pdf',
    template: 'clips-report',
    enabled: true,
    options: { page_size: 'Letter', orientation: 'portrait', columns: ['clip', 'reel', 'size'] },
  },
]

/** A project with the presets above and three logs (days 1–3). */
async function setup() {
  const { token } = await withProject('Feature Film')
  const patched = await call('PATCH', '/project/config', { token, body: { unit: 'Main Unit', pdfs: PRESETS } })
  expect(patched.status).toBe(200)
  for (const [id, day, date] of [
    ['D001', 1, '2024-01-01'],
    ['D002', 2, '2024-01-02'],
    ['D003', 3, '2024-01-03'],
  ] as const) {
    const posted = await call('POST', '/log', { token, body: makeLog(id, 3, { day, date }) })
    expect(posted.status).toBe(201)
  }
  return token
}

async function generate(token: string, body: unknown) {
  return call('POST', '/generate-pdf', { token, body })
}

async function pdfOf(text: string) {
  const bytes = base64.decode(text)
  expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-')
  return PDFDocument.load(bytes, { updateMetadata: false })
}

describe('POST /generate-pdf', () => {
  it('answers {success, data: {filename, mimeType, base64}} with a PDF of the log', async () => {
    const token = await setup()
    const { status, body } = await generate(token, { presetId: 'DAILY', logId: 'D002' })
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['success', 'data'])
    expect(body.success).toBe(true)
    expect(body.data).toEqual({
      filename: 'Feature Film_D002_20240102.pdf',
      mimeType: 'application/pdf',
      base64: expect.any(String),
    })
    const pdf = await pdfOf(body.data.base64)
    expect(pdf.getTitle()).toBe('Feature Film — Daily Report — Day 2 — 2024-01-02')
    expect(pdf.getSubject()).toBe('Clips report')
    expect(pdf.getCreationDate()).toBeInstanceOf(Date)
    expect(Math.abs(pdf.getCreationDate()!.getTime() - Date.now())).toBeLessThan(5 * 60_000)
    const { width, height } = pdf.getPage(0).getSize()
    expect([Math.round(width), Math.round(height)]).toEqual([842, 595])
  })

  it('fills the tags of output_name with first-last ranges for several logs', async () => {
    const token = await setup()
    const { status, body } = await generate(token, { presetId: 'RANGE', logId: ['D003', 'D001'] })
    expect(status).toBe(200)
    expect(body.data.filename).toBe('Summary_D001-003_240101-240103_Mon-Wed.pdf')
    const pdf = await pdfOf(body.data.base64)
    expect(pdf.getTitle()).toBe('Feature Film — Week Summary — Days 1–3 — 2024-01-01 – 2024-01-03')
    expect(pdf.getSubject()).toBe('Data report')
  })

  it("keeps unknown tags, takes the unit from the project and maps the reference app's react names", async () => {
    const token = await setup()
    const { status, body } = await generate(token, { presetId: 'LEGCY', logId: ['D001'] })
    expect(status).toBe(200)
    expect(body.data.filename).toBe('Main Unit_01-01-2024_<nope>.pdf')
    expect((await pdfOf(body.data.base64)).getSubject()).toBe('Data report')
  })

  it('never puts a path separator from a tag value into the filename', async () => {
    const token = await setup()
    const pdfs = [
      ...PRESETS,
      { id: 'SLASH', label: 'Slash', output_name: '<unit>_<dd-mm-yy>.pdf', template: 'clips-report', enabled: true },
    ]
    expect((await call('PATCH', '/project/config', { token, body: { pdfs } })).status).toBe(200)
    expect((await call('PATCH', '/log/D001', { token, body: { unit: 'A/B\\C' } })).status).toBe(200)
    const { status, body } = await generate(token, { presetId: 'SLASH', logId: 'D001' })
    expect(status).toBe(200)
    expect(body.data.filename).toBe('A-B-C_01-01-24.pdf')
  })

  it("uses the preset's page size and orientation", async () => {
    const token = await setup()
    const { status, body } = await generate(token, { presetId: 'PORTR', logId: 'D001' })
    expect(status).toBe(200)
    expect(body.data.filename).toBe('portrait.pdf')
    const { width, height } = (await pdfOf(body.data.base64)).getPage(0).getSize()
    expect([width, height]).toEqual([612, 792])
  })

  it('renders a disabled preset when it is asked for by id, and an enabled one alike', async () => {
    const token = await setup()
    const off = await generate(token, { presetId: 'OFFPR', logId: 'D003' })
    expect(off.status).toBe(200)
    expect(off.body.data.filename).toBe('off_3.pdf')
    expect((await pdfOf(off.body.data.base64)).getTitle()).toBe('Feature Film — Switched off — Day 3 — 2024-01-03')
    const listed = await call('GET', '/pdf-presets', { token })
    expect(listed.body).toContainEqual({ id: 'OFFPR', label: 'Switched off', enabled: false })
  })

  it('renders clip names in any script, CJK and emoji included', async () => {
    const token = await setup()
    // A lone surrogate is refused at the door (hostile-input.test.ts); one stored earlier renders as U+FFFD there.
    const names = ['Café_Ünïcödé', 'Съёмка_день_1', 'カメラ_A001', '🎬 take 😀👨‍👩‍👧', 'tab\tand\nnewline', '\u0000\u0007']
    const log = makeLog('D010', 0, {
      day: 10,
      date: '2024-01-10',
      unit: '第二班',
      ocf: { clips: names.map((name, i) => clip(i, { clip: name, lens: `Ломо ${name}` })) },
      sound: { clips: [{ clip: '音声.wav', size: 10, copies: [{ volume: 'Диск', hash: null }] }] },
    })
    expect((await call('POST', '/log', { token, body: log })).status).toBe(201)
    for (const presetId of ['DAILY', 'RANGE']) {
      const { status, body } = await generate(token, { presetId, logId: 'D010' })
      expect(status).toBe(200)
      expect((await pdfOf(body.data.base64)).getPageCount()).toBeGreaterThan(0)
    }
  })

  it('answers 404 Preset not found for a preset the project does not have', async () => {
    const token = await setup()
    const { status, body } = await generate(token, { presetId: 'NOPE1', logId: 'D001' })
    expect(status).toBe(404)
    expect(body).toEqual({ error: 'Preset not found' })
  })

  it('answers 404 Log not found when any named log is missing', async () => {
    const token = await setup()
    for (const logId of ['D404', ['D001', 'D404']]) {
      const { status, body } = await generate(token, { presetId: 'DAILY', logId })
      expect(status).toBe(404)
      expect(body).toEqual({ error: 'Log not found' })
    }
  })

  it('answers 404 Log not found with no project loaded', async () => {
    const token = await approvedToken()
    const { status, body } = await generate(token, { presetId: 'DAILY', logId: 'D001' })
    expect(status).toBe(404)
    expect(body).toEqual({ error: 'Log not found' })
  })

  it('answers 400 for a presetId or logId of the wrong shape, naming each', async () => {
    const token = await setup()
    const cases: Array<[unknown, Array<{ prop: string; message: unknown }>]> = [
      [{ presetId: 5, logId: 'D001' }, [{ prop: 'presetId', message: 'must be a string' }]],
      [{ presetId: '', logId: 'D001' }, [{ prop: 'presetId', message: 'must not be empty' }]],
      [{ logId: 'D001' }, [{ prop: 'presetId', message: 'is required' }]],
      [{ presetId: 'DAILY', logId: 7 }, [{ prop: 'logId', message: 'must be a log id or an array of log ids' }]],
      [{ presetId: 'DAILY', logId: ['D001', 3] }, [{ prop: 'logId.1', message: 'must be a string' }]],
      [{ presetId: 'DAILY', logId: [] }, [{ prop: 'logId', message: 'must name at least one log' }]],
      [{ presetId: 'DAILY', logId: 'x'.repeat(51) }, [{ prop: 'logId', message: 'must be 1 to 50 characters' }]],
      [
        { presetId: 'x'.repeat(101), logId: '' },
        [
          { prop: 'presetId', message: 'must be at most 100 characters' },
          { prop: 'logId', message: 'must be 1 to 50 characters' },
        ],
      ],
    ]
    const answers = []
    for (const [request] of cases) {
      const { status, body } = await generate(token, request)
      answers.push({ request, status, body })
    }
    expect(answers).toEqual(
      cases.map(([request, details]) => ({ request, status: 400, body: { error: 'Validation Error', details } })),
    )
  })

  it('answers 400 for a logId that is neither an id nor a list of ids', async () => {
    const token = await setup()
    for (const logId of [7, null, {}, ['D001', 3], [['D001']]]) {
      const { status, body } = await generate(token, { presetId: 'DAILY', logId })
      expect({ logId, status, error: body.error, details: body.details.length > 0 }).toEqual({
        logId,
        status: 400,
        error: 'Validation Error',
        details: true,
      })
    }
  })

  it('answers 401 without a valid token', async () => {
    await setup()
    const { status, body } = await generate('not-a-token', { presetId: 'DAILY', logId: 'D001' })
    expect(status).toBe(401)
    expect(body).toEqual({ error: 'Unauthorized' })
  })
})

/** A GET answered with a file: status, headers and the bytes as sent. */
async function getFile(path: string, token?: string) {
  const response = await fetchWorker(new Request(`${BASE}${path}`, { headers: token ? { 'x-api-token': token } : {} }))
  const bytes = new Uint8Array(await response.arrayBuffer())
  const type = response.headers.get('content-type') ?? ''
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    json: type.includes('json') ? JSON.parse(new TextDecoder().decode(bytes)) : undefined,
  }
}

const startsPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-'

describe('GET /log/{id}/pdf/{presetId} and GET /pdf/{presetId}', () => {
  it("answers a day's report as application/pdf, named by the preset's output_name", async () => {
    const token = await setup()
    const res = await getFile('/log/D002/pdf/DAILY', token)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Feature Film_D002_20240102.pdf"; filename*=UTF-8''Feature%20Film_D002_20240102.pdf`,
    )
    // Kept by the client, asked for again with its tag (conditional.test.ts).
    expect(res.headers.get('cache-control')).toBe('private, no-cache')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(startsPdf(res.bytes)).toBe(true)
    const pdf = await PDFDocument.load(res.bytes, { updateMetadata: false })
    expect(pdf.getTitle()).toBe('Feature Film — Daily Report — Day 2 — 2024-01-02')
  })

  it('answers the same report /generate-pdf gives in base64', async () => {
    const token = await setup()
    const file = await getFile('/log/D001/pdf/RANGE', token)
    const { body } = await generate(token, { presetId: 'RANGE', logId: 'D001' })
    const [a, b] = await Promise.all([PDFDocument.load(file.bytes, { updateMetadata: false }), pdfOf(body.data.base64)])
    expect(a.getTitle()).toBe(b.getTitle())
    expect(a.getPageCount()).toBe(b.getPageCount())
    expect(file.headers.get('content-disposition')).toContain(`filename="${body.data.filename}"`)
  })

  it('draws a range of days by day number or date, either end left out', async () => {
    const token = await setup()
    for (const [query, filename, title] of [
      ['?from=1&to=2', 'Summary_D001-002_240101-240102_Mon-Tue.pdf', 'Days 1–2 — 2024-01-01 – 2024-01-02'],
      ['?from=2024-01-02', 'Summary_D002-003_240102-240103_Tue-Wed.pdf', 'Days 2–3 — 2024-01-02 – 2024-01-03'],
      ['', 'Summary_D001-003_240101-240103_Mon-Wed.pdf', 'Days 1–3 — 2024-01-01 – 2024-01-03'],
    ]) {
      const res = await getFile(`/pdf/RANGE${query}`, token)
      expect(res.status, query).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/pdf')
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="${filename}"; filename*=UTF-8''${filename}`,
      )
      const pdf = await PDFDocument.load(res.bytes, { updateMetadata: false })
      expect(pdf.getTitle()).toBe(`Feature Film — Week Summary — ${title}`)
    }
  })

  it('answers 404 for an unknown preset or log, or a range holding no log', async () => {
    const token = await setup()
    for (const [path, error] of [
      ['/log/D001/pdf/NOPE1', 'Preset not found'],
      ['/log/D404/pdf/DAILY', 'Log not found'],
      ['/pdf/NOPE1?from=1', 'Preset not found'],
      ['/pdf/DAILY?from=4', 'Log not found'],
      ['/pdf/DAILY?from=2024-02-01&to=2024-02-28', 'Log not found'],
    ] as const) {
      const res = await getFile(path, token)
      expect(res.status, path).toBe(404)
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(res.json, path).toEqual({ error })
    }
  })

  it('answers 404 Log not found with no project loaded', async () => {
    const token = await approvedToken()
    expect((await getFile('/log/D001/pdf/DAILY', token)).json).toEqual({ error: 'Log not found' })
    expect((await getFile('/pdf/DAILY', token)).json).toEqual({ error: 'Log not found' })
  })

  it('answers 400 for a range end that is no day number or date', async () => {
    const token = await setup()
    const res = await getFile('/pdf/DAILY?from=2024-02-30&to=x', token)
    expect(res.status).toBe(400)
    expect(res.json.error).toBe('Validation Error')
    expect(res.json.details.map((d: { prop: string }) => d.prop)).toEqual(['from', 'to'])
  })

  it('answers 401 without a valid token', async () => {
    await setup()
    for (const path of ['/log/D001/pdf/DAILY', '/pdf/DAILY']) {
      for (const token of [undefined, 'not-a-token']) {
        const res = await getFile(path, token)
        expect(res.status).toBe(401)
        expect(res.json).toEqual({ error: 'Unauthorized' })
      }
    }
  })
})

describe('a long report', () => {
  it('lets other clients through while it draws: reads answer between its pages', async () => {
    const token = await setup()
    const big = makeLog('BIG', 20_000, { day: 9, date: '2024-01-09' })
    expect((await call('POST', '/log', { token, body: big })).status).toBe(201)
    let drawing = true
    const report = generate(token, { presetId: 'DAILY', logId: 'BIG' }).then((answer) => {
      drawing = false
      return answer
    })
    let answered = 0
    while (drawing) {
      const read = await call('GET', '/log/D001', { token })
      expect(read.status).toBe(200)
      if (drawing) answered++
    }
    const { status, body } = await report
    expect(status).toBe(200)
    expect(body.data.filename).toBe('Feature Film_BIG_20240109.pdf')
    // Drawn in one piece, the report would hold every read until its last page (one or two get in).
    expect(answered).toBeGreaterThan(20)
  }, 60_000)
})

// A client written for the reference application (Daytalog) works unchanged: its data goes in as
// it writes it, and what the service answers parses with its own schemas (npm `daytalog` 1.2.1)
// and adds up to the same totals in its own library.
import { LogDynamicZod, ProjectSchemaZod, createDaytalog } from 'daytalog'
import { base64 } from '@scure/base'
import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { clipColumns } from '../src/reports/columns'
import { summarize, total } from '../src/summary/summary'
import { call, withProject } from './helpers'
import { DAY_1, DAY_2_SENT, DAY_2_STORED, PROJECT } from './daytalog-fixtures'

/** A loaded project configured as the reference application's config file says, and its two days. */
async function daytalogProject() {
  const { token } = await withProject(PROJECT.project_name)
  const { project_name: _name, ...settings } = PROJECT
  const patched = await call('PATCH', '/project/config', { token, body: settings })
  expect(patched.status, JSON.stringify(patched.body)).toBe(200)
  for (const day of [DAY_1, DAY_2_SENT]) {
    const posted = await call('POST', '/log', { token, body: day })
    expect(posted, JSON.stringify(posted.body)).toMatchObject({ status: 201, body: { success: true } })
  }
  return token
}

describe("the reference application's data", () => {
  it('its project config is accepted and kept exactly as sent, and parses with ProjectSchemaZod', async () => {
    const token = await daytalogProject()
    const config = (await call('GET', '/project/config', { token })).body
    // Beside what was sent, the time zone the project took when it was made (which a config of
    // the reference application, having none, leaves as it is).
    expect(config).toEqual({ ...PROJECT, time_zone: 'UTC' })
    expect(ProjectSchemaZod.safeParse(config).success).toBe(true)
  })

  it('its logs are accepted, read back as sent, and parse with LogDynamicZod of the project', async () => {
    const token = await daytalogProject()
    const schema = LogDynamicZod(PROJECT as never)
    const day1 = (await call('GET', `/log/${DAY_1.id}`, { token })).body
    expect(day1).toEqual(DAY_1)
    expect(schema.safeParse(day1).error).toBeUndefined()
    const day2 = (await call('GET', `/log/${DAY_2_SENT.id}`, { token })).body
    expect(day2).toEqual(DAY_2_STORED)
    // What the reference application makes of the rows it was sent is what is stored.
    expect(schema.parse(day2)).toEqual(schema.parse(DAY_2_SENT))
    const { logs } = (await call('GET', '/logs', { token })).body
    expect(logs).toEqual([DAY_1, DAY_2_STORED])
    expect(schema.array().safeParse(logs).error).toBeUndefined()
  })

  it('GET /project, /projects and /ping answer in its shapes', async () => {
    const token = await daytalogProject()
    const project = (await call('GET', '/project', { token })).body
    expect(project).toEqual({
      ...PROJECT,
      time_zone: 'UTC',
      activeLog: null,
      id: expect.any(String),
      path: 'projects/Harbour Lights',
      created_at: expect.any(String),
    })
    expect(ProjectSchemaZod.safeParse(project).success).toBe(true)
    const projects = (await call('GET', '/projects', { token })).body
    expect(projects).toEqual([
      { label: 'Harbour Lights', path: 'projects/Harbour Lights', active: true, project_name: 'Harbour Lights' },
    ])
    expect((await call('GET', '/ping')).body).toEqual({ status: 'ok', active: true })
  })

  it('its own library, fed with the answers, adds up to the totals the reports print', async () => {
    const token = await daytalogProject()
    const { logs } = (await call('GET', '/logs', { token })).body
    const daytalog = await createDaytalog({
      project: PROJECT as never,
      logs,
      selection: logs.map((l: { id: string }) => l.id),
    })
    const ours = total(logs.map((log: never) => summarize(log)))
    expect(daytalog.total.ocf.files()).toBe(ours.ocf!.files)
    expect(daytalog.total.ocf.sizeAsNumber({ type: 'bytes' })).toBe(ours.ocf!.size)
    expect(daytalog.total.proxy.files()).toBe(ours.proxy!.files)
    expect(daytalog.total.sound.files()).toBe(ours.sound!.files)
    expect(daytalog.total.dateRange()).toEqual(['2025-06-01', '2025-06-02'])
  })
})

describe('what changed to take it (one test each)', () => {
  it('1. sensor_fps and wb as numbers or strings, kept as sent', async () => {
    const { token } = await withProject()
    const base = { id: 'D001', day: 1, date: '2025-06-02', version: 1 }
    const clip = (extra: object) => ({
      clip: 'A001C001',
      size: 1,
      copies: [{ volume: 'SSD_01', hash: null }],
      ...extra,
    })
    const sent = {
      ...base,
      ocf: { clips: [clip({ sensor_fps: 25, wb: 5600 }), clip({ sensor_fps: '23.976', wb: '5600K' })] },
    }
    expect((await call('POST', '/log', { token, body: sent })).status).toBe(201)
    expect((await call('GET', '/log/D001', { token })).body).toEqual(sent)
    expect(await call('PATCH', '/log/D001', { token, body: { ocf: { clips: [clip({ wb: true })] } } })).toMatchObject({
      status: 400,
      body: { details: [{ prop: 'ocf.clips.0.wb', message: 'must be a string or a number' }] },
    })
  })

  it('2. clip fields mirroring any camera metadata, clip, shutter and ei included', async () => {
    const { token } = await withProject()
    const clip_fields = ['clip', 'shutter', 'ei', 'sensor_fps', 'tint'].map((type) => ({ type }))
    const body = { custom_schemas: [{ id: 'meta', sync: 'clip', order: 1, clip_fields }] }
    expect(await call('PATCH', '/project/config', { token, body })).toMatchObject({ status: 200, body: { data: body } })
    expect(
      (
        await call('PATCH', '/project/config', {
          token,
          body: { custom_schemas: [{ id: 'meta', sync: 'clip', clip_fields: [{ type: 'iso' }] }] },
        })
      ).status,
    ).toBe(400)
  })

  it("3. a template of the user's is accepted and drawn as the clips report; mail templates map; no defaults written", async () => {
    const token = await daytalogProject()
    const pdf = await call('POST', '/generate-pdf', { token, body: { presetId: 'cam02', logId: DAY_1.id } })
    expect(pdf).toMatchObject({ status: 200, body: { data: { filename: `Camera_${DAY_1.id}.pdf` } } })
    const document = await PDFDocument.load(base64.decode(pdf.body.data.base64), { updateMetadata: false })
    expect(document.getSubject()).toBe('Clips report')
    // Stored as sent: no template, message, attachments or enabled added.
    const emails = (await call('GET', '/project/config', { token })).body.emails
    expect(emails).toEqual(PROJECT.emails)
    for (const presetId of ['eod01', 'wrp02', 'nte03']) {
      expect((await call('POST', '/open-email-window', { token, body: { logId: DAY_1.id, presetId } })).status).toBe(
        200,
      )
    }
    const windows = (
      await call('GET', '/approve/windows', { headers: { 'x-operator-key': 'test-operator-key-0123456789abcdef' } })
    ).body.windows
    expect(windows.map((w: { template: string; bodyNote: string | null }) => [w.template, w.bodyNote])).toEqual([
      ['day-summary', null],
      ['day-summary', 'The built-in day summary body, in place of ProductionWrap.tsx'],
      ['plain', null],
    ])
    expect(windows[0].attachments[0]).toMatchObject({ presetId: 'clp01', note: null })
    const patched = await call('PATCH', '/project/config', {
      token,
      body: { emails: [{ ...PROJECT.emails[0]!, attachments: ['cam02'] }] },
    })
    expect(patched.body.data.emails).toEqual([{ ...PROJECT.emails[0]!, attachments: ['cam02'] }])
    expect(
      (await call('POST', '/open-email-window', { token, body: { logId: DAY_1.id, presetId: 'eod01' } })).status,
    ).toBe(200)
    const last = (
      await call('GET', '/approve/windows', { headers: { 'x-operator-key': 'test-operator-key-0123456789abcdef' } })
    ).body.windows.at(-1)
    expect(last.attachments[0]).toMatchObject({
      presetId: 'cam02',
      note: 'the built-in clips report, in place of CameraReport_v2.jsx',
    })
  })

  it('4. EI and shutter columns, and EI in the default table when clips have it', () => {
    const settings = { project_name: 'X', version: 1 } as never
    // A column marked `?` is left out of the table when no clip fills it (seen in e2e/reports.test.ts).
    const labels = (columns: string[] | undefined, log: unknown) =>
      clipColumns(columns, log as never, settings, 25).map((c) => (c.optional ? `${c.label}?` : c.label))
    expect(labels(['clip', 'ei', 'shutter'], DAY_1)).toEqual(['Clip', 'EI', 'Shutter'])
    expect(labels(undefined, DAY_1)).toContain('EI?')
    expect(labels(undefined, DAY_1)).not.toContain('Shutter?')
    expect(clipColumns(['ei'], DAY_1 as never, settings, 25)[0]!.value(DAY_1.ocf.clips[0] as never)).toBe('1250')
  })

  it('6. a log sent without version is stored with version 1, however it comes in', async () => {
    const { token } = await withProject()
    const plain = { id: 'D001', day: 1, date: '2025-06-02', ocf: { clips: [{ clip: 'A', size: 1, copies: [] }] } }
    const withCustom = { id: 'D002', day: 2, date: '2025-06-03', custom: [{ schema: 'unknown' }] }
    // Sent with spaces and a line break before the closing brace, as a pretty-printing client does.
    expect((await call('POST', '/log', { token, raw: JSON.stringify(plain, null, 2) })).status).toBe(201)
    expect((await call('POST', '/log', { token, body: withCustom })).status).toBe(201)
    expect((await call('GET', '/log/D001', { token })).body).toEqual({ ...plain, version: 1 })
    expect((await call('GET', '/log/D002', { token })).body).toEqual({
      id: 'D002',
      day: 2,
      date: '2025-06-03',
      custom: [],
      version: 1,
    })
    expect((await call('POST', '/log', { token, body: { ...plain, id: 'D003', version: 2 } })).status).toBe(201)
    expect((await call('GET', '/log/D003', { token })).body.version).toBe(2)
  })

  it('7. text_list_list rows sent as objects with numeric keys are read as arrays', async () => {
    const token = await daytalogProject()
    expect((await call('GET', `/log/${DAY_2_SENT.id}`, { token })).body.custom).toEqual(DAY_2_STORED.custom)
    const other = [{ clip: 'C001C001_250601_R9QX', crew: [{ 0: 'A', x: 'B' }] }]
    expect(
      await call('PATCH', `/log/${DAY_2_SENT.id}`, {
        token,
        body: { custom: [{ schema: 'cameraNotes', clips: other }] },
      }),
    ).toMatchObject({
      status: 400,
      body: { details: [{ prop: 'custom.0.clips.0.crew.0', message: 'must be an array of strings' }] },
    })
  })

  it('8a. a range of days takes its dates from the earliest to the latest, not from the first and last day', async () => {
    const token = await daytalogProject()
    const presets = [
      ...PROJECT.pdfs,
      { id: 'dat04', label: 'Data', output_name: 'Data_<yyyymmdd>_D<dd>.pdf', template: 'data-report' },
    ]
    expect((await call('PATCH', '/project/config', { token, body: { pdfs: presets } })).status).toBe(200)
    const pdf = await call('POST', '/generate-pdf', {
      token,
      body: { presetId: 'dat04', logId: [DAY_1.id, DAY_2_SENT.id] },
    })
    expect(pdf.body.data.filename).toBe('Data_20250601-20250602_D01-02.pdf')
    const document = await PDFDocument.load(base64.decode(pdf.body.data.base64), { updateMetadata: false })
    expect(document.getTitle()).toBe('Harbour Lights — Data — Days 1–2 — 2025-06-01 – 2025-06-02')
  })

  it("8b. a project renamed onto another project's name is refused; a rename moves its path", async () => {
    const { token } = await withProject('First')
    expect((await call('POST', '/project/create', { token, body: { project_name: 'Second' } })).status).toBe(201)
    expect(await call('PATCH', '/project/config', { token, body: { project_name: 'first' } })).toMatchObject({
      status: 409,
      body: { error: 'Project already exists' },
    })
    expect((await call('PATCH', '/project/config', { token, body: { project_name: 'Third' } })).status).toBe(200)
    expect(await call('POST', '/project/create', { token, body: { project_name: 'Third' } })).toMatchObject({
      status: 409,
      body: { error: 'Project already exists' },
    })
    expect((await call('GET', '/projects', { token })).body.map((p: { path: string }) => p.path)).toEqual([
      'projects/First',
      'projects/Third',
    ])
    expect((await call('POST', '/project/load', { token, body: { path: 'projects/Second' } })).status).toBe(404)
    expect((await call('POST', '/project/load', { token, body: { path: 'projects/First' } })).status).toBe(200)
    expect((await call('POST', '/project/load', { token, body: { path: 'projects/Third' } })).status).toBe(200)
    expect((await call('GET', '/project', { token })).body).toMatchObject({
      project_name: 'Third',
      path: 'projects/Third',
    })
  })

  it('8c. arrays where objects or maps belong are refused, never converted', async () => {
    const { token } = await withProject()
    const created = (await call('GET', '/project/config', { token })).body
    const cases: Array<[string, unknown, string]> = [
      ['/project/config', { custom_info: [['DIT', 'Jane']] }, 'custom_info.0'],
      [
        '/project/config',
        { pdfs: [{ id: 'clp01', label: 'C', output_name: 'c.pdf', template: 'clips-report', options: [] }] },
        'pdfs.0.options',
      ],
      [
        '/project/config',
        {
          custom_schemas: [
            { id: 's', sync: 'clip', clip_fields: [{ type: 'kv_map_list', key_name: 'k', subfields: [['key_name']] }] },
          ],
        },
        'custom_schemas.0.clip_fields.0.subfields.0',
      ],
    ]
    for (const [path, body, prop] of cases) {
      const answer = await call('PATCH', path, { token, body })
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.details.map((d: { prop: string }) => d.prop)).toContain(prop)
    }
    expect((await call('GET', '/project/config', { token })).body).toEqual(created)
    const log = { id: 'D001', day: 1, date: '2025-06-02', version: 1 }
    for (const [extra, prop] of [
      [{ ocf: [] }, 'ocf'],
      [{ sound: [[]] }, 'sound'],
      [{ proxy: ['x'] }, 'proxy'],
    ] as const) {
      expect(await call('POST', '/log', { token, body: { ...log, ...extra } })).toMatchObject({
        status: 400,
        body: { details: [{ prop, message: 'must be an object' }] },
      })
    }
    const schemas = {
      custom_schemas: [{ id: 'kv', sync: 'clip', log_fields: [{ type: 'kv_map', key_name: 'filters' }] }],
    }
    expect((await call('PATCH', '/project/config', { token, body: schemas })).status).toBe(200)
    expect(
      await call('POST', '/log', {
        token,
        body: { ...log, custom: [{ schema: 'kv', log: { filters: ['ND', '0.6'] } }] },
      }),
    ).toMatchObject({
      status: 400,
      body: { details: [{ prop: 'custom.0.log.filters', message: 'must be a map of strings' }] },
    })
    expect((await call('GET', '/logs', { token })).body).toEqual({ logs: [] })
  })
})

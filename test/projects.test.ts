import { env } from 'cloudflare:workers'
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { localStamp } from '../src/shared/time-zone'
import type { Workspace } from '../src/workspace/Workspace'
import { approvedToken, call, makeLog, operator, withProject } from './helpers'

const pdf = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  label: `Report ${id}`,
  output_name: '<project>_<ddd>.pdf',
  template: 'clips-report',
  enabled: true,
  ...extra,
})
const email = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  label: `Mail ${id}`,
  recipients: ['production@example.com'],
  subject: '<project> Day <d>',
  attachments: [],
  message: '',
  template: 'plain',
  enabled: true,
  ...extra,
})

/** What a new project starts with (README "Project settings and presets"). */
const DEFAULT_PRESETS = {
  pdfs: [
    { id: 'clp01', label: 'Clips report', output_name: 'Clips_<log>.pdf', react: 'ClipsReport.tsx', enabled: true },
    { id: 'dat01', label: 'Data report', output_name: 'Data_<log>.pdf', react: 'DataReport.tsx', enabled: true },
  ],
  emails: [
    {
      id: 'day01',
      label: 'Day e-mail',
      recipients: [],
      subject: '<project> — Day <d> (<yyyy-mm-dd>)',
      attachments: [],
      react: 'DaySummary.tsx',
      enabled: true,
    },
  ],
}

describe('POST /project/create', () => {
  it('creates and loads the project: 201 with {id, project_name, path, created_at}', async () => {
    const token = await approvedToken()
    const res = await call('POST', '/project/create', { token, body: { project_name: 'Feature Film' } })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'id', 'path', 'project_name'])
    expect(res.body).toMatchObject({ project_name: 'Feature Film', path: 'projects/Feature Film' })
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at)
    // The settings and activeLog, as the reference application answers, plus id, path and created_at.
    expect(await call('GET', '/project', { token })).toEqual(
      expect.objectContaining({
        status: 200,
        body: {
          project_name: 'Feature Film',
          ...DEFAULT_PRESETS,
          time_zone: 'UTC',
          version: 1,
          activeLog: null,
          ...res.body,
        },
      }),
    )
    expect(await call('GET', '/project/config', { token })).toMatchObject({
      status: 200,
      body: { project_name: 'Feature Film', version: 1 },
    })
  })

  it('answers 409 Project already exists for a name that exists', async () => {
    const { token } = await withProject('Feature Film')
    expect(await call('POST', '/project/create', { token, body: { project_name: 'Feature Film' } })).toMatchObject({
      status: 409,
      body: { error: 'Project already exists' },
    })
  })

  it.each([
    ['empty', ''],
    ['101 characters', 'x'.repeat(101)],
    ['a slash', 'a/b'],
    ['a colon', 'Day:1'],
    ['a control character', 'a\u0007b'],
    ['reserved', 'settings'],
    ['reserved in capitals', 'Templates'],
  ])('refuses a name that is %s with 400 on project_name', async (_why, project_name) => {
    const token = await approvedToken()
    const res = await call('POST', '/project/create', { token, body: { project_name } })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('Validation Error')
    expect(res.body.details.map((d: { prop: string }) => d.prop)).toEqual(['project_name'])
    expect((await call('GET', '/projects', { token })).body).toEqual([])
  })

  it('answers 401 without a token', async () => {
    expect(await call('POST', '/project/create', { body: { project_name: 'X' } })).toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    })
  })
})

describe('the presets a new project starts with', () => {
  it('lists a clips report, a data report and a day e-mail to no one', async () => {
    const { token } = await withProject()
    expect((await call('GET', '/project/config', { token })).body).toEqual({
      project_name: 'Feature Film',
      ...DEFAULT_PRESETS,
      time_zone: 'UTC',
      version: 1,
    })
    expect(await call('GET', '/pdf-presets', { token })).toMatchObject({
      status: 200,
      body: [
        { id: 'clp01', label: 'Clips report', enabled: true },
        { id: 'dat01', label: 'Data report', enabled: true },
      ],
    })
    expect(await call('GET', '/email-presets', { token })).toMatchObject({
      status: 200,
      body: [{ id: 'day01', label: 'Day e-mail', enabled: true }],
    })
  })

  it('draws both reports and opens the day e-mail on a first day, with nothing configured', async () => {
    const { token } = await withProject('First Day')
    expect((await call('POST', '/log', { token, body: makeLog('D001', 2) })).status).toBe(201)
    for (const [presetId, filename] of [
      ['clp01', 'Clips_D001.pdf'],
      ['dat01', 'Data_D001.pdf'],
    ]) {
      const res = await call('POST', '/generate-pdf', { token, body: { presetId, logId: 'D001' } })
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({ filename, mimeType: 'application/pdf' })
      expect(atob(res.body.data.base64).slice(0, 5)).toBe('%PDF-')
    }
    expect(await call('POST', '/open-email-window', { token, body: { logId: 'D001' } })).toMatchObject({
      status: 200,
      body: { success: true },
    })
    const [window] = (await operator('GET', '/approve/windows')).body.windows
    expect(window).toMatchObject({
      presetId: 'day01',
      recipients: [],
      subject: 'First Day — Day 1 (2024-01-01)',
      attachments: [],
    })
  })

  it('are not added to a project made before them, which keeps what it has', async () => {
    const { token } = await withProject('Older')
    // What an older version stored: settings without presets.
    await runInDurableObject(env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace')), (_: Workspace, state) => {
      state.storage.sql.exec('UPDATE projects SET settings = ?', JSON.stringify({ project_name: 'Older', version: 1 }))
    })
    await abortAllDurableObjects()
    expect((await call('POST', '/project/load', { token, body: { path: 'projects/Older' } })).status).toBe(200)
    expect((await call('GET', '/project/config', { token })).body).toEqual({ project_name: 'Older', version: 1 })
    expect((await call('GET', '/pdf-presets', { token })).body).toEqual([])
    expect((await call('GET', '/email-presets', { token })).body).toEqual([])
  })

  it('are edited and deleted like any preset; a config of the reference app replaces them', async () => {
    const { token } = await withProject()
    const edited = {
      ...DEFAULT_PRESETS.emails[0]!,
      recipients: ['production@example.com'],
      attachments: ['clp01'],
    }
    // The day e-mail attaches nothing: a config setting only `pdfs` replaces the reports.
    const pdfsOnly = await call('PATCH', '/project/config', { token, body: { pdfs: [DEFAULT_PRESETS.pdfs[1]] } })
    expect(pdfsOnly.status).toBe(200)
    expect(pdfsOnly.body.data.emails).toEqual(DEFAULT_PRESETS.emails)
    expect((await call('GET', '/pdf-presets', { token })).body).toEqual([
      { id: 'dat01', label: 'Data report', enabled: true },
    ])
    const patched = await call('PATCH', '/project/config', {
      token,
      body: { pdfs: [DEFAULT_PRESETS.pdfs[0]], emails: [edited] },
    })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toEqual({
      project_name: 'Feature Film',
      pdfs: [DEFAULT_PRESETS.pdfs[0]],
      emails: [edited],
      time_zone: 'UTC',
      version: 1,
    })
    expect((await call('GET', '/pdf-presets', { token })).body).toEqual([
      { id: 'clp01', label: 'Clips report', enabled: true },
    ])
    expect((await call('PATCH', '/project/config', { token, body: { pdfs: [], emails: [] } })).status).toBe(200)
    expect((await call('GET', '/pdf-presets', { token })).body).toEqual([])
    expect((await call('GET', '/email-presets', { token })).body).toEqual([])
  })
})

describe('the time zone setting', () => {
  it("is the zone a new project took (here the runtime's, UTC), and any IANA zone when patched", async () => {
    const { token } = await withProject()
    expect((await call('GET', '/project/config', { token })).body.time_zone).toBe('UTC')
    const patched = await call('PATCH', '/project/config', { token, body: { time_zone: 'Asia/Tokyo' } })
    expect(patched.status).toBe(200)
    expect(patched.body.data.time_zone).toBe('Asia/Tokyo')
    expect((await call('GET', '/project/config', { token })).body.time_zone).toBe('Asia/Tokyo')
  })

  it('refuses a zone the runtime does not know, and keeps the stored one', async () => {
    const { token } = await withProject()
    for (const time_zone of ['Mars/Olympus', '', 'GMT+25', 7]) {
      const res = await call('PATCH', '/project/config', { token, body: { time_zone } })
      expect(res.status, String(time_zone)).toBe(400)
      expect(res.body).toEqual({
        error: 'Validation Error',
        details: [
          {
            prop: 'time_zone',
            message:
              typeof time_zone === 'string'
                ? 'must be an IANA time zone such as Europe/Berlin or UTC'
                : 'must be a string',
          },
        ],
      })
    }
    expect((await call('GET', '/project/config', { token })).body.time_zone).toBe('UTC')
  })

  it('reads a moment on the clocks of the zone, summer time included', () => {
    const at = new Date('2024-07-01T22:30:00Z')
    expect(localStamp(at)).toBe('2024-07-01 22:30 UTC')
    expect(localStamp(at, 'Europe/Berlin')).toBe('2024-07-02 00:30 Europe/Berlin')
    expect(localStamp(new Date('2024-01-01T22:30:00Z'), 'Europe/Berlin')).toBe('2024-01-01 23:30 Europe/Berlin')
    expect(localStamp(at, 'America/Los_Angeles')).toBe('2024-07-01 15:30 America/Los_Angeles')
  })
})

describe('POST /project/load and GET /projects', () => {
  it('switches the active project; each keeps its own logs', async () => {
    const { token } = await withProject('First')
    await call('POST', '/log', { token, body: makeLog('D001', 1) })
    await call('POST', '/project/create', { token, body: { project_name: 'Second' } })
    expect((await call('GET', '/logs', { token })).body).toEqual({ logs: [] })
    // The reference application's bare array of {label, path, active}; project_name beside label.
    expect(await call('GET', '/projects', { token })).toMatchObject({
      status: 200,
      body: [
        { label: 'First', path: 'projects/First', active: false, project_name: 'First' },
        { label: 'Second', path: 'projects/Second', active: true, project_name: 'Second' },
      ],
    })
    expect(await call('POST', '/project/load', { token, body: { path: 'projects/First' } })).toMatchObject({
      status: 200,
      body: { success: true },
    })
    expect((await call('GET', '/logs', { token })).body.logs.map((l: { id: string }) => l.id)).toEqual(['D001'])
  })

  it('answers 404 Project not found for an unknown path, keeping the active project', async () => {
    const { token } = await withProject('First')
    expect(await call('POST', '/project/load', { token, body: { path: 'projects/Nope' } })).toMatchObject({
      status: 404,
      body: { error: 'Project not found' },
    })
    expect((await call('GET', '/project', { token })).body.project_name).toBe('First')
  })

  it('answers 400 for a missing path', async () => {
    const token = await approvedToken()
    expect(await call('POST', '/project/load', { token, body: {} })).toMatchObject({
      status: 400,
      body: { error: 'Validation Error', details: [{ prop: 'path' }] },
    })
  })

  it('answers 409 No Project Loaded on the project endpoints while none is loaded', async () => {
    const token = await approvedToken()
    for (const [method, path, body] of [
      ['GET', '/project'],
      ['GET', '/project/config'],
      ['PATCH', '/project/config', { unit: 'B' }],
    ] as const) {
      expect(await call(method, path, { token, body })).toMatchObject({
        status: 409,
        body: { error: 'No Project Loaded' },
      })
    }
  })
})

describe('PATCH /project/config', () => {
  it('shallow-merges and answers the whole settings object, which GET /project/config returns', async () => {
    const { token } = await withProject('Feature Film')
    const first = await call('PATCH', '/project/config', {
      token,
      body: { unit: 'Main Unit', custom_info: [{ Director: 'A. Director' }], some_tool_setting: { keep: true } },
    })
    expect(first.status).toBe(200)
    const second = await call('PATCH', '/project/config', { token, body: { custom_info: [{ DoP: 'B. Camera' }] } })
    const expected = {
      project_name: 'Feature Film',
      ...DEFAULT_PRESETS,
      time_zone: 'UTC',
      version: 1,
      unit: 'Main Unit',
      custom_info: [{ DoP: 'B. Camera' }],
      some_tool_setting: { keep: true },
    }
    expect(second.body).toEqual({ success: true, data: expected })
    expect((await call('GET', '/project/config', { token })).body).toEqual(expected)
  })

  it('stores presets as sent, applies defaults when it lists them, filtered by enabled', async () => {
    const { token } = await withProject()
    const res = await call('PATCH', '/project/config', {
      token,
      body: {
        pdfs: [
          pdf('clips'),
          { id: 'data1', label: 'Data', output_name: 'Data_<yyyymmdd>.pdf', react: 'DataReport.tsx', enabled: false },
        ],
        emails: [
          { id: 'daily', label: 'Daily', recipients: ['prod@example.com'], subject: 'Day <d>', attachments: ['clips'] },
        ],
      },
    })
    expect(res.status).toBe(200)
    // SPEC §5: defaults (enabled, template, message) apply when read, never written into the preset.
    expect(res.body.data.emails[0]).toEqual({
      id: 'daily',
      label: 'Daily',
      recipients: ['prod@example.com'],
      subject: 'Day <d>',
      attachments: ['clips'],
    })
    expect((await call('GET', '/project/config', { token })).body.emails).toEqual(res.body.data.emails)
    expect((await call('GET', '/email-presets', { token })).body).toEqual([
      { id: 'daily', label: 'Daily', enabled: true },
    ])
    expect((await call('GET', '/pdf-presets', { token })).body).toEqual([
      { id: 'clips', label: 'Report clips', enabled: true },
      { id: 'data1', label: 'Data', enabled: false },
    ])
    expect((await call('GET', '/pdf-presets?enabled=true', { token })).body).toEqual([
      { id: 'clips', label: 'Report clips', enabled: true },
    ])
    expect((await call('GET', '/email-presets?enabled=false', { token })).body).toEqual([])
    // The query is read by its declared schema: a name given twice, or another value, is refused.
    for (const query of ['enabled=true&enabled=false', 'enabled=yes'])
      expect(await call('GET', `/pdf-presets?${query}`, { token })).toMatchObject({
        status: 400,
        body: { error: 'Validation Error', details: [{ prop: 'enabled', message: 'must be true or false' }] },
      })
  })

  it('refuses invalid settings with every failing property, and keeps the stored ones', async () => {
    const { token } = await withProject('Feature Film')
    const body = {
      project_name: 'a/b',
      logid_template: 'Day_<log>',
      unit: 'U<unit>',
      match_sound: 'yes',
      version: 2,
      pdfs: [pdf('clips'), pdf('clips'), pdf('abc'), pdf('bad_1', { output_name: 'report.txt', template: 'fancy' })],
      emails: [
        email('mail1', { recipients: [], attachments: ['nopdf'] }),
        email('mail2', { recipients: ['not-an-address'], subject: '' }),
      ],
      custom_schemas: [
        {
          id: 's',
          sync: 'sometimes',
          log_fields: [
            { type: 'text', key_name: 'day' },
            { type: 'colour', key_name: 'c' },
          ],
        },
      ],
    }
    const res = await call('PATCH', '/project/config', { token, body })
    expect(res.status).toBe(400)
    expect(res.body.details.map((d: { prop: string }) => d.prop).sort()).toEqual(
      [
        'custom_schemas.0.log_fields.0.key_name',
        'custom_schemas.0.log_fields.1.type',
        'custom_schemas.0.sync',
        'emails.0.attachments.0',
        'emails.1.recipients.0',
        'emails.1.subject',
        'logid_template',
        'match_sound',
        'pdfs.1',
        'pdfs.2.id',
        'pdfs.3.output_name',
        'pdfs.3.template',
        'project_name',
        'unit',
        'version',
      ].sort(),
    )
    expect((await call('GET', '/project/config', { token })).body).toEqual({
      project_name: 'Feature Film',
      ...DEFAULT_PRESETS,
      time_zone: 'UTC',
      version: 1,
    })
  })

  it('refuses an e-mail preset attaching a PDF preset that does not exist', async () => {
    const { token } = await withProject()
    const res = await call('PATCH', '/project/config', {
      token,
      body: { pdfs: [pdf('clips')], emails: [email('daily', { attachments: ['clips', 'ghost'] })] },
    })
    expect(res).toMatchObject({
      status: 400,
      body: {
        error: 'Validation Error',
        details: [{ prop: 'emails.0.attachments.1', message: 'names no PDF preset: ghost' }],
      },
    })
  })

  it('refuses duplicate key_names within a custom schema', async () => {
    const { token } = await withProject()
    const schema = {
      id: 'notes',
      sync: 'clip',
      clip_fields: [
        { type: 'text', key_name: 'scene' },
        { type: 'text_list', key_name: 'scene' },
      ],
    }
    const res = await call('PATCH', '/project/config', { token, body: { custom_schemas: [schema] } })
    expect(res).toMatchObject({
      status: 400,
      body: {
        details: [{ prop: 'custom_schemas.0.clip_fields.1', message: 'key_name must be unique within the schema' }],
      },
    })
  })
})

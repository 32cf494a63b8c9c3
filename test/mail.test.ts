import { env } from 'cloudflare:workers'
import {
  abortAllDurableObjects,
  createExecutionContext,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test'
import PostalMime from 'postal-mime'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { handle } from '../src/router'
import { workspace } from '../src/workspace/client'
import { BASE, OPERATOR_KEY, approvedToken, call, clip, makeLog, withProject, type Answer } from './helpers'

// Delivery settings are read per request; each test states its own instead of relying on the
// machine's .dev.vars. Requests go through the same router the worker serves.
type Mail = { EMAIL_PROVIDER?: string; EMAIL_API_KEY?: string; EMAIL_FROM?: string; EMAIL_API_URL?: string }
const NO_PROVIDER: Mail = { EMAIL_PROVIDER: '', EMAIL_API_KEY: '', EMAIL_FROM: '', EMAIL_API_URL: '' }

async function req<T = any>(
  mail: Mail,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { 'x-operator-key': OPERATOR_KEY },
): Promise<Answer<T>> {
  const init: RequestInit = { method, headers: { ...headers } }
  if (body !== undefined) {
    init.body = JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] = 'application/json'
  }
  const ctx = createExecutionContext()
  const response = await handle(new Request(`${BASE}${path}`, init), { ...env, ...NO_PROVIDER, ...mail }, ctx)
  await waitOnExecutionContext(ctx)
  const type = response.headers.get('content-type') ?? ''
  const parsed = type.includes('json')
    ? await response.json()
    : type.includes('pdf')
      ? new Uint8Array(await response.arrayBuffer())
      : await response.text()
  return { status: response.status, body: parsed as T, headers: response.headers }
}

const op = <T = any>(method: string, path: string, body?: unknown) => req<T>(NO_PROVIDER, method, path, body)

/**
 * Send as the console does: the window as shown with these delivery settings (the sender is part
 * of the message, so of its fingerprint), then POST …/send with its fingerprint.
 */
async function send(mail: Mail, id: string) {
  const shown = await req(mail, 'GET', `/approve/windows/${id}`)
  expect(shown.status).toBe(200)
  return req(mail, 'POST', `/approve/windows/${id}/send`, { fingerprint: shown.body.window.fingerprint })
}

const PDFS = [
  { id: 'CLIPS', label: 'Clips report', output_name: '<project>_<yyyymmdd>_D<dd>_clips.pdf', template: 'clips-report' },
  { id: 'DATA1', label: 'Data report', output_name: 'data.pdf', template: 'data-report' },
  { id: 'DATA2', label: 'Data report again', output_name: 'data.pdf', template: 'data-report' },
]
const DAILY = {
  id: 'DAILY',
  label: 'Daily report',
  recipients: ['producer@example.com', 'post@example.com'],
  subject: '<project> – Day <d> (<yyyy-mm-dd>)',
  message: 'Hello,\n\nthe report of day <d>, <eeee>, is attached.\n\nBest',
  attachments: ['CLIPS'],
  template: 'day-summary',
}
const PLAIN = {
  id: 'PLAIN',
  label: 'Plain note',
  recipients: ['dop@example.com'],
  subject: 'Log <log>',
  message: 'Cards are wiped.',
  attachments: [],
  template: 'plain',
}

/** A project with two logs and the presets above; returns the API token. */
async function project(name = 'NightShoot', emails: unknown[] = [DAILY, PLAIN]) {
  const { token } = await withProject(name)
  expect((await call('PATCH', '/project/config', { token, body: { pdfs: PDFS, emails } })).status).toBe(200)
  expect((await call('POST', '/log', { token, body: makeLog('D001', 3) })).status).toBe(201)
  const day2 = makeLog('D002', 2, {
    day: 2,
    date: '2024-01-02',
    ocf: {
      reels: ['A002', 'A003', 'B001'],
      copies: ['SSD_01'],
      clips: [clip(4, { reel: 'A002' }), clip(5, { reel: 'B001', copies: [{ volume: 'SSD_01', hash: null }] })],
    },
    sound: {
      clips: [{ clip: 'S001', size: 5_000_000, copies: [{ volume: 'SSD_01', hash: `md5:${'1'.padStart(32, '0')}` }] }],
    },
    proxy: { clips: [{ clip: 'P001', size: 120_000_000, format: 'mov', codec: 'ProRes', resolution: '1920x1080' }] },
  })
  expect((await call('POST', '/log', { token, body: day2 })).status).toBe(201)
  return token
}

async function openWindow(token: string, body: unknown = { logId: 'D001', presetId: 'DAILY' }) {
  const opened = await call('POST', '/open-email-window', { token, body })
  expect(opened).toMatchObject({ status: 200, body: { success: true } })
  const { body: list } = await op('GET', '/approve/windows')
  return list.windows.at(-1)
}

const DAY1_SUMMARY = [
  'NightShoot',
  '',
  'Day 1 — 2024-01-01 · Main Unit',
  '  OCF:          3 files · 3.70 GB · duration 00:03:00:00',
  '  Reels:        A001',
  // Each volume in the one account's words; the verdict names what is wrong: RAID_A's copies carry no hash.
  '  OCF copies:   SSD_01: 3 clips, checksums recorded (not read back)',
  '                RAID_A: 3 clips, none with a checksum',
  '  Verification: Copies without a checksum — RAID_A: 3 clips (A001C001_240101_R1AB, A001C002_240101_R1AB, A001C003_240101_R1AB)',
  '  Checks:       no other findings',
].join('\n')

const isPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-'
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

afterEach(() => {
  vi.restoreAllMocks()
})

describe('POST /open-email-window', () => {
  it('opens a send window with the preset filled in, tags replaced, and answers {success: true}', async () => {
    const token = await project()
    const window = await openWindow(token)
    expect(window).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.any(String),
      updatedAt: window.createdAt,
      project: 'NightShoot',
      logIds: ['D001'],
      presetId: 'DAILY',
      presetLabel: 'Daily report',
      template: 'day-summary',
      recipients: ['producer@example.com', 'post@example.com'],
      subject: 'NightShoot – Day 1 (2024-01-01)',
      message: 'Hello,\n\nthe report of day 1, Monday, is attached.\n\nBest',
      preview: {
        html: expect.any(String),
        text: `Hello,\n\nthe report of day 1, Monday, is attached.\n\nBest\n\n${DAY1_SUMMARY}\n`,
      },
      checks: {
        errors: 0,
        warnings: 3,
        info: 0,
        kinds: [{ kind: 'not-verified', title: 'Copies without a checksum', severity: 'warning', count: 3 }],
        days: [
          {
            title: 'Day 1 — 2024-01-01',
            lines: [
              'Copies without a checksum — RAID_A: 3 clips (A001C001_240101_R1AB, A001C002_240101_R1AB, A001C003_240101_R1AB)',
              'no other findings',
            ],
          },
        ],
      },
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      version: expect.any(String),
      updated: null,
      missingLogs: [],
      bodyNote: null,
      attachments: [
        {
          presetId: 'CLIPS',
          label: 'Clips report',
          note: null,
          filename: 'NightShoot_20240101_D01_clips.pdf',
          url: `/approve/windows/${window.id}/attachments/CLIPS`,
        },
      ],
      pdfPresets: PDFS.map(({ id, label }) => ({ id, label })),
      status: 'draft',
      error: null,
      sentAt: null,
      delivery: { provider: null, configured: false, from: null, problem: null },
      emlUrl: `/approve/windows/${window.id}/message.eml`,
      mailto: expect.stringMatching(
        /^mailto:producer@example\.com,post@example\.com\?subject=NightShoot%20%E2%80%93%20Day%201%20\(2024-01-01\)&body=Hello%2C%0D%0A%0D%0Athe%20report/,
      ),
    })
    expect(Date.parse(window.createdAt)).toBeGreaterThan(Date.now() - 60_000)
  })

  it('renders the preview HTML from the same content, escaped', async () => {
    const token = await project()
    const { id } = await openWindow(token)
    const { body } = await op('PATCH', `/approve/windows/${id}`, {
      message: 'Look <b>here</b> & "there"\nsecond line\n\nnext paragraph',
    })
    const html: string = body.window.preview.html
    expect(html).toContain('<title>NightShoot – Day 1 (2024-01-01)</title>')
    expect(html).toContain(
      '<p style="margin:0 0 12px">Look &lt;b&gt;here&lt;/b&gt; &amp; &quot;there&quot;<br>\nsecond line</p>\n<p style="margin:0 0 12px">next paragraph</p>',
    )
    expect(html).toContain('>Day 1 — 2024-01-01 · Main Unit</h2>')
    expect(html).toContain(
      '>SSD_01: 3 clips, checksums recorded (not read back)<br>RAID_A: 3 clips, none with a checksum</td>',
    )
    expect(html).not.toContain('<b>')
  })

  it('covers several logs: first-last tags, one section per day and the totals', async () => {
    const token = await project()
    const window = await openWindow(token, { logId: ['D002', 'D001'], presetId: 'DAILY' })
    expect(window.logIds).toEqual(['D002', 'D001'])
    expect(window.subject).toBe('NightShoot – Day 1-2 (2024-01-01-2024-01-02)')
    expect(window.preview.text).toBe(
      'Hello,\n\nthe report of day 1-2, Monday-Tuesday, is attached.\n\nBest\n\n' +
        [
          'NightShoot',
          '',
          'Day 1 — 2024-01-01 · Main Unit',
          '  OCF:                3 files · 3.70 GB · duration 00:03:00:00',
          '  Reels:              A001',
          '  OCF copies:         SSD_01: 3 clips, checksums recorded (not read back)',
          '                      RAID_A: 3 clips, none with a checksum',
          '  Verification:       Copies without a checksum — RAID_A: 3 clips (A001C001_240101_R1AB, A001C002_240101_R1AB, A001C003_240101_R1AB)',
          '  Checks:             no other findings',
          '',
          'Day 2 — 2024-01-02 · Main Unit',
          '  OCF:                2 files · 2.47 GB · duration 00:02:00:00',
          '  Reels:              A002–A003, B001',
          // The day plans SSD_01 alone: RAID_A is a copy beyond the plan, owing nothing it does not hold.
          '  OCF copies:         SSD_01: 2 clips: 1 without a checksum, 1 checksum recorded (not read back)',
          '                      RAID_A: 1 clip, none with a checksum',
          '  Verification:       Copies without a checksum — RAID_A: 1 clip (A001C004_240101_R1AB)',
          '                      Copies without a checksum — SSD_01: 1 clip (A001C005_240101_R1AB)',
          '  Proxy:              1 file · 120.00 MB',
          '  Sound:              1 file · 5.00 MB',
          '  Sound copies:       SSD_01: 1 clip, checksums recorded (not read back)',
          '  Sound verification: 1 copy, checksums recorded (not read back)',
          '  Checks:             Clips without a proxy: 2 clips (A001C004_240101_R1AB, A001C005_240101_R1AB)',
          '                      Proxies without a camera clip: 1 clip (P001)',
          '',
          'Total — Days 1–2 — 2024-01-01 – 2024-01-02',
          '  OCF:                5 files · 6.17 GB · duration 00:05:00:00',
          '  Reels:              A001–A003, B001',
          '  OCF copies:         SSD_01: 5 clips: 1 without a checksum, 4 checksums recorded (not read back)',
          '                      RAID_A: 4 clips, none with a checksum',
          '  Verification:       Copies without a checksum — RAID_A: 4 clips (A001C004_240101_R1AB (D002), A001C001_240101_R1AB (D001), A001C002_240101_R1AB (D001), A001C003_240101_R1AB (D001))',
          '                      Copies without a checksum — SSD_01: 1 clip (A001C005_240101_R1AB (D002))',
          '  Proxy:              1 file · 120.00 MB',
          '  Sound:              1 file · 5.00 MB',
          // The total shows the sound copies as it shows the OCF copies.
          '  Sound copies:       SSD_01: 1 clip, checksums recorded (not read back)',
          '  Sound verification: 1 copy, checksums recorded (not read back)',
          // Over several days, each clip named with its day.
          '  Checks:             Clips without a proxy: 2 clips (A001C004_240101_R1AB (D002), A001C005_240101_R1AB (D002))',
          '                      Proxies without a camera clip: 1 clip (P001 (D002))',
        ].join('\n') +
        '\n',
    )
  })

  it('states what the checksums promise: verified only when read back, else matching; which copy disagrees', async () => {
    const { token } = await withProject('Verified')
    expect((await call('PATCH', '/project/config', { token, body: { pdfs: PDFS, emails: [DAILY] } })).status).toBe(200)
    const hashed = (i: number, raid = `xxh64:${String(i).padStart(16, '0')}`) =>
      clip(i, {
        copies: [
          { volume: 'SSD_01', hash: `xxh64:${String(i).padStart(16, '0')}` },
          { volume: 'RAID_A', hash: raid },
        ],
      })
    const day = makeLog('D001', 0, { ocf: { copies: ['SSD_01', 'RAID_A'], clips: [hashed(1), hashed(2)] } })
    expect((await call('POST', '/log', { token, body: day })).status).toBe(201)
    expect((await openWindow(token)).preview.text).toContain(
      ['  Verification: 2 copies, checksums match (not read back)', '  Checks:       no other findings'].join('\n'),
    )
    // Read back on both volumes (an ASC MHL `verified` action), then on RAID_A alone.
    const readBack = (i: number, volumes: string[]) => {
      const c = hashed(i) as { copies: Array<Record<string, unknown>> }
      for (const copy of c.copies) if (volumes.includes(copy.volume as string)) copy.action = 'verified'
      return c
    }
    const both = { ocf: { ...day.ocf, clips: [readBack(1, ['SSD_01', 'RAID_A']), readBack(2, ['SSD_01', 'RAID_A'])] } }
    expect((await call('PATCH', '/log/D001', { token, body: both })).status).toBe(200)
    const verified = (await openWindow(token)).preview.text
    expect(verified).toContain('  Verification: 2 copies, all verified (read back)')
    expect(verified).toContain('  OCF copies:   SSD_01: 2 clips, all verified (read back)')
    const raidOnly = { ocf: { ...day.ocf, clips: [readBack(1, ['RAID_A']), readBack(2, ['RAID_A'])] } }
    expect((await call('PATCH', '/log/D001', { token, body: raidOnly })).status).toBe(200)
    // Nothing wrong, not every copy read back: the copies say which volume was.
    expect((await openWindow(token)).preview.text).toContain(
      [
        '  OCF copies:   SSD_01: 2 clips, checksums match (not read back)',
        '                RAID_A: 2 clips, all verified (read back)',
        '  Verification: 2 copies: nothing missing or different; not every copy read back',
      ].join('\n'),
    )
    const bad = { ocf: { ...day.ocf, clips: [hashed(1), hashed(2, 'xxh64:00000000deadbeef')] } }
    expect((await call('PATCH', '/log/D001', { token, body: bad })).status).toBe(200)
    // Two copies that disagree: neither can be taken for the camera's file.
    expect((await openWindow(token)).preview.text).toContain(
      [
        '  OCF copies:   SSD_01: 2 clips: 1 whose checksum differs from another copy’s, 1 checksum matches (not read back)',
        '                RAID_A: 2 clips: 1 whose checksum differs from another copy’s, 1 checksum matches (not read back)',
        '  Verification: Copies whose checksum differs from another copy’s — SSD_01: 1 clip (A001C002_240101_R1AB)',
        '                Copies whose checksum differs from another copy’s — RAID_A: 1 clip (A001C002_240101_R1AB)',
      ].join('\n'),
    )
  })

  it('uses the plain template: the message alone', async () => {
    const token = await project()
    const window = await openWindow(token, { logId: 'D002', presetId: 'PLAIN' })
    expect(window).toMatchObject({
      subject: 'Log D002',
      recipients: ['dop@example.com'],
      attachments: [],
      template: 'plain',
    })
    expect(window.preview.text).toBe('Cards are wiped.\n')
  })

  it('without presetId takes the first enabled e-mail preset', async () => {
    const token = await project('NightShoot', [{ ...PLAIN, enabled: false }, DAILY])
    expect(await openWindow(token, { logId: 'D001' })).toMatchObject({
      presetId: 'DAILY',
      subject: 'NightShoot – Day 1 (2024-01-01)',
    })
  })

  it('without any e-mail preset opens an empty draft with the day summary', async () => {
    const token = await project('NightShoot', [])
    const window = await openWindow(token, { logId: 'D001' })
    expect(window).toMatchObject({
      presetId: null,
      presetLabel: null,
      recipients: [],
      subject: 'NightShoot – Day 1 – 2024-01-01',
      message: '',
      attachments: [],
      template: 'day-summary',
    })
    expect(window.preview.text).toBe(`${DAY1_SUMMARY}\n`)
  })

  it('makes attachment file names unique', async () => {
    const token = await project('NightShoot', [{ ...DAILY, attachments: ['DATA1', 'DATA2'] }])
    const window = await openWindow(token)
    expect(window.attachments.map((a: { filename: string }) => a.filename)).toEqual(['data.pdf', 'data-2.pdf'])
  })

  it('answers 401 without a valid token and opens nothing', async () => {
    await project()
    expect(await call('POST', '/open-email-window', { body: { logId: 'D001' } })).toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    })
    expect(
      await call('POST', '/open-email-window', {
        token: 'mls_0000000000000000_' + 'x'.repeat(43),
        body: { logId: 'D001' },
      }),
    ).toMatchObject({ status: 401 })
    expect((await op('GET', '/approve/windows')).body).toEqual({ windows: [] })
  })

  it.each([
    ['no logId', {}, [{ prop: 'logId', message: 'is required' }]],
    ['a number', { logId: 5 }, [{ prop: 'logId', message: 'must be a log id or an array of log ids' }]],
    ['an empty array', { logId: [] }, [{ prop: 'logId', message: 'must name at least one log' }]],
    [
      'a presetId of the wrong type',
      { logId: 'D001', presetId: 7 },
      [{ prop: 'presetId', message: 'must be a string' }],
    ],
  ])('answers 400 for %s', async (_name, body, details) => {
    const token = await project()
    const res = await call('POST', '/open-email-window', { token, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('Validation Error')
    expect(res.body.details).toEqual(details)
    expect((await op('GET', '/approve/windows')).body).toEqual({ windows: [] })
  })

  it('answers 404 Log not found with no project loaded', async () => {
    const token = await approvedToken()
    expect(await call('POST', '/open-email-window', { token, body: { logId: 'D001' } })).toMatchObject({
      status: 404,
      body: { error: 'Log not found' },
    })
  })

  it('answers 404 Log not found when any named log is missing, and opens nothing', async () => {
    const token = await project()
    expect(
      await call('POST', '/open-email-window', { token, body: { logId: ['D001', 'D404'], presetId: 'DAILY' } }),
    ).toMatchObject({ status: 404, body: { error: 'Log not found' } })
    expect((await op('GET', '/approve/windows')).body).toEqual({ windows: [] })
  })

  it('answers 404 Preset not found for an unknown e-mail preset, and opens nothing', async () => {
    const token = await project()
    expect(
      await call('POST', '/open-email-window', { token, body: { logId: 'D001', presetId: 'CLIPS' } }),
    ).toMatchObject({ status: 404, body: { error: 'Preset not found' } })
    expect((await op('GET', '/approve/windows')).body).toEqual({ windows: [] })
  })

  it('counts a log named twice once', async () => {
    const token = await project()
    const window = await openWindow(token, { logId: ['D001', 'D001'], presetId: 'DAILY' })
    expect(window.logIds).toEqual(['D001'])
    expect(window.preview.text).toBe(`Hello,\n\nthe report of day 1, Monday, is attached.\n\nBest\n\n${DAY1_SUMMARY}\n`)
  })

  it('answers 429 once 100 unsent windows are open, until one is discarded', async () => {
    const token = await project()
    const opened = await Promise.all(
      Array.from({ length: 100 }, () =>
        call('POST', '/open-email-window', { token, body: { logId: 'D001', presetId: 'PLAIN' } }),
      ),
    )
    expect(opened.map((r) => r.status)).toEqual(Array(100).fill(200))
    expect(await call('POST', '/open-email-window', { token, body: { logId: 'D001' } })).toMatchObject({
      status: 429,
      body: { error: '100 send windows are open: send or discard some first' },
    })
    const { body } = await op('GET', '/approve/windows')
    expect(body.windows).toHaveLength(100)
    expect((await op('DELETE', `/approve/windows/${body.windows[0].id}`)).status).toBe(200)
    expect((await call('POST', '/open-email-window', { token, body: { logId: 'D001' } })).status).toBe(200)
  }, 60_000)

  it('wakes the console: the workspace version moves when a window opens', async () => {
    const token = await project()
    const ws = workspace(env)
    const before = (await ws.consoleState(-1, 0)).version
    const waiting = ws.consoleState(before, 10_000)
    await call('POST', '/open-email-window', { token, body: { logId: 'D001' } })
    const after = await waiting
    expect(after.version).toBeGreaterThan(before)
    expect(after.windows).toHaveLength(1)
  })
})

describe('operator windows', () => {
  it('need the operator: no key → 401, an API token is not enough', async () => {
    const token = await project()
    await openWindow(token)
    expect(await req(NO_PROVIDER, 'GET', '/approve/windows', undefined, {})).toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    })
    expect(await req(NO_PROVIDER, 'GET', '/approve/windows', undefined, { 'x-api-token': token })).toMatchObject({
      status: 401,
    })
    expect(await req(NO_PROVIDER, 'DELETE', '/approve/windows/x', undefined, { 'x-api-token': token })).toMatchObject({
      status: 401,
    })
  })

  it('lists several open windows in the order they opened, and each one alone', async () => {
    const token = await project()
    const first = await openWindow(token)
    const second = await openWindow(token, { logId: 'D002', presetId: 'PLAIN' })
    const { body } = await op('GET', '/approve/windows')
    expect(body.windows.map((w: { id: string }) => w.id)).toEqual([first.id, second.id])
    expect(await op('GET', `/approve/windows/${second.id}`)).toMatchObject({ status: 200, body: { window: second } })
  })

  it('keep windows across a restart of the workspace', async () => {
    const token = await project()
    const window = await openWindow(token)
    await abortAllDurableObjects()
    expect((await op('GET', '/approve/windows')).body.windows).toEqual([window])
  })

  it('edits recipients, subject, message and attachments; the answer and later reads agree', async () => {
    const token = await project()
    const { id } = await openWindow(token)
    const edited = await op('PATCH', `/approve/windows/${id}`, {
      recipients: [' lab@example.com ', 'Producer@Example.com', 'producer@example.com'],
      subject: 'Day 1 wrapped',
      message: 'All good.',
      attachments: ['DATA1', 'CLIPS'],
    })
    expect(edited.status).toBe(200)
    expect(edited.body.success).toBe(true)
    expect(edited.body.window).toMatchObject({
      recipients: ['lab@example.com', 'producer@example.com'],
      subject: 'Day 1 wrapped',
      message: 'All good.',
      attachments: [
        {
          presetId: 'DATA1',
          label: 'Data report',
          filename: 'data.pdf',
          url: `/approve/windows/${id}/attachments/DATA1`,
        },
        {
          presetId: 'CLIPS',
          label: 'Clips report',
          filename: 'NightShoot_20240101_D01_clips.pdf',
          url: `/approve/windows/${id}/attachments/CLIPS`,
        },
      ],
      status: 'draft',
    })
    expect(edited.body.window.preview.text).toBe(`All good.\n\n${DAY1_SUMMARY}\n`)
    expect(Date.parse(edited.body.window.updatedAt)).toBeGreaterThanOrEqual(Date.parse(edited.body.window.createdAt))
    expect((await op('GET', `/approve/windows/${id}`)).body.window).toEqual(edited.body.window)

    const removed = await op('PATCH', `/approve/windows/${id}`, { attachments: [] })
    expect(removed.body.window).toMatchObject({
      attachments: [],
      subject: 'Day 1 wrapped',
      recipients: ['lab@example.com', 'producer@example.com'],
    })
  })

  it.each([
    ['an invalid address', { recipients: ['producer@example.com', 'not an address'] }, 'recipients.1'],
    ['recipients that are not an array', { recipients: 'a@example.com' }, 'recipients'],
    ['an empty subject', { subject: '   ' }, 'subject'],
    ['a subject with a line break', { subject: 'Day 1\r\nBcc: victim@example.com' }, 'subject'],
    ['a message that is not a string', { message: 42 }, 'message'],
    ['an unknown property', { bcc: ['x@example.com'] }, 'bcc'],
    ['51 recipients', { recipients: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`) }, 'recipients'],
  ])('refuses %s with 400 and changes nothing', async (_name, body, prop) => {
    const token = await project()
    const window = await openWindow(token)
    const res = await op('PATCH', `/approve/windows/${window.id}`, body)
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('Validation Error')
    expect(res.body.details.map((d: { prop: string }) => d.prop)).toEqual([prop])
    expect((await op('GET', `/approve/windows/${window.id}`)).body.window).toEqual(window)
  })

  it('refuses an attachment naming no PDF preset with 404 Preset not found, and changes nothing', async () => {
    const token = await project()
    const window = await openWindow(token)
    expect(await op('PATCH', `/approve/windows/${window.id}`, { subject: 'x', attachments: ['NOPE1'] })).toMatchObject({
      status: 404,
      body: { error: 'Preset not found' },
    })
    expect((await op('GET', `/approve/windows/${window.id}`)).body.window).toEqual(window)
  })

  it('answers 404 Send window not found for an unknown window', async () => {
    await project()
    const missing = { status: 404, body: { error: 'Send window not found' } }
    expect(await op('GET', '/approve/windows/nope')).toMatchObject(missing)
    expect(await op('PATCH', '/approve/windows/nope', { subject: 'x' })).toMatchObject(missing)
    expect(await op('DELETE', '/approve/windows/nope')).toMatchObject(missing)
    expect(
      await req(
        { EMAIL_PROVIDER: 'resend', EMAIL_API_KEY: 're_k', EMAIL_FROM: 'dit@example.com' },
        'POST',
        '/approve/windows/nope/send',
        { fingerprint: '0'.repeat(64) },
      ),
    ).toMatchObject(missing)
    expect(await op('GET', '/approve/windows/nope/message.eml')).toMatchObject(missing)
    expect(await op('GET', '/approve/windows/nope/attachments/CLIPS')).toMatchObject(missing)
  })

  it('discards a window: {success: true}, gone from the list, a second discard is 404', async () => {
    const token = await project()
    const keep = await openWindow(token)
    const { id } = await openWindow(token, { logId: 'D002', presetId: 'PLAIN' })
    const ws = workspace(env)
    const before = (await ws.consoleState(-1, 0)).version
    expect(await op('DELETE', `/approve/windows/${id}`)).toMatchObject({ status: 200, body: { success: true } })
    expect((await ws.consoleState(before, 0)).version).toBeGreaterThan(before)
    expect((await op('GET', '/approve/windows')).body.windows).toEqual([keep])
    expect(await op('DELETE', `/approve/windows/${id}`)).toMatchObject({ status: 404 })
  })

  it('downloads an attachment as the PDF it would send, and 404s one the window does not have', async () => {
    const token = await project()
    const { id } = await openWindow(token)
    const pdf = await op<Uint8Array>('GET', `/approve/windows/${id}/attachments/CLIPS`)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.headers.get('content-disposition')).toBe(
      `attachment; filename="NightShoot_20240101_D01_clips.pdf"; filename*=UTF-8''NightShoot_20240101_D01_clips.pdf`,
    )
    expect(isPdf(pdf.body)).toBe(true)
    expect(await op('GET', `/approve/windows/${id}/attachments/DATA1`)).toMatchObject({
      status: 404,
      body: { error: 'Attachment not found' },
    })
  })
})

describe('without a provider', () => {
  it('refuses Send with 409 and keeps the draft', async () => {
    const token = await project()
    const window = await openWindow(token)
    const spy = vi.spyOn(globalThis, 'fetch')
    expect(await send(NO_PROVIDER, window.id)).toMatchObject({
      status: 409,
      body: {
        error: 'No e-mail provider is configured: download the .eml file instead, or set EMAIL_PROVIDER in .dev.vars',
      },
    })
    expect(spy).not.toHaveBeenCalled()
    expect((await op('GET', `/approve/windows/${window.id}`)).body.window).toEqual(window)
  })

  it('offers the complete message as a .eml file that a mail parser reads back', async () => {
    const token = await project('Café Noir')
    const { id } = await openWindow(token)
    await op('PATCH', `/approve/windows/${id}`, {
      subject: 'Café Noir – Drehtag 1 – Überstunden genehmigt ✓ – 日本語の件名もきちんと届くように長くしておきます',
      message:
        'Grüße vom Set — alles gesichert.\nA line with = signs and trailing spaces   \n' +
        'long '.repeat(40) +
        '\n.leading dot\nFrom the set',
      attachments: ['CLIPS', 'DATA1'],
    })
    const window = (await op('GET', `/approve/windows/${id}`)).body.window
    const eml = await req<string>(
      { EMAIL_FROM: 'Jürgen Dörr, DIT <dit@example.com>' },
      'GET',
      `/approve/windows/${id}/message.eml`,
    )
    expect(eml.status).toBe(200)
    expect(eml.headers.get('content-type')).toBe('message/rfc822')
    expect(eml.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Caf_ Noir _ Drehtag 1 _ .*\.eml"; filename\*=UTF-8''Caf%C3%A9%20Noir%20%E2%80%93%20Drehtag%201%20/,
    )

    const raw = eml.body
    expect(raw).not.toMatch(/[^\r]\n/)
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78)
    expect(raw).toMatch(/^Subject: =\?UTF-8\?B\?/m)
    expect(raw).toContain('\r\nMIME-Version: 1.0\r\n')
    expect(raw).toContain('\r\nX-Unsent: 1\r\n')
    expect(raw).toMatch(/Content-Type: multipart\/mixed;\r\n boundary="=_mls_[0-9a-f]{32}"/)
    expect(raw).toMatch(/Content-Type: multipart\/alternative;\r\n boundary="=_mls_[0-9a-f]{32}"/)
    const base64Lines = raw.split('\r\n').filter((l) => /^[A-Za-z0-9+/]{76}$/.test(l))
    expect(base64Lines.length).toBeGreaterThan(10)

    const parsed = await PostalMime.parse(raw)
    expect(parsed.subject).toBe(window.subject)
    expect(parsed.from).toEqual({ name: 'Jürgen Dörr, DIT', address: 'dit@example.com' })
    expect(parsed.to).toEqual([
      { name: '', address: 'producer@example.com' },
      { name: '', address: 'post@example.com' },
    ])
    // postal-mime keeps the line break that RFC 2046 assigns to the boundary after a part.
    expect(parsed.text).toBe(`${window.preview.text}\n`)
    expect(parsed.html).toBe(`${window.preview.html}\n`)
    expect(window.attachments.map((a: { filename: string }) => a.filename)).toEqual([
      'Café Noir_20240101_D01_clips.pdf',
      'data.pdf',
    ])
    expect(parsed.attachments.map((a) => [a.filename, a.mimeType, a.disposition])).toEqual([
      ['Café Noir_20240101_D01_clips.pdf', 'application/pdf', 'attachment'],
      ['data.pdf', 'application/pdf', 'attachment'],
    ])
    for (const attachment of parsed.attachments)
      expect(isPdf(new Uint8Array(attachment.content as ArrayBuffer))).toBe(true)
  })
})

// ---- providers

const SENT_FROM = 'DIT Cart <dit@example.com>'

/** Intercepts the worker's outbound fetch and records what the provider would receive. */
function provider(answer: () => Response) {
  const requests: Array<{ url: string; method: string; headers: Record<string, string>; body: any }> = []
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init)
    requests.push({
      url: request.url,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: JSON.parse(await request.text()),
    })
    return answer()
  })
  return requests
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** A window with known content: subject with an accent, one PDF. */
async function readyWindow() {
  const token = await project()
  const { id } = await openWindow(token)
  const { body } = await op('PATCH', `/approve/windows/${id}`, {
    subject: 'Day 1 – wrapped',
    message: 'All cards backed up.',
  })
  return body.window
}

const PDF_BASE64 = expect.stringMatching(/^JVBERi0/) // "%PDF-"

describe.each([
  {
    name: 'resend',
    mail: { EMAIL_PROVIDER: 'resend', EMAIL_API_KEY: 're_test_0123456789', EMAIL_FROM: SENT_FROM },
    ok: () => json({ id: '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794' }),
    expected: (w: any) => ({
      url: 'https://api.resend.com/emails',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'media-log-service',
        authorization: 'Bearer re_test_0123456789',
      },
      body: {
        from: 'DIT Cart <dit@example.com>',
        to: ['producer@example.com', 'post@example.com'],
        subject: 'Day 1 – wrapped',
        html: w.preview.html,
        text: w.preview.text,
        attachments: [
          { filename: 'NightShoot_20240101_D01_clips.pdf', content: PDF_BASE64, content_type: 'application/pdf' },
        ],
      },
    }),
    refusal: () =>
      json(
        {
          statusCode: 422,
          name: 'validation_error',
          message: 'Invalid `to` field. The email address needs to follow the `email@example.com` format.',
        },
        422,
      ),
    refusalText:
      'Resend refused the message (HTTP 422): Invalid `to` field. The email address needs to follow the `email@example.com` format.',
  },
  {
    name: 'postmark',
    mail: { EMAIL_PROVIDER: 'postmark', EMAIL_API_KEY: 'pm-server-token-0123', EMAIL_FROM: SENT_FROM },
    ok: () =>
      json({
        To: 'producer@example.com',
        SubmittedAt: '2024-01-01T20:00:00Z',
        MessageID: 'b7bc2f4a',
        ErrorCode: 0,
        Message: 'OK',
      }),
    expected: (w: any) => ({
      url: 'https://api.postmarkapp.com/email',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'media-log-service',
        'x-postmark-server-token': 'pm-server-token-0123',
      },
      body: {
        From: 'DIT Cart <dit@example.com>',
        To: 'producer@example.com, post@example.com',
        Subject: 'Day 1 – wrapped',
        HtmlBody: w.preview.html,
        TextBody: w.preview.text,
        MessageStream: 'outbound',
        Attachments: [
          { Name: 'NightShoot_20240101_D01_clips.pdf', Content: PDF_BASE64, ContentType: 'application/pdf' },
        ],
      },
    }),
    refusal: () =>
      json(
        { ErrorCode: 300, Message: "Invalid 'From' address: 'dit@example.com' is not a verified sender signature." },
        422,
      ),
    refusalText:
      "Postmark refused the message (HTTP 422): Invalid 'From' address: 'dit@example.com' is not a verified sender signature.",
  },
  {
    name: 'sendgrid',
    mail: { EMAIL_PROVIDER: 'sendgrid', EMAIL_API_KEY: 'SG.test.0123456789', EMAIL_FROM: SENT_FROM },
    ok: () => new Response(null, { status: 202 }),
    expected: (w: any) => ({
      url: 'https://api.sendgrid.com/v3/mail/send',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'media-log-service',
        authorization: 'Bearer SG.test.0123456789',
      },
      body: {
        personalizations: [{ to: [{ email: 'producer@example.com' }, { email: 'post@example.com' }] }],
        from: { email: 'dit@example.com', name: 'DIT Cart' },
        subject: 'Day 1 – wrapped',
        content: [
          { type: 'text/plain', value: w.preview.text },
          { type: 'text/html', value: w.preview.html },
        ],
        attachments: [
          {
            content: PDF_BASE64,
            filename: 'NightShoot_20240101_D01_clips.pdf',
            type: 'application/pdf',
            disposition: 'attachment',
          },
        ],
      },
    }),
    refusal: () =>
      json(
        {
          errors: [
            { message: 'The from address does not match a verified Sender Identity.', field: 'from', help: null },
          ],
        },
        403,
      ),
    refusalText:
      'SendGrid refused the message (HTTP 403): from: The from address does not match a verified Sender Identity.',
  },
  {
    name: 'custom',
    mail: {
      EMAIL_PROVIDER: 'custom',
      EMAIL_API_KEY: 'relay-secret-0123',
      EMAIL_FROM: SENT_FROM,
      EMAIL_API_URL: 'https://relay.example.com/send',
    },
    ok: () => json({ id: 'r1' }, 201),
    expected: (w: any) => ({
      url: 'https://relay.example.com/send',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'media-log-service',
        authorization: 'Bearer relay-secret-0123',
      },
      body: {
        from: { name: 'DIT Cart', address: 'dit@example.com' },
        to: ['producer@example.com', 'post@example.com'],
        subject: 'Day 1 – wrapped',
        text: w.preview.text,
        html: w.preview.html,
        attachments: [
          { filename: 'NightShoot_20240101_D01_clips.pdf', contentType: 'application/pdf', content: PDF_BASE64 },
        ],
      },
    }),
    refusal: () => new Response('upstream mail server unavailable', { status: 503 }),
    refusalText: 'The mail service refused the message (HTTP 503): upstream mail server unavailable',
  },
])('sending through $name', ({ mail, ok, expected, refusal, refusalText }) => {
  it('posts exactly the documented request and marks the window sent', async () => {
    const window = await readyWindow()
    const listed = (await req(mail, 'GET', `/approve/windows/${window.id}`)).body.window
    expect(listed.delivery).toEqual({ provider: mail.EMAIL_PROVIDER, configured: true, from: SENT_FROM, problem: null })
    const requests = provider(ok)
    const sent = await send(mail, window.id)
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({
      success: true,
      window: { status: 'sent', error: null, sentAt: expect.any(String) },
    })
    expect(requests).toEqual([expected(window)])
    const pdfs = requests[0]!.body.attachments ?? requests[0]!.body.Attachments
    expect(isPdf(fromBase64(pdfs[0].content ?? pdfs[0].Content))).toBe(true)

    expect((await req(mail, 'GET', `/approve/windows/${window.id}`)).body.window).toMatchObject({
      status: 'sent',
      sentAt: sent.body.window.sentAt,
    })
    expect(await send(mail, window.id)).toMatchObject({
      status: 409,
      body: { error: 'The message has already been sent' },
    })
    expect(await req(mail, 'PATCH', `/approve/windows/${window.id}`, { subject: 'again' })).toMatchObject({
      status: 409,
    })
    expect(requests).toHaveLength(1)
  })

  it('shows the provider’s refusal in words and keeps the draft to fix and send again', async () => {
    const window = await readyWindow()
    const requests = provider(refusal)
    const failed = await send(mail, window.id)
    expect(failed).toMatchObject({ status: 502, body: { error: refusalText } })
    const after = (await req(mail, 'GET', `/approve/windows/${window.id}`)).body.window
    expect(after).toMatchObject({
      status: 'failed',
      error: refusalText,
      recipients: window.recipients,
      subject: window.subject,
      message: window.message,
      attachments: window.attachments,
      sentAt: null,
    })

    expect(
      await req(mail, 'PATCH', `/approve/windows/${window.id}`, { recipients: ['producer@example.com'] }),
    ).toMatchObject({ status: 200, body: { window: { status: 'failed' } } })
    vi.restoreAllMocks()
    const retried = provider(ok)
    expect(await send(mail, window.id)).toMatchObject({
      status: 200,
      body: { window: { status: 'sent', error: null } },
    })
    expect(requests).toHaveLength(1)
    expect(retried).toHaveLength(1)
  })
})

describe('delivery settings', () => {
  it('sends SendGrid mail to a regional host given in EMAIL_API_URL', async () => {
    const window = await readyWindow()
    const requests = provider(() => new Response(null, { status: 202 }))
    const mail = {
      EMAIL_PROVIDER: 'sendgrid',
      EMAIL_API_KEY: 'SG.k',
      EMAIL_FROM: 'dit@example.com',
      EMAIL_API_URL: 'https://api.eu.sendgrid.com/',
    }
    expect((await send(mail, window.id)).status).toBe(200)
    expect(requests[0]).toMatchObject({
      url: 'https://api.eu.sendgrid.com/v3/mail/send',
      body: { from: { email: 'dit@example.com' } },
    })
    expect(requests[0]!.body.from).toEqual({ email: 'dit@example.com' })
  })

  it.each([
    [
      { EMAIL_PROVIDER: 'resend', EMAIL_FROM: SENT_FROM },
      'EMAIL_API_KEY is not set: add the provider’s API key to .dev.vars',
    ],
    [{ EMAIL_PROVIDER: 'postmark', EMAIL_API_KEY: 'k' }, 'EMAIL_FROM is not set: add the sender address to .dev.vars'],
    [
      { EMAIL_PROVIDER: 'resend', EMAIL_API_KEY: 'k', EMAIL_FROM: 'not an address' },
      'EMAIL_FROM is not a valid address such as "DIT <dit@example.com>"',
    ],
    [
      { EMAIL_PROVIDER: 'custom', EMAIL_FROM: SENT_FROM },
      'EMAIL_API_URL is not set: the custom provider needs the URL to post to',
    ],
    [
      { EMAIL_PROVIDER: 'mailgun', EMAIL_API_KEY: 'k', EMAIL_FROM: SENT_FROM },
      'EMAIL_PROVIDER must be one of resend, postmark, sendgrid, custom',
    ],
  ])('explains an incomplete setup (%j) and refuses Send with 409', async (mail, problem) => {
    const window = await readyWindow()
    const spy = vi.spyOn(globalThis, 'fetch')
    expect((await req(mail, 'GET', `/approve/windows/${window.id}`)).body.window.delivery).toMatchObject({
      configured: false,
      problem,
    })
    expect(await send(mail, window.id)).toMatchObject({
      status: 409,
      body: { error: problem },
    })
    expect(spy).not.toHaveBeenCalled()
    expect((await req(mail, 'GET', `/approve/windows/${window.id}`)).body.window.status).toBe('draft')
  })

  it('never shows the API key, not even when the provider repeats it', async () => {
    const key = 're_secret_do_not_show_4711'
    const mail = { EMAIL_PROVIDER: 'resend', EMAIL_API_KEY: key, EMAIL_FROM: SENT_FROM }
    const window = await readyWindow()
    provider(() => json({ statusCode: 403, name: 'invalid_api_key', message: `API key ${key} is invalid` }, 403))
    const answers = [
      await send(mail, window.id),
      await req(mail, 'GET', '/approve/windows'),
      await req(mail, 'GET', `/approve/windows/${window.id}`),
      await req(mail, 'GET', `/approve/windows/${window.id}/message.eml`),
    ]
    expect(answers[0]).toMatchObject({
      status: 502,
      body: { error: 'Resend refused the message (HTTP 403): API key [EMAIL_API_KEY] is invalid' },
    })
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(key)
  })

  it('reports a provider it cannot reach, and keeps the draft', async () => {
    const mail = { EMAIL_PROVIDER: 'postmark', EMAIL_API_KEY: 'pm-server-token-0123', EMAIL_FROM: SENT_FROM }
    const window = await readyWindow()
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Network connection lost.'))
    expect(await send(mail, window.id)).toMatchObject({
      status: 502,
      body: { error: 'Could not reach Postmark: Network connection lost.' },
    })
    expect((await req(mail, 'GET', `/approve/windows/${window.id}`)).body.window).toMatchObject({
      status: 'failed',
      error: 'Could not reach Postmark: Network connection lost.',
    })
  })

  it('refuses to send a window without recipients', async () => {
    const mail = { EMAIL_PROVIDER: 'postmark', EMAIL_API_KEY: 'pm-server-token-0123', EMAIL_FROM: SENT_FROM }
    const token = await project('NightShoot', [])
    const window = await openWindow(token, { logId: 'D001' })
    const spy = vi.spyOn(globalThis, 'fetch')
    expect(await send(mail, window.id)).toMatchObject({
      status: 409,
      body: { error: 'Add at least one recipient before sending' },
    })
    expect(spy).not.toHaveBeenCalled()
  })

  it('fails the send of a window whose PDF preset was deleted, with the reason, and sends nothing', async () => {
    const mail = { EMAIL_PROVIDER: 'postmark', EMAIL_API_KEY: 'pm-server-token-0123', EMAIL_FROM: SENT_FROM }
    const token = await project()
    const window = await openWindow(token, { logId: 'D001', presetId: 'DAILY' })
    expect(
      (await call('PATCH', '/project/config', { token, body: { pdfs: PDFS.slice(1), emails: [PLAIN] } })).status,
    ).toBe(200)
    const spy = vi.spyOn(globalThis, 'fetch')
    const error = 'The PDF preset of NightShoot_20240101_D01_clips.pdf no longer exists: remove that attachment'
    expect(await send(mail, window.id)).toMatchObject({
      status: 409,
      body: { error },
    })
    expect(spy).not.toHaveBeenCalled()
    const after = (await op('GET', `/approve/windows/${window.id}`)).body.window
    expect(after).toMatchObject({
      status: 'failed',
      error,
      presetLabel: null,
      attachments: [{ presetId: 'CLIPS', label: 'CLIPS' }],
    })
    expect((await op('PATCH', `/approve/windows/${window.id}`, { attachments: [] })).body.window.attachments).toEqual(
      [],
    )
  })

  it('fails the send of a window whose log was deleted, with the reason, and sends nothing', async () => {
    const mail = { EMAIL_PROVIDER: 'postmark', EMAIL_API_KEY: 'pm-server-token-0123', EMAIL_FROM: SENT_FROM }
    const token = await project()
    const window = await openWindow(token)
    expect((await call('DELETE', '/log/D001', { token })).status).toBe(200)
    const spy = vi.spyOn(globalThis, 'fetch')
    expect(await send(mail, window.id)).toMatchObject({
      status: 404,
      body: { error: 'Log not found' },
    })
    expect(spy).not.toHaveBeenCalled()
    expect((await op('GET', `/approve/windows/${window.id}`)).body.window).toMatchObject({
      status: 'failed',
      error: 'A log of this message no longer exists; discard the window and open a new one.',
    })
  })
})

// ---- SPEC §11: what the operator approves is what is sent

const RELAY: Mail = {
  EMAIL_PROVIDER: 'custom',
  EMAIL_API_KEY: 'relay-secret-0123',
  EMAIL_FROM: SENT_FROM,
  EMAIL_API_URL: 'https://relay.example.com/send',
}

/** Day 1 with RAID_A's copy of clip 2 gone: one error where there was none. */
async function loseACopy(token: string) {
  const clips = [clip(1), clip(2, { copies: [{ volume: 'SSD_01', hash: `xxh64:${'2'.padStart(16, '0')}` }] }), clip(3)]
  const patched = await call('PATCH', '/log/D001', {
    token,
    body: { ocf: { reels: ['A001'], copies: ['SSD_01', 'RAID_A'], clips } },
  })
  expect(patched.status).toBe(200)
}

const LOST_A_COPY = {
  errors: 1,
  warnings: 2,
  info: 0,
  kinds: [
    { kind: 'copy-missing', title: 'Missing copies', severity: 'error', count: 1 },
    { kind: 'not-verified', title: 'Copies without a checksum', severity: 'warning', count: 2 },
  ],
  days: [
    {
      title: 'Day 1 — 2024-01-01',
      lines: [
        'Missing copies — RAID_A: 1 clip (A001C002_240101_R1AB)',
        'Copies without a checksum — RAID_A: 2 clips (A001C001_240101_R1AB, A001C003_240101_R1AB)',
        'no other findings',
      ],
    },
  ],
}

describe('windows kept from before copies had states', () => {
  const sql = <T>(query: (state: DurableObjectState) => T) =>
    runInDurableObject(env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace')), (_: unknown, state) => query(state))

  it('reads a sent window’s figures as drawn then, in the one account’s words', async () => {
    const token = await project()
    const { id } = await openWindow(token)
    // The window as a store of schema 5 kept it, sent: each volume's copies in the old counts.
    await sql((state) => {
      const row = state.storage.sql.exec<{ summary: string }>('SELECT summary FROM send_windows WHERE id = ?', id).one()
      const figures = JSON.parse(row.summary)
      figures.days[0].copies = [
        { volume: 'SSD_01', copied: 3, total: 3, hashed: 3, verified: 1 },
        { volume: 'RAID_A', copied: 2, total: 3, hashed: 0 },
      ]
      state.storage.sql.exec(
        "UPDATE send_windows SET summary = ?, status = 'sent', sent_at = ? WHERE id = ?",
        JSON.stringify(figures),
        new Date().toISOString(),
        id,
      )
    })
    const state = await op('GET', '/approve/state')
    expect(state.status).toBe(200)
    const window = state.body.windows.find((w: { id: string }) => w.id === id)
    expect(window.preview.text).toContain(
      'OCF copies:   SSD_01: 3 clips: 2 checksums recorded (not read back), 1 verified (read back)\n' +
        '                RAID_A: 3 clips: 1 missing, 2 without a checksum',
    )
    expect((await op('GET', '/approve/windows')).status).toBe(200)
  })

  it('starts a store whose windows predate following their logs (schema 4), and redraws its drafts', async () => {
    const token = await project()
    const { id } = await openWindow(token)
    await sql((state) => {
      for (const column of ['summary_source', 'content_key', 'composed_at', 'seen_source', 'seen_at'])
        state.storage.sql.exec(`ALTER TABLE send_windows DROP COLUMN ${column}`)
      state.storage.sql.exec("UPDATE meta SET value = '4' WHERE key = 'schema'")
    })
    await abortAllDurableObjects()
    const state = await op('GET', '/approve/state')
    expect(state.status).toBe(200)
    expect(state.body.windows.map((w: { id: string }) => w.id)).toEqual([id])
    expect(state.body.windows[0].preview.text).toContain('RAID_A: 3 clips, none with a checksum')
  })
})

describe('a send window follows its logs', () => {
  it('wakes the console when a log it names is patched, and shows the day as it is now', async () => {
    const token = await project()
    const opened = await openWindow(token)
    expect(opened.checks.errors).toBe(0)
    const ws = workspace(env)
    const before = (await ws.consoleState(-1, 0)).version
    const waiting = ws.consoleState(before, 10_000)
    await loseACopy(token)
    expect((await waiting).version).toBeGreaterThan(before)

    const { body } = await op('GET', `/approve/windows/${opened.id}`)
    expect(body.window).toEqual({
      ...opened,
      preview: {
        html: expect.stringContaining('RAID_A: 3 clips: 1 missing, 2 without a checksum'),
        text: expect.any(String),
      },
      checks: LOST_A_COPY,
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      version: expect.any(String),
      updated: { logIds: ['D001'], settings: false, text: 'Updated: the day changed since you opened this window.' },
      mailto: expect.any(String),
    })
    expect(body.window.preview.text).toContain(
      '  OCF copies:   SSD_01: 3 clips, checksums recorded (not read back)\n                RAID_A: 3 clips: 1 missing, 2 without a checksum\n  Verification: Missing copies — RAID_A: 1 clip (A001C002_240101_R1AB)',
    )
    expect(body.window.fingerprint).not.toBe(opened.fingerprint)
    expect(body.window.version).not.toBe(opened.version)
    // The console's state shows the same window, and the same again on the next look.
    const state = await op('GET', '/approve/state')
    expect(state.body.windows).toEqual([{ ...body.window, days: ['Day 1 — 2024-01-01'] }])
    expect((await op('GET', `/approve/windows/${opened.id}`)).body.window).toEqual(body.window)
  })

  it('follows its logs after a restart of the workspace too', async () => {
    const token = await project()
    const opened = await openWindow(token)
    await abortAllDurableObjects()
    const ws = workspace(env)
    const before = (await ws.consoleState(-1, 0)).version
    await loseACopy(token)
    expect((await ws.consoleState(before, 0)).version).toBeGreaterThan(before)
    const { window } = (await op('GET', `/approve/windows/${opened.id}`)).body
    expect(window.checks).toEqual(LOST_A_COPY)
    await abortAllDurableObjects()
    expect((await op('GET', `/approve/windows/${opened.id}`)).body.window).toEqual(window)
  })

  it('keeps the fingerprint of a message the write left as it was: its send still goes', async () => {
    const token = await project()
    const { id } = await openWindow(token, { logId: 'D002', presetId: 'PLAIN' })
    const shown = (await req(RELAY, 'GET', `/approve/windows/${id}`)).body.window
    // The plain template carries the operator's message alone: a new unit changes nothing in it.
    expect((await call('PATCH', '/log/D002', { token, body: { unit: 'Splinter Unit' } })).status).toBe(200)
    const now = (await req(RELAY, 'GET', `/approve/windows/${id}`)).body.window
    expect(now.updated).toMatchObject({ logIds: ['D002'] })
    expect(now.fingerprint).toBe(shown.fingerprint)
    const requests = provider(() => json({ id: 'r1' }, 201))
    expect(await req(RELAY, 'POST', `/approve/windows/${id}/send`, { fingerprint: shown.fingerprint })).toMatchObject({
      status: 200,
      body: { window: { status: 'sent' } },
    })
    expect(requests).toHaveLength(1)
  })

  it('stays as it is when a log it does not name is written (the console hears of the write, for its Days view)', async () => {
    const token = await project()
    const opened = await openWindow(token)
    const ws = workspace(env)
    const before = (await ws.consoleState(-1, 0)).version
    expect((await call('PATCH', '/log/D002', { token, body: { unit: 'Splinter Unit' } })).status).toBe(200)
    expect(
      (await call('POST', '/log', { token, body: makeLog('D003', 1, { day: 3, date: '2024-01-03' }) })).status,
    ).toBe(201)
    expect((await ws.consoleState(before, 0)).version).toBeGreaterThan(before)
    expect((await op('GET', `/approve/windows/${opened.id}`)).body.window).toEqual(opened)
  })

  it('follows settings: a renamed PDF, and says the settings changed', async () => {
    const token = await project()
    const opened = await openWindow(token)
    const ws = workspace(env)
    const before = (await ws.consoleState(-1, 0)).version
    const pdfs = [{ ...PDFS[0], output_name: 'Rushes_D<dd>.pdf' }, ...PDFS.slice(1)]
    expect((await call('PATCH', '/project/config', { token, body: { pdfs } })).status).toBe(200)
    expect((await ws.consoleState(before, 0)).version).toBeGreaterThan(before)
    const { window } = (await op('GET', `/approve/windows/${opened.id}`)).body
    expect(window.attachments.map((a: { filename: string }) => a.filename)).toEqual(['Rushes_D01.pdf'])
    expect(window.updated).toEqual({
      logIds: [],
      settings: true,
      text: 'Updated: the project settings changed since you opened this window.',
    })
    expect(window.fingerprint).not.toBe(opened.fingerprint)
  })

  it('says when a log it names is deleted, and cannot be sent', async () => {
    const token = await project()
    const opened = await openWindow(token, { logId: ['D001', 'D002'], presetId: 'DAILY' })
    expect((await call('DELETE', '/log/D001', { token })).status).toBe(200)
    const { window } = (await op('GET', `/approve/windows/${opened.id}`)).body
    expect(window).toMatchObject({
      missingLogs: ['D001'],
      updated: {
        logIds: ['D001'],
        settings: false,
        text: 'Updated: log D001 deleted or renamed since you opened this window.',
      },
    })
  })

  it('stops saying it was updated once the operator has looked at it (PATCH {seen})', async () => {
    const token = await project()
    const opened = await openWindow(token)
    await loseACopy(token)
    const changed = (await op('GET', `/approve/windows/${opened.id}`)).body.window
    // A look at an older version acknowledges nothing: 409 with the window as it is.
    const stale = await op('PATCH', `/approve/windows/${opened.id}`, { seen: opened.fingerprint })
    expect(stale).toMatchObject({
      status: 409,
      body: { error: 'The e-mail changed again since it was shown: look at it again.', window: changed },
    })
    const ws = workspace(env)
    const before = (await ws.consoleState(-1, 0)).version
    const seen = await op('PATCH', `/approve/windows/${opened.id}`, { seen: changed.fingerprint })
    expect(seen).toMatchObject({ status: 200, body: { success: true, window: { ...changed, updated: null } } })
    expect((await ws.consoleState(before, 0)).version).toBeGreaterThan(before)
    expect((await op('GET', `/approve/windows/${opened.id}`)).body.window).toEqual(seen.body.window)
    // The next change is told as since the last look.
    await call('PATCH', '/log/D001', { token, body: { unit: 'Second Unit' } })
    expect((await op('GET', `/approve/windows/${opened.id}`)).body.window.updated.text).toBe(
      'Updated: the day changed since you last looked at this e-mail.',
    )
    expect(
      await op('PATCH', `/approve/windows/${opened.id}`, { seen: changed.fingerprint, subject: 'x' }),
    ).toMatchObject({
      status: 400,
      body: { error: 'Validation Error', details: [{ prop: 'seen', message: 'must be sent alone, not with changes' }] },
    })
  })

  it('refuses a send naming a message that differs now: 409 with the window as it is, nothing sent', async () => {
    const token = await project()
    const { id } = await openWindow(token)
    const shown = (await req(RELAY, 'GET', `/approve/windows/${id}`)).body.window
    expect(shown.checks.errors).toBe(0)
    await loseACopy(token)
    const requests = provider(() => json({ id: 'r1' }, 201))

    const refused = await req(RELAY, 'POST', `/approve/windows/${id}/send`, { fingerprint: shown.fingerprint })
    const now = (await req(RELAY, 'GET', `/approve/windows/${id}`)).body.window
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error: 'The e-mail changed since it was shown: nothing was sent. Look at it again, then send it.',
        window: now,
      },
    })
    expect(Object.keys(refused.body)).toEqual(['error', 'window'])
    expect(now).toMatchObject({ status: 'draft', error: null, checks: LOST_A_COPY })
    expect(requests).toEqual([])

    const sent = await req(RELAY, 'POST', `/approve/windows/${id}/send`, { fingerprint: now.fingerprint })
    expect(sent).toMatchObject({ status: 200, body: { success: true, window: { status: 'sent' } } })
    expect(requests).toHaveLength(1)
    expect(requests[0]!.body.text).toBe(now.preview.text)
    expect(requests[0]!.body.text).toContain('Missing copies — RAID_A: 1 clip (A001C002_240101_R1AB)')
  })

  it('refuses a send that names no message, or not as listed, with 400 and sends nothing', async () => {
    const token = await project()
    const { id } = await openWindow(token)
    const requests = provider(() => json({ id: 'r1' }, 201))
    const path = `/approve/windows/${id}/send`
    expect(await req(RELAY, 'POST', path, {})).toMatchObject({
      status: 400,
      body: { error: 'Validation Error', details: [{ prop: 'fingerprint' }] },
    })
    expect(await req(RELAY, 'POST', path, { fingerprint: 'latest' })).toEqual({
      status: 400,
      body: {
        error: 'Validation Error',
        details: [
          { prop: 'fingerprint', message: 'must be the window’s fingerprint as listed: 64 hexadecimal digits' },
        ],
      },
      headers: expect.anything(),
    })
    expect(await req(RELAY, 'POST', path)).toMatchObject({ status: 415 })
    expect(requests).toEqual([])
    expect((await op('GET', `/approve/windows/${id}`)).body.window.status).toBe('draft')
  })

  it('downloads the .eml as the message Send sends: same bytes each time, same parts as the provider gets', async () => {
    const token = await project()
    const { id } = await openWindow(token)
    await op('PATCH', `/approve/windows/${id}`, { attachments: ['CLIPS', 'DATA1'] })
    // The day moves after opening: the message follows, and so do its file and its send.
    await loseACopy(token)
    const shown = (await req(RELAY, 'GET', `/approve/windows/${id}`)).body.window
    const first = await req<string>(RELAY, 'GET', `/approve/windows/${id}/message.eml`)
    const again = await req<string>(RELAY, 'GET', `/approve/windows/${id}/message.eml`)
    expect(first.status).toBe(200)
    expect(again.body).toBe(first.body)
    const pdf = await req<Uint8Array>(RELAY, 'GET', `/approve/windows/${id}/attachments/CLIPS`)

    const requests = provider(() => json({ id: 'r1' }, 201))
    expect((await req(RELAY, 'POST', `/approve/windows/${id}/send`, { fingerprint: shown.fingerprint })).status).toBe(
      200,
    )
    expect(requests).toHaveLength(1)
    const received = requests[0]!.body
    const eml = await PostalMime.parse(first.body)
    expect(eml.from).toEqual(received.from)
    expect(eml.to).toEqual(received.to.map((address: string) => ({ name: '', address })))
    expect(eml.subject).toBe(received.subject)
    // postal-mime keeps the line break that RFC 2046 assigns to the boundary after a part.
    expect(eml.text).toBe(`${received.text}\n`)
    expect(eml.html).toBe(`${received.html}\n`)
    expect(received.text).toContain('Missing copies — RAID_A: 1 clip (A001C002_240101_R1AB)')
    expect(eml.attachments.map((a) => [a.filename, a.mimeType])).toEqual(
      received.attachments.map((a: { filename: string; contentType: string }) => [a.filename, a.contentType]),
    )
    for (const [i, attachment] of eml.attachments.entries())
      expect(new Uint8Array(attachment.content as ArrayBuffer)).toEqual(fromBase64(received.attachments[i].content))
    expect(pdf.body).toEqual(fromBase64(received.attachments[0].content))
    // The envelope comes from the message's fingerprint: no made-up id or boundary.
    expect(first.body).toMatch(new RegExp(`\\r\\nMessage-ID: <${shown.fingerprint.slice(0, 32)}@example\\.com>\\r\\n`))
  })

  it("dates the .eml on the project's clocks: the moment it was composed, with the zone's offset", async () => {
    const token = await project()
    expect((await call('PATCH', '/project/config', { token, body: { time_zone: 'Asia/Kolkata' } })).status).toBe(200)
    const before = Math.floor(Date.now() / 1000) * 1000
    const { id } = await openWindow(token)
    expect((await req(RELAY, 'GET', `/approve/windows/${id}`)).status).toBe(200)
    const eml = await req<string>(RELAY, 'GET', `/approve/windows/${id}/message.eml`)
    const date = /\r\nDate: ([^\r]+)\r\n/.exec(eml.body)![1]!
    expect(date).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0530$/)
    expect(Date.parse(date)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(date)).toBeLessThanOrEqual(Date.now())
  })
})

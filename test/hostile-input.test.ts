// What an outside review sent to break the service: text that is not Unicode, bodies that cost
// work before any check, requests the worker cannot read, and bodies that never finish.
import { env } from 'cloudflare:workers'
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { contentDisposition } from '../src/http/headers'
import { mailtoLink } from '../src/mail/view'
import type { Workspace } from '../src/workspace/Workspace'
import { BASE, call, fetchWorker, makeLog, operator, withProject } from './helpers'

const stub = () => env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace'))
const LONE = 'must be well-formed Unicode (a lone surrogate was sent)'

/** A body with no length that sends `first` and then neither ends nor fails. */
function endless(first = '{"appName":') {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first))
    },
  })
}

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('strings that are not well-formed Unicode', () => {
  it('are refused at the door with the property named, and nothing is stored', async () => {
    const { token } = await withProject()
    const log = JSON.stringify(makeLog('D001', 1))
    const cases: Array<[string, string, string, string]> = [
      ['POST', '/log', log.replace('"Main Unit"', '"Main \\udc00Unit"'), 'unit'],
      ['POST', '/log', log.replace('{"volume":"SSD_01"', '{"volume":"SSD_\\ud800"'), 'ocf.clips.0.copies.0.volume'],
      ['POST', '/log', log.replace('"unit":', '"\\udfff":1,"unit":'), '\ufffd'],
      ['PATCH', '/project/config', '{"project_name":"Night \\udc00"}', 'project_name'],
      ['POST', '/project/create', '{"project_name":"\\udc00"}', 'project_name'],
    ]
    for (const [method, path, raw, prop] of cases) {
      const message = prop === '\ufffd' ? 'keys must be well-formed Unicode (a lone surrogate was sent)' : LONE
      expect(await call(method, path, { token, raw }), `${method} ${path} ${prop}`).toMatchObject({
        status: 400,
        body: { error: 'Validation Error', details: [{ prop, message }] },
      })
    }
    expect(await call('POST', '/auth', { raw: '{"appName":"Offload \\udc00"}' })).toMatchObject({
      status: 400,
      body: { details: [{ prop: 'appName', message: LONE }] },
    })
    expect((await call('GET', '/logs', { token })).body).toEqual({ logs: [] })
    expect((await call('GET', '/project/config', { token })).body.project_name).toBe('Feature Film')
    expect((await call('GET', '/projects', { token })).body).toHaveLength(1)
  })

  it('accepts escaped surrogate pairs, which are one character', async () => {
    const { token } = await withProject()
    const raw = JSON.stringify(makeLog('D001', 1)).replace('"Main Unit"', '"Unit \\ud83c\\udfac"')
    expect(await call('POST', '/log', { token, raw })).toMatchObject({ status: 201 })
    expect((await call('GET', '/log/D001', { token })).body.unit).toBe('Unit 🎬')
  })

  it('stored before that rule, they show as U+FFFD and take no page down', async () => {
    const { token } = await withProject('Night')
    expect(
      (
        await call('PATCH', '/project/config', {
          token,
          body: {
            pdfs: [{ id: 'CLIPS', label: 'Clips', output_name: '<project>.pdf', template: 'clips-report' }],
            emails: [
              {
                id: 'DAILY',
                label: 'Daily',
                recipients: ['p@example.com'],
                subject: 'Day <d>',
                attachments: ['CLIPS'],
              },
            ],
          },
        })
      ).status,
    ).toBe(200)
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1) })).status).toBe(201)
    expect((await call('POST', '/open-email-window', { token, body: { logId: 'D001' } })).status).toBe(200)
    // What an older version stored: a project name and a recipient with a lone surrogate, kept as
    // JSON escapes (the SQL text itself cannot hold one).
    await runInDurableObject(stub(), (_: Workspace, state) => {
      const row = state.storage.sql.exec<{ settings: string }>('SELECT settings FROM projects').one()
      const settings = { ...JSON.parse(row.settings), project_name: 'Night \udc00' }
      state.storage.sql.exec('UPDATE projects SET settings = ?', JSON.stringify(settings))
      state.storage.sql.exec('UPDATE send_windows SET recipients = ?', JSON.stringify(['p\udc00@example.com']))
    })
    await abortAllDurableObjects()

    expect((await operator('GET', '/approve/state')).status).toBe(200)
    const windows = await operator('GET', '/approve/windows')
    expect(windows.status).toBe(200)
    const [window] = windows.body.windows
    expect(window.mailto).toMatch(/^mailto:p%EF%BF%BD@example\.com\?subject=Day%201&/)
    const pdf = await fetchWorker(
      new Request(`${BASE}/approve/windows/${window.id}/attachments/CLIPS`, {
        headers: { 'x-operator-key': 'test-operator-key-0123456789abcdef' },
      }),
    )
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-disposition')).toContain("filename*=UTF-8''Night%20%EF%BF%BD.pdf")
    await pdf.arrayBuffer()
    const eml = await fetchWorker(
      new Request(`${BASE}/approve/windows/${window.id}/message.eml`, {
        headers: { 'x-operator-key': 'test-operator-key-0123456789abcdef' },
      }),
    )
    expect(eml.status).toBe(200)
    await eml.arrayBuffer()
  })

  it('mailto links and download names are total', () => {
    expect(mailtoLink(['a\ud800@example.com'], 'S\udc00', 'B\ud800', [])).toBe(
      'mailto:a%EF%BF%BD@example.com?subject=S%EF%BF%BD&body=B%EF%BF%BD',
    )
    expect(contentDisposition('\udc00.pdf')).toBe(`attachment; filename="_.pdf"; filename*=UTF-8''%EF%BF%BD.pdf`)
  })
})

describe('work asked before any check', () => {
  it('POST /auth reads at most 4 KiB', async () => {
    const raw = JSON.stringify({ appName: 'x', pad: 'y'.repeat(5000) })
    expect(await call('POST', '/auth', { raw })).toEqual(
      expect.objectContaining({ status: 413, body: { error: 'Payload Too Large' } }),
    )
    expect(await call('POST', '/auth', { raw: endlessOf(raw) })).toEqual(
      expect.objectContaining({ status: 413, body: { error: 'Payload Too Large' } }),
    )
  })

  it('a token that cannot be one is refused before the body is read', async () => {
    await withProject()
    // The body never ends: reading it would wait for the body timeout.
    for (const token of ['junk', 'mls_0123_abc', `mls_${'0'.repeat(16)}_${'a'.repeat(42)}`]) {
      expect(await call('POST', '/log', { token, raw: endless('{"id":') })).toEqual(
        expect.objectContaining({ status: 401, body: { error: 'Unauthorized' } }),
      )
    }
  })

  it('a large or unsized body is read only after the workspace has accepted the token', async () => {
    const { token } = await withProject()
    const unknown = `mls_${'0'.repeat(16)}_${'a'.repeat(43)}`
    expect(await call('POST', '/log', { token: unknown, raw: endless('{"id":') })).toEqual(
      expect.objectContaining({ status: 401, body: { error: 'Unauthorized' } }),
    )
    expect(await call('PATCH', '/log/D001', { token: unknown, raw: endless('{"unit":') })).toEqual(
      expect.objectContaining({ status: 401 }),
    )
    expect(await call('PATCH', '/project/config', { token: unknown, raw: endless('{"unit":') })).toEqual(
      expect.objectContaining({ status: 401 }),
    )
    const big = JSON.stringify(makeLog('D001', 1, { pad: 'x'.repeat(2 * 1024 * 1024) }))
    expect(await call('POST', '/log', { token: unknown, raw: big })).toEqual(expect.objectContaining({ status: 401 }))
    expect(await call('POST', '/log', { token, raw: big })).toEqual(expect.objectContaining({ status: 201 }))
  })

  it('a large body nested deeper than 64 levels is refused before it is parsed', async () => {
    const { token } = await withProject()
    // After a parse the walk would name the path (0.0.0…); the scan before it names the body.
    const raw = '['.repeat(600_000) + ']'.repeat(600_000)
    expect(await call('POST', '/log', { token, raw })).toEqual(
      expect.objectContaining({
        status: 400,
        body: { error: 'Validation Error', details: [{ prop: '', message: 'nesting deeper than 64 levels' }] },
      }),
    )
    const quoted = JSON.stringify({ ...makeLog('D001', 1), pad: '['.repeat(2_000_000) })
    expect(await call('POST', '/log', { token, raw: quoted })).toEqual(expect.objectContaining({ status: 201 }))
  })
})

/** The same text, sent without a length. */
function endlessOf(text: string) {
  const bytes = new TextEncoder().encode(text)
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes)
      controller.close()
    },
  })
}

describe('logs whose size lies outside their clips', () => {
  it('a log of bad clips from a token nobody approved is 401 before any clip is checked', async () => {
    await withProject()
    const log = { ...makeLog('D001', 0), ocf: { clips: Array.from({ length: 1000 }, () => ({ clip: 1 })) } }
    const stranger = `mls_${'0'.repeat(16)}_${'x'.repeat(43)}`
    expect(await call('POST', '/log', { token: stranger, body: log })).toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    })
  })

  it('a log of 60,000 bad clips is refused with 1,000 problems listed and the rest counted', async () => {
    const { token } = await withProject()
    const log = { ...makeLog('D001', 0), ocf: { clips: Array.from({ length: 60_000 }, () => ({ clip: 1 })) } }
    const answer = await call('POST', '/log', { token, body: log })
    expect(answer.status).toBe(400)
    expect(answer.body.details).toHaveLength(1001)
    expect(answer.body.details[0]).toEqual({ prop: 'ocf.clips.0.clip', message: 'must be a string' })
    expect(answer.body.details[1000]).toEqual({ prop: '', message: 'and 179,000 more problems like these' })
    expect((await call('GET', '/logs', { token })).body).toEqual({ logs: [] })
  })

  it(
    'a valid log with 33 MiB of notes beside a few clips is stored, as a PATCH stores it',
    { tags: 'slow' },
    async () => {
      const { token } = await withProject()
      const notes = 'x'.repeat(33 * 1024 * 1024)
      const created = await call('POST', '/log', { token, body: { ...makeLog('D001', 3), notes } })
      expect(created).toMatchObject({ status: 201, body: { success: true } })
      const stored = await call('GET', '/log/D001', { token })
      expect(stored.status).toBe(200)
      expect(stored.body.notes).toHaveLength(notes.length)
      expect(stored.body.ocf.clips).toHaveLength(3)
    },
  )
})

describe('requests the worker cannot read', () => {
  it('a malformed Host answers 400 in the error shape', async () => {
    for (const host of ['localhost:99999999', 'user@localhost', 'localhost, evil.test', 'localhost:5252:1']) {
      const response = await fetchWorker(new Request(`${BASE}/ping`, { headers: { host } }))
      expect(
        { status: response.status, type: response.headers.get('content-type'), body: await response.json() },
        host,
      ).toEqual({ status: 400, type: 'application/json; charset=utf-8', body: { error: 'Invalid Host header' } })
    }
  })

  it('a body cut short answers 400 and logs one line, without a stack', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"appName":"Off'))
        controller.error(new Error('Network connection lost.'))
      },
    })
    expect(await call('POST', '/auth', { raw: cut })).toEqual(
      expect.objectContaining({
        status: 400,
        body: { error: 'Validation Error', details: [{ prop: '', message: 'the body ended before it was complete' }] },
      }),
    )
    expect(error).not.toHaveBeenCalled()
    expect(warn.mock.calls).toEqual([['request body not read: Network connection lost.']])
  })
})

describe('bodies that never finish', () => {
  it('answer 408 once their time is up, 10 s for a small one', async () => {
    vi.useFakeTimers()
    const answer = call('POST', '/auth', { raw: endless() })
    await vi.advanceTimersByTimeAsync(9_900)
    let settled = false
    void answer.then(() => (settled = true))
    await vi.advanceTimersByTimeAsync(0)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(200)
    expect(await answer).toEqual(expect.objectContaining({ status: 408, body: { error: 'Request body timed out' } }))
    expect((await operator('GET', '/approve/requests')).body).toEqual({ requests: [] })
  })

  it('a body with a declared length has 10 s plus a second per MiB', async () => {
    const { token } = await withProject()
    vi.useFakeTimers()
    // Declares 1 MiB (read without asking the workspace first), sends a few bytes: 11 s.
    const answer = call('PATCH', '/project/config', {
      token,
      raw: endless('{"unit":'),
      headers: { 'content-length': String(1024 * 1024) },
    })
    let settled = false
    void answer.then(() => (settled = true))
    await vi.advanceTimersByTimeAsync(10_900)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(200)
    expect(await answer).toEqual(expect.objectContaining({ status: 408, body: { error: 'Request body timed out' } }))
  })
})

describe('guessing the operator key', () => {
  const withKey = (key: string) => call('GET', '/approve/requests', { headers: { 'x-operator-key': key } })

  it('answers wrong keys ten a second, while the right key never waits', async () => {
    vi.useFakeTimers()
    let settled = 0
    const wrong = Array.from({ length: 25 }, (_, i) =>
      withKey(`wrong-key-${i}-0123456789abcdef`).then((answer) => (settled++, answer)),
    )
    await vi.advanceTimersByTimeAsync(950)
    expect(settled).toBeLessThanOrEqual(10)
    expect(settled).toBeGreaterThanOrEqual(9)
    expect(await withKey('test-operator-key-0123456789abcdef')).toMatchObject({ status: 200, body: { requests: [] } })
    await vi.advanceTimersByTimeAsync(2000)
    for (const answer of await Promise.all(wrong))
      expect(answer).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
  })

  it('answers a wrong key in its turn after the clock is set back, not when the old time comes again', async () => {
    vi.useFakeTimers()
    const first = withKey('wrong-key-before-0123456789abcdef')
    await vi.advanceTimersByTimeAsync(150)
    expect(await first).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
    vi.setSystemTime(Date.now() - 60 * 60_000)
    let settled = false
    const after = withKey('wrong-key-after-0123456789abcdef').then((answer) => ((settled = true), answer))
    await vi.advanceTimersByTimeAsync(250)
    expect(settled).toBe(true)
    expect(await after).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
  })

  it('refuses more than 100 waiting wrong keys at once with 429, and meanwhile any key, the right one too', async () => {
    vi.useFakeTimers()
    const answers = Array.from({ length: 110 }, (_, i) =>
      call('POST', '/approve/session', {
        body: { key: `wrong-${i}` },
        headers: { origin: 'http://localhost:5252', 'sec-fetch-site': 'same-origin' },
      }),
    )
    // The first was answered at once; one more wrong key fills the 100 places again.
    await vi.advanceTimersByTimeAsync(50)
    const filling = withKey('wrong-key-filling-0123456789abcdef')
    await vi.advanceTimersByTimeAsync(10)
    // Answered at once, a key compared now would say right (200) or wrong (429) without waiting.
    expect(await withKey('test-operator-key-0123456789abcdef')).toMatchObject({
      status: 429,
      body: { error: 'Too many wrong operator keys: wait a moment' },
    })
    await vi.advanceTimersByTimeAsync(20_000)
    const statuses = (await Promise.all(answers)).map((a) => a.status)
    expect(statuses.filter((s) => s === 401)).toHaveLength(100)
    expect(statuses.filter((s) => s === 429)).toHaveLength(10)
    expect(await filling).toMatchObject({ status: 401 })
    expect(await withKey('test-operator-key-0123456789abcdef')).toMatchObject({ status: 200 })
  })
})

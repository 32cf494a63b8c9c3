import { describe, expect, it } from 'vitest'
import { call, makeLog, withProject } from './helpers'

describe('meta endpoints', () => {
  it('answers /ping without a token, saying whether a project is loaded', async () => {
    expect(await call('GET', '/ping')).toMatchObject({ status: 200, body: { status: 'ok', active: false } })
    await withProject()
    expect(await call('GET', '/ping')).toMatchObject({ status: 200, body: { status: 'ok', active: true } })
  })

  it('answers /version with the app and the interface version', async () => {
    const { status, body } = await call('GET', '/version')
    expect(status).toBe(200)
    expect(body).toEqual({ version: { app: '0.1.0', api: '0.1.0' } })
  })

  it('answers an unknown path with 404 Not found', async () => {
    const { status, body } = await call('GET', '/nope')
    expect(status).toBe(404)
    expect(body).toEqual({ error: 'Not found' })
  })

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const { status, body, headers } = await call('PUT', '/log/D001', { body: {} })
    expect(status).toBe(405)
    expect(body).toEqual({ error: 'Method Not Allowed' })
    expect(headers.get('allow')).toBe('GET, PATCH, DELETE')
  })

  it('sends the same JSON headers with stored logs, made objects and every kind of refusal', async () => {
    const { token } = await withProject()
    const answers = [
      await call('POST', '/log', { token, body: makeLog('D001', 1) }),
      await call('GET', '/log/D001', { token }),
      await call('GET', '/logs', { token }),
      await call('GET', '/project', { token }),
      await call('GET', '/log/NOPE', { token }),
      await call('GET', '/nope'),
      await call('PUT', '/log/D001', { token, body: {} }),
      await call('GET', '/log/D001'),
      await call('GET', '/log/D001', { token, headers: { host: 'evil.example' } }),
      await call('POST', '/log', { token, raw: '{"id":' }),
    ]
    expect(answers.map((a) => a.status)).toEqual([201, 200, 200, 200, 404, 404, 405, 401, 403, 400])
    // What a client polls (a log, the logs) may be kept and asked for again with its tag; nothing else.
    const polled = new Set([answers[1], answers[2]])
    for (const answer of answers) {
      const { headers } = answer
      expect(
        Object.fromEntries(
          ['content-type', 'cache-control', 'x-content-type-options', 'referrer-policy', 'x-frame-options'].map((h) => [
            h,
            headers.get(h),
          ]),
        ),
      ).toEqual({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': polled.has(answer) ? 'private, no-cache' : 'no-store',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
      })
    }
  })
})

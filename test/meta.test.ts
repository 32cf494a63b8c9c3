import { describe, expect, it } from 'vitest'
import { call } from './helpers'

describe('meta endpoints', () => {
  it('answers /ping without a token', async () => {
    const { status, body } = await call('GET', '/ping')
    expect(status).toBe(200)
    expect(body).toEqual({ status: 'ok' })
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
})

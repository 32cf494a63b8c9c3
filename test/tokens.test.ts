import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { Workspace } from '../src/workspace/Workspace'
import { approvedToken, call, operator, pendingRequestOf } from './helpers'

const stub = () => env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace'))

describe('API tokens', () => {
  it('are long random strings, different for every approval', async () => {
    const a = await approvedToken('App A')
    const b = await approvedToken('App B')
    expect(a).toMatch(/^mls_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    expect(a).not.toBe(b)
  })

  it('are stored only as SHA-256 digests', async () => {
    const token = await approvedToken()
    const secret = token.split('_').slice(2).join('_')
    const rows = await runInDurableObject(stub(), (_: Workspace, state) =>
      state.storage.sql.exec('SELECT * FROM tokens').toArray(),
    )
    expect(rows).toHaveLength(1)
    const stored = JSON.stringify(rows)
    expect(stored).not.toContain(secret)
    const digest = Array.from(
      new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret))),
      (b) => b.toString(16).padStart(2, '0'),
    ).join('')
    expect(rows[0]!.digest).toBe(digest)
  })

  it('open every API endpoint; a missing, malformed or unknown one gets 401 Unauthorized', async () => {
    const token = await approvedToken()
    const forged = token.slice(0, -4) + 'AAAA'
    const endpoints: Array<[string, string, unknown?]> = [
      ['POST', '/project/create', { project_name: 'P' }],
      ['POST', '/project/load', { path: 'projects/P' }],
      ['PATCH', '/project/config', { unit: 'A' }],
      ['POST', '/log', { id: 'D1', day: 1, date: '2024-01-01' }],
      ['GET', '/logs'],
      ['GET', '/log/D1'],
      ['PATCH', '/log/D1', { unit: 'A' }],
      ['DELETE', '/log/D1'],
      ['POST', '/generate-pdf', { presetId: 'clips', logId: 'D1' }],
      ['GET', '/log/D1/pdf/clp01'],
      ['GET', '/pdf/clp01?from=1'],
      ['GET', '/projects'],
      ['GET', '/project'],
      ['GET', '/project/config'],
      ['GET', '/pdf-presets'],
      ['GET', '/email-presets'],
    ]
    for (const [method, path, body] of endpoints) {
      for (const bad of [undefined, 'not-a-token', forged]) {
        const res = await call(method, path, { token: bad, body })
        expect([method, path, res.status, res.body]).toEqual([method, path, 401, { error: 'Unauthorized' }])
      }
    }
    expect((await call('GET', '/projects', { token })).status).toBe(200)
    // Once the real secret has been seen, a secret one character off is still refused.
    const secret = token.split('_').slice(2).join('_')
    const middle = secret.length >> 1
    const oneOff = `${token.slice(0, -secret.length)}${secret.slice(0, middle)}${secret[middle] === 'A' ? 'B' : 'A'}${secret.slice(middle + 1)}`
    for (const bad of [forged, oneOff, token.slice(0, -1)]) {
      const res = await call('GET', '/projects', { token: bad })
      expect([res.status, res.body]).toEqual([401, { error: 'Unauthorized' }])
    }
    expect((await call('GET', '/projects', { token })).status).toBe(200)
  })

  it('stop working the moment the operator revokes them', async () => {
    const token = await approvedToken('Revoked App')
    const { body } = await operator('GET', '/approve/tokens')
    expect(body.tokens).toEqual([
      {
        id: token.split('_')[1],
        appName: 'Revoked App',
        mixedScripts: [],
        createdAt: expect.any(String),
        lastUsedAt: null,
      },
    ])
    expect((await call('GET', '/logs', { token })).status).toBe(200)
    expect(await operator('DELETE', `/approve/tokens/${body.tokens[0].id}`)).toMatchObject({
      status: 200,
      body: { success: true },
    })
    expect(await call('GET', '/logs', { token })).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
    expect((await operator('GET', '/approve/tokens')).body).toEqual({ tokens: [] })
  })

  it('record when they were last used', async () => {
    const token = await approvedToken()
    const before = Date.now()
    await call('GET', '/logs', { token })
    const [app] = (await operator('GET', '/approve/tokens')).body.tokens
    expect(Date.parse(app.lastUsedAt)).toBeGreaterThanOrEqual(before - 1000)
  })

  it('never open the operator endpoints', async () => {
    const token = await approvedToken()
    for (const [method, path, body] of [
      ['GET', '/approve/requests'],
      ['GET', '/approve/tokens'],
      ['POST', '/approve/requests/x', { decision: 'approve' }],
      ['DELETE', '/approve/tokens/x'],
    ] as const) {
      expect(await call(method, path, { token, body })).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
    }
  })
})

describe('POST /auth', () => {
  it('validates appName: 400 naming it', async () => {
    for (const body of [{}, { appName: '' }, { appName: 'x'.repeat(101) }, { appName: 7 }]) {
      expect(await call('POST', '/auth', { body })).toMatchObject({
        status: 400,
        body: { error: 'Validation Error', details: [{ prop: 'appName' }] },
      })
    }
    expect((await operator('GET', '/approve/requests')).body).toEqual({ requests: [] })
  })

  it('takes a withdrawn request off the console (the worker withdraws when its client hangs up)', async () => {
    const asking = call('POST', '/auth', { body: { appName: 'Impatient' } })
    const id = await pendingRequestOf('Impatient')
    await stub().withdrawAccess(id)
    expect((await operator('GET', '/approve/requests')).body).toEqual({ requests: [] })
    expect((await asking).body).toEqual({ error: 'Client closed request' })
    expect(await operator('POST', `/approve/requests/${id}`, { decision: 'approve' })).toMatchObject({
      status: 404,
      body: { error: 'Request not found' },
    })
  })
})

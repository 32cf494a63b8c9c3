import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import type { Workspace } from '../src/workspace/Workspace'
import { approvedToken, call, OPERATOR_KEY, operator, pendingRequestOf } from './helpers'

/** POST /auth left waiting, and its pending request id. */
async function ask(appName: string) {
  const answer = call('POST', '/auth', { body: { appName } })
  return { answer, id: await pendingRequestOf(appName) }
}

const decide = (id: string, decision: string) => operator('POST', `/approve/requests/${id}`, { decision })

describe('operator JSON endpoints: pending requests', () => {
  it('lists each waiting request with what identifies it: name, code, user agent, when and how often it asked', async () => {
    const before = Date.now()
    const a = await ask('Offload Tool')
    const coded = call('POST', '/auth', {
      body: { appName: 'Rushes Script', code: 'k7qm-2xpd' },
      headers: { 'user-agent': 'rushes/2.1 (pid 4242)' },
    })
    const b = { answer: coded, id: await pendingRequestOf('Rushes Script') }
    const { status, body } = await operator('GET', '/approve/requests')
    expect(status).toBe(200)
    const card = (id: string, appName: string, code: string | null, userAgent: string | null) => ({
      id,
      appName,
      code,
      userAgent,
      mixedScripts: [],
      createdAt: expect.any(String),
      lastAskedAt: expect.any(String),
      attempts: 1,
      expiresAt: expect.any(String),
    })
    expect(body).toEqual({
      requests: [
        card(a.id, 'Offload Tool', null, null),
        card(b.id, 'Rushes Script', 'K7QM-2XPD', 'rushes/2.1 (pid 4242)'),
      ],
    })
    for (const request of body.requests) {
      expect(Date.parse(request.createdAt)).toBeGreaterThanOrEqual(before - 1000)
      expect(request.lastAskedAt).toBe(request.createdAt)
      // AUTH_TIMEOUT_SECONDS is 2 in the test environment.
      expect(Date.parse(request.expiresAt) - Date.parse(request.createdAt)).toBe(2000)
    }
    for (const { id, answer } of [a, b]) {
      await decide(id, 'deny')
      await answer
    }
  })

  it('refuses a code that is not 4 to 12 letters or digits, and nothing waits', async () => {
    for (const code of ['abc', 'ABCD EFGH', 'ABCDEFGHIJKLM', '-ABCD', 42]) {
      const res = await call('POST', '/auth', { body: { appName: 'Offload Tool', code } })
      expect([code, res.status, res.body]).toEqual([
        code,
        400,
        {
          error: 'Validation Error',
          details: [
            {
              prop: 'code',
              message:
                typeof code === 'number'
                  ? 'must be a string'
                  : 'must be 4 to 12 letters or digits, dashes between them allowed',
            },
          ],
        },
      ])
    }
    expect((await operator('GET', '/approve/requests')).body).toEqual({ requests: [] })
  })

  it('approve answers the waiting /auth with a working token; a second decision is 409', async () => {
    const { id, answer } = await ask('Offload Tool')
    expect(await decide(id, 'approve')).toMatchObject({ status: 200, body: { success: true } })
    const { status, body } = await answer
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['token'])
    expect(body.token).toMatch(/^mls_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    expect((await call('GET', '/projects', { token: body.token })).status).toBe(200)
    expect((await operator('GET', '/approve/requests')).body).toEqual({ requests: [] })
    for (const again of ['approve', 'deny']) {
      const res = await decide(id, again)
      expect([res.status, res.body]).toEqual([409, { error: 'Request already approved' }])
    }
  })

  it('deny answers the waiting /auth with 403; a second decision is 409', async () => {
    const { id, answer } = await ask('Unknown Script')
    expect(await decide(id, 'deny')).toMatchObject({ status: 200, body: { success: true } })
    const { status, body } = await answer
    expect([status, body]).toEqual([403, { error: 'access not approved' }])
    for (const again of ['approve', 'deny']) {
      const res = await decide(id, again)
      expect([res.status, res.body]).toEqual([409, { error: 'Request already denied' }])
    }
    expect((await operator('GET', '/approve/tokens')).body).toEqual({ tokens: [] })
  })

  it('answers 404 Request not found for an id it never had', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '%E2%9C%93']) {
      const res = await decide(id, 'approve')
      expect([id, res.status, res.body]).toEqual([id, 404, { error: 'Request not found' }])
    }
  })

  it('rejects a decision that is not "approve" or "deny", leaving the request pending', async () => {
    const { id, answer } = await ask('Offload Tool')
    for (const body of [{ decision: 'yes' }, { decision: true }, { decision: 'APPROVE' }]) {
      const res = await operator('POST', `/approve/requests/${id}`, body)
      expect([res.status, res.body]).toEqual([
        400,
        { error: 'Validation Error', details: [{ prop: 'decision', message: 'must be "approve" or "deny"' }] },
      ])
    }
    const missing = await operator('POST', `/approve/requests/${id}`, {})
    expect([missing.status, missing.body]).toEqual([
      400,
      { error: 'Validation Error', details: [{ prop: 'decision', message: 'is required' }] },
    ])
    const notJson = await call('POST', `/approve/requests/${id}`, {
      raw: 'decision=approve',
      headers: { 'x-operator-key': OPERATOR_KEY, 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect([notJson.status, notJson.body]).toEqual([415, { error: 'Unsupported Media Type' }])
    expect((await operator('GET', '/approve/requests')).body.requests.map((r: { id: string }) => r.id)).toEqual([id])
    await decide(id, 'deny')
    await answer
  })

  it('lets a request expire: /auth answers 408, the list drops it, a late decision is 404', async () => {
    const { id, answer } = await ask('Slow Operator')
    const { status, body } = await answer
    expect([status, body]).toEqual([408, { error: 'Authentication request timed out' }])
    expect((await operator('GET', '/approve/requests')).body).toEqual({ requests: [] })
    const late = await decide(id, 'approve')
    expect([late.status, late.body]).toEqual([404, { error: 'Request not found' }])
    expect((await operator('GET', '/approve/tokens')).body).toEqual({ tokens: [] })
  })

  it('holds at most AUTH_PENDING_LIMIT (20) requests: a 21st is refused with 429 and none of the 20 leaves', async () => {
    // Asked together: one after another, a loaded machine can take longer than the 2 s they wait.
    const waiting = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(`Flood ${i}`)))
    const listed = (await operator('GET', '/approve/requests')).body.requests.map((r: { id: string }) => r.id)
    expect(listed).toHaveLength(20)
    for (const appName of ['Flood 20', 'Flood 0']) {
      const refused = await call('POST', '/auth', { body: { appName } })
      expect([refused.status, refused.body]).toEqual([
        429,
        {
          error:
            '20 connection requests are already waiting for the operator: ask again once some are approved or denied',
        },
      ])
    }
    expect((await operator('GET', '/approve/requests')).body.requests.map((r: { id: string }) => r.id)).toEqual(listed)
    await decide(waiting[7]!.id, 'approve')
    expect((await waiting[7]!.answer).status).toBe(200)
    for (const { id, answer } of waiting.filter((_, i) => i !== 7)) {
      await decide(id, 'deny')
      expect((await answer).status).toBe(403)
    }
  })

  it("a process repeating a waiting application's name gets a card of its own; the first one stays", async () => {
    const real = await ask('media-log')
    const copies = [
      call('POST', '/auth', { body: { appName: 'media-log' } }),
      call('POST', '/auth', { body: { appName: 'media-log' } }),
    ]
    let requests: Array<{ id: string; appName: string; createdAt: string }> = []
    for (let i = 0; i < 200 && requests.length < 3; i++)
      requests = (await operator('GET', '/approve/requests')).body.requests
    expect(requests.map((r) => r.appName)).toEqual(['media-log', 'media-log', 'media-log'])
    expect(requests[0]!.id).toBe(real.id)
    expect(await decide(real.id, 'approve')).toMatchObject({ status: 200 })
    const { status, body } = await real.answer
    expect(status).toBe(200)
    expect((await call('GET', '/projects', { token: body.token })).status).toBe(200)
    for (const { id } of requests.slice(1)) await decide(id, 'deny')
    for (const copy of copies) expect((await copy).status).toBe(403)
  })

  it('an application asking again with the same name and code takes its card over and is counted', async () => {
    const first = call('POST', '/auth', { body: { appName: 'Offload Tool', code: 'ABCD-2345' } })
    const id = await pendingRequestOf('Offload Tool')
    const [before] = (await operator('GET', '/approve/requests')).body.requests
    const again = call('POST', '/auth', { body: { appName: 'Offload Tool', code: 'abcd-2345' } })
    expect(await first).toMatchObject({ status: 408, body: { error: 'Authentication request timed out' } })
    const { requests } = (await operator('GET', '/approve/requests')).body
    expect(requests).toEqual([
      { ...before, attempts: 2, lastAskedAt: expect.any(String), expiresAt: expect.any(String) },
    ])
    expect(Date.parse(requests[0].lastAskedAt)).toBeGreaterThanOrEqual(Date.parse(before.createdAt))
    // Another code is another application: a card of its own.
    const other = call('POST', '/auth', { body: { appName: 'Offload Tool', code: 'WXYZ-6789' } })
    for (let i = 0; i < 200; i++) if ((await operator('GET', '/approve/requests')).body.requests.length === 2) break
    const [, otherCard] = (await operator('GET', '/approve/requests')).body.requests
    expect([otherCard.code, otherCard.attempts]).toEqual(['WXYZ-6789', 1])
    await decide(id, 'approve')
    expect((await again).status).toBe(200)
    await decide(otherCard.id, 'deny')
    expect((await other).status).toBe(403)
  })

  it('marks a name that mixes look-alike scripts, on its card and once connected', async () => {
    // "Dаytalog" with a Cyrillic "а" (U+0430).
    const lookAlike = await ask('D\u0430ytalog')
    const plain = await ask('Daytalog')
    const japanese = await ask('撮影ログ Tool')
    const { requests } = (await operator('GET', '/approve/requests')).body
    expect(requests.map((r: { appName: string; mixedScripts: string[] }) => [r.appName, r.mixedScripts])).toEqual([
      ['D\u0430ytalog', ['Latin', 'Cyrillic']],
      ['Daytalog', []],
      ['撮影ログ Tool', []],
    ])
    await decide(lookAlike.id, 'approve')
    await lookAlike.answer
    expect((await operator('GET', '/approve/tokens')).body.tokens).toEqual([
      expect.objectContaining({ appName: 'D\u0430ytalog', mixedScripts: ['Latin', 'Cyrillic'] }),
    ])
    for (const { id, answer } of [plain, japanese]) {
      await decide(id, 'deny')
      await answer
    }
  })
})

describe('an approval request when no timer can be set', () => {
  it('is refused 503 with nothing held, and the next request waits as ever', async () => {
    const stub = env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace'))
    const answer = await runInDurableObject(stub, async (workspace: Workspace) => {
      // The runtime out of timers, once (workerd allows 10,000 alive at a time).
      const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementationOnce(() => {
        throw new RangeError('too many timers')
      })
      try {
        return await workspace.requestAccess({ appName: 'No Timer', code: 'AAAA-BBBB' })
      } finally {
        spy.mockRestore()
      }
    })
    expect(answer).toBeInstanceOf(Error)
    expect(JSON.parse((answer as Error).message)).toEqual({ problem: 'unavailable', error: 'Service busy: try again' })
    expect((await operator('GET', '/approve/requests')).body).toEqual({ requests: [] })
    const waiting = call('POST', '/auth', { body: { appName: 'After', code: 'CCCC-DDDD' } })
    const id = await pendingRequestOf('After')
    expect((await operator('POST', `/approve/requests/${id}`, { decision: 'approve' })).status).toBe(200)
    expect((await waiting).status).toBe(200)
  })
})

describe('operator JSON endpoints: connected applications', () => {
  it('lists tokens by name, approval time and last use, never the secret', async () => {
    const token = await approvedToken('Offload Tool')
    const first = await operator('GET', '/approve/tokens')
    expect(first.body).toEqual({
      tokens: [
        {
          id: token.split('_')[1],
          appName: 'Offload Tool',
          mixedScripts: [],
          createdAt: expect.any(String),
          lastUsedAt: null,
        },
      ],
    })
    expect(JSON.stringify(first.body)).not.toContain(token.split('_').slice(2).join('_'))
    await call('GET', '/projects', { token })
    const [used] = (await operator('GET', '/approve/tokens')).body.tokens
    expect(Date.parse(used.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(used.createdAt))
  })

  it('revokes a token: it gets 401 afterwards, the others keep working; revoking again is 404', async () => {
    const kept = await approvedToken('Pomfort Dashboard')
    const revoked = await approvedToken('Offload Tool')
    const id = revoked.split('_')[1]!
    expect((await call('GET', '/projects', { token: revoked })).status).toBe(200)
    expect(await operator('DELETE', `/approve/tokens/${id}`)).toMatchObject({ status: 200, body: { success: true } })
    expect(await call('GET', '/projects', { token: revoked })).toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    })
    expect((await call('GET', '/projects', { token: kept })).status).toBe(200)
    expect((await operator('GET', '/approve/tokens')).body.tokens.map((t: { appName: string }) => t.appName)).toEqual([
      'Pomfort Dashboard',
    ])
    const again = await operator('DELETE', `/approve/tokens/${id}`)
    expect([again.status, again.body]).toEqual([404, { error: 'Token not found' }])
  })
})

describe('operator JSON endpoints: who may call them', () => {
  const endpoints: Array<[string, string, unknown?]> = [
    ['GET', '/approve/requests'],
    ['POST', '/approve/requests/some-id', { decision: 'approve' }],
    ['GET', '/approve/tokens'],
    ['DELETE', '/approve/tokens/some-id'],
    ['GET', '/approve/state'],
    ['DELETE', '/approve/session'],
    ['GET', '/approve/windows'],
    ['GET', '/approve/windows/some-id'],
    ['PATCH', '/approve/windows/some-id', { subject: 'x' }],
    ['DELETE', '/approve/windows/some-id'],
    ['POST', '/approve/windows/some-id/send'],
    ['GET', '/approve/windows/some-id/attachments/CLIPS'],
    ['GET', '/approve/windows/some-id/message.eml'],
  ]

  it('answers 401 without the key, with a wrong key, or with an API token in either header', async () => {
    const token = await approvedToken()
    const attempts: Array<Record<string, string>> = [
      {},
      { 'x-operator-key': 'wrong-key-wrong-key-wrong' },
      { 'x-operator-key': token },
      { 'x-api-token': token },
      { 'x-operator-key': '' },
    ]
    for (const [method, path, body] of endpoints) {
      for (const headers of attempts) {
        const res = await call(method, path, { body, headers })
        expect([method, path, headers, res.status, res.body]).toEqual([
          method,
          path,
          headers,
          401,
          { error: 'Unauthorized' },
        ])
      }
    }
    expect((await call('GET', '/projects', { token })).status).toBe(200)
  })

  it('needs nothing more than the key from a script (no Origin, no CSRF token)', async () => {
    const { id, answer } = await ask('Offload Tool')
    expect((await decide(id, 'approve')).status).toBe(200)
    expect((await answer).status).toBe(200)
  })

  it('refuses a changing call with the key when it comes from another origin', async () => {
    const { id, answer } = await ask('Offload Tool')
    const res = await call('POST', `/approve/requests/${id}`, {
      body: { decision: 'approve' },
      headers: { 'x-operator-key': OPERATOR_KEY, 'sec-fetch-site': 'cross-site' },
    })
    expect([res.status, res.body]).toEqual([403, { error: 'Cross-site request refused' }])
    await decide(id, 'deny')
    expect((await answer).status).toBe(403)
  })
})

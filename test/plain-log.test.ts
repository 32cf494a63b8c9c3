// A plain log through the service: kept as the very text sent, a PATCH answering the merged log.
// The quick check itself is in plain-log.node.test.ts.
import { describe, expect, it } from 'vitest'
import { BASE, call, fetchWorker, getAsSent, makeLog, withProject } from './helpers'

describe('a plain log through the service', () => {
  it('keeps a posted log as the very text sent, and a PATCH answers the merged log', async () => {
    const { token } = await withProject()
    const text = JSON.stringify(makeLog('D001', 2, { big: 12345678901234567890 }), null, 2).replace(
      '12345678901234567000',
      '12345678901234567890',
    )
    const post = await fetchWorker(
      new Request(`${BASE}/log`, {
        method: 'POST',
        headers: { 'x-api-token': token, 'content-type': 'application/json' },
        body: text,
      }),
    )
    expect([post.status, await post.json()]).toEqual([201, { success: true }])
    expect(await getAsSent('/log/D001', token)).toEqual({ status: 200, text })
    const patched = await call('PATCH', '/log/D001', { token, body: { unit: '2nd Unit' } })
    expect(patched).toMatchObject({
      status: 200,
      body: { success: true, data: { ...makeLog('D001', 2), unit: '2nd Unit' } },
    })
    expect((await call('GET', '/logs', { token })).body.logs).toEqual([patched.body.data])
  })
})

import { describe, expect, it } from 'vitest'
import { call, getAsSent, makeLog, utf8, withProject } from './helpers'

async function storedLogs(token: string) {
  return (await call('GET', '/logs', { token })).body
}

/** A body with no Content-Length: the runtime hands it over in chunks. */
function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0
  return new ReadableStream({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]!)
      else controller.close()
    },
  })
}

describe('hostile and malformed bodies', () => {
  it('answers 400 for malformed JSON, naming the body', async () => {
    const { token } = await withProject()
    const res = await call('POST', '/log', { token, raw: '{"id": "D001", "day": 1,' })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('Validation Error')
    expect(res.body.details[0].prop).toBe('')
    expect(res.body.details[0].message).toMatch(/^malformed JSON/)
    expect(await storedLogs(token)).toEqual({ logs: [] })
  })

  it('answers 400 for an empty body', async () => {
    const { token } = await withProject()
    expect(await call('POST', '/log', { token, raw: '' })).toMatchObject({
      status: 400,
      body: { details: [{ prop: '', message: 'a JSON body is required' }] },
    })
  })

  it('answers 415 for a body that is not declared as JSON', async () => {
    const { token } = await withProject()
    const res = await call('POST', '/log', {
      token,
      raw: JSON.stringify(makeLog()),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(res).toMatchObject({ status: 415, body: { error: 'Unsupported Media Type' } })
    expect(await storedLogs(token)).toEqual({ logs: [] })
  })

  it('accepts a JSON type written another way (case, charset, +json)', async () => {
    const { token } = await withProject()
    for (const [id, type] of [
      ['D001', 'Application/JSON; charset=UTF-8'],
      ['D002', 'application/vnd.media-log+json'],
    ] as const) {
      expect(
        (await call('POST', '/log', { token, body: makeLog(id, 1), headers: { 'content-type': type } })).status,
      ).toBe(201)
    }
    expect((await storedLogs(token)).logs.map((log: { id: string }) => log.id)).toEqual(['D001', 'D002'])
  })

  it('answers 400 for a body that is not valid UTF-8 and stores nothing', async () => {
    const { token } = await withProject()
    const text = JSON.stringify(makeLog('D001', 1))
    const bytes = utf8(text)
    // A lone continuation byte inside the unit's name: lenient decoding would store U+FFFD instead.
    bytes[text.indexOf('Main Unit') + 4] = 0x80
    // With a declared length (one read, as from a socket) and without (read in chunks).
    const sent = [
      { raw: bytes, headers: { 'content-length': String(bytes.length) } },
      { raw: streamOf([bytes]), headers: undefined },
    ]
    for (const { raw, headers } of sent) {
      const res = await call('POST', '/log', { token, raw, headers })
      expect(res).toMatchObject({
        status: 400,
        body: { error: 'Validation Error', details: [{ prop: '', message: 'the body is not valid UTF-8' }] },
      })
    }
    expect(await storedLogs(token)).toEqual({ logs: [] })
  })

  it('stores a log sent with a byte order mark without the mark', async () => {
    const { token } = await withProject()
    const text = JSON.stringify(makeLog('D001', 1))
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)])
    expect(await call('POST', '/log', { token, raw: bytes })).toMatchObject({ status: 201, body: { success: true } })
    // getAsSent keeps a stored mark: a plain text() would drop it again.
    expect(await getAsSent('/log/D001', token)).toEqual({ status: 200, text })
  })

  it('reads a streamed body sent without a length', async () => {
    const { token } = await withProject()
    const bytes = utf8(JSON.stringify(makeLog('D001', 3)))
    const res = await call('POST', '/log', { token, raw: streamOf([bytes.subarray(0, 100), bytes.subarray(100)]) })
    expect(res).toMatchObject({ status: 201, body: { success: true } })
    expect((await call('GET', '/log/D001', { token })).body).toEqual(makeLog('D001', 3))
  })

  it('answers 413 for a streamed body that grows past 64 MiB and stores nothing', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    const mebibyte = new Uint8Array(1024 * 1024).fill(0x20)
    const res = await call('POST', '/log', { token, raw: streamOf(Array.from({ length: 65 }, () => mebibyte)) })
    expect(res).toMatchObject({ status: 413, body: { error: 'Payload Too Large' } })
    expect(await storedLogs(token)).toEqual({ logs: [] })
  })

  it.each(['__proto__', 'constructor', 'prototype'])('refuses the key %s anywhere in the body', async (key) => {
    const { token } = await withProject()
    const raw = `{"id":"D001","day":1,"date":"2024-01-01","ocf":{"clips":[{"clip":"A","size":1,"copies":[],"${key}":{"polluted":true}}]}}`
    const res = await call('POST', '/log', { token, raw })
    expect(res).toMatchObject({
      status: 400,
      body: {
        error: 'Validation Error',
        details: [{ prop: `ocf.clips.0.${key}`, message: `the key "${key}" is not allowed` }],
      },
    })
    expect(await storedLogs(token)).toEqual({ logs: [] })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('refuses nesting deeper than 64 levels, also as a PATCH', async () => {
    const { token } = await withProject()
    await call('POST', '/log', { token, body: makeLog('D001', 1) })
    const deep = '{"a":'.repeat(100) + '1' + '}'.repeat(100)
    const res = await call('PATCH', '/log/D001', { token, raw: `{"extra":${deep}}` })
    expect(res.status).toBe(400)
    expect(res.body.details[0].message).toBe('nesting deeper than 64 levels')
    expect((await call('GET', '/log/D001', { token })).body).toEqual(makeLog('D001', 1))
  })

  it('accepts nesting of exactly 64 levels', async () => {
    const { token } = await withProject()
    const nested = '{"a":'.repeat(62) + '1' + '}'.repeat(62)
    const raw = JSON.stringify(makeLog('D001', 0)).replace(/}$/, `,"extra":${nested}}`)
    expect((await call('POST', '/log', { token, raw })).status).toBe(201)
  })

  it('answers 413 for a body over 64 MiB and stores nothing', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    const huge = `{"id":"D001","day":1,"date":"2024-01-01","pad":"${'x'.repeat(64 * 1024 * 1024)}"}`
    const res = await call('POST', '/log', { token, raw: huge, headers: { 'content-length': String(huge.length) } })
    expect(res).toMatchObject({ status: 413, body: { error: 'Payload Too Large' } })
    expect(await storedLogs(token)).toEqual({ logs: [] })
  })

  it('answers 400, not 500, for wrong types everywhere', async () => {
    const { token } = await withProject()
    const bodies = [
      { id: 5, day: [], date: {}, ocf: 'none' },
      { ...makeLog('D001', 0), ocf: { clips: 'many' } },
      { ...makeLog('D001', 0), sound: { clips: [null] } },
      { ...makeLog('D001', 0), custom: {} },
      { ...makeLog('D001', 0), ocf: { clips: [{ clip: 1, size: 1e300, copies: [{ volume: 1, hash: 2 }] }] } },
    ]
    for (const body of bodies) {
      const res = await call('POST', '/log', { token, body })
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('Validation Error')
    }
    for (const body of [null, [], 'x', 1, true]) {
      expect((await call('PATCH', '/project/config', { token, body })).status).toBe(400)
      expect((await call('POST', '/project/create', { token, body })).status).toBe(400)
      expect((await call('POST', '/auth', { body })).status).toBe(400)
    }
    expect(await storedLogs(token)).toEqual({ logs: [] })
  })
})

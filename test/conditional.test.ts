// Conditional GETs: a polled answer carries a tag of what it was made from; a request naming the
// tag is answered 304 with no body. The tag changes with every write that changes the answer, and
// only then; a log renamed or deleted is never answered 304.
import { describe, expect, it } from 'vitest'
import { MediaLogClient } from 'media-log-service/client'
import { keptLog } from '../src/http/kept-logs'
import { BASE, OPERATOR_KEY, call, getAsSent, makeLog, operator, viaWorker, withProject } from './helpers'

/** The console's routes are the operator's: asked with the operator's key. */
const keyFor = (path: string): Record<string, string> =>
  path.startsWith('/approve') ? { 'x-operator-key': OPERATOR_KEY } : {}

/** A GET with the tag of an earlier answer: its status, tag and body's text. */
async function again(path: string, token: string, etag: string) {
  const answer = await call('GET', path, { token, headers: { 'if-none-match': etag, ...keyFor(path) } })
  return { status: answer.status, etag: answer.headers.get('etag'), body: answer.body as unknown }
}

/** A GET's tag, with the headers every tagged answer has. */
const tagOf = async (path: string, token: string) => {
  const answer = await call('GET', path, { token, headers: keyFor(path) })
  expect(answer.status).toBe(200)
  expect(answer.headers.get('cache-control')).toBe('private, no-cache')
  return answer.headers.get('etag')!
}

const clipOf = (log: ReturnType<typeof makeLog>) => (log.ocf as { clips: Array<{ clip: string }> }).clips[0]!.clip

describe('GET /log/{id}', () => {
  it('answers a strong tag, 304 with no body when named, and the log byte for byte when not', async () => {
    const { token } = await withProject()
    const log = makeLog('D001', 3)
    expect((await call('POST', '/log', { token, body: log })).status).toBe(201)
    const first = await call('GET', '/log/D001', { token })
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[^"]+"$/)
    expect(first.headers.get('cache-control')).toBe('private, no-cache')
    // Without a validator the answer is what it always was: the log as sent.
    expect((await getAsSent('/log/D001', token)).text).toBe(JSON.stringify(log))

    const named = await again('/log/D001', token, etag)
    expect(named).toEqual({ status: 304, etag, body: '' })
    // Named among others, weakly, or by `*`: all name it.
    for (const header of [`"other", ${etag}`, `W/${etag}`, '*'])
      expect((await again('/log/D001', token, header)).status).toBe(304)
    expect((await again('/log/D001', token, '"other"')).status).toBe(200)
  })

  it('changes with every write of the log and only then', async () => {
    const { token } = await withProject()
    for (const id of ['D001', 'D002'])
      expect((await call('POST', '/log', { token, body: makeLog(id, 2) })).status).toBe(201)
    let etag = await tagOf('/log/D001', token)
    // Another log written, the settings changed: this log's answer is the same.
    expect((await call('PATCH', '/log/D002', { token, body: { unit: 'Second Unit' } })).status).toBe(200)
    expect((await call('PATCH', '/project/config', { token, body: { match_sound: false } })).status).toBe(200)
    expect((await again('/log/D001', token, etag)).status).toBe(304)
    // A PATCH of it, then an import into it: each a new answer, a new tag.
    expect((await call('PATCH', '/log/D001', { token, body: { unit: 'Main Unit' } })).status).toBe(200)
    const patched = await again('/log/D001', token, etag)
    expect(patched.status).toBe(200)
    expect(patched.etag).not.toBe(etag)
    etag = patched.etag!
    const mhl = `<?xml version="1.0"?><hashlist version="1.1"><hash><file>/Volumes/RAID_B/A001/${clipOf(makeLog('D001', 2))}.mov</file><size>5</size><md5>0123456789abcdef0123456789abcdef</md5></hash></hashlist>`
    expect(
      (await call('POST', '/log/D001/import', { token, body: { files: [{ name: 'RAID_B.mhl', content: mhl }] } }))
        .status,
    ).toBe(200)
    const imported = await again('/log/D001', token, etag)
    expect(imported.status).toBe(200)
    expect(imported.etag).not.toBe(etag)
  })

  it('never answers 304 for a log renamed or deleted', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1) })).status).toBe(201)
    const etag = await tagOf('/log/D001', token)
    expect((await call('PATCH', '/log/D001', { token, body: { id: 'D009' } })).status).toBe(200)
    expect(await again('/log/D001', token, etag)).toMatchObject({ status: 404, body: { error: 'Log not found' } })
    expect((await again('/log/D009', token, etag)).status).toBe(200)
    // Deleted and made again under the same id: a new log, a new tag.
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1) })).status).toBe(201)
    const remade = await tagOf('/log/D001', token)
    expect((await call('DELETE', '/log/D001', { token })).status).toBe(200)
    expect((await again('/log/D001', token, remade)).status).toBe(404)
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1) })).status).toBe(201)
    expect((await again('/log/D001', token, remade)).status).toBe(200)
  })

  it('keeps its tag through a write refused halfway (a rename onto a log that exists)', async () => {
    const { token } = await withProject()
    for (const id of ['D001', 'D002'])
      expect((await call('POST', '/log', { token, body: makeLog(id, 1) })).status).toBe(201)
    const etag = await tagOf('/log/D001', token)
    expect((await call('PATCH', '/log/D001', { token, body: { id: 'D002' } })).status).toBe(409)
    expect((await again('/log/D001', token, etag)).status).toBe(304)
    expect((await call('PATCH', '/log/D001', { token, body: { unit: 'Second Unit' } })).status).toBe(200)
    expect((await again('/log/D001', token, etag)).status).toBe(200)
  })

  it('checks the token before the tag: a named tag without a token is 401', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1) })).status).toBe(201)
    const etag = await tagOf('/log/D001', token)
    expect((await call('GET', '/log/D001', { headers: { 'if-none-match': etag } })).status).toBe(401)
  })
})

// The worker keeps the text it answered last under its tag (http/kept-logs.ts); the workspace
// still answers whether that tag is current, and for whom, on every request.
describe('GET /log/{id} read again', () => {
  it('is the log as stored now: unchanged, patched, or of the project loaded since', async () => {
    const { token } = await withProject('Day Film')
    // Kept as UTF-8 and answered as such: a name beyond ASCII, and beyond the Basic Multilingual Plane.
    const log = makeLog('D001', 2, { unit: 'Unité B — 🎬' })
    expect((await call('POST', '/log', { token, body: log })).status).toBe(201)
    for (let i = 0; i < 3; i++) expect((await getAsSent('/log/D001', token)).text).toBe(JSON.stringify(log))
    const before = await tagOf('/log/D001', token)
    // Kept under the tag it was answered with: the reads above after the first were answered from it.
    const kept = keptLog('workspace', 'D001')!
    expect({ etag: kept.etag, text: new TextDecoder().decode(kept.bytes) }).toEqual({
      etag: before,
      text: JSON.stringify(log),
    })
    expect((await call('PATCH', '/log/D001', { token, body: { unit: 'Second Unit' } })).status).toBe(200)
    const patched = { ...log, unit: 'Second Unit' }
    const twice = [(await getAsSent('/log/D001', token)).text, (await getAsSent('/log/D001', token)).text]
    expect(JSON.parse(twice[0]!)).toEqual(patched)
    expect(twice[1]).toBe(twice[0])
    // A client naming the tag of the text before: the log as it is now.
    expect(await again('/log/D001', token, before)).toMatchObject({ status: 200, body: patched })

    // Another project with a log of the same id, loaded: its log, not the one read before.
    const other = makeLog('D001', 1, { unit: 'Night Unit' })
    expect((await call('POST', '/project/create', { token, body: { project_name: 'Night Film' } })).status).toBe(201)
    expect((await call('POST', '/log', { token, body: other })).status).toBe(201)
    expect((await getAsSent('/log/D001', token)).text).toBe(JSON.stringify(other))
    expect((await call('POST', '/project/load', { token, body: { path: 'projects/Day Film' } })).status).toBe(200)
    expect(JSON.parse((await getAsSent('/log/D001', token)).text)).toEqual(patched)
  })

  it('answers the kept text while its tag is current, and 304 to a client naming the tag itself', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1) })).status).toBe(201)
    const etag = await tagOf('/log/D001', token)
    expect(await tagOf('/log/D001', token)).toBe(etag)
    // What is kept is what is answered: the workspace left the text out.
    const kept = keptLog('workspace', 'D001')!
    expect(kept.etag).toBe(etag)
    // Another text of the same size in its place (the kept bytes are counted by their size).
    const marker = `{"kept":true${' '.repeat(kept.bytes.length - 13)}}`
    kept.bytes = new TextEncoder().encode(marker)
    expect((await getAsSent('/log/D001', token)).text).toBe(marker)
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*'])
      expect(await again('/log/D001', token, header)).toEqual({ status: 304, etag, body: '' })
    // A client's own tag, malformed or of another log: the kept text.
    for (const header of ['"unclosed', '"other"'])
      expect(await again('/log/D001', token, header)).toEqual({ status: 200, etag, body: { kept: true } })
  })

  it('is refused to a token revoked since, and is 404 once the log is deleted, its text kept no longer', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1) })).status).toBe(201)
    for (let i = 0; i < 2; i++) expect((await getAsSent('/log/D001', token)).status).toBe(200)
    expect(keptLog('workspace', 'D001')).toBeDefined()
    expect((await call('DELETE', '/log/D001', { token })).status).toBe(200)
    expect(await call('GET', '/log/D001', { token })).toMatchObject({ status: 404, body: { error: 'Log not found' } })
    expect(keptLog('workspace', 'D001')).toBeUndefined()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1) })).status).toBe(201)
    for (let i = 0; i < 2; i++) expect((await getAsSent('/log/D001', token)).status).toBe(200)
    const { body } = await operator('GET', '/approve/tokens')
    for (const { id } of body.tokens as Array<{ id: string }>)
      expect((await operator('DELETE', `/approve/tokens/${id}`)).status).toBe(200)
    expect(await call('GET', '/log/D001', { token })).toMatchObject({ status: 401 })
    // A refused token says nothing of the log: its text stays kept for the clients that may read it.
    expect(keptLog('workspace', 'D001')).toBeDefined()
  })
})

describe('GET /logs', () => {
  it('changes when any log is written, renamed or deleted, not when the settings change', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1) })).status).toBe(201)
    let etag = await tagOf('/logs', token)
    expect((await call('PATCH', '/project/config', { token, body: { match_sound: false } })).status).toBe(200)
    expect((await again('/logs', token, etag)).status).toBe(304)
    for (const write of [
      () => call('POST', '/log', { token, body: makeLog('D002', 1) }),
      () => call('PATCH', '/log/D002', { token, body: { id: 'D003' } }),
      () => call('DELETE', '/log/D003', { token }),
    ]) {
      expect((await write()).status).toBeLessThan(300)
      const next = await again('/logs', token, etag)
      expect(next.status).toBe(200)
      etag = next.etag!
    }
  })
})

describe('checks', () => {
  it('a day’s and a range’s change with their logs and `match_sound`, not with other settings', async () => {
    const { token } = await withProject()
    for (const id of ['D001', 'D002'])
      expect((await call('POST', '/log', { token, body: makeLog(id, 2) })).status).toBe(201)
    const day = await tagOf('/log/D001/checks', token)
    const range = await tagOf('/checks', token)
    // A report preset renamed: no check reads it.
    const { body: config } = await call('GET', '/project/config', { token })
    const pdfs = config.pdfs.map((p: { label: string }, i: number) => (i ? p : { ...p, label: 'Daily' }))
    expect((await call('PATCH', '/project/config', { token, body: { pdfs } })).status).toBe(200)
    expect((await again('/log/D001/checks', token, day)).status).toBe(304)
    expect((await again('/checks', token, range)).status).toBe(304)
    // Another day written: the range's answer changes, the first day's does not.
    expect((await call('PATCH', '/log/D002', { token, body: { unit: 'Second Unit' } })).status).toBe(200)
    expect((await again('/log/D001/checks', token, day)).status).toBe(304)
    const newRange = await again('/checks', token, range)
    expect(newRange.status).toBe(200)
    // `match_sound`, which the checks read: both change.
    expect((await call('PATCH', '/project/config', { token, body: { match_sound: false } })).status).toBe(200)
    expect((await again('/log/D001/checks', token, day)).status).toBe(200)
    expect((await again('/checks', token, newRange.etag!)).status).toBe(200)
  })
})

describe('reports and the console', () => {
  it('a PDF’s weak tag changes with its log and the settings; 304 draws nothing', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 2) })).status).toBe(201)
    const first = await call('GET', '/log/D001/pdf/clp01', { token })
    expect(first.headers.get('content-type')).toBe('application/pdf')
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/)
    expect(await again('/log/D001/pdf/clp01', token, etag)).toEqual({ status: 304, etag, body: '' })
    expect((await call('PATCH', '/project/config', { token, body: { match_sound: false } })).status).toBe(200)
    expect((await again('/log/D001/pdf/clp01', token, etag)).status).toBe(200)
  })

  it('the Days view and a day’s detail answer 304 until their day is written', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 2) })).status).toBe(201)
    expect((await call('POST', '/log', { token, body: makeLog('D002', 2) })).status).toBe(201)
    const days = await tagOf('/approve/days', token)
    const detail = await tagOf('/approve/days/D001', token)
    expect((await again('/approve/days', token, days)).status).toBe(304)
    expect((await again('/approve/days/D001', token, detail)).status).toBe(304)
    expect((await call('PATCH', '/log/D002', { token, body: { unit: 'Second Unit' } })).status).toBe(200)
    expect((await again('/approve/days', token, days)).status).toBe(200)
    expect((await again('/approve/days/D001', token, detail)).status).toBe(304)
    // Without the operator's key, a named tag is no way in.
    expect((await call('GET', '/approve/days', { headers: { 'if-none-match': days } })).status).toBe(401)
  })
})

describe('the typed client', () => {
  it('asks again naming the kept copy’s tag, and reads the copy on 304: a new object each time', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 2) })).status).toBe(201)
    const statuses: number[] = []
    const counting = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await viaWorker(input, init)
      statuses.push(response.status)
      return response
    }) as typeof fetch
    const client = new MediaLogClient({ baseUrl: BASE, token, fetch: counting })
    const first = await client.log('D001')
    const second = await client.log('D001')
    expect(second).toEqual(first)
    expect(second).not.toBe(first)
    expect(statuses).toEqual([200, 304])
    await client.patchLog('D001', { unit: 'Main Unit' })
    expect((await client.log('D001')).unit).toBe('Main Unit')
    expect(statuses).toEqual([200, 304, 200, 200])
    // Without keeping, every answer is whole.
    const plain = new MediaLogClient({ baseUrl: BASE, token, fetch: counting, keepAnswers: false })
    await plain.log('D001')
    await plain.log('D001')
    expect(statuses.slice(4)).toEqual([200, 200])
  })
})

describe('the OpenAPI document', () => {
  it('says which GETs take a tag: their If-None-Match, ETag and 304', async () => {
    const { body } = await call('GET', '/openapi.json')
    const conditional = Object.entries(body.paths as Record<string, Record<string, { responses: object }>>)
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })))
      .filter(({ op }) => '304' in op.responses)
      .map(({ method, path }) => `${method} ${path}`)
    expect(conditional.sort()).toEqual(
      [
        'get /log/{id}',
        'get /logs',
        'get /log/{id}/checks',
        'get /checks',
        'get /log/{id}/pdf/{presetId}',
        'get /pdf/{presetId}',
        'get /approve/days',
        'get /approve/days/{id}',
        'get /approve/days/{id}/pdf/{presetId}',
        'get /approve/days/pdf/{presetId}',
      ].sort(),
    )
    const getLog = body.paths['/log/{id}'].get
    expect(getLog.parameters).toContainEqual(expect.objectContaining({ name: 'If-None-Match', in: 'header' }))
    expect(Object.keys(getLog.responses['200'].headers)).toEqual(['ETag', 'Cache-Control'])
  })
})

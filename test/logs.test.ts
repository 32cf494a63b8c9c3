import { describe, expect, it } from 'vitest'
import { approvedToken, call, clip, makeLog, withProject } from './helpers'

const errorsOf = (body: { details: { prop: string }[] }) => body.details.map((d) => d.prop)

describe('POST /log', () => {
  it('creates a log (201 {success: true}) that GET /log/{id} returns exactly as sent', async () => {
    const { token } = await withProject()
    const log = makeLog('D001', 2, {
      version: 3,
      ocf: { ...makeLog().ocf, clips: [clip(1, { ei: 800, shutter: '172.8' })] },
    })
    const created = await call('POST', '/log', { token, body: log })
    expect(created).toMatchObject({ status: 201, body: { success: true } })
    const read = await call('GET', '/log/D001', { token })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(log)
  })

  it('answers 409 No Project Loaded when no project is active, and stores nothing', async () => {
    const token = await approvedToken()
    const res = await call('POST', '/log', { token, body: makeLog() })
    expect(res).toMatchObject({ status: 409, body: { error: 'No Project Loaded' } })
    expect((await call('GET', '/logs', { token })).body).toEqual({ logs: [] })
  })

  it('answers 409 Log already exists for a duplicate id and keeps the first', async () => {
    const { token } = await withProject()
    await call('POST', '/log', { token, body: makeLog('D001', 1) })
    const again = await call('POST', '/log', { token, body: makeLog('D001', 2, { day: 2 }) })
    expect(again).toMatchObject({ status: 409, body: { error: 'Log already exists' } })
    expect((await call('GET', '/log/D001', { token })).body.day).toBe(1)
  })

  it.each([
    ['id of 0 characters', { id: '' }, 'id'],
    ['id of 51 characters', { id: 'x'.repeat(51) }, 'id'],
    ['day 0', { day: 0 }, 'day'],
    ['day 1000', { day: 1000 }, 'day'],
    ['day 1.5', { day: 1.5 }, 'day'],
    ['day as a string', { day: '1' }, 'day'],
    ['2023-02-29 (not a leap year)', { date: '2023-02-29' }, 'date'],
    ['2024-13-01', { date: '2024-13-01' }, 'date'],
    ['date in another format', { date: '01/02/2024' }, 'date'],
  ])('refuses %s with 400 naming the property', async (_name, override, prop) => {
    const { token } = await withProject()
    const res = await call('POST', '/log', { token, body: { ...makeLog('D001', 1), ...override } })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('Validation Error')
    expect(errorsOf(res.body)).toEqual([prop])
    expect((await call('GET', '/logs', { token })).body).toEqual({ logs: [] })
  })

  it.each([
    ['id of 1 character', { id: 'x' }],
    ['id of 50 characters', { id: 'x'.repeat(50) }],
    ['day 1', { day: 1 }],
    ['day 999', { day: 999 }],
    ['2024-02-29 (leap year)', { date: '2024-02-29' }],
  ])('accepts %s', async (_name, override) => {
    const { token } = await withProject()
    const res = await call('POST', '/log', { token, body: { ...makeLog('D001', 1), ...override } })
    expect(res).toMatchObject({ status: 201, body: { success: true } })
  })

  it('checks timecodes: minutes and seconds below 60, frames below the clip fps', async () => {
    const { token } = await withProject()
    const clips = [
      clip(1, { tc_start: '10:60:00:00' }),
      clip(2, { tc_end: '10:00:60:00' }),
      clip(3, { fps: 25, tc_start: '10:00:00:25' }),
      clip(4, { fps: 23.976, duration: '00:00:10:24' }),
      clip(5, { fps: 25, tc_start: '10:00:00:24', tc_end: '10:00:59:24' }),
      clip(6, { tc_start: '1:00:00:00' }),
    ]
    const res = await call('POST', '/log', { token, body: makeLog('D001', 0, { ocf: { clips } }) })
    expect(res.status).toBe(400)
    expect(errorsOf(res.body).sort()).toEqual(
      [
        'ocf.clips.0.tc_start',
        'ocf.clips.1.tc_end',
        'ocf.clips.2.tc_start',
        'ocf.clips.3.duration',
        'ocf.clips.5.tc_start',
      ].sort(),
    )
    expect(res.body.details.find((d: { prop: string }) => d.prop === 'ocf.clips.2.tc_start').message).toBe(
      'frames must be below 25 at 25 fps',
    )
  })

  it('requires clip, size and copies on OCF and sound clips, and all five fields on proxy clips', async () => {
    const { token } = await withProject()
    const log = makeLog('D001', 0, {
      ocf: { clips: [{ clip: 'A001C001' }] },
      sound: { clips: [{ size: 10, copies: [] }] },
      proxy: { clips: [{ clip: 'A001C001', size: 1, format: 'mov', codec: 'ProRes' }] },
    })
    const res = await call('POST', '/log', { token, body: log })
    expect(res.status).toBe(400)
    expect(errorsOf(res.body).sort()).toEqual([
      'ocf.clips.0.copies',
      'ocf.clips.0.size',
      'proxy.clips.0.resolution',
      'sound.clips.0.clip',
    ])
  })

  it('reports every failing property in one answer, with dotted paths', async () => {
    const { token } = await withProject()
    const log = {
      id: '',
      day: 0,
      date: 'yesterday',
      ocf: { size: -1, clips: [clip(1, { size: 'big', copies: [{ hash: null }] })] },
    }
    const res = await call('POST', '/log', { token, body: log })
    expect(res.status).toBe(400)
    expect(errorsOf(res.body).sort()).toEqual([
      'date',
      'day',
      'id',
      'ocf.clips.0.copies.0.volume',
      'ocf.clips.0.size',
      'ocf.size',
    ])
  })

  it('answers each of many concurrent writes and stores exactly what it accepted', async () => {
    const { token } = await withProject()
    await call('POST', '/log', { token, body: makeLog('D000', 1) })
    const logs = Array.from({ length: 20 }, (_, i) => makeLog(`D${String(i + 1).padStart(3, '0')}`, 2))
    const rival = makeLog('D001', 3)
    const answers = await Promise.all([
      ...logs.map((log) => call('POST', '/log', { token, body: log })),
      call('POST', '/log', { token, body: rival }),
      call('DELETE', '/log/D000', { token }),
    ])
    const statuses = answers.map((a) => a.status)
    // The two posts of D001 race: exactly one is stored, the other answers 409.
    const winner = statuses[0] === 201 ? logs[0] : rival
    expect(statuses.slice(1, 20)).toEqual(Array(19).fill(201))
    expect([statuses[0], statuses[20]].sort()).toEqual([201, 409])
    expect(statuses[21]).toBe(200)
    expect((await call('GET', '/logs', { token })).body.logs).toEqual([winner, ...logs.slice(1)])
  })

  it('refuses a body that is not an object', async () => {
    const { token } = await withProject()
    for (const body of [[makeLog()], 'D001', 42, null]) {
      const res = await call('POST', '/log', { token, body })
      expect(res.status).toBe(400)
      expect(res.body.details[0].prop).toBe('')
    }
  })
})

describe('hashes of copies', () => {
  const withHash = (hash: unknown) =>
    makeLog('D001', 1, { ocf: { clips: [clip(1, { copies: [{ volume: 'SSD_01', hash }] })] } })

  it.each([
    ['xxh64:ef46db3751d8e999'],
    ['XXH64:EF46DB3751D8E999'],
    ['xxhash64be:ef46db3751d8e999'],
    ['xxhash64:99e9d85137db46ef'],
    ['xxh3:2d06800538d394c2'],
    ['xxh128:99aa06d3014798d86001c324468d497f'],
    ['md5:d41d8cd98f00b204e9800998ecf8427e'],
    ['sha1:da39a3ee5e6b4b0d3255bfef95601890afd80709'],
    ['c4:c459dsjfscH38cYeXXYogktxf4Cd9ibshE3BHUo6a58hBXmRQdZrAkZzsWcbWtDg5oQstpDuni4Hirj75GEmTc1sFT'],
    ['xxh32:02cc5d05'],
    ['xxh64-frames:' + 'ab'.repeat(32)],
    // Without a label this service knows, a hash is any string, kept as sent.
    ['9a8b7c6d'],
    ['sha256:not checked here'],
    ['XX: a note, not a hash'],
  ])('keeps %s as sent', async (hash) => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: withHash(hash) })).status).toBe(201)
    expect((await call('GET', '/log/D001', { token })).body.ocf.clips[0].copies[0].hash).toBe(hash)
  })

  it.each([
    ['xxh64:not-a-hash', 'must be 16 hexadecimal digits after xxh64:'],
    ['xxh64:9a8b', 'must be 16 hexadecimal digits after xxh64:'],
    ['xxhash64:9a8b', 'must be 16 hexadecimal digits after xxhash64:'],
    ['xxh3:99aa06d3014798d86001c324468d497f', 'must be 16 hexadecimal digits after xxh3:'],
    ['xxh128:ef46db3751d8e999', 'must be 32 hexadecimal digits after xxh128:'],
    ['MD5:d41d8cd98f00b204e9800998ecf8427', 'must be 32 hexadecimal digits after MD5:'],
    ['sha1:zz39a3ee5e6b4b0d3255bfef95601890afd80709', 'must be 40 hexadecimal digits after sha1:'],
    ['c4:c4abc', 'must be a C4 ID after c4: (c4 and 88 Base58 digits)'],
    ['xxh64-frames:abc', 'must be 64 hexadecimal digits after xxh64-frames:'],
  ])('refuses %s with 400 naming the property, and stores nothing', async (hash, message) => {
    const { token } = await withProject()
    const answer = await call('POST', '/log', { token, body: withHash(hash) })
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'Validation Error', details: [{ prop: 'ocf.clips.0.copies.0.hash', message }] },
    })
    expect((await call('GET', '/logs', { token })).body).toEqual({ logs: [] })
  })

  it('holds a PATCH to the same forms', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: withHash(null) })).status).toBe(201)
    const sound = { clips: [{ clip: 'S001', size: 1, copies: [{ volume: 'SSD_01', hash: 'md5:1' }] }] }
    const answer = await call('PATCH', '/log/D001', { token, body: { sound } })
    expect(answer.status).toBe(400)
    expect(answer.body.details).toEqual([
      { prop: 'sound.clips.0.copies.0.hash', message: 'must be 32 hexadecimal digits after md5:' },
    ])
    expect((await call('GET', '/log/D001', { token })).body.sound).toBeUndefined()
  })
})

describe('custom schemas', () => {
  const settings = {
    custom_schemas: [
      {
        id: 'script',
        sync: 'clip',
        active: true,
        log_fields: [
          { type: 'text', key_name: 'director' },
          { type: 'kv_map', key_name: 'notes' },
        ],
        clip_fields: [{ type: 'text', key_name: 'scene' }, { type: 'text_list', key_name: 'tags' }, { type: 'lens' }],
      },
      { id: 'sound-sync', sync: 'tc', clip_fields: [{ type: 'text', key_name: 'take' }] },
      { id: 'retired', sync: 'clip', active: false },
    ],
  }

  async function projectWithSchemas() {
    const ctx = await withProject()
    const res = await call('PATCH', '/project/config', { token: ctx.token, body: settings })
    expect(res.status).toBe(200)
    return ctx
  }

  it('keeps entries of active schemas and drops entries of unknown or inactive ones', async () => {
    const { token } = await projectWithSchemas()
    const custom = [
      {
        schema: 'script',
        log: { director: 'A. Director', notes: { weather: 'rain' } },
        clips: [{ clip: 'A001C001', scene: '12A', tags: ['wide'] }],
      },
      { schema: 'nobody-defined-this', log: { anything: 1 } },
      { schema: 'retired', clips: [{}] },
      { schema: 'sound-sync', clips: [{ tc_start: '10:00:00:00', tc_end: '10:00:10:00', take: '3' }] },
    ]
    expect((await call('POST', '/log', { token, body: makeLog('D001', 1, { custom }) })).status).toBe(201)
    const { body } = await call('GET', '/log/D001', { token })
    expect(body.custom).toEqual([custom[0], custom[3]])
  })

  it('validates sync rules and declared field types with paths into the entry as sent', async () => {
    const { token } = await projectWithSchemas()
    const custom = [
      { schema: 'unknown' },
      { schema: 'script', log: { director: 7 }, clips: [{ scene: '12A', tags: 'wide' }] },
      { schema: 'sound-sync', clips: [{ tc_start: '10:00:00:00' }] },
    ]
    const res = await call('POST', '/log', { token, body: makeLog('D001', 1, { custom }) })
    expect(res.status).toBe(400)
    expect(errorsOf(res.body).sort()).toEqual([
      'custom.1.clips.0.clip',
      'custom.1.clips.0.tags',
      'custom.1.log.director',
      'custom.2.clips.0.tc_end',
    ])
  })
})

describe('GET /logs and GET /log/{id}', () => {
  it('lists logs by day, then date, then id', async () => {
    const { token } = await withProject()
    const logs = [
      makeLog('c', 0, { day: 2, date: '2024-01-02' }),
      makeLog('b', 0, { day: 1, date: '2024-01-01' }),
      makeLog('a', 0, { day: 2, date: '2024-01-02' }),
      makeLog('z', 0, { day: 2, date: '2024-01-01' }),
    ]
    for (const log of logs) expect((await call('POST', '/log', { token, body: log })).status).toBe(201)
    const { status, body } = await call('GET', '/logs', { token })
    expect(status).toBe(200)
    expect(body.logs.map((l: { id: string }) => l.id)).toEqual(['b', 'z', 'a', 'c'])
    expect(body.logs[0]).toEqual(logs[1])
  })

  it('answers {logs: []} with no project loaded', async () => {
    const token = await approvedToken()
    expect(await call('GET', '/logs', { token })).toMatchObject({ status: 200, body: { logs: [] } })
  })

  it('answers 404 Log not found for an unknown id, and with no project loaded', async () => {
    const token = await approvedToken()
    expect(await call('GET', '/log/D404', { token })).toMatchObject({ status: 404, body: { error: 'Log not found' } })
    await call('POST', '/project/create', { token, body: { project_name: 'P' } })
    expect(await call('GET', '/log/D404', { token })).toMatchObject({ status: 404, body: { error: 'Log not found' } })
  })

  it('answers 400 for an id over 50 characters and for a broken escape', async () => {
    const { token } = await withProject()
    const long = await call('GET', `/log/${'x'.repeat(51)}`, { token })
    expect(long).toMatchObject({ status: 400, body: { error: 'Validation Error', details: [{ prop: 'id' }] } })
    const broken = await call('GET', '/log/%E0%A4%A', { token })
    expect(broken).toMatchObject({ status: 400, body: { error: 'Validation Error', details: [{ prop: 'id' }] } })
  })

  it('finds ids with spaces and non-ASCII characters by their percent-encoded path', async () => {
    const { token } = await withProject()
    const id = 'Tag 1 – Köln'
    expect((await call('POST', '/log', { token, body: makeLog(id, 1) })).status).toBe(201)
    expect(await call('GET', `/log/${encodeURIComponent(id)}`, { token })).toMatchObject({ status: 200, body: { id } })
  })
})

describe('PATCH /log/{id}', () => {
  it('replaces supplied top-level properties as a whole and keeps the rest', async () => {
    const { token } = await withProject()
    const log = makeLog('D001', 3, { sound: { files: 2, size: 100, copies: ['SSD_01'] } })
    await call('POST', '/log', { token, body: log })
    const patch = { unit: '2nd Unit', ocf: { files: 1 } }
    const res = await call('PATCH', '/log/D001', { token, body: patch })
    expect(res.status).toBe(200)
    const expected = { ...log, ...patch }
    expect(res.body).toEqual({ success: true, data: expected })
    expect((await call('GET', '/log/D001', { token })).body).toEqual(expected)
  })

  it('renames the log when the patch carries another id, and refuses a taken id with 409', async () => {
    const { token } = await withProject()
    await call('POST', '/log', { token, body: makeLog('D001', 1) })
    await call('POST', '/log', { token, body: makeLog('D002', 1, { day: 2 }) })
    expect(await call('PATCH', '/log/D001', { token, body: { id: 'D002' } })).toMatchObject({
      status: 409,
      body: { error: 'Log already exists' },
    })
    const renamed = await call('PATCH', '/log/D001', { token, body: { id: 'Day-01' } })
    expect(renamed).toMatchObject({ status: 200, body: { success: true, data: { id: 'Day-01', day: 1 } } })
    expect((await call('GET', '/log/D001', { token })).status).toBe(404)
    expect((await call('GET', '/log/Day-01', { token })).status).toBe(200)
    expect((await call('GET', '/logs', { token })).body.logs.map((l: { id: string }) => l.id)).toEqual([
      'Day-01',
      'D002',
    ])
  })

  it('validates the merged log (400) and leaves the stored one unchanged', async () => {
    const { token } = await withProject()
    const log = makeLog('D001', 1)
    await call('POST', '/log', { token, body: log })
    const res = await call('PATCH', '/log/D001', { token, body: { day: 1000, ocf: { clips: [{ clip: 'x' }] } } })
    expect(res.status).toBe(400)
    expect(errorsOf(res.body).sort()).toEqual(['day', 'ocf.clips.0.copies', 'ocf.clips.0.size'])
    expect((await call('GET', '/log/D001', { token })).body).toEqual(log)
  })

  it('answers 404 for an unknown log and 401 without a token', async () => {
    const { token } = await withProject()
    expect(await call('PATCH', '/log/nope', { token, body: { unit: 'x' } })).toMatchObject({
      status: 404,
      body: { error: 'Log not found' },
    })
    expect(await call('PATCH', '/log/nope', { body: { unit: 'x' } })).toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    })
  })

  it('lets concurrent patches of different fields all land', async () => {
    const { token } = await withProject()
    await call('POST', '/log', { token, body: makeLog('D001', 1) })
    const fields = Array.from({ length: 20 }, (_, i) => [`note_${i}`, `value ${i}`] as const)
    const answers = await Promise.all(fields.map(([k, v]) => call('PATCH', '/log/D001', { token, body: { [k]: v } })))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    const { body } = await call('GET', '/log/D001', { token })
    for (const [k, v] of fields) expect(body[k]).toBe(v)
  })
})

describe('DELETE /log/{id}', () => {
  it('deletes the log: {success: true}, then 404', async () => {
    const { token } = await withProject()
    await call('POST', '/log', { token, body: makeLog('D001', 1) })
    expect(await call('DELETE', '/log/D001', { token })).toMatchObject({ status: 200, body: { success: true } })
    expect(await call('GET', '/log/D001', { token })).toMatchObject({ status: 404, body: { error: 'Log not found' } })
    expect(await call('DELETE', '/log/D001', { token })).toMatchObject({
      status: 404,
      body: { error: 'Log not found' },
    })
  })
})

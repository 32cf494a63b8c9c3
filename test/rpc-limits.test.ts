// Durable Object RPC refuses a value over 32 MiB. Listings, single logs, bodies and the logs of a
// report or a message may all be larger: each must work, not answer 500.
import { describe, expect, it } from 'vitest'
import { BASE, call, clip, fetchWorker, makeLog, operator, withProject } from './helpers'

const MiB = 1024 * 1024

/** A day of `clips` clips, each with a note long enough to make a clip about 850 bytes of JSON. */
function dayOf(id: string, day: number, clips: number) {
  const list = Array.from({ length: clips }, (_, i) => clip(i + 1, { notes: `Take ${i} ${'x'.repeat(500)}` }))
  const date = new Date(Date.UTC(2024, 0, day)).toISOString().slice(0, 10)
  return makeLog(id, 0, { day, date, ocf: { reels: ['A001'], clips: list } })
}

/** A day whose JSON is at least `mib` MiB. */
const bigDay = (id: string, day: number, mib: number) => dayOf(id, day, Math.ceil((mib * MiB) / 840))

describe('values over 32 MiB between the worker and the workspace', () => {
  it('lists two 20,000-clip days (over 32 MiB together) and reports and mails them', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    const days = [dayOf('D001', 1, 20_000), dayOf('D002', 2, 20_000)]
    for (const day of days) expect(await call('POST', '/log', { token, body: day })).toMatchObject({ status: 201 })

    const listing = await fetchWorker(new Request(`${BASE}/logs`, { headers: { 'x-api-token': token } }))
    expect(listing.status).toBe(200)
    const text = await listing.text()
    expect(text.length).toBeGreaterThan(32 * MiB)
    expect(JSON.parse(text)).toEqual({ logs: days })

    const presets = {
      pdfs: [
        { id: 'DATA1', label: 'Data', output_name: 'data.pdf', template: 'data-report' },
        { id: 'CLIPS', label: 'Clips', output_name: 'clips.pdf', template: 'clips-report' },
      ],
      emails: [
        { id: 'WRAP1', label: 'Wrap', recipients: ['p@example.com'], subject: 'Days <d>', attachments: ['DATA1'] },
      ],
    }
    expect((await call('PATCH', '/project/config', { token, body: presets })).status).toBe(200)
    const report = await call('POST', '/generate-pdf', { token, body: { presetId: 'DATA1', logId: ['D001', 'D002'] } })
    expect(report).toMatchObject({
      status: 200,
      body: { success: true, data: { filename: 'data.pdf', mimeType: 'application/pdf' } },
    })
    const clips = await call('POST', '/generate-pdf', { token, body: { presetId: 'CLIPS', logId: ['D001', 'D002'] } })
    expect(clips).toMatchObject({ status: 200, body: { success: true, data: { filename: 'clips.pdf' } } })
    expect(await call('POST', '/open-email-window', { token, body: { logId: ['D001', 'D002'] } })).toMatchObject({
      status: 200,
      body: { success: true },
    })
    const windows = await operator('GET', '/approve/windows')
    expect(windows.status).toBe(200)
    const eml = await fetchWorker(
      new Request(`${BASE}/approve/windows/${windows.body.windows[0].id}/message.eml`, {
        headers: { 'x-operator-key': 'test-operator-key-0123456789abcdef' },
      }),
    )
    expect(eml.status).toBe(200)
    expect(await eml.text()).toContain('Subject: Days 1-2')
  })

  it('lists a project of 40 logs, 66 MiB together, byte for byte', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    const raws: string[] = []
    for (let day = 1; day <= 40; day++) {
      const raw = JSON.stringify(dayOf(`D${String(day).padStart(3, '0')}`, day, 2000))
      raws.push(raw)
      expect((await call('POST', '/log', { token, raw })).status).toBe(201)
    }
    const listing = await fetchWorker(new Request(`${BASE}/logs`, { headers: { 'x-api-token': token } }))
    expect(listing.status).toBe(200)
    const text = await listing.text()
    expect(text.length).toBeGreaterThan(64 * MiB)
    expect(text).toBe(`{"logs":[${raws.join(',')}]}`)
  })

  it('stores, reads and patches one 60 MiB log', { tags: 'slow' }, async () => {
    const { token } = await withProject()
    const day = bigDay('D001', 1, 60)
    const raw = JSON.stringify(day)
    expect(raw.length).toBeGreaterThan(60 * MiB)
    expect(await call('POST', '/log', { token, raw })).toMatchObject({ status: 201, body: { success: true } })
    const read = await fetchWorker(new Request(`${BASE}/log/D001`, { headers: { 'x-api-token': token } }))
    expect(read.status).toBe(200)
    expect(await read.text()).toBe(raw)
    const patched = await call('PATCH', '/log/D001', { token, body: { unit: 'Second Unit' } })
    expect(patched.status).toBe(200)
    expect(patched.body).toEqual({ success: true, data: { ...day, unit: 'Second Unit' } })
    // A patch body over 32 MiB: the whole clip list again, with one clip changed.
    const clips = day.ocf.clips.map((c, i) => (i === 0 ? { ...c, lens: 'Zoom' } : c))
    const again = await call('PATCH', '/log/D001', { token, body: { ocf: { ...day.ocf, clips } } })
    expect(again.status).toBe(200)
    expect(again.body.data.ocf.clips[0].lens).toBe('Zoom')
    expect(again.body.data.unit).toBe('Second Unit')
  })
})

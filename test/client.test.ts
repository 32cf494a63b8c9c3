// The typed client, imported as applications import it (`media-log-service/client`), against the
// worker's own fetch handler: the approval handshake, endpoints answering typed values, and every
// refusal as one MediaLogError with status and details.
import { describe, expect, it } from 'vitest'
import { MediaLogClient, MediaLogError } from 'media-log-service/client'
import { BASE, makeLog, operator, pendingRequestOf, viaWorker } from './helpers'

describe('MediaLogClient', () => {
  it('gets a token through the approval, then works the active project', async () => {
    const connecting = MediaLogClient.connect({ baseUrl: BASE, appName: 'Client Test', fetch: viaWorker })
    const id = await pendingRequestOf('Client Test')
    expect((await operator('POST', `/approve/requests/${id}`, { decision: 'approve' })).status).toBe(200)
    const client = await connecting
    expect(client.token).toMatch(/^mls_/)

    expect(await client.createProject('Client Film')).toMatchObject({ project_name: 'Client Film' })
    expect(await client.createLog(makeLog('D001', 2))).toEqual({ success: true })
    expect(await client.log('D001')).toEqual(makeLog('D001', 2))
    expect((await client.patchLog('D001', { unit: 'B' })).data.unit).toBe('B')
    expect((await client.logs()).logs.map((l) => l.id)).toEqual(['D001'])
    expect((await client.checks('D001')).summary).toMatchObject({ errors: 0 })
    expect((await client.rangeChecks({ from: 1 })).days.map((d) => d.log)).toEqual(['D001'])
    expect(await client.ping()).toEqual({ status: 'ok', active: true })
    const mhl =
      '<hashlist version="1.1"><creatorinfo><startdate>2024-01-01T20:00:00Z</startdate></creatorinfo>' +
      '<hash><file>A001C001_240101_R1AB.mxf</file><size>1</size><md5>00112233445566778899aabbccddeeff</md5></hash></hashlist>'
    const imported = await client.importFiles('D001', { files: [{ name: 'a.mhl', content: mhl }], volume: 'SHUTTLE' })
    expect(imported.changed).toEqual([{ part: 'ocf', clip: 'A001C001_240101_R1AB', fields: ['size', 'copies'] }])
    expect(await client.deleteLog('D001')).toEqual({ success: true })
  })

  it("gets a report's PDF as bytes: a new project's clips report, one day or a range", async () => {
    const connecting = MediaLogClient.connect({ baseUrl: BASE, appName: 'Client PDF', fetch: viaWorker })
    const id = await pendingRequestOf('Client PDF')
    await operator('POST', `/approve/requests/${id}`, { decision: 'approve' })
    const client = await connecting
    await client.createProject('Client PDF')
    await client.createLog(makeLog('D001', 2))
    const day: Uint8Array = await client.logPdf('D001', 'clp01')
    expect(day).toBeInstanceOf(Uint8Array)
    expect(new TextDecoder().decode(day.subarray(0, 5))).toBe('%PDF-')
    const range = await client.rangePdf('dat01', { from: 1, to: '2024-01-01' })
    expect(new TextDecoder().decode(range.subarray(0, 5))).toBe('%PDF-')
    const sent = await client.send('GET', '/log/D001/pdf/dat01')
    expect(sent).toMatchObject({ status: 200, body: undefined, text: '' })
    expect(sent.bytes?.subarray(0, 5)).toEqual(new TextEncoder().encode('%PDF-'))
    await expect(client.logPdf('D001', 'nope1')).rejects.toMatchObject({ status: 404, error: 'Preset not found' })
    await expect(client.rangePdf('clp01', { from: 2 })).rejects.toMatchObject({ status: 404, error: 'Log not found' })
  })

  it('throws one error type: status, error text and every failing property', async () => {
    const anonymous = new MediaLogClient({ baseUrl: BASE, fetch: viaWorker })
    await expect(anonymous.logs()).rejects.toMatchObject({ name: 'MediaLogError', status: 401, error: 'Unauthorized' })

    const connecting = MediaLogClient.connect({ baseUrl: BASE, appName: 'Client Errors', fetch: viaWorker })
    const id = await pendingRequestOf('Client Errors')
    await operator('POST', `/approve/requests/${id}`, { decision: 'approve' })
    const client = await connecting
    await client.createProject('Errors')
    const refused = await client.createLog({ id: 'D001', day: 0, date: '2024-02-30' }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(MediaLogError)
    expect(refused).toMatchObject({
      status: 400,
      error: 'Validation Error',
      details: [
        { prop: 'day', message: 'must be a whole number from 1 to 999' },
        { prop: 'date', message: 'must be a real calendar date' },
      ],
    })
    await expect(client.log('nope')).rejects.toMatchObject({ status: 404, error: 'Log not found' })
    // send(): the same refusal as it came, not thrown.
    expect(await client.send('GET', '/log/nope')).toEqual({
      status: 404,
      body: { error: 'Log not found' },
      text: '{"error":"Log not found"}',
    })
  })
})

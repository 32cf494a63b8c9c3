// The two ways to run the service (SPEC §2), as a user runs them: one state directory for both.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ONE_CLIP_LOG, launch, type Launched } from './launch'
import { approvedToken, jsonCaller } from './server'

const PORT = 5601
const BASE = `http://127.0.0.1:${PORT}`
const state = mkdtempSync(join(tmpdir(), 'media-log-state-'))
const running: Launched[] = []

afterAll(async () => {
  for (const service of running) await service.stop()
  rmSync(state, { recursive: true, force: true })
})

describe('npm start and npm run dev', () => {
  const log = ONE_CLIP_LOG
  let token = ''

  it('npm start serves on loopback, prints the console URL, and a client gets a token through approval', async () => {
    const started = await launch('start', { port: PORT, state })
    running.push(started)
    expect(await (await fetch(`${BASE}/ping`)).json()).toEqual({ status: 'ok', active: false })
    expect(started.output()).toContain(
      `Operator console: http://localhost:${PORT}/approve?key=${encodeURIComponent(started.operatorKey)}`,
    )
    expect(await (await fetch(`http://[::1]:${PORT}/ping`)).json()).toEqual({ status: 'ok', active: false })

    const call = jsonCaller(started)
    token = await approvedToken(call)
    expect((await call('POST', '/project/create', { token, body: { project_name: 'Both Ways' } })).status).toBe(201)
    expect(await call('POST', '/log', { token, body: log })).toEqual({ status: 201, body: { success: true } })
    expect(await call('GET', '/log/D001', { token })).toEqual({ status: 200, body: log })
    await started.stop()
  })

  it('npm run dev finds the same project, log and token; its Local Explorer and handler triggers reach nothing', async () => {
    const dev = await launch('dev', { port: PORT, state })
    running.push(dev)
    const call = jsonCaller(dev)
    expect(await call('GET', '/log/D001', { token })).toEqual({ status: 200, body: log })
    expect((await call('GET', '/project', { token })).body.project_name).toBe('Both Ways')
    expect(await (await fetch(`http://[::1]:${PORT}/ping`)).json()).toEqual({ status: 'ok', active: true })
    const explorer = await call('GET', '/cdn-cgi/explorer/api/workers/durable_objects/namespaces')
    expect(explorer).toEqual({ status: 404, body: { error: 'Not found' } })
    // wrangler dev would run the worker's scheduled() and email() handlers here; it has neither.
    expect(await call('GET', '/cdn-cgi/handler/scheduled')).toEqual({ status: 404, body: { error: 'Not found' } })
    const email = await fetch(`${BASE}/cdn-cgi/handler/email?from=dit@example.com&to=log@example.com`, {
      method: 'POST',
      body: 'From: dit@example.com\r\nTo: log@example.com\r\nMessage-ID: <1@example.com>\r\nSubject: D001\r\n\r\nHi',
    })
    expect({ status: email.status, body: await email.json() }).toEqual({ status: 404, body: { error: 'Not found' } })
    await dev.stop()
  })
})

// Reports rendered by the running service the moment it starts: production's laptop and the DIT's
// tools often ask for the day's PDFs at once, before the isolate has built any font program.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { approvedToken, freePort, jsonCaller, startService, type Call, type Service } from './server'

let service: Service
let call: Call
const dir = mkdtempSync(join(tmpdir(), 'first-reports-'))

beforeAll(async () => {
  service = await startService({ port: await freePort(5460, 5479) })
  call = jsonCaller(service)
})
afterAll(async () => {
  await service?.stop()
  rmSync(dir, { recursive: true, force: true })
})

it('ten concurrent first reports of a fresh service all answer 200 with a complete PDF', async () => {
  const token = await approvedToken(call, 'Report Tool')
  expect((await call('POST', '/project/create', { token, body: { project_name: 'Première Lumière' } })).status).toBe(
    201,
  )
  const pdfs = [
    { id: 'DAILY', label: 'Daily', output_name: '<project>_<log>.pdf', template: 'clips-report', enabled: true },
    { id: 'DATAR', label: 'Data', output_name: 'data_<log>.pdf', template: 'data-report', enabled: true },
  ]
  expect((await call('PATCH', '/project/config', { token, body: { pdfs } })).status).toBe(200)
  // Two logs with different characters, so the reports need different font subsets.
  const clips = (prefix: string) =>
    Array.from({ length: 40 }, (_, i) => ({
      clip: `${prefix}${String(i + 1).padStart(3, '0')}`,
      size: 1_000_000 * (i + 1),
      copies: [{ volume: 'SSD_01', hash: null }],
    }))
  expect(
    (
      await call('POST', '/log', {
        token,
        body: { id: 'D001', day: 1, date: '2024-05-01', ocf: { clips: clips('A001C') } },
      })
    ).status,
  ).toBe(201)
  expect(
    (
      await call('POST', '/log', {
        token,
        body: { id: 'D002', day: 2, date: '2024-05-02', ocf: { clips: clips('Łódź_Ñ_') } },
      })
    ).status,
  ).toBe(201)

  const asks = Array.from({ length: 10 }, (_, i) => ({
    presetId: i % 2 ? 'DATAR' : 'DAILY',
    logId: i % 3 ? 'D001' : 'D002',
  }))
  const answers = await Promise.all(asks.map((body) => call('POST', '/generate-pdf', { token, body })))
  expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
  answers.forEach((answer, i) => {
    const file = join(dir, `r${i}.pdf`)
    writeFileSync(file, Buffer.from(answer.body.data.base64, 'base64'))
    const text = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' })
    const { presetId, logId } = asks[i]!
    const day = logId === 'D001' ? 'Day 1 — 2024-05-01' : 'Day 2 — 2024-05-02'
    expect(text).toContain(presetId === 'DATAR' ? day : logId === 'D001' ? 'A001C040' : 'Łódź_Ñ_040')
  })
})

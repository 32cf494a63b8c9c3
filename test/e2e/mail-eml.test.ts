// The send window end to end: the real service under wrangler dev, a mail relay on this machine as
// the custom provider, the .eml read back by a MIME parser, its PDF by poppler, the preview in Chromium.
// MAIL_SHOTS=<dir> keeps the preview screenshot and the .eml for a person to look at.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import PostalMime from 'postal-mime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openBrowser } from './browser'
import { approvedToken, freePort, jsonCaller, startService, type Call, type Service } from './server'

const RELAY_KEY = 'relay-key-e2e-0123456789'
const FROM = 'Jürgen Dörr, DIT <dit@example.com>'

type Received = { method: string; url: string; headers: IncomingMessage['headers']; body: any }

let service: Service
/** The service's answers as JSON, through the typed client (test/e2e/server.ts). */
let json: Call
let relay: Server
let relayPort: number
const received: Received[] = []
const dir = mkdtempSync(join(tmpdir(), 'mail-e2e-'))

beforeAll(async () => {
  relayPort = await freePort(5400, 5419)
  relay = createServer((request, response) => {
    let text = ''
    request.on('data', (chunk) => (text += chunk))
    request.on('end', () => {
      received.push({ method: request.method!, url: request.url!, headers: request.headers, body: JSON.parse(text) })
      response
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: `relay-${received.length}` }))
    })
  })
  await new Promise<void>((resolve) => relay.listen(relayPort, '127.0.0.1', resolve))
  service = await startService({
    port: await freePort(5420, 5459),
    vars: {
      EMAIL_PROVIDER: 'custom',
      EMAIL_API_URL: `http://127.0.0.1:${relayPort}/send`,
      EMAIL_API_KEY: RELAY_KEY,
      EMAIL_FROM: FROM,
    },
  })
  json = jsonCaller(service)
})

afterAll(async () => {
  await service?.stop()
  await new Promise((resolve) => relay?.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

const clip = (i: number) => ({
  clip: `A001C${String(i).padStart(3, '0')}_240101_R1AB`,
  size: 1_234_567_890,
  copies: [
    { volume: 'SSD_01', hash: `xxh64:${String(i).padStart(16, '0')}` },
    { volume: 'RAID_A', hash: null },
  ],
  tc_start: '10:00:00:00',
  tc_end: '10:01:00:00',
  reel: 'A001',
  fps: 24,
})

describe('send window, end to end', () => {
  let window: any
  /** The .eml as downloaded before sending. */
  let eml: string

  it('opens from POST /open-email-window and lists on the console', async () => {
    const token = await approvedToken(json)
    expect((await json('POST', '/project/create', { token, body: { project_name: 'Café Noir' } })).status).toBe(201)
    const config = await json('PATCH', '/project/config', {
      token,
      body: {
        unit: 'Main Unit',
        pdfs: [
          {
            id: 'CLIPS',
            label: 'Clips report',
            output_name: 'Cafe_Noir_<yyyymmdd>_clips.pdf',
            template: 'clips-report',
          },
        ],
        emails: [
          {
            id: 'DAILY',
            label: 'Daily',
            recipients: ['producer@example.com', 'post@example.com'],
            subject: '<project> – Drehtag <d> – <dd/mm/yyyy> ✓',
            message: 'Grüße vom Set,\n\nalle Karten von Tag <d> sind gesichert.\n\nJürgen',
            attachments: ['CLIPS'],
            template: 'day-summary',
          },
        ],
      },
    })
    expect(config.status).toBe(200)
    const log = {
      id: 'D001',
      day: 1,
      date: '2024-01-01',
      ocf: { reels: ['A001'], copies: ['SSD_01', 'RAID_A'], clips: [1, 2, 3].map(clip) },
    }
    expect((await json('POST', '/log', { token, body: log })).status).toBe(201)
    expect(await json('POST', '/open-email-window', { token, body: { logId: 'D001', presetId: 'DAILY' } })).toEqual({
      status: 200,
      body: { success: true },
    })

    const { body } = await json('GET', '/approve/windows', { operator: true })
    expect(body.windows).toHaveLength(1)
    window = body.windows[0]
    expect(window).toMatchObject({
      subject: 'Café Noir – Drehtag 1 – 01/01/2024 ✓',
      recipients: ['producer@example.com', 'post@example.com'],
      attachments: [{ presetId: 'CLIPS', filename: 'Cafe_Noir_20240101_clips.pdf' }],
      delivery: { provider: 'custom', configured: true, from: FROM, problem: null },
      status: 'draft',
    })
    expect(JSON.stringify(body)).not.toContain(RELAY_KEY)
  })

  it('downloads a .eml a mail client reads: subject, recipients, text, HTML and the PDF', async () => {
    const download = () =>
      fetch(`${service.base}${window.emlUrl}`, { headers: { 'x-operator-key': service.operatorKey } })
    const response = await download()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('message/rfc822')
    const raw = await response.text()
    eml = raw
    // The same message is the same file: its date, Message-ID and boundaries are the message's own.
    expect(await (await download()).text()).toBe(raw)
    expect(raw).toMatch(new RegExp(`\\r\\nMessage-ID: <${window.fingerprint.slice(0, 32)}@example\\.com>\\r\\n`))
    writeFileSync(join(process.env.MAIL_SHOTS ?? dir, 'message.eml'), raw)
    const parsed = await PostalMime.parse(raw)
    expect(parsed.subject).toBe(window.subject)
    expect(parsed.from).toEqual({ name: 'Jürgen Dörr, DIT', address: 'dit@example.com' })
    expect(parsed.to?.map((a) => a.address)).toEqual(window.recipients)
    expect(parsed.text?.replace(/\n$/, '')).toBe(window.preview.text)
    expect(parsed.html?.replace(/\n$/, '')).toBe(window.preview.html)
    expect(parsed.attachments.map((a) => [a.filename, a.mimeType])).toEqual([
      ['Cafe_Noir_20240101_clips.pdf', 'application/pdf'],
    ])

    const pdf = join(dir, 'attachment.pdf')
    writeFileSync(pdf, new Uint8Array(parsed.attachments[0]!.content as ArrayBuffer))
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' })
    expect(text).toContain('Café Noir')
    expect(text).toContain('A001C003_240101_R1AB')
    // The day's checks, in the message's PDF and in its body alike.
    expect(text).toMatch(/!\s+Copies without a checksum — RAID_A: 3 clips/)
    expect(parsed.text).toContain('Copies without a checksum — RAID_A: 3 clips (A001C001_240101_R1AB')
  })

  it('shows the preview as the recipient will see it', async () => {
    const browser = await openBrowser()
    try {
      const page = await browser.context.newPage()
      await page.setViewportSize({ width: 720, height: 640 })
      await page.setContent(window.preview.html)
      const shot = join(process.env.MAIL_SHOTS ?? dir, 'mail-preview.png')
      await page.screenshot({ path: shot, fullPage: true })
      const shown = await page.innerText('body')
      expect(shown).toContain('Grüße vom Set,')
      expect(shown).toContain('Day 1 — 2024-01-01 · Main Unit')
      expect(shown).toMatch(
        /SSD_01: 3 clips, checksums recorded \(not read back\)\s+RAID_A: 3 clips, none with a checksum/,
      )
    } finally {
      await browser.close()
    }
  })

  it('sends through the custom provider: one JSON request with the PDF, then the window says sent', async () => {
    const { status, body } = await json('POST', `/approve/windows/${window.id}/send`, {
      operator: true,
      body: { fingerprint: window.fingerprint },
    })
    expect(status).toBe(200)
    expect(body.window).toMatchObject({ status: 'sent', error: null })
    expect(received).toHaveLength(1)
    const [request] = received
    expect(request).toMatchObject({
      method: 'POST',
      url: '/send',
      headers: { authorization: `Bearer ${RELAY_KEY}`, 'content-type': 'application/json' },
    })
    expect(request!.body).toEqual({
      from: { name: 'Jürgen Dörr, DIT', address: 'dit@example.com' },
      to: window.recipients,
      subject: window.subject,
      text: window.preview.text,
      html: window.preview.html,
      attachments: [
        {
          filename: 'Cafe_Noir_20240101_clips.pdf',
          contentType: 'application/pdf',
          content: expect.stringMatching(/^JVBERi0/),
        },
      ],
    })
    expect(JSON.stringify(body)).not.toContain(RELAY_KEY)
  })

  it('sent what the .eml downloaded before holds: the same parts, the same PDF bytes', async () => {
    const sent = received[0]!.body
    const parsed = await PostalMime.parse(eml)
    expect(parsed.from).toEqual(sent.from)
    expect(parsed.to).toEqual(sent.to.map((address: string) => ({ name: '', address })))
    expect(parsed.subject).toBe(sent.subject)
    // postal-mime keeps the line break that RFC 2046 assigns to the boundary after a part.
    expect(parsed.text).toBe(`${sent.text}\n`)
    expect(parsed.html).toBe(`${sent.html}\n`)
    expect(parsed.attachments.map((a) => [a.filename, a.mimeType])).toEqual(
      sent.attachments.map((a: { filename: string; contentType: string }) => [a.filename, a.contentType]),
    )
    expect(
      Buffer.from(parsed.attachments[0]!.content as ArrayBuffer).equals(
        Buffer.from(sent.attachments[0].content, 'base64'),
      ),
    ).toBe(true)
  })
})

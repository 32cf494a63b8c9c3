/**
 * The send window on the operator console, in Chromium against the real service under
 * `wrangler dev`: a window opened by an application appears live, the operator edits and sends it
 * through a provider (a fake one on this machine), a refusal is shown in words with the draft kept,
 * and without a provider the .eml download is the way out. Screenshots for a person to look at go
 * to a temporary folder, never into the repository.
 */
import { mkdir, readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, type Download, type Locator, type Page } from 'playwright-core'
import PostalMime from 'postal-mime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LAPTOP, PHONE, openBrowser } from './browser'
import { approvedToken, freePort, jsonCaller, startService } from './server'

const SHOTS = join(tmpdir(), 'media-log-send-window-shots')
const FROM = 'DIT Cart <dit@example.com>'
const REFUSAL = 'Recipient producer@example.com is on the suppression list'

type Received = { headers: IncomingMessage['headers']; body: any }

/**
 * The whole page, then the viewport at each window as a person scrolled there sees it: Chromium
 * leaves a sandboxed frame blank in full-page shots when it lies outside the viewport.
 */
async function shoot(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true })
  for (const [size, viewport] of [
    ['laptop', LAPTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport)
    await page.screenshot({ path: join(SHOTS, `${name}-${size}.png`), fullPage: true })
    const windows = page.locator('#windows-list > li')
    for (let i = 0; i < (await windows.count()); i++) {
      const parts = size === 'phone' ? ['.window-head', '.preview', '.window-foot'] : ['.window-head']
      for (const part of parts) {
        await windows
          .nth(i)
          .locator(part)
          .evaluate((node) => node.scrollIntoView({ block: 'start' }))
        await page.waitForTimeout(200)
        await page.screenshot({
          path: join(SHOTS, `${name}-${size}-window${i + 1}${part.replace('.window-head', '').replace('.', '-')}.png`),
        })
      }
    }
  }
  await page.setViewportSize(LAPTOP)
}

/** A service, a signed-in console, and an approved application with a project, presets and two days. */
async function setUp(vars: Record<string, string>) {
  const service = await startService({ port: await freePort(5820, 5839), vars })
  const call = jsonCaller(service)
  const token = await approvedToken(call)
  expect((await call('POST', '/project/create', { token, body: { project_name: 'Café Noir' } })).status).toBe(201)
  const config = await call('PATCH', '/project/config', {
    token,
    body: {
      unit: 'Main Unit',
      pdfs: [
        { id: 'CLIPS', label: 'Clips report', output_name: 'Cafe_Noir_<yyyymmdd>_clips.pdf', template: 'clips-report' },
        { id: 'DATA1', label: 'Data report', output_name: 'Cafe_Noir_<yyyymmdd>_data.pdf', template: 'data-report' },
      ],
      emails: [
        {
          id: 'DAILY',
          label: 'Daily report',
          recipients: ['producer@example.com', 'post@example.com'],
          subject: '<project> – Day <d> – <yyyy-mm-dd>',
          message: 'Hello,\n\nall cards of day <d> are backed up twice.\n\nBest, the DIT',
          attachments: ['CLIPS'],
          template: 'day-summary',
        },
      ],
    },
  })
  expect([config.status, config.body]).toEqual([200, expect.anything()])
  const clip = (i: number) => ({
    clip: `A001C${String(i).padStart(3, '0')}_240101_R1AB`,
    size: 1_234_567_890,
    copies: [{ volume: 'SSD_01', hash: `xxh64:${String(i).padStart(16, '0')}` }],
    tc_start: '10:00:00:00',
    tc_end: '10:01:00:00',
    reel: 'A001',
    fps: 24,
  })
  for (const [id, day, date] of [
    ['D001', 1, '2024-01-01'],
    ['D002', 2, '2024-01-02'],
  ] as const) {
    expect(
      (
        await call('POST', '/log', {
          token,
          body: { id, day, date, ocf: { reels: ['A001'], copies: ['SSD_01'], clips: [1, 2, 3].map(clip) } },
        })
      ).status,
    ).toBe(201)
  }
  const browser = await openBrowser({ acceptDownloads: true })
  const page = browser.context.pages()[0] ?? (await browser.context.newPage())
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await page.goto(`${service.base}/approve?key=${service.operatorKey}`)
  await page.getByText('No e-mail is waiting.', { exact: false }).waitFor()
  const openWindow = (logId: string) =>
    call('POST', '/open-email-window', { token, body: { logId, presetId: 'DAILY' } })
  const windows = async () => (await call('GET', '/approve/windows', { operator: true })).body.windows as any[]
  const stop = async () => {
    await browser.close()
    await service.stop()
  }
  return { service, page, context: browser.context, dialogs, call, openWindow, windows, stop }
}

const card = (page: Page, day: string): Locator => page.locator('#windows-list > li', { hasText: day })

async function downloaded(download: Download): Promise<Buffer> {
  return readFile((await download.path())!)
}

describe('send window with a provider', () => {
  let env: Awaited<ReturnType<typeof setUp>>
  let provider: Server
  let answerWith: { status: number; body: unknown } = { status: 201, body: { id: 'fake-1' } }
  const received: Received[] = []

  beforeAll(async () => {
    provider = createServer((request, response) => {
      let text = ''
      request.on('data', (chunk) => (text += chunk))
      request.on('end', () => {
        received.push({ headers: request.headers, body: JSON.parse(text) })
        response
          .writeHead(answerWith.status, { 'content-type': 'application/json' })
          .end(JSON.stringify(answerWith.body))
      })
    })
    const providerPort = await freePort(5880, 5889)
    await new Promise<void>((resolve) => provider.listen(providerPort, '127.0.0.1', resolve))
    env = await setUp({
      EMAIL_PROVIDER: 'custom',
      EMAIL_API_URL: `http://127.0.0.1:${providerPort}/send`,
      EMAIL_FROM: FROM,
    })
  })

  afterAll(async () => {
    await env?.stop()
    await new Promise((resolve) => provider?.close(resolve))
  })

  it('shows a window opened by an application without reload: title, recipients, preview, attachment', async () => {
    const { page, openWindow } = env
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true))
    const asked = Date.now()
    expect(await openWindow('D001')).toEqual({ status: 200, body: { success: true } })
    const day1 = card(page, 'Day 1 — 2024-01-01')
    await day1.waitFor({ timeout: 5000 })
    expect(Date.now() - asked).toBeLessThan(3000)
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)

    expect(await day1.locator('h3').textContent()).toBe('Café Noir — Day 1 — 2024-01-01')
    expect(await day1.locator('.meta').textContent()).toMatch(
      /^E-mail preset “Daily report” · opened today, \d\d:\d\d$/,
    )
    expect(await day1.locator('.status').textContent()).toBe('Draft')
    expect(await day1.getByLabel('To', { exact: true }).inputValue()).toBe('producer@example.com, post@example.com')
    expect(await day1.getByLabel('Subject').inputValue()).toBe('Café Noir – Day 1 – 2024-01-01')
    expect(await day1.getByLabel('Message').inputValue()).toBe(
      'Hello,\n\nall cards of day 1 are backed up twice.\n\nBest, the DIT',
    )
    expect(await day1.locator('.attachment-name').allTextContents()).toEqual(['Cafe_Noir_20240101_clips.pdf'])
    expect(await day1.locator('.delivery').textContent()).toBe(`Sends as ${FROM}.`)
    expect(await day1.getByRole('button', { name: 'Send', exact: true }).isEnabled()).toBe(true)
    expect(await page.locator('#windows-count').textContent()).toBe('1 to send')
    expect(await day1.locator('.checks-title').textContent()).toBe('Checks: nothing found')
    expect(await day1.locator('.checks-day').allInnerTexts()).toEqual([
      expect.stringMatching(/^Day 1 — 2024-01-01\s+1 copy, checksums recorded \(not read back\)\s+no other findings$/),
    ])

    // The preview renders the mail HTML with its styles, in a frame that may run no script.
    const frame = day1.locator('iframe.preview-frame')
    expect(await frame.getAttribute('sandbox')).toBe('')
    const preview = day1.frameLocator('iframe.preview-frame')
    await preview.getByText('Day 1 — 2024-01-01 · Main Unit').waitFor()
    expect(await preview.locator('body').evaluate((body) => getComputedStyle(body).padding)).toBe('24px')
    await shoot(page, '1-one-window')
  })

  it('keeps the operator’s typing when the live state changes, and saves it', async () => {
    const { page, openWindow, windows } = env
    const day1 = card(page, 'Day 1 — 2024-01-01')
    const message = day1.getByLabel('Message')
    await message.click()
    await message.press('Control+End')
    await message.pressSequentially('\nPS: <script>parent.document.title="pwned"</script><img src=x onerror=alert(1)>')
    // Another window opens while the operator types: the list re-renders, the field stays theirs.
    expect((await openWindow('D002')).status).toBe(200)
    const day2 = card(page, 'Day 2 — 2024-01-02')
    await day2.waitFor()
    expect(await message.evaluate((node) => node === document.activeElement)).toBe(true)
    expect(await message.inputValue()).toMatch(
      /Best, the DIT\nPS: <script>parent\.document\.title="pwned"<\/script><img src=x onerror=alert\(1\)>$/,
    )
    await day1.getByText('Draft saved').waitFor()
    const [stored] = await windows()
    expect(stored.message).toBe(await message.inputValue())
    // The markup is text in the preview: nothing ran in the frame or the page.
    const preview = day1.frameLocator('iframe.preview-frame')
    await preview.getByText('PS: <script>parent.document.title="pwned"</script><img src=x onerror=alert(1)>').waitFor()
    expect(await preview.locator('img').count()).toBe(0)
    expect(await page.title()).toBe('Operator console — Media Log')
    expect(env.dialogs).toEqual([])
    expect(await page.locator('#windows-count').textContent()).toBe('2 to send')
    await message.blur()
    await shoot(page, '2-two-windows')
  })

  it('shows a bad address in words and keeps the stored recipients', async () => {
    const { page, windows } = env
    const day2 = card(page, 'Day 2 — 2024-01-02')
    const to = day2.getByLabel('To', { exact: true })
    await to.fill('producer@example.com, post@')
    await to.press('Enter')
    await day2.getByText('“post@” must be a valid e-mail address such as name@example.com.').waitFor()
    expect(await to.getAttribute('aria-invalid')).toBe('true')
    expect(await day2.locator('.save-state').textContent()).toBe('Not saved: see the problem above')
    expect((await windows())[1].recipients).toEqual(['producer@example.com', 'post@example.com'])
    await to.fill('producer@example.com')
    await to.press('Enter')
    await day2.getByText('Draft saved').waitFor()
    expect(await day2.locator('.field-error').first().isHidden()).toBe(true)
    expect((await windows())[1].recipients).toEqual(['producer@example.com'])
  })

  it('sends the edited subject with the PDF and shows that it was sent', async () => {
    const { page, windows } = env
    const day1 = card(page, 'Day 1 — 2024-01-01')
    await day1.getByLabel('Subject').fill('Café Noir – Day 1 – all cards safe')
    await day1.getByRole('button', { name: 'Send', exact: true }).click()
    await page.locator('#notices').getByText('The e-mail “Café Noir – Day 1 – all cards safe” is sent.').waitFor()
    await day1.locator('.status', { hasText: /^Sent \d\d:\d\d$/ }).waitFor()
    expect(await day1.locator('.delivery').textContent()).toBe('Sent to producer@example.com, post@example.com.')
    expect(await day1.getByRole('button', { name: 'Send', exact: true }).count()).toBe(0)
    expect(await day1.getByLabel('Subject').getAttribute('readonly')).toBe('')
    expect(received).toHaveLength(1)
    const { body } = received[0]!
    expect(body.subject).toBe('Café Noir – Day 1 – all cards safe')
    expect(body.to).toEqual(['producer@example.com', 'post@example.com'])
    expect(body.from).toEqual({ name: 'DIT Cart', address: 'dit@example.com' })
    expect(body.text).toContain('PS: <script>')
    expect(body.attachments.map((a: { filename: string; contentType: string }) => [a.filename, a.contentType])).toEqual(
      [['Cafe_Noir_20240101_clips.pdf', 'application/pdf']],
    )
    expect(body.attachments[0].content).toMatch(/^JVBER/)
    expect(Buffer.from(body.attachments[0].content, 'base64').subarray(0, 5).toString()).toBe('%PDF-')
    expect((await windows())[0]).toMatchObject({ status: 'sent', subject: 'Café Noir – Day 1 – all cards safe' })
    expect(await page.locator('#windows-count').textContent()).toBe('1 to send')
  })

  it('shows a provider’s refusal in words and keeps the draft; Send again works', async () => {
    const { page, windows } = env
    const day2 = card(page, 'Day 2 — 2024-01-02')
    await day2.getByLabel('Subject').fill('Day 2 wrap')
    answerWith = { status: 422, body: { message: REFUSAL } }
    await day2.getByRole('button', { name: 'Send', exact: true }).click()
    const words = `The mail service refused the message (HTTP 422): ${REFUSAL}`
    await day2.locator('.window-problem', { hasText: words }).waitFor()
    expect(await day2.locator('.window-problem').textContent()).toBe(
      `Not sent: ${words}. The draft is kept: fix what it says and send again, or download the .eml.`,
    )
    await day2.locator('.status', { hasText: 'Not sent' }).waitFor()
    expect(await day2.getByLabel('Subject').inputValue()).toBe('Day 2 wrap')
    expect(await day2.getByLabel('Subject').getAttribute('readonly')).toBeNull()
    expect((await windows())[1]).toMatchObject({
      status: 'failed',
      error: words,
      subject: 'Day 2 wrap',
      recipients: ['producer@example.com'],
    })
    expect(received).toHaveLength(2)
    await shoot(page, '3-refused')

    answerWith = { status: 201, body: { id: 'fake-3' } }
    await day2.getByRole('button', { name: 'Send again' }).click()
    await page.locator('#notices').getByText('The e-mail “Day 2 wrap” is sent.').waitFor()
    await day2.locator('.window-problem').waitFor({ state: 'hidden' })
    expect(received.at(-1)!.body.subject).toBe('Day 2 wrap')
  })

  it('shows the days’ checks above Send, and asks once more before sending with errors', async () => {
    const { page, call, openWindow } = env
    const token = await approvedToken(call, 'Checks')
    const hash = `xxh64:${'0'.repeat(15)}1`
    const copies = (...volumes: string[]) => volumes.map((volume) => ({ volume, hash }))
    const clips = [
      { clip: 'A002C001_240103_R1AB', size: 1000, copies: copies('SSD_01', 'RAID_A') },
      { clip: 'A002C002_240103_R1AB', size: 1000, copies: copies('SSD_01') },
    ]
    const day3 = { id: 'D003', day: 3, date: '2024-01-03', ocf: { copies: ['SSD_01', 'RAID_A'], clips } }
    expect((await call('POST', '/log', { token, body: day3 })).status).toBe(201)
    expect((await openWindow('D003')).status).toBe(200)
    const card3 = card(page, 'Day 3 — 2024-01-03')
    await card3.waitFor()
    expect(await card3.locator('.checks-title').textContent()).toBe('Checks: 1 error')
    expect(await card3.locator('.window-checks').getAttribute('data-state')).toBe('errors')
    expect(await card3.locator('.checks-lines li').allTextContents()).toEqual([
      'Missing copies — RAID_A: 1 clip (A002C002_240103_R1AB)',
      'no other findings',
    ])
    await shoot(page, '4-checks')

    const sent = received.length
    await card3.getByRole('button', { name: 'Send', exact: true }).click()
    const question = card3.getByRole('group', { name: 'Confirm sending despite errors' })
    await question.waitFor()
    expect(await question.locator('p').textContent()).toBe(
      'The checks of these days found 1 error: Missing copies (1). Send this e-mail anyway?',
    )
    await question.getByRole('button', { name: 'Not yet' }).click()
    await question.waitFor({ state: 'hidden' })
    expect(received.length).toBe(sent)
    await card3.getByRole('button', { name: 'Send', exact: true }).click()
    await question.getByRole('button', { name: 'Send anyway' }).click()
    await card3.locator('.status', { hasText: /^Sent \d\d:\d\d$/ }).waitFor()
    expect(received.length).toBe(sent + 1)
    expect(received.at(-1)!.body.text).toContain('Verification: Missing copies — RAID_A: 1 clip (A002C002_240103_R1AB)')
  })

  it('keeps the windows across a reload, and Close takes a sent one away', async () => {
    const { page, windows } = env
    await page.reload()
    await card(page, 'Day 1 — 2024-01-01').waitFor()
    await card(page, 'Day 2 — 2024-01-02').waitFor()
    expect(await page.locator('#windows-list > li').count()).toBe(3)
    await card(page, 'Day 1 — 2024-01-01').getByRole('button', { name: 'Close' }).click()
    await card(page, 'Day 1 — 2024-01-01').waitFor({ state: 'detached' })
    expect((await windows()).map((w) => w.logIds)).toEqual([['D002'], ['D003']])
  })
})

describe('a send window that follows its day', () => {
  let env: Awaited<ReturnType<typeof setUp>>
  let provider: Server
  const received: Received[] = []

  beforeAll(async () => {
    provider = createServer((request, response) => {
      let text = ''
      request.on('data', (chunk) => (text += chunk))
      request.on('end', () => {
        received.push({ headers: request.headers, body: JSON.parse(text) })
        response.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"fake"}')
      })
    })
    const providerPort = await freePort(5870, 5879)
    await new Promise<void>((resolve) => provider.listen(providerPort, '127.0.0.1', resolve))
    env = await setUp({
      EMAIL_PROVIDER: 'custom',
      EMAIL_API_URL: `http://127.0.0.1:${providerPort}/send`,
      EMAIL_FROM: FROM,
    })
  })

  afterAll(async () => {
    await env?.stop()
    await new Promise((resolve) => provider?.close(resolve))
  })

  const HASH = 'xxh64:0123456789abcdef'
  const clips = (copies: (i: number) => Array<{ volume: string; hash: string }>) =>
    [1, 2, 3].map((i) => ({ clip: `A004C00${i}_240104_R1AB`, size: 1000 + i, copies: copies(i) }))
  const both = () => [
    { volume: 'SSD_01', hash: HASH },
    { volume: 'RAID_A', hash: HASH },
  ]
  const day = (copies: (i: number) => Array<{ volume: string; hash: string }>) => ({
    ocf: { reels: ['A004'], copies: ['SSD_01', 'RAID_A'], clips: clips(copies) },
  })

  it('turns red without a reload when its day is patched with errors, and asks before sending', async () => {
    const { page, call, windows } = env
    const token = await approvedToken(call, 'Offload')
    const clean = { id: 'D004', day: 4, date: '2024-01-04', ...day(both) }
    expect((await call('POST', '/log', { token, body: clean })).status).toBe(201)
    expect(
      (await call('POST', '/open-email-window', { token, body: { logId: 'D004', presetId: 'DAILY' } })).status,
    ).toBe(200)
    const card4 = card(page, 'Day 4 — 2024-01-04')
    await card4.waitFor()
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true))
    expect(await card4.locator('.checks-title').textContent()).toBe('Checks: nothing found')
    expect(await card4.locator('.window-checks').getAttribute('data-state')).toBe('clear')
    expect(await card4.locator('.checks-lines li').allTextContents()).toEqual([
      '2 copies, checksums match (not read back)',
      'no other findings',
    ])
    expect(await card4.locator('.window-updated').isHidden()).toBe(true)
    const [opened] = await windows()
    await shoot(page, '5-clean-day')

    // The offload tool finds RAID_A short of clip 2 and clip 3's hash disagreeing.
    const patched = day((i) =>
      i === 2
        ? [{ volume: 'SSD_01', hash: HASH }]
        : i === 3
          ? [
              { volume: 'SSD_01', hash: HASH },
              { volume: 'RAID_A', hash: 'xxh64:fedcba9876543210' },
            ]
          : both(),
    )
    expect((await call('PATCH', '/log/D004', { token, body: patched })).status).toBe(200)
    await card4.locator('.window-checks[data-state="errors"]').waitFor({ timeout: 5000 })
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
    // Two copies that disagree are both in doubt: an error on each volume.
    expect(await card4.locator('.checks-title').textContent()).toBe('Checks: 3 errors')
    expect(await card4.locator('.checks-lines li').allTextContents()).toEqual([
      'Copies whose checksum differs from another copy’s — SSD_01: 1 clip (A004C003_240104_R1AB)',
      'Copies whose checksum differs from another copy’s — RAID_A: 1 clip (A004C003_240104_R1AB)',
      'Missing copies — RAID_A: 1 clip (A004C002_240104_R1AB)',
      'no other findings',
    ])
    expect(await card4.locator('.window-updated-text').textContent()).toBe(
      'Updated: the day changed since you opened this window.',
    )
    await card4
      .frameLocator('iframe.preview-frame')
      .getByText('Missing copies — RAID_A: 1 clip (A004C002_240104_R1AB)')
      .waitFor()
    await shoot(page, '6-updated-red')

    const sent = received.length
    await card4.getByRole('button', { name: 'Send', exact: true }).click()
    const question = card4.getByRole('group', { name: 'Confirm sending despite errors' })
    await question.waitFor()
    expect(await question.locator('p').textContent()).toBe(
      'The checks of these days found 3 errors: Copies whose checksum differs from another copy’s (2), Missing copies (1). Send this e-mail anyway?',
    )
    await question.getByRole('button', { name: 'Not yet' }).click()
    await question.waitFor({ state: 'hidden' })

    // A script sending the message as it was opened is refused, and nothing goes out.
    const stale = await call('POST', `/approve/windows/${opened.id}/send`, {
      operator: true,
      body: { fingerprint: opened.fingerprint },
    })
    expect(stale.status).toBe(409)
    expect(stale.body.error).toBe(
      'The e-mail changed since it was shown: nothing was sent. Look at it again, then send it.',
    )
    expect(stale.body.window).toMatchObject({ id: opened.id, status: 'draft', checks: { errors: 3 } })
    expect(received.length).toBe(sent)
    expect(env.dialogs).toEqual([])
  })

  it('sends nothing when the day moved after it was shown: shows it as it is and asks again', async () => {
    const { page, call, windows } = env
    const card4 = card(page, 'Day 4 — 2024-01-04')
    // From the next poll on, the console stops hearing of changes, as a laptop's slow network might make it.
    const held: Array<() => Promise<void>> = []
    let heard!: () => void
    const polling = new Promise<void>((resolve) => (heard = resolve))
    const statePolls = (url: URL) => url.pathname === '/approve/state'
    await page.route(statePolls, (route) => {
      held.push(() => route.continue())
      heard()
    })
    // Looking at the window wakes the poll under way; the one after it is held.
    await card4.getByRole('button', { name: 'Got it' }).click()
    await card4.locator('.window-updated').waitFor({ state: 'hidden' })
    expect((await windows())[0].updated).toBeNull()
    await polling
    const token = await approvedToken(call, 'Offload again')
    const fixed = day((i) =>
      i === 3
        ? [
            { volume: 'SSD_01', hash: HASH },
            { volume: 'RAID_A', hash: 'xxh64:fedcba9876543210' },
          ]
        : both(),
    )
    expect((await call('PATCH', '/log/D004', { token, body: fixed })).status).toBe(200)
    expect(await card4.locator('.checks-title').textContent()).toBe('Checks: 3 errors')

    const sent = received.length
    await card4.getByRole('button', { name: 'Send', exact: true }).click()
    await card4.getByRole('button', { name: 'Send anyway' }).click()
    const again = card4.getByRole('group', { name: 'Confirm sending the changed e-mail' })
    await again.waitFor()
    expect(await again.locator('p').textContent()).toBe(
      'This e-mail changed since you looked at it, so nothing was sent. The checks now find 2 errors: Copies whose checksum differs from another copy’s (2). Send this version anyway?',
    )
    expect(await card4.locator('.checks-title').textContent()).toBe('Checks: 2 errors')
    expect(await card4.locator('.window-updated-text').textContent()).toBe(
      'Updated: the day changed since you last looked at this e-mail.',
    )
    expect(received.length).toBe(sent)
    await shoot(page, '7-changed-asks-again')

    await again.getByRole('button', { name: 'Send anyway' }).click()
    await card4.locator('.status', { hasText: /^Sent \d\d:\d\d$/ }).waitFor()
    expect(received.length).toBe(sent + 1)
    const [stored] = (await windows()).filter((w) => w.logIds[0] === 'D004')
    expect(received.at(-1)!.body.text).toBe(stored.preview.text)
    expect(received.at(-1)!.body.text).toContain(
      'Copies whose checksum differs from another copy’s — RAID_A: 1 clip (A004C003_240104_R1AB)',
    )
    expect(received.at(-1)!.body.text).not.toContain('missing')
    await page.unroute(statePolls)
    for (const resume of held) await resume().catch(() => {})
  })
})

describe('send window without a provider', () => {
  let env: Awaited<ReturnType<typeof setUp>>

  beforeAll(async () => {
    env = await setUp({})
  })

  afterAll(async () => {
    await env?.stop()
  })

  it('explains why Send is off and downloads a complete .eml instead', async () => {
    const { page, openWindow } = env
    expect((await openWindow('D001')).status).toBe(200)
    const day1 = card(page, 'Day 1 — 2024-01-01')
    await day1.waitFor()
    const send = day1.getByRole('button', { name: 'Send', exact: true })
    expect(await send.isDisabled()).toBe(true)
    const why =
      'Send is off: no e-mail provider is set up (EMAIL_PROVIDER in .dev.vars). Download the .eml and open it in your mail app instead.'
    expect(await day1.locator('.delivery').textContent()).toBe(why)
    // The explanation is the disabled button's description for assistive technology too.
    expect(await send.evaluate((b) => document.getElementById(b.getAttribute('aria-describedby')!)?.textContent)).toBe(
      why,
    )

    await day1.getByLabel('Subject').fill('Rushes day 1')
    const [eml] = await Promise.all([
      page.waitForEvent('download'),
      day1.getByRole('button', { name: 'Download .eml' }).click(),
    ])
    expect(eml.suggestedFilename()).toBe('Rushes day 1.eml')
    const raw = (await downloaded(eml)).toString('utf8')
    expect(raw).toMatch(/^[A-Za-z-]+: /)
    expect(raw.split(/\r?\n\r?\n/)[0]).toMatch(/^Subject: Rushes day 1$/m)
    const parsed = await PostalMime.parse(raw)
    expect(parsed.subject).toBe('Rushes day 1')
    expect(parsed.to?.map((a) => a.address)).toEqual(['producer@example.com', 'post@example.com'])
    expect(parsed.attachments.map((a) => a.filename)).toEqual(['Cafe_Noir_20240101_clips.pdf'])
    expect(
      Buffer.from(parsed.attachments[0]!.content as ArrayBuffer)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')

    // Mail app: the saved subject and recipients in a mailto: link.
    expect(await day1.getByRole('link', { name: 'Open in mail app' }).getAttribute('href')).toMatch(
      /^mailto:producer@example\.com,post@example\.com\?subject=Rushes%20day%201&body=/,
    )
    await shoot(page, '4-no-provider')
  })

  it('downloads an attachment, adds and removes PDFs, and discards after asking', async () => {
    const { page, windows } = env
    const day1 = card(page, 'Day 1 — 2024-01-01')
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      day1.getByRole('button', { name: 'Download Cafe_Noir_20240101_clips.pdf' }).click(),
    ])
    expect(pdf.suggestedFilename()).toBe('Cafe_Noir_20240101_clips.pdf')
    expect((await downloaded(pdf)).subarray(0, 5).toString()).toBe('%PDF-')

    await day1.getByLabel('Attach a PDF report').selectOption('DATA1')
    await day1.getByRole('button', { name: 'Download Cafe_Noir_20240101_data.pdf' }).waitFor()
    expect((await windows())[0].attachments.map((a: { presetId: string }) => a.presetId)).toEqual(['CLIPS', 'DATA1'])
    await day1.getByRole('button', { name: 'Remove Cafe_Noir_20240101_clips.pdf' }).click()
    await day1.getByRole('button', { name: 'Download Cafe_Noir_20240101_clips.pdf' }).waitFor({ state: 'detached' })
    expect((await windows())[0].attachments.map((a: { presetId: string }) => a.presetId)).toEqual(['DATA1'])

    await day1.getByRole('button', { name: 'Discard', exact: true }).click()
    await day1
      .getByText('Discard this e-mail? The draft and your edits are deleted; the logs and reports stay.')
      .waitFor()
    await day1.getByRole('button', { name: 'Keep it' }).click()
    expect(await windows()).toHaveLength(1)
    await day1.getByRole('button', { name: 'Discard', exact: true }).click()
    await day1.getByRole('button', { name: 'Yes, discard' }).click()
    await page.getByText('The e-mail “Rushes day 1” was discarded.').waitFor()
    await page.getByText('No e-mail is waiting.', { exact: false }).waitFor()
    expect(await windows()).toEqual([])
    expect(env.dialogs).toEqual([])
  })
})

/**
 * The console's Days view in Chromium against the service under `wrangler dev`: a day an
 * application posts appears without a reload, a patch that loses a copy shows in its chips and
 * its findings at once, the card opens by keyboard, a day's or a range's PDF downloads and reads
 * back (pdftotext), the e-mail of some days opens from here; screenshots at laptop and phone width,
 * light and dark, for a person to look at.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LAPTOP, PHONE, openBrowser } from './browser'
import { approvedToken, freePort, jsonCaller, startService, type Call, type Service } from './server'

// Screenshots for a person to look at; never part of the repository.
const SHOTS = join(tmpdir(), 'media-log-days-shots')

const hash = (n: number) => `xxh64:${n.toString(16).padStart(16, '0')}`

/** A day of `clips` clips over reels of 8, on RAID and SHUTTLE, with sound on both. */
function day(id: string, n: number, clips: number, shuttle = (_i: number) => true) {
  const ocf = Array.from({ length: clips }, (_, i) => {
    const reel = `A${String(Math.floor(i / 8) + 1).padStart(3, '0')}`
    return {
      clip: `${reel}C${String((i % 8) + 1).padStart(3, '0')}_24010${n}_R1AB`,
      reel,
      size: 2_400_000_000 + i,
      copies: [
        { volume: 'RAID', hash: hash(i + 1) },
        ...(shuttle(i) ? [{ volume: 'SHUTTLE', hash: hash(i + 1) }] : []),
      ],
    }
  })
  return {
    id,
    day: n,
    date: `2024-01-0${n}`,
    unit: 'Main Unit',
    ocf: { copies: ['RAID', 'SHUTTLE'], clips: ocf },
    sound: {
      copies: ['RAID', 'SHUTTLE'],
      clips: [
        {
          clip: `S${n}T001`,
          size: 120_000_000,
          copies: [
            { volume: 'RAID', hash: hash(900) },
            { volume: 'SHUTTLE', hash: null },
          ],
        },
      ],
    },
    version: 1,
  }
}

async function shoot(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true })
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const [size, viewport] of [
      ['laptop', LAPTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport)
      await page.locator('#days').evaluate((node) => node.scrollIntoView({ block: 'start' }))
      await page.waitForTimeout(150)
      await page.screenshot({ path: join(SHOTS, `${name}-${size}-${scheme}.png`) })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize(LAPTOP)
}

describe('the Days view', () => {
  let service: Service
  let call: Call
  let token: string
  let close: () => Promise<void>
  let page: Page

  beforeAll(async () => {
    service = await startService({ port: await freePort(5940, 5959) })
    call = jsonCaller(service)
    token = await approvedToken(call)
    expect((await call('POST', '/project/create', { token, body: { project_name: 'Café Noir' } })).status).toBe(201)
    // The browser on another continent than the set: the console must show the set's clock.
    const browser = await openBrowser({ acceptDownloads: true, timezoneId: 'America/Los_Angeles' })
    close = browser.close
    page = await browser.context.newPage()
    await page.goto(`${service.base}/approve?key=${service.operatorKey}`)
    await page.locator('#live[data-state="live"]').waitFor()
  }, 120_000)

  afterAll(async () => {
    await close?.()
    await service?.stop()
  })

  it('shows a day an application posts, without a reload', async () => {
    await expect.poll(() => page.locator('#days-empty').isVisible()).toBe(true)
    const posted = Date.now()
    expect((await call('POST', '/log', { token, body: day('D001', 1, 20) })).status).toBe(201)
    const card = page.locator('#days-list > li[data-key="D001"]')
    await card.waitFor({ timeout: 3000 })
    expect(Date.now() - posted).toBeLessThan(3000)
    expect(await card.locator('.day-title').textContent()).toBe('Day 1 2024-01-01 Main Unit')
    expect(await card.locator('.chip').allInnerTexts()).toEqual([
      'RAID 20/20 ✓',
      'SHUTTLE 20/20 ✓',
      '♪RAID 1/1 ✓',
      '♪SHUTTLE 1/1 !',
    ])
    expect(await card.locator('.day-status').innerText()).toBe('1 warning')
    expect(await card.locator('.day-status').getAttribute('data-state')).toBe('warnings')
    expect(await page.locator('#days-count').innerText()).toBe('1 day')
    expect((await call('POST', '/log', { token, body: day('D002', 2, 60) })).status).toBe(201)
    await page.locator('#days-list > li[data-key="D002"]').waitFor({ timeout: 3000 })
    expect(await page.locator('#days-list > li').evaluateAll((nodes) => nodes.map((n) => n.dataset.key))).toEqual([
      'D001',
      'D002',
    ])
  })

  it('opens a day by keyboard: its findings name the clips, its copies by reel and volume', async () => {
    const card = page.locator('#days-list > li[data-key="D001"]')
    await card.locator('.day-toggle').focus()
    await page.keyboard.press('Enter')
    const detail = card.locator('.day-detail')
    await detail.locator('table.copies').waitFor()
    expect(await card.locator('.day-toggle').getAttribute('aria-expanded')).toBe('true')
    // A line per kind and volume in the service's words, the clip named.
    expect(await detail.locator('.finding-group').allInnerTexts()).toEqual([
      'WARNING Copies without a checksum — SHUTTLE (sound): 1 clip (S1T001)',
    ])
    expect(await detail.locator('tbody tr').allInnerTexts()).toEqual([
      'A001\t8\t8/8 ✓\t8/8 ✓',
      'A002\t8\t8/8 ✓\t8/8 ✓',
      'A003\t4\t4/4 ✓\t4/4 ✓',
      '♪ Sound\t1\t1/1 ✓\t1/1 !\n1 clip, none with a checksum',
    ])
    await shoot(page, 'opened')
    await page.keyboard.press('Enter')
    expect(await detail.isHidden()).toBe(true)
    await page.keyboard.press('Enter')
    await detail.locator('table.copies').waitFor()
  })

  it('a patch that loses copies shows in the chips and the findings at once', async () => {
    const patched = day('D001', 1, 20, (i) => i < 17)
    const answer = await call('PATCH', '/log/D001', { token, body: { ocf: patched.ocf } })
    expect(answer.status).toBe(200)
    const card = page.locator('#days-list > li[data-key="D001"]')
    await expect.poll(() => card.locator('.chip').first().innerText(), { timeout: 3000 }).toBe('RAID 20/20 ✓')
    await expect.poll(() => card.locator('.chip').nth(1).innerText(), { timeout: 3000 }).toBe('SHUTTLE 17/20 ✕')
    expect(await card.locator('.chip').nth(1).getAttribute('title')).toBe(
      'Copies on SHUTTLE: 20 clips: 3 missing, 17 checksums match (not read back)',
    )
    expect(await card.locator('.day-status').innerText()).toBe('3 errors · 1 warning')
    expect(await card.locator('.day-status').getAttribute('data-state')).toBe('errors')
    const missing = card.locator('.finding-group[data-severity="error"]')
    await expect
      .poll(() => missing.innerText(), { timeout: 3000 })
      .toBe(
        'ERROR Missing copies — SHUTTLE: 3 clips (A003C002_240101_R1AB, A003C003_240101_R1AB, A003C004_240101_R1AB)\n\n' +
          'Each of them',
      )
    // Each of them, on demand.
    await missing.locator('summary').click()
    expect(await missing.locator('.findings li').allInnerTexts()).toEqual([
      'A003C002_240101_R1AB on SHUTTLE: missing',
      'A003C003_240101_R1AB on SHUTTLE: missing',
      'A003C004_240101_R1AB on SHUTTLE: missing',
    ])
    expect(await card.locator('tbody tr').nth(2).innerText()).toBe(
      'A003\t4\t4/4 ✓\t1/4 ✕\n4 clips: 3 missing, 1 checksum matches (not read back)',
    )
    await shoot(page, 'missing')
  })

  /** Clicks `button`, saves what it downloads and reads it back with poppler. */
  async function downloadedText(button: ReturnType<Page['locator']>) {
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
    const dir = await mkdtemp(join(tmpdir(), 'days-pdf-'))
    try {
      const file = join(dir, download.suggestedFilename())
      await download.saveAs(file)
      return {
        name: download.suggestedFilename(),
        text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }),
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  it('offers a new project’s presets on each day, and downloads the day’s clips report', async () => {
    const card = page.locator('#days-list > li[data-key="D001"]')
    expect(await card.locator('.day-actions button').allInnerTexts()).toEqual([
      '⤓ Clips report (PDF)',
      '⤓ Data report (PDF)',
      '✉ Prepare e-mail',
    ])
    const { name, text } = await downloadedText(card.getByRole('button', { name: '⤓ Clips report (PDF)' }))
    expect(name).toBe('Clips_D001.pdf')
    expect(text).toContain('Café Noir')
    expect(text).toContain('Day 1 — 2024-01-01')
    // The day as it reads now: the patch's three missing copies are named and their rows marked.
    expect(text).toMatch(/Missing copies — SHUTTLE: 3 clips/)
    expect(text.split('\n').filter((line) => /^\s*✕\s+A003C00[234]/.test(line))).toHaveLength(3)
  })

  it('draws a wrap report over a range of days and names the range', async () => {
    const tools = page.locator('#days-tools')
    await tools.waitFor()
    expect(await tools.locator('#range-from option').allInnerTexts()).toEqual([
      'Day 1 · 2024-01-01',
      'Day 2 · 2024-01-02',
    ])
    expect(await tools.locator('#range-from').inputValue()).toBe('1')
    expect(await tools.locator('#range-to').inputValue()).toBe('2')
    expect(await tools.locator('.range-summary').innerText()).toBe('2 logs · 80 clips')
    const { name, text } = await downloadedText(tools.getByRole('button', { name: '⤓ Data report (PDF)' }))
    expect(name).toBe('Data_D001-D002.pdf')
    expect(text).toContain('Days 1–2 — 2024-01-01 – 2024-01-02')
    await tools.locator('#range-to').selectOption('1')
    expect(await tools.locator('.range-summary').innerText()).toBe('1 log · 20 clips')
    await shoot(page, 'range')
    await tools.locator('#range-to').selectOption('2')
  })

  it('prepares the e-mail of a day, or of a range, from here and brings it into view', async () => {
    const windows = page.locator('#windows-list > li')
    const card = page.locator('#days-list > li[data-key="D001"]')
    await card.getByRole('button', { name: '✉ Prepare e-mail' }).click()
    await windows.first().waitFor({ timeout: 3000 })
    expect(await page.locator('.notice.ok').innerText()).toContain('The e-mail of Day 1 is ready')
    // The keyboard is on the new e-mail's recipients.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? '')).toMatch(/^window-.+-recipients$/)
    expect(await windows.first().evaluate((node) => node.contains(document.activeElement))).toBe(true)

    await page.locator('#days-tools').getByRole('button', { name: '✉ Prepare e-mail' }).click()
    await expect.poll(() => windows.count(), { timeout: 3000 }).toBe(2)
    expect(await page.locator('.notice.ok').innerText()).toContain('The e-mail of Days 1–2 is ready')
    const listed = await call('GET', '/approve/windows', { operator: true })
    const logIds = listed.body.windows.map((w: { logIds: string[] }) => w.logIds)
    expect(logIds.sort()).toEqual([['D001'], ['D001', 'D002']])
    const range = listed.body.windows.find((w: { logIds: string[] }) => w.logIds.length === 2)
    const shown = page.locator(`#windows-list > li[data-key="${range.id}"]`)
    expect(await shown.locator('.window-title').innerText()).toMatch(/^Café Noir — Day 1 — 2024-01-01, Day 2/)
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`window-${range.id}-recipients`)
  })

  it('reads times on the project’s clocks, and says which', async () => {
    expect((await call('PATCH', '/project/config', { token, body: { time_zone: 'Asia/Kolkata' } })).status).toBe(200)
    await expect.poll(() => page.locator('#project').innerText()).toBe('Café Noir · times in Asia/Kolkata')
    const listed = await call('GET', '/approve/windows', { operator: true })
    const { id, createdAt } = listed.body.windows[0] as { id: string; createdAt: string }
    const kolkata = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Asia/Kolkata',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(createdAt))
    const meta = page.locator(`#windows-list > li[data-key="${id}"] .meta`)
    await expect.poll(() => meta.innerText()).toContain(`opened today, ${kolkata}`)
  })
})

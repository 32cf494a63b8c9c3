// Debian's chromium driven by playwright-core: `npx playwright install` cannot download here.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'

export const LAPTOP = { width: 1280, height: 800 }
export const PHONE = { width: 390, height: 844 }

// Without the background-networking flags Chromium keeps dialling out on a machine with no network.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** A fresh profile each time, removed on close. */
export async function openBrowser(
  options: { acceptDownloads?: boolean; timezoneId?: string } = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'media-log-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ARGS,
    viewport: LAPTOP,
    ...options,
  })
  const close = async () => {
    await context.close()
    await rm(profile, { recursive: true, force: true })
  }
  return { context, close }
}

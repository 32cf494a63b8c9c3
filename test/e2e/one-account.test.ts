/**
 * One account of every copy, on every surface. Fourteen days, each holding a state of the closed
 * set (docs/checks.md) or a mix of them, made as a DIT's tools make them: applications posting
 * logs, `verify`'s read-backs, YoYotta transfer reports (an ALE without sizes, a CSV naming its own
 * volume), the ASC's scenario 04 with a sidecar that failed, a camera's list. For each day the
 * checks' JSON, `media-log checks`, the clips report (pdftotext), the e-mail and the console (in
 * Chromium) must say each volume's count and words exactly as the table below does, and the same
 * lines of findings: a surface that tells another story fails.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MediaLogOperator, approvedClient, type LogInput, type MediaLogClient } from 'media-log-service/client'
import { reportedCard, scenario04, yoyottaAle, yoyottaCsv } from '../offload-fixtures'
import { openBrowser } from './browser'
import { runCommand } from './command'
import { launch, type Launched } from './launch'
import { freePort } from './server'

const dir = mkdtempSync(join(tmpdir(), 'media-log-account-'))
const config = join(dir, 'config')
let service: Launched
let app: MediaLogClient
let operator: MediaLogOperator

const x = (n: number) => `xxh64:${n.toString(16).padStart(16, '0')}`
const frames = (c: string) => `xxh64-frames:${c.repeat(64)}`
const AT = '2026-11-28T21:04:00Z'
const clipName = (n: number) => `A001C00${n}_261128_R1AB`

type Copy = { volume: string; hash: string | null; action?: string }
type Volume = { held: number; clips: number; mark: '✓' | '!' | '✕'; words: string }

/**
 * A day and what every surface must say of it: each volume (`sound:` before a sound volume's
 * name), the findings' lines, and the e-mail's verification and checks lines.
 */
type Case = {
  id: string
  what: string
  make: (id: string, n: number) => Promise<void>
  volumes: Record<string, Volume>
  groups: string[]
  email: string[]
}

/** A day of `clips` camera clips, each on the volumes `copies(i)` gives. */
function posted(n: number, copies: (i: number) => Copy[], extra: Partial<LogInput['ocf']> = {}, clips = 3) {
  return async (id: string) => {
    const log = {
      id,
      day: n,
      date: '2026-11-28',
      ocf: {
        ...extra,
        clips: Array.from({ length: clips }, (_, i) => ({
          clip: clipName(i + 1),
          size: 1_000_000 * (i + 1),
          copies: copies(i + 1),
        })),
      },
    }
    await app.createLog(log as LogInput)
  }
}

const readBack = (id: string, volume: string, clips: Array<Record<string, unknown>>) =>
  app.readBack(id, {
    volume,
    tool: 'media-log 0.1.0',
    clips: clips.map((c) => ({ part: 'ocf', hashdate: AT, ...c })),
  } as never)

const both = (i: number) => [
  { volume: 'SHUTTLE_A', hash: x(i) },
  { volume: 'SHUTTLE_B', hash: x(i) },
]

const CASES: Case[] = [
  {
    id: 'D101',
    what: 'every copy read back and verified',
    make: async (id) => {
      await posted(101, both)(id)
      for (const volume of ['SHUTTLE_A', 'SHUTTLE_B'])
        await readBack(
          id,
          volume,
          [1, 2, 3].map((i) => ({ clip: clipName(i), found: 'verified', hash: x(i) })),
        )
    },
    volumes: {
      SHUTTLE_A: { held: 3, clips: 3, mark: '✓', words: '3 clips, all verified (read back)' },
      SHUTTLE_B: { held: 3, clips: 3, mark: '✓', words: '3 clips, all verified (read back)' },
    },
    groups: [],
    email: ['2 copies, all verified (read back)', 'no other findings'],
  },
  {
    id: 'D102',
    what: 'checksums that match, not read back',
    make: posted(102, both),
    volumes: {
      SHUTTLE_A: { held: 3, clips: 3, mark: '✓', words: '3 clips, checksums match (not read back)' },
      SHUTTLE_B: { held: 3, clips: 3, mark: '✓', words: '3 clips, checksums match (not read back)' },
    },
    groups: [],
    email: ['2 copies, checksums match (not read back)', 'no other findings'],
  },
  {
    id: 'D103',
    what: 'a checksum recorded, nothing to compare it with',
    make: posted(103, (i) => [{ volume: 'RAID', hash: x(i) }]),
    volumes: { RAID: { held: 3, clips: 3, mark: '✓', words: '3 clips, checksums recorded (not read back)' } },
    groups: [],
    email: ['1 copy, checksums recorded (not read back)', 'no other findings'],
  },
  {
    id: 'D104',
    what: 'planned on a volume, absent from it',
    make: posted(104, (i) => (i === 1 ? both(i) : [{ volume: 'SHUTTLE_A', hash: x(i) }]), {
      copies: ['SHUTTLE_A', 'SHUTTLE_B'],
    }),
    volumes: {
      SHUTTLE_A: {
        held: 3,
        clips: 3,
        mark: '✓',
        words: '3 clips: 2 checksums recorded (not read back), 1 checksum matches (not read back)',
      },
      SHUTTLE_B: { held: 1, clips: 3, mark: '✕', words: '3 clips: 2 missing, 1 checksum matches (not read back)' },
    },
    groups: [`Missing copies — SHUTTLE_B: 2 clips (${clipName(2)}, ${clipName(3)})`],
    email: [`Missing copies — SHUTTLE_B: 2 clips (${clipName(2)}, ${clipName(3)})`, 'no other findings'],
  },
  {
    id: 'D105',
    what: 'a clip verify could not find on the shuttle',
    make: async (id) => {
      await posted(105, (i) => [
        { volume: 'SHUTTLE_A', hash: x(i) },
        { volume: 'SHUTTLE_C', hash: x(i) },
      ])(id)
      await readBack(id, 'SHUTTLE_C', [
        { clip: clipName(1), found: 'verified', hash: x(1) },
        { clip: clipName(2), found: 'verified', hash: x(2) },
        { clip: clipName(3), found: 'missing' },
      ])
    },
    volumes: {
      // A copy not found is compared with nothing: the other volume's copy of it is a checksum recorded.
      SHUTTLE_A: {
        held: 3,
        clips: 3,
        mark: '✓',
        words: '3 clips: 1 checksum recorded (not read back), 2 checksums match (not read back)',
      },
      SHUTTLE_C: { held: 2, clips: 3, mark: '✕', words: '3 clips: 1 not found on read-back, 2 verified (read back)' },
    },
    groups: [`Copies not found on read-back — SHUTTLE_C: 1 clip (${clipName(3)})`],
    email: [`Copies not found on read-back — SHUTTLE_C: 1 clip (${clipName(3)})`, 'no other findings'],
  },
  {
    id: 'D106',
    what: 'two read-backs that found the copies different',
    make: async (id) => {
      await posted(106, both)(id)
      await readBack(id, 'SHUTTLE_B', [
        { clip: clipName(1), found: 'verified', hash: x(1) },
        { clip: clipName(2), found: 'failed', hash: x(0xbad2) },
        { clip: clipName(3), found: 'failed', hash: x(0xbad3) },
      ])
    },
    volumes: {
      SHUTTLE_A: {
        held: 3,
        clips: 3,
        mark: '✓',
        words: '3 clips: 2 checksums recorded (not read back), 1 checksum matches (not read back)',
      },
      // Read back different: not held intact.
      SHUTTLE_B: {
        held: 1,
        clips: 3,
        mark: '✕',
        words: '3 clips: 2 read back and different, 1 verified (read back)',
      },
    },
    groups: [`Copies read back and different — SHUTTLE_B: 2 clips (${clipName(2)}, ${clipName(3)})`],
    email: [
      `Copies read back and different — SHUTTLE_B: 2 clips (${clipName(2)}, ${clipName(3)})`,
      'no other findings',
    ],
  },
  {
    id: 'D107',
    what: 'two copies whose checksums disagree',
    make: posted(107, (i) => (i === 2 ? [both(i)[0]!, { volume: 'SHUTTLE_B', hash: x(99) }] : both(i))),
    volumes: {
      SHUTTLE_A: {
        held: 2,
        clips: 3,
        mark: '✕',
        words: '3 clips: 1 whose checksum differs from another copy’s, 2 checksums match (not read back)',
      },
      SHUTTLE_B: {
        held: 2,
        clips: 3,
        mark: '✕',
        words: '3 clips: 1 whose checksum differs from another copy’s, 2 checksums match (not read back)',
      },
    },
    groups: [
      `Copies whose checksum differs from another copy’s — SHUTTLE_A: 1 clip (${clipName(2)})`,
      `Copies whose checksum differs from another copy’s — SHUTTLE_B: 1 clip (${clipName(2)})`,
    ],
    email: [
      `Copies whose checksum differs from another copy’s — SHUTTLE_A: 1 clip (${clipName(2)})`,
      `Copies whose checksum differs from another copy’s — SHUTTLE_B: 1 clip (${clipName(2)})`,
      'no other findings',
    ],
  },
  {
    id: 'D108',
    what: 'copies without a checksum',
    make: posted(108, (i) => [
      { volume: 'RAID', hash: x(i) },
      { volume: 'SHUTTLE_A', hash: i === 3 ? x(i) : null },
    ]),
    volumes: {
      RAID: {
        held: 3,
        clips: 3,
        mark: '✓',
        words: '3 clips: 2 checksums recorded (not read back), 1 checksum matches (not read back)',
      },
      SHUTTLE_A: {
        held: 3,
        clips: 3,
        mark: '!',
        words: '3 clips: 2 without a checksum, 1 checksum matches (not read back)',
      },
    },
    groups: [`Copies without a checksum — SHUTTLE_A: 2 clips (${clipName(1)}, ${clipName(2)})`],
    email: [`Copies without a checksum — SHUTTLE_A: 2 clips (${clipName(1)}, ${clipName(2)})`, 'no other findings'],
  },
  {
    id: 'D109',
    what: 'sizes no report stated (a YoYotta transfer ALE)',
    make: async (id) => {
      const files = reportedCard('SHUTTLE_Y').slice(0, 3)
      await app.importFiles(id, {
        files: [{ name: 'transfer.ale', content: yoyottaAle(files) }],
        day: 109,
        date: '2026-11-28',
      })
    },
    volumes: { SHUTTLE_Y: { held: 3, clips: 3, mark: '✓', words: '3 clips, checksums recorded (not read back)' } },
    groups: [
      'Clips of unknown size (no report stated it): 3 clips (A002C001_250614_R1AB, A002C002_250614_R1AB, A002C003_250614_R1AB)',
    ],
    email: [
      '1 copy, checksums recorded (not read back)',
      'Clips of unknown size (no report stated it): 3 clips (A002C001_250614_R1AB, A002C002_250614_R1AB, A002C003_250614_R1AB)',
    ],
  },
  {
    id: 'D110',
    what: 'a clip the camera recorded that is on no volume',
    make: posted(110, (i) => [{ volume: 'RAID', hash: x(i) }], {
      recorded: [1, 2, 3, 4].map((i) => ({ clip: clipName(i), list: 'A001.ale' })),
    } as never),
    volumes: { RAID: { held: 3, clips: 3, mark: '✓', words: '3 clips, checksums recorded (not read back)' } },
    groups: [`Clips recorded (camera list) but on no volume: 1 clip (${clipName(4)})`],
    email: [
      '1 copy, checksums recorded (not read back)',
      `Clips recorded (camera list) but on no volume: 1 clip (${clipName(4)})`,
    ],
  },
  {
    id: 'D111',
    what: 'the ASC’s scenario 04: a sidecar whose read-back failed',
    make: async (id) => {
      const files = scenario04().filter((f) => f.volume === 'file_server')
      await app.importFiles(id, {
        files: files.map(({ path, content, volume }) => ({ name: path, content, volume })),
        day: 111,
      })
    },
    volumes: {
      file_server: {
        held: 2,
        clips: 2,
        mark: '✕',
        words: '2 clips, all verified (read back); 1 file that is not media (a sidecar) failed verification',
      },
    },
    groups: [
      'Files that are not media (sidecars) read back and different — file_server: 1 file (file_server/A002R2EC/Sidecar.txt)',
    ],
    email: [
      'Files that are not media (sidecars) read back and different — file_server: 1 file (file_server/A002R2EC/Sidecar.txt)',
      'no other findings',
    ],
  },
  {
    id: 'D112',
    what: 'a sequence with a changed frame and a lost one',
    make: async (id) => {
      await posted(
        112,
        () => [
          { volume: 'SHUTTLE_A', hash: frames('a') },
          { volume: 'SHUTTLE_B', hash: frames('a') },
        ],
        {},
        1,
      )(id)
      await readBack(id, 'SHUTTLE_B', [
        {
          clip: clipName(1),
          found: 'failed',
          hash: frames('b'),
          files: 4,
          bad_frames: {
            changed: [`${clipName(1)}.0000003.ari`],
            missing: [`${clipName(1)}.0000005.ari`],
            changed_count: 1,
            missing_count: 1,
          },
        },
      ])
    },
    volumes: {
      SHUTTLE_A: { held: 1, clips: 1, mark: '✓', words: '1 clip, checksums recorded (not read back)' },
      SHUTTLE_B: { held: 0, clips: 1, mark: '✕', words: '1 clip, all read back and different' },
    },
    groups: [`Copies read back and different — SHUTTLE_B: 1 clip (${clipName(1)})`],
    email: [`Copies read back and different — SHUTTLE_B: 1 clip (${clipName(1)})`, 'no other findings'],
  },
  {
    id: 'D113',
    what: 'a mix: read back good and bad, missing, no checksum, and sound',
    make: async (id) => {
      await app.createLog({
        id,
        day: 113,
        date: '2026-11-28',
        ocf: {
          copies: ['RAID', 'SHUTTLE_D'],
          clips: [1, 2, 3, 4].map((i) => ({
            clip: clipName(i),
            size: 1000 * i,
            copies: [{ volume: 'RAID', hash: x(i) }, ...(i === 4 ? [] : [{ volume: 'SHUTTLE_D', hash: x(i) }])],
          })),
        },
        sound: {
          clips: [{ clip: 'S113T01.wav', size: 5000, copies: [{ volume: 'RAID', hash: null }] }],
        },
      })
      await readBack(id, 'SHUTTLE_D', [
        { clip: clipName(1), found: 'verified', hash: x(1) },
        { clip: clipName(2), found: 'failed', hash: x(0xbad) },
        { clip: clipName(3), found: 'missing' },
      ])
    },
    volumes: {
      RAID: {
        held: 4,
        clips: 4,
        mark: '✓',
        words: '4 clips: 3 checksums recorded (not read back), 1 checksum matches (not read back)',
      },
      SHUTTLE_D: {
        held: 1,
        clips: 4,
        mark: '✕',
        words: '4 clips: 1 missing, 1 not found on read-back, 1 read back and different, 1 verified (read back)',
      },
      'sound:RAID': { held: 1, clips: 1, mark: '!', words: '1 clip, none with a checksum' },
    },
    groups: [
      `Copies read back and different — SHUTTLE_D: 1 clip (${clipName(2)})`,
      `Copies not found on read-back — SHUTTLE_D: 1 clip (${clipName(3)})`,
      `Missing copies — SHUTTLE_D: 1 clip (${clipName(4)})`,
      'Copies without a checksum — RAID (sound): 1 clip (S113T01.wav)',
    ],
    email: [
      `Copies read back and different — SHUTTLE_D: 1 clip (${clipName(2)})`,
      `Copies not found on read-back — SHUTTLE_D: 1 clip (${clipName(3)})`,
      `Missing copies — SHUTTLE_D: 1 clip (${clipName(4)})`,
      'Sound: Copies without a checksum — RAID (sound): 1 clip (S113T01.wav)',
      'no other findings',
    ],
  },
  {
    id: 'D114',
    what: 'a YoYotta CSV that names its own volume (Media, Base), lying in a folder of reports',
    make: async (id) => {
      const files = reportedCard('areca').slice(0, 2)
      await app.importFiles(id, {
        files: [
          {
            name: 'reports/transfer.csv',
            content: yoyottaCsv(files, 'areca', '/Volumes/areca/Job'),
            volume: 'reports',
          },
        ],
        day: 114,
        date: '2026-11-28',
      })
    },
    volumes: { areca: { held: 2, clips: 2, mark: '✓', words: '2 clips, checksums recorded (not read back)' } },
    groups: [],
    email: ['1 copy, checksums recorded (not read back)', 'no other findings'],
  },
]

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim()
/** `sound:RAID` for a sound volume, the name alone for a camera files' one. */
const keyOf = (part: string, volume: string) => (part === 'sound' ? `sound:${volume}` : volume)
const nameOf = (key: string) => key.replace(/^sound:/, '')

beforeAll(async () => {
  service = await launch('start', { port: await freePort(5760, 5779), state: join(dir, 'state') })
  app = await approvedClient({ baseUrl: service.base, appName: 'Offload Tool', operatorKey: service.operatorKey })
  operator = new MediaLogOperator({ baseUrl: service.base, key: service.operatorKey })
  await app.createProject('One Story')
  // The command's own token, as its first run keeps it.
  const command = await approvedClient({
    baseUrl: service.base,
    appName: 'media-log',
    operatorKey: service.operatorKey,
  })
  mkdirSync(config, { recursive: true })
  writeFileSync(join(config, 'tokens.json'), JSON.stringify({ [service.base]: command.token }))
  for (const [n, c] of CASES.entries()) await c.make(c.id, n)
}, 180_000)

afterAll(async () => {
  await service?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('one account of every copy, said alike by every surface', () => {
  it.each(CASES.map((c) => [c.id, c] as const))('%s: the checks’ JSON says the table’s words', async (_id, c) => {
    const { copies, groups } = await app.checks(c.id)
    expect(
      Object.fromEntries(
        copies.map((v) => [keyOf(v.part, v.volume), { held: v.held, clips: v.clips, mark: v.mark, words: v.words }]),
      ),
    ).toEqual(c.volumes)
    expect(groups.map((g) => g.words)).toEqual(c.groups)
  })

  it.each(CASES.map((c) => [c.id, c] as const))('%s: media-log checks says the same', async (_id, c) => {
    const { status, stdout } = await runCommand(['checks', c.id], { base: service.base, configDir: config })
    const lines = stdout.split('\n')
    const volumes: Record<string, Volume> = {}
    for (const line of lines.slice(lines.indexOf('copies:') + 1)) {
      const m = /^ {2}(\S) (sound )?(\S+) (\d+)\/(\d+): (.*)$/.exec(line)
      if (m)
        volumes[m[2] ? `sound:${m[3]}` : m[3]!] = {
          held: Number(m[4]),
          clips: Number(m[5]),
          mark: m[1] as Volume['mark'],
          words: m[6]!,
        }
    }
    expect(volumes).toEqual(c.volumes)
    const findings = lines.flatMap((line) => /^ {2}(?:error|warning|info) +(.*)$/.exec(line)?.[1] ?? [])
    expect(findings).toEqual(c.groups)
    // It exits 1 when the day has errors, as the checks count them.
    expect(status).toBe((await app.checks(c.id)).summary.errors ? 1 : 0)
  })

  it.each(CASES.map((c) => [c.id, c] as const))('%s: the clips report says the same', async (_id, c) => {
    const file = join(dir, `${c.id}.pdf`)
    writeFileSync(file, await app.logPdf(c.id, 'clp01'))
    // In the order the page was drawn: a chip's name, its words and its mark together.
    const text = collapse(execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }))
    for (const [key, v] of Object.entries(c.volumes)) expect(text).toContain(`${nameOf(key)}: ${v.words} ${v.mark}`)
    // A long line wraps where the page needs it, not only at spaces: compared without them.
    const unspaced = text.replace(/\s/g, '')
    for (const line of c.groups) expect(unspaced).toContain(line.replace(/\s/g, ''))
    if (!c.groups.length) expect(text).toContain('Checks: nothing found')
  })

  it.each(CASES.map((c) => [c.id, c] as const))('%s: the e-mail says the same', async (_id, c) => {
    await app.openEmailWindow({ logId: c.id })
    const window = (await operator.windows()).windows.find((w) => w.logIds.join() === c.id) as unknown as {
      preview: { text: string }
      checks: { days: Array<{ lines: string[] }> }
    }
    const text = collapse(window.preview.text)
    for (const [key, v] of Object.entries(c.volumes)) expect(text).toContain(`${nameOf(key)}: ${v.words}`)
    expect(window.checks.days[0]!.lines).toEqual(c.email)
  })

  it('the console says the same, in a real browser', async () => {
    const browser = await openBrowser()
    try {
      const page: Page = await browser.context.newPage()
      await page.goto(`${service.base}/approve?key=${service.operatorKey}`)
      await page.locator('#live[data-state="live"]').waitFor()
      await expect.poll(() => page.locator('#days-list > li').count(), { timeout: 10_000 }).toBe(CASES.length)
      for (const c of CASES) {
        const card = page.locator(`#days-list > li[data-key="${c.id}"]`)
        const chips = await card.locator('.chip').evaluateAll((nodes) =>
          nodes.map((n) => ({
            title: n.getAttribute('title') ?? '',
            count: n.querySelector('.chip-count')?.textContent ?? '',
            mark: n.querySelector('.chip-mark')?.textContent ?? '',
          })),
        )
        const shown: Record<string, Volume> = {}
        for (const chip of chips) {
          const m = /^(Sound copies|Copies) on (\S+): (.*)$/.exec(chip.title)!
          const [held, clips] = chip.count.split('/').map(Number)
          shown[m[1] === 'Sound copies' ? `sound:${m[2]}` : m[2]!] = {
            held: held!,
            clips: clips!,
            mark: chip.mark as Volume['mark'],
            words: m[3]!,
          }
        }
        expect(shown, c.id).toEqual(c.volumes)
        await card.locator('.day-toggle').click()
        await card.locator('.day-detail .detail-title').first().waitFor()
        await card.locator('.day-volumes').waitFor()
        expect(await card.locator('.finding-words').allTextContents(), c.id).toEqual(c.groups)
        // The day's volumes, said in full in its detail.
        // Each volume's lines together (camera files, then sound): compared as a set.
        const said = await card.locator('.volume-words').allTextContents()
        expect(said.map((s) => s.replace(/^♪ /, '')).sort(), c.id).toEqual(
          Object.values(c.volumes)
            .map((v) => `${v.mark} ${v.words}`)
            .sort(),
        )
        // For a person to look at (ACCOUNT_SHOTS=folder keeps them).
        await card.screenshot({ path: join(process.env.ACCOUNT_SHOTS ?? dir, `${c.id}.png`) })
        await card.locator('.day-toggle').click()
      }
    } finally {
      await browser.close()
    }
  })
})

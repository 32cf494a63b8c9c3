// Reports rendered in Node (pdf-lib runs anywhere) and read back the way a person's tools read them:
// poppler's pdftotext and pdfinfo.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'

// The worker gets these bytes as wrangler Data modules; Node has no loader for .ttf imports.
vi.mock('../../src/reports/font-files', async () => {
  const { readFileSync } = await import('node:fs')
  const { createRequire } = await import('node:module')
  const require = createRequire(import.meta.url)
  const file = (name: string) => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`))
  return { FONT_FILES: { regular: file('DejaVuSansCondensed.ttf'), bold: file('DejaVuSansCondensed-Bold.ttf') } }
})

const reports = await import('../../src/reports/index')
const { summarize } = await import('../../src/summary/summary')
const { lazyLog } = await import('../../src/large-logs/read')

/** A report of these logs, as the service makes one: from their summaries, each log read when drawn. */
type Logs = { settings: never; preset: never; logs: Array<{ id: string }> }
const rangeOf = ({ logs, ...rest }: Logs) => ({
  ...rest,
  summaries: logs.map((log) => summarize(log as never)),
  readLog: async (id: string) => lazyLog(JSON.stringify(logs.find((log) => log.id === id))),
})
const renderReport = (source: Logs) => reports.renderReport(rangeOf(source))
const reportFilename = (source: Logs) => reports.reportFilename(rangeOf(source))

// KEEP_REPORTS=1 leaves the PDFs in place to be looked at (the folder is printed).
const dir = mkdtempSync(join(tmpdir(), 'reports-'))
afterAll(() => {
  if (process.env.KEEP_REPORTS) console.log(`reports kept in ${dir}`)
  else rmSync(dir, { recursive: true, force: true })
})

let serial = 0
function write(pdf: Uint8Array) {
  const file = join(dir, `r${++serial}.pdf`)
  writeFileSync(file, pdf)
  return file
}

/** The text of each page, as `pdftotext -layout` lays it out (or in content order with `-raw`). */
function pages(file: string, mode = '-layout'): string[] {
  const text = execFileSync('pdftotext', [mode, file, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  return text.split('\f').slice(0, -1)
}

/** Every page ends with its number out of the total; -layout may squeeze the narrow spaces of `1 / 2`. */
function expectPageNumbers(file: string) {
  const raw = pages(file, '-raw')
  raw.forEach((page, i) => expect(page.trimEnd().endsWith(` ${i + 1} / ${raw.length}`), `page ${i + 1}`).toBe(true))
  return raw.length
}

function info(file: string): Record<string, string> {
  const text = execFileSync('pdfinfo', [file], { encoding: 'utf8' })
  return Object.fromEntries(
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
  )
}

type Clip = Record<string, unknown>

function clip(i: number, reel: string, overrides: Clip = {}): Clip {
  const n = String(i).padStart(4, '0')
  const start = 36_000 + i * 90
  const tc = (s: number) =>
    [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60, 0].map((v) => String(v).padStart(2, '0')).join(':')
  return {
    clip: `${reel}C${n}_240101_R1AB`,
    size: 1_230_000_000,
    copies: [
      { volume: 'SSD_01', hash: `xxh64:${n.padStart(16, '0')}` },
      ...(i % 10 === 3 ? [] : [{ volume: 'RAID_A', hash: null }]),
    ],
    tc_start: tc(start),
    tc_end: tc(start + 60),
    camera_model: 'ARRI ALEXA 35',
    reel,
    fps: 24,
    lens: 'Signature Prime 35mm',
    resolution: '4608x3164',
    codec: 'ARRIRAW',
    ...overrides,
  }
}

const REELS = ['A001', 'A002', 'A003', 'B001']
const clipsOf = (count: number, overrides: (i: number) => Clip = () => ({})) =>
  Array.from({ length: count }, (_, i) => clip(i + 1, REELS[Math.floor((i * REELS.length) / count)]!, overrides(i + 1)))

function log(id: string, day: number, date: string, clips: Clip[], extra: Clip = {}) {
  return { id, day, date, ocf: { copies: ['SSD_01', 'RAID_A'], clips }, ...extra } as never
}

const settings = (extra: Clip = {}) =>
  ({
    project_name: 'Northern Lights',
    unit: 'Main Unit',
    version: 1,
    custom_info: [{ Director: 'Ana Lima', DoP: 'Ben Ode' }],
    ...extra,
  }) as never

const preset = (template: string, extra: Clip = {}) =>
  ({
    id: 'DAILY',
    label: 'Daily Report',
    output_name: '<project>_<log>.pdf',
    template,
    enabled: true,
    ...extra,
  }) as never

const collapse = (text: string) => text.replace(/\s+/g, ' ')

describe('clips report, read back with poppler', () => {
  it("prints a reference-application day (camera numbers, EI, shutter) with its stock and user's own presets", async () => {
    const { DAY_1, PROJECT } = await import('../daytalog-fixtures')
    for (const pdf of PROJECT.pdfs.slice(0, 2)) {
      const source = { settings: PROJECT as never, preset: pdf as never, logs: [DAY_1 as never] }
      const file = write(await renderReport(source))
      const text = pages(file)
      const all = collapse(text.join('\n'))
      expect(text[0]).toMatch(
        /Clip\s+TC In\s+TC Out\s+Duration\s+FPS\s+Size\s+Camera\s+Reel\s+Lens\s+Resolution\s+Codec\s+Gamma\s+EI\s+WB\s+Tint\s+LUT\s+Copies/,
      )
      expect(all).toMatch(/s-log3-cine\s+1250\s+5600\s+\+2/)
      expect(info(file).Subject).toBe('Clips report')
      if (pdf.id === 'cam02')
        execFileSync('pdftoppm', [
          '-png',
          '-r',
          '60',
          '-f',
          '1',
          '-l',
          '1',
          file,
          join(tmpdir(), 'media-log-daytalog-report'),
        ])
    }
    const shutter = write(
      await renderReport({
        settings: PROJECT as never,
        preset: preset('clips-report', { options: { columns: ['clip', 'shutter', 'ei', 'sensor_fps', 'wb'] } }),
        logs: [DAY_1 as never],
      }),
    )
    expect(pages(shutter)[0]).toMatch(
      /Clip\s+Shutter\s+EI\s+Sensor FPS\s+WB\s+B001C001_250602_R2KJ\s+180\s+1250\s+25\s+5600/,
    )
  })

  it('shows the header, summary, reel ranges, copies and every clip of a small day', async () => {
    const clips = clipsOf(20)
    const sound = { clips: [{ clip: 'S001_T01.wav', size: 48_000_000, copies: [{ volume: 'SSD_01', hash: null }] }] }
    const proxy = {
      clips: [
        {
          clip: 'A001C0001_240101_R1AB.mov',
          size: 120_000_000,
          format: 'MOV',
          codec: 'ProRes 422 Proxy',
          resolution: '1920x1080',
        },
      ],
    }
    const source = {
      settings: settings(),
      preset: preset('clips-report'),
      logs: [log('D003', 3, '2024-01-03', clips, { sound, proxy })],
    }
    const file = write(await renderReport(source))
    const text = pages(file)
    const all = collapse(text.join('\n'))

    expect(reportFilename(source)).toBe('Northern Lights_D003.pdf')
    expect(text[0]).toContain('Northern Lights')
    expect(text[0]).toContain('Day 3 — 2024-01-03')
    expect(text[0]).toContain('Wednesday')
    expect(text[0]).toContain('Main Unit')
    expect(all).toMatch(/DIRECTOR\s+DOP/)
    expect(all).toMatch(/Ana Lima\s+Ben Ode/)
    // 20 clips of one minute at 24 fps; sizes in decimal units.
    expect(all).toContain('00:20:00:00')
    expect(all).toContain('24.60 GB')
    expect(all).toContain('A001–A003, B001')
    // Hashes recorded at copy time, none read back: the chip says no more than that.
    expect(all).toContain('SSD_01: 20 clips, checksums recorded (not read back) ✓')
    // Clips missing make the chip red; a copy without a hash cannot be verified, and says so.
    expect(all).toContain('RAID_A: 20 clips: 2 missing, 18 without a checksum ✕')
    expect(all).toContain('SOUND COPIES SSD_01: 1 clip, none with a checksum !')
    // Each clip's Copies cell names its copy's state where it is more than a checksum recorded.
    expect(all).toContain('ARRIRAW SSD_01, RAID_A (no checksum)')
    for (const c of clips) expect(all).toContain(c.clip as string)
    expect(all).toContain('S001_T01.wav')
    expect(all).toContain('ProRes 422 Proxy')
    expect(expectPageNumbers(file)).toBe(text.length)
    // The day's checks, after its cards: RAID_A misses clips 3 and 13 and hashes none of its
    // copies, the sound's one copy has no hash, one clip of 20 has a proxy.
    expect(all).toContain('Checks 2 errors · 38 warnings')
    // A line per kind and volume, the clips by name, the first five, then how many more: the words
    // of the console, the e-mail and media-log checks.
    expect(all).toContain('✕ Missing copies — RAID_A: 2 clips (A001C0003_240101_R1AB, A003C0013_240101_R1AB)')
    expect(all).toMatch(
      /! Copies without a checksum — RAID_A: 18 clips \(A001C0001_240101_R1AB, (A\w+, ){4}and 13 more\) ! Copies without a checksum — SSD_01 \(sound\): 1 clip \(S001_\s?T01\.wav\)/,
    )
    expect(all).toMatch(/! Clips without a proxy: 19 clips \(A001C0002_240101_R1AB, (A\w+, ){4}and 14 more\)/)
    // The rows of the two clips with an error carry the mark (drawn in the margin, before the row);
    // a clip with warnings only does not.
    expect(all).toContain('Clips with an error are marked ✕ in the tables below.')
    const marked = text
      .join('\n')
      .split('\n')
      .filter((line) => /^\s*✕\s+[A-Z]\d{3}C\d{4}/.test(line))
      .map((line) => line.trim().split(/\s+/)[1])
    expect(marked).toEqual(['A001C0003_240101_R1AB', 'A003C0013_240101_R1AB'])

    const meta = info(file)
    expect(meta.Title).toBe('Northern Lights — Daily Report — Day 3 — 2024-01-03')
    expect(meta.CreationDate).toMatch(/\d{4}/)
    expect(meta['Page size']).toContain('841.89 x 595.28')
  })

  it('repeats the table header on every page of a 1,000-clip day and numbers the pages n / N', async () => {
    const clips = clipsOf(1000)
    const file = write(
      await renderReport({
        settings: settings(),
        preset: preset('clips-report'),
        logs: [log('D001', 1, '2024-01-01', clips)],
      }),
    )
    const text = pages(file)
    expect(text.length).toBeGreaterThan(20)
    const header = /Clip\s+TC In\s+TC Out\s+Duration\s+FPS\s+Size\s+Camera\s+Reel\s+Lens\s+Resolution\s+Codec\s+Copies/
    text.forEach((page, i) => expect(page, `page ${i + 1}`).toMatch(header))
    expect(expectPageNumbers(file)).toBe(text.length)
    const all = text.join('\n')
    // Every clip once in the table; the Checks block before it names the first missing ones.
    const tableAt = all.indexOf('Camera clips')
    const table = all.slice(tableAt)
    for (const c of clips) expect(table.split(c.clip as string).length - 1, c.clip as string).toBe(1)
    expect(collapse(all.slice(0, tableAt))).toMatch(/Missing copies — RAID_A: 100 clips \(\w+(, \w+){4}, and 95 more\)/)
    expect(all).toContain('1.23 TB')
    expect(all).toContain('16:40:00:00')
    expect(collapse(all)).toContain('RAID_A: 1,000 clips: 100 missing, 900 without a checksum ✕')
  })

  it('says rows are marked only when one is: an error about a clip with no row marks none', async () => {
    // A clip the camera recorded that reached no volume: an error, but the clip has no row.
    const clips = clipsOf(4, () => ({ copies: [{ volume: 'SSD_01', hash: 'xxh64:00000000000000aa' }] }))
    const recorded = [...clips.map((c) => ({ clip: c.clip })), { clip: 'A001C0099_240101_R1AB' }]
    const day = log('D005', 5, '2024-01-05', clips, {
      ocf: { copies: ['SSD_01'], clips, recorded },
    })
    const text = collapse(
      pages(write(await renderReport({ settings: settings(), preset: preset('clips-report'), logs: [day] }))).join(
        '\n',
      ),
    )
    expect(text).toContain('Clips recorded (camera list) but on no volume: 1')
    expect(text).not.toContain('are marked ✕')
    expect(text).not.toMatch(/✕ A001C000\d/)
  })

  it('lists a day in conflict among its errors, and a day without one as before', async () => {
    const days = [log('D001', 1, '2024-01-01', clipsOf(4)), log('D002', 2, '2024-01-02', clipsOf(4))]
    const source = rangeOf({ settings: settings(), preset: preset('clips-report'), logs: days })
    const file = write(
      await reports.renderReport({
        ...source,
        versions: async () => new Map([['D002', 2]]),
      }),
    )
    const [first, second] = pages(file, '-raw').map(collapse)
    const conflict = '2 versions of this day were written without seeing each other'
    expect(first).not.toContain(conflict)
    expect(second).toContain(conflict)
  })

  it('keeps long values inside their own column', async () => {
    const long = (i: number): Clip => ({
      clip: `A001C${i}_an_extremely_long_clip_name_from_a_card_that_was_renamed_on_set_by_someone_${i}`,
      lens: `Custom rehoused vintage anamorphic prototype lens with a very long name ${i}`,
    })
    const file = write(
      await renderReport({
        settings: settings(),
        preset: preset('clips-report', {
          options: { orientation: 'portrait', columns: ['clip', 'lens', 'reel', 'size'] },
        }),
        logs: [log('D001', 1, '2024-01-01', clipsOf(30, long))],
      }),
    )
    const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' })
    const words = [
      ...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
    ].map((m) => ({
      xMin: Number(m[1]),
      yMin: Number(m[2]),
      xMax: Number(m[3]),
      text: m[5]!,
    }))
    const headerOf = (label: string) => words.find((w) => w.text === label)!
    const [clipX, lensX, reelX] = [headerOf('Clip').xMin, headerOf('Lens').xMin, headerOf('Reel').xMin]
    const below = words.filter((w) => w.yMin > headerOf('Clip').yMin + 2)
    const clipWords = below.filter((w) => w.xMin >= clipX - 1 && w.xMin < lensX - 4)
    const lensWords = below.filter((w) => w.xMin >= lensX - 1 && w.xMin < reelX - 4)
    expect(clipWords.length).toBeGreaterThan(30)
    expect(lensWords.length).toBeGreaterThan(30)
    for (const w of clipWords) expect(w.xMax, w.text).toBeLessThanOrEqual(lensX)
    for (const w of lensWords) expect(w.xMax, w.text).toBeLessThanOrEqual(reelX)
  })

  it('prints accents and Cyrillic, and a visible box for what the font lacks', async () => {
    const names = ['Café_Ünïcödé_01', 'Съёмка_день_1', 'カメラ_A001', 'take 😀 ✓', 'fam 👨‍👩‍👧 end']
    const clips = names.map((name, i) => clip(i + 1, 'A001', { clip: name }))
    const file = write(
      await renderReport({
        settings: settings({ project_name: 'Ñandú Фильм' }),
        preset: preset('clips-report'),
        logs: [log('D001', 1, '2024-01-01', clips)],
      }),
    )
    const all = pages(file).join('\n')
    expect(all).toContain('Ñandú Фильм')
    expect(all).toContain('Café_Ünïcödé_01')
    expect(all).toContain('Съёмка_день_1')
    expect(all).toContain('□□□_A001')
    expect(all).toContain('take 😀 ✓')
    expect(all).toContain('fam □□□ end')
  })

  it('gives each log its own section, in day order, and says so when a log has no clips', async () => {
    const logs = [
      log('D002', 2, '2024-01-02', clipsOf(60), { unit: '2nd Unit' }),
      { id: 'D001', day: 1, date: '2024-01-01' } as never,
    ]
    const file = write(await renderReport({ settings: settings(), preset: preset('clips-report'), logs }))
    const text = pages(file)
    expect(text[0]).toContain('Day 1 — 2024-01-01')
    expect(text[0]).toContain('This log lists no clips.')
    expect(collapse(text[0]!)).toContain('OCF DURATION OCF PROXIES SOUND REELS — — — — —')
    expect(text[1]).toContain('Day 2 — 2024-01-02')
    expect(text[1]).toContain('2nd Unit')
    // Day 2's table runs onto further pages, each under a running header naming day 2.
    expect(text.length).toBeGreaterThan(2)
    for (const page of text.slice(2))
      expect(page).toMatch(/Northern Lights\s+Day 2 — 2024-01-02 · 2nd Unit\s+Daily Report/)
    expect(text.at(-1)).toContain('B001C0060_240101_R1AB')
    expect(expectPageNumbers(file)).toBe(text.length)
  })

  it('shows custom-schema clip fields as columns, matched by clip name', async () => {
    const clips = clipsOf(3)
    const schemas = [
      {
        id: 'notes',
        sync: 'clip',
        active: true,
        clip_fields: [
          { type: 'text', key_name: 'scene', column: 'Scene' },
          { type: 'text_list', key_name: 'tags' },
        ],
      },
    ]
    const custom = [{ schema: 'notes', clips: [{ clip: clips[1]!.clip, scene: '12A', tags: ['night', 'rain'] }] }]
    const file = write(
      await renderReport({
        settings: settings({ custom_schemas: schemas }),
        preset: preset('clips-report', {
          options: { columns: ['clip', 'custom:notes.scene', 'custom:notes.tags', 'reel'] },
        }),
        logs: [log('D001', 1, '2024-01-01', clips, { custom })],
      }),
    )
    const text = pages(file).join('\n')
    expect(text).toMatch(/Clip\s+Scene\s+tags\s+Reel/)
    expect(text).toMatch(new RegExp(`${clips[1]!.clip}\\s+12A\\s+night, rain\\s+A002`))
  })

  it('draws a day over 8 MiB from its clips read one at a time, page for page as the day parsed whole', async () => {
    // A LUT on the last clip only: the default table shows the column once any clip fills it.
    const clips = clipsOf(9000, (i) => ({ notes: 'n'.repeat(700), ...(i === 9000 ? { lut: 'Rec709_Show.cube' } : {}) }))
    const day = {
      ...(log('D001', 1, '2024-01-01', clips, {
        custom: [{ schema: 'notes', clips: [{ clip: clips[8999]!.clip, scene: '44C' }] }],
      }) as object),
      sound: { clips: [{ clip: 'S001T01.wav', size: 1000, copies: [{ volume: 'SSD_01', hash: null }] }] },
      proxy: { clips: [{ clip: 'A001C0001.mov', size: 2000, format: 'mov', codec: 'ProRes' }] },
    }
    const json = JSON.stringify(day)
    expect(json.length).toBeGreaterThan(8 * 1024 * 1024)
    const schemas = [{ id: 'notes', sync: 'clip', active: true, clip_fields: [{ type: 'text', key_name: 'scene' }] }]
    const render = async (stored: string | Uint8Array, columns?: string[]) =>
      pages(
        write(
          await reports.renderReport({
            settings: settings({ custom_schemas: schemas }),
            preset: preset('clips-report', columns ? { options: { columns } } : {}),
            summaries: [summarize(day as never)],
            readLog: async () => lazyLog(stored),
          }),
        ),
      ).map((page) => page.replace(/generated \d{4}-\d\d-\d\d \d\d:\d\d/, 'generated'))

    const clipByClip = await render(new TextEncoder().encode(json))
    expect(clipByClip).toEqual(await render(json))
    const text = clipByClip.join('\n')
    expect(text).toMatch(/Camera clips\s+9,000 clips/)
    expect(text).toMatch(/LUT/)
    expect(text).toContain('Rec709_Show.cube')
    expect(text).toContain('S001T01.wav')
    expect(text).toContain('A001C0001.mov')

    const chosen = ['clip', 'custom:notes.scene', 'reel']
    const custom = await render(new TextEncoder().encode(json), chosen)
    expect(custom).toEqual(await render(json, chosen))
    expect(custom.join('\n')).toMatch(new RegExp(`${clips[8999]!.clip}\\s+44C\\s+B001`))
  })
})

describe('the "generated" stamp', () => {
  it("is read on the clocks of the project's time zone, UTC for a project without one", async () => {
    const created = new Date('2024-03-01T10:05:00Z')
    const stampOf = async (extra: Clip) =>
      pages(
        write(
          await reports.renderReport({
            ...rangeOf({
              settings: settings(extra),
              preset: preset('data-report'),
              logs: [log('D001', 1, '2024-03-01', clipsOf(2))],
            }),
            created,
          }),
        ),
        '-raw',
      )
        .join('\n')
        .match(/generated \S+ \S+ \S+/)?.[0]
    expect(await stampOf({})).toBe('generated 2024-03-01 10:05 UTC')
    expect(await stampOf({ time_zone: 'Asia/Tokyo' })).toBe('generated 2024-03-01 19:05 Asia/Tokyo')
  })
})

describe('data report, read back with poppler', () => {
  it('has one row per log, the totals and the date range, counting a log named twice once', async () => {
    const logs = [
      log('D002', 2, '2024-01-02', clipsOf(40), { unit: 'Main Unit', sound: { files: 12, size: 2_000_000_000 } }),
      log('D001', 1, '2024-01-01', clipsOf(100), { unit: 'Main Unit' }),
      log('D003', 3, '2024-01-03', [], {
        unit: 'Main Unit',
        ocf: { files: 7, size: 9_000_000_000, duration: '00:07:00:00', reels: ['C001'] },
      }),
    ]
    // Named twice in the request, counted once.
    logs.push(logs[1]!)
    const source = {
      settings: settings(),
      preset: preset('data-report', { output_name: 'Summary_<d>_<yyyymmdd>.pdf' }),
      logs,
    }
    const file = write(await renderReport(source))
    expect(reportFilename(source)).toBe('Summary_1-3_20240101-20240103.pdf')
    const text = pages(file)
    const all = text.join('\n')
    expect(all).toContain('Days 1–3 — 2024-01-01 – 2024-01-03')
    const rows = all.split('\n')
    const row = (start: RegExp) => collapse(rows.find((r) => start.test(r)) ?? '')
    // Each volume short, as its chip: held of owed, its mark, and what is wrong.
    expect(row(/^\s*1\s+2024-01-01/)).toBe(
      ' 1 2024-01-01 Main Unit 01:40:00:00 100 123.00 GB — — — — A001–A003, B001 SSD_01 100/100 ✓, RAID_A 90/100 ✕ (10 clips missing, 90 clips without a checksum)',
    )
    expect(row(/^\s*2\s+2024-01-02/)).toBe(
      ' 2 2024-01-02 Main Unit 00:40:00:00 40 49.20 GB — — 12 2.00 GB A001–A003, B001 SSD_01 40/40 ✓, RAID_A 36/40 ✕ (4 clips missing, 36 clips without a checksum)',
    )
    expect(row(/^\s*3\s+2024-01-03/)).toBe(' 3 2024-01-03 Main Unit 00:07:00:00 7 9.00 GB — — — — C001 —')
    expect(row(/^\s*Total\s/)).toBe(
      ' Total 2024-01-01 – 2024-01-03 Main Unit 02:27:00:00 147 181.20 GB — — 12 2.00 GB A001–A003, B001, C001 SSD_01 140/140 ✓, RAID_A 126/140 ✕ (14 clips missing, 126 clips without a checksum)',
    )
    expect(expectPageNumbers(file)).toBe(text.length)
    expect(info(file).Subject).toBe('Data report')
  })

  it('holds a rotating shuttle to the days it carried, and shows sound copies as it shows OCF copies', async () => {
    // RAID_A every day; SHUTTLE_1 goes home on days 1 and 3, SHUTTLE_2 on day 2, one clip short.
    const hashed = (volume: string) => ({ volume, hash: 'xxh64:00000000000000aa' })
    const day = (n: number, shuttle: string, count: number, short = 0) =>
      ({
        id: `D00${n}`,
        day: n,
        date: `2024-01-0${n}`,
        ocf: {
          copies: ['RAID_A', shuttle],
          clips: clipsOf(count, (i) => ({
            // The RAID's copies were read back (an ASC MHL `verified` action); the shuttles' were not.
            copies: [{ ...hashed('RAID_A'), action: 'verified' }, ...(i > count - short ? [] : [hashed(shuttle)])],
          })),
        },
        sound: {
          copies: ['SND_RAID'],
          clips: [{ clip: `S${n}_T01.WAV`, copies: [{ volume: 'SND_RAID', hash: null }] }],
        },
      }) as never
    const logs = [day(1, 'SHUTTLE_1', 10), day(2, 'SHUTTLE_2', 8, 1), day(3, 'SHUTTLE_1', 6)]
    const file = write(await renderReport({ settings: settings(), preset: preset('data-report'), logs }))
    const all = collapse(pages(file).join('\n'))
    // Across the range each volume owes the clips of its own days: no warning for the rotation.
    expect(all).toContain('RAID_A: 24 clips, all verified (read back) ✓')
    expect(all).toContain('SHUTTLE_1: 16 clips on 2 days, checksums match (not read back) ✓')
    expect(all).toContain('SHUTTLE_2: 8 clips on 1 day: 1 missing, 7 checksums match (not read back) ✕')
    expect(all).toContain('SOUND COPIES SND_RAID: 3 clips, none with a checksum !')
    const rows = pages(file).join('\n').split('\n')
    const row = (start: RegExp) => collapse(rows.find((r) => start.test(r)) ?? '')
    expect(row(/^\s*Day\s/)).toMatch(/ OCF copies Sound copies$/)
    expect(row(/^\s*2\s+2024-01-02/)).toMatch(
      / RAID_A 8\/8 ✓, SHUTTLE_2 7\/8 ✕ \(1 clip missing\) SND_RAID 1\/1 ! \(1 clip without a checksum\)$/,
    )
    expect(all).toContain(
      'Total 2024-01-01 – 2024-01-03 Main Unit 00:24:00:00 24 29.52 GB — — 3 0B A001–A003, B001 RAID_A 24/24 ✓, SHUTTLE_1 16/16 ✓ (2 days),',
    )
    expect(all).toContain('SHUTTLE_2 7/8 ✕ (1 day, 1 clip missing)')
    // The day e-mail's total says the same.
    const { figuresOf, describeCopies } = await import('../../src/mail/figures')
    const { total } = figuresOf(
      'Northern Lights',
      undefined,
      logs.map((l) => summarize(l)),
    )
    expect(describeCopies(total!.copies)).toEqual([
      'RAID_A: 24 clips, all verified (read back)',
      'SHUTTLE_1: 16 clips on 2 days, checksums match (not read back)',
      'SHUTTLE_2: 8 clips on 1 day: 1 missing, 7 checksums match (not read back)',
    ])
    expect(describeCopies(total!.soundCopies)).toEqual(['SND_RAID: 3 clips, none with a checksum'])
  })

  it('holds every volume to a day whose clips went to no volume: nothing of that day is backed up', async () => {
    const { total } = await import('../../src/summary/summary')
    const copied = (id: string, n: number) =>
      ({
        id,
        day: n,
        date: `2024-01-0${n}`,
        ocf: { copies: ['RAID_A'], clips: clipsOf(10, () => ({ copies: [{ volume: 'RAID_A', hash: null }] })) },
      }) as never
    // Day 3's 100 clips are logged, on no volume, and its log names none.
    const uncopied = { id: 'D003', day: 3, date: '2024-01-03', ocf: { clips: clipsOf(100, () => ({ copies: [] })) } }
    const days = [copied('D001', 1), copied('D002', 2), uncopied as never].map((log) => summarize(log))
    expect(total(days).copies).toEqual([
      { volume: 'RAID_A', clips: 120, states: { 'no-checksum': 20, missing: 100 }, days: 2 },
    ])
    // A day of figures only (no clips listed) owes nothing.
    const figures = summarize({ id: 'D004', day: 4, date: '2024-01-04', ocf: { files: 7, size: 1 } } as never)
    expect(total([...days.slice(0, 2), figures]).copies).toEqual([
      { volume: 'RAID_A', clips: 20, states: { 'no-checksum': 20 } },
    ])
  })

  it('gives each day the status its checks computed, and the totals of them', async () => {
    const logs = [log('D001', 1, '2024-01-01', clipsOf(5)), log('D002', 2, '2024-01-02', clipsOf(5))]
    const counts = new Map([
      ['D001', { errors: 0, warnings: 0, info: 0 }],
      ['D002', { errors: 1, warnings: 2, info: 1 }],
    ])
    const file = write(
      await reports.renderReport({
        ...rangeOf({ settings: settings(), preset: preset('data-report'), logs }),
        dayChecks: async () => counts,
      }),
    )
    const rows = pages(file).join('\n').split('\n')
    const row = (start: RegExp) => collapse(rows.find((r) => start.test(r)) ?? '')
    expect(row(/^\s*Day\s/)).toMatch(/ OCF copies Checks$/)
    expect(row(/^\s*1\s+2024-01-01/)).toMatch(/ OK$/)
    expect(row(/^\s*2\s+2024-01-02/)).toMatch(/ 1 error · 2 warnings · 1 note$/)
    expect(row(/^\s*Total\s/)).toMatch(/ 1 error · 2 warnings · 1 note$/)
  })

  it('adds up a wrap of several units per unit: a row each, under the days', async () => {
    const logs = [
      log('D001', 1, '2024-01-01', clipsOf(10), { unit: 'Main Unit' }),
      log('D002', 1, '2024-01-01', clipsOf(4), { unit: 'Second Unit' }),
      log('D003', 2, '2024-01-02', clipsOf(20), { unit: 'Main Unit' }),
    ]
    const counts = new Map([
      ['D001', { errors: 0, warnings: 1, info: 0 }],
      ['D002', { errors: 1, warnings: 0, info: 0 }],
      ['D003', { errors: 0, warnings: 2, info: 0 }],
    ])
    const file = write(
      await reports.renderReport({
        ...rangeOf({ settings: settings(), preset: preset('data-report'), logs }),
        dayChecks: async () => counts,
      }),
    )
    const all = pages(file).join('\n')
    expect(all).toContain('Per unit')
    const rows = all.slice(all.indexOf('Per unit')).split('\n')
    const row = (start: RegExp) => collapse(rows.find((r) => start.test(r)) ?? '')
    expect(row(/^\s*Unit\s+Days/)).toMatch(/^ Unit Days Duration OCF files OCF size .* Checks$/)
    expect(row(/^\s*Main Unit\s/)).toBe(' Main Unit 2 days 00:30:00:00 30 36.90 GB — — — — 3 warnings')
    expect(row(/^\s*Second Unit\s/)).toBe(' Second Unit 1 day 00:04:00:00 4 4.92 GB — — — — 1 error')
  })
})

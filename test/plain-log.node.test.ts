// The quick check that lets a POST or PATCH of an ordinary log (or a large log's clip) skip
// valibot must never say yes where LogSchema says no: checked against checkLog on mutations of
// valid logs, with a fixed seed. In plain Node; a plain log through the service is in plain-log.test.ts.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CustomSchemas } from '../src/schemas/custom'
import { checkClip, checkLog } from '../src/schemas/log'
import { certainlyValidClip, certainlyValidLog } from '../src/schemas/plain-log'
import { clip, makeLog } from './log-fixtures'

const SEED = 20_26_11_22
const noSchemas = new CustomSchemas({})

const full = () =>
  makeLog('D007', 3, {
    day: 7,
    date: '2024-02-29',
    ocf: {
      files: 3,
      size: 30,
      duration: '00:03:00:00',
      reels: ['A001'],
      copies: ['SSD_01'],
      clips: [clip(1), clip(2, { fps: 29.97, tc_start: '10:00:00;29' }), clip(3, { fps: undefined })],
    },
    sound: {
      files: 1,
      size: 5,
      copies: ['SSD_01'],
      clips: [
        {
          clip: 'S001',
          size: 5,
          copies: [{ volume: 'SSD_01', hash: null }],
          tc_start: '10:00:00:00',
          tc_end: '10:00:10:00',
        },
      ],
    },
    proxy: {
      files: 1,
      size: 2,
      clips: [{ clip: 'P001', size: 2, format: 'mov', codec: 'ProRes', resolution: '1920x1080' }],
    },
    version: 2,
  })

const awkward = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    -0,
    1.5,
    1e308,
    Infinity,
    24,
    1000,
    1001,
    '',
    'x'.repeat(51),
    'D001',
    '2024-02-30',
    '2023-02-29',
    '2024-1-01',
    '2000-02-29',
    '2100-02-29',
    '0099-01-01',
    '0999-12-31',
    '2024-13-01',
    '2024-00-10',
    '2024-04-31',
    '2024-04-30',
    '2024-01-00',
    '2024/01/01',
    '２０２４-01-01',
    '10:00:00:00',
    '10:60:00:00',
    '10:00:00:24',
    '10:00:00:29',
    '99:59:59;59',
    '10:00:00:00\n',
    '1:00:00:00',
    '10:00:00:0',
    '10-00-00-00',
    '10:00:00.00',
    '10:5a:00:00',
    '١٠:00:00:00',
    '10:00:60:00',
    '10:00:00;23',
    '00:00:00:99',
    [],
    {},
    ['a', 1],
    [{}],
    [{ volume: '' }],
    [{ volume: 'V', hash: 1 }],
  ),
  fc.string(),
  fc.stringMatching(/^\d{1,2}[:;.]\d{1,2}[:;]\d{2}[:;]\d{1,3}$/),
  fc.stringMatching(/^\d{4}-[01]\d-[0-3]\d$/),
  fc.integer(),
  fc.double({ noNaN: true }),
)

const PATHS = [
  'id',
  'day',
  'date',
  'unit',
  'custom',
  'ocf',
  'ocf.files',
  'ocf.size',
  'ocf.duration',
  'ocf.reels',
  'ocf.reels.0',
  'ocf.copies',
  'ocf.clips',
  'ocf.clips.0',
  'ocf.clips.0.clip',
  'ocf.clips.0.size',
  'ocf.clips.0.size_unknown',
  'ocf.clips.0.copies',
  'ocf.clips.0.copies.0',
  'ocf.clips.0.copies.0.volume',
  'ocf.clips.0.copies.1.hash',
  'ocf.clips.0.tc_start',
  'ocf.clips.0.tc_end',
  'ocf.clips.0.duration',
  'ocf.clips.0.fps',
  'ocf.clips.1.fps',
  'ocf.clips.1.tc_start',
  'ocf.clips.2.tc_end',
  'ocf.clips.0.reel',
  'ocf.clips.0.lut',
  'ocf.clips.0.sensor_fps',
  'sound',
  'sound.files',
  'sound.copies',
  'sound.clips.0',
  'sound.clips.0.size',
  'sound.clips.0.size_unknown',
  'sound.clips.0.copies',
  'sound.clips.0.tc_end',
  'proxy',
  'proxy.clips.0.format',
  'proxy.clips.0.codec',
  'proxy.clips.0.resolution',
  'proxy.clips.0.size',
  'proxy.size',
]

function mutate(log: Record<string, unknown>, path: string, value: unknown, remove: boolean) {
  const keys = path.split('.')
  let at = log as Record<string, unknown>
  for (const key of keys.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== 'object') return
    at = at[key] as Record<string, unknown>
  }
  if (remove) delete at[keys.at(-1)!]
  else at[keys.at(-1)!] = value
}

describe('the quick check of a plain log', () => {
  it('says yes to ordinary logs, so POST and PATCH take the quick path', () => {
    expect(certainlyValidLog(makeLog('D001', 20))).toBe(true)
    expect(certainlyValidLog(full())).toBe(true)
    expect(checkLog(full(), noSchemas).details).toEqual([])
  })

  it('never says yes where checkLog finds a problem or changes the log (two mutations at a time)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...PATHS), awkward, fc.boolean()), { minLength: 1, maxLength: 2 }),
        (mutations) => {
          const log = full() as Record<string, unknown>
          for (const [path, value, remove] of mutations) mutate(log, path, value, remove)
          if (!certainlyValidLog(log)) return
          const checked = checkLog(log, noSchemas)
          expect(checked.details, JSON.stringify(mutations)).toEqual([])
          expect(checked.log).toBe(log)
        },
      ),
      { seed: SEED, numRuns: 3000 },
    )
  })

  it('never says yes to a clip checkClip finds a problem in (a log read a clip at a time)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...PATHS.filter((p) => p.includes('.clips.'))), awkward, fc.boolean()), {
          minLength: 1,
          maxLength: 2,
        }),
        (mutations) => {
          const log = full() as unknown as Record<string, Record<string, unknown[]>>
          for (const [path, value, remove] of mutations) mutate(log, path, value, remove)
          for (const part of ['ocf', 'sound', 'proxy'] as const)
            log[part]!.clips!.forEach((clip, i) => {
              if (certainlyValidClip(part, clip))
                expect(checkClip(part, clip, `${part}.clips.${i}`), JSON.stringify(mutations)).toEqual([])
            })
        },
      ),
      { seed: SEED, numRuns: 3000 },
    )
  })

  it('reads calendar dates as the schema does: leap days, month lengths, early years left to valibot', () => {
    const verdicts = [
      '2024-02-29',
      '2000-02-29',
      '2100-02-29',
      '2023-02-29',
      '2024-04-30',
      '2024-04-31',
      '2024-12-31',
      '2024-13-01',
      '2024-00-10',
      '2024-01-00',
      '0999-12-31',
      '1000-01-01',
    ].map((date) => {
      const log = makeLog('D001', 1, { date })
      return [date, certainlyValidLog(log), checkLog(log, noSchemas).details.length === 0]
    })
    expect(verdicts).toEqual([
      ['2024-02-29', true, true],
      ['2000-02-29', true, true],
      ['2100-02-29', false, false],
      ['2023-02-29', false, false],
      ['2024-04-30', true, true],
      ['2024-04-31', false, false],
      ['2024-12-31', true, true],
      ['2024-13-01', false, false],
      ['2024-00-10', false, false],
      ['2024-01-00', false, false],
      ['0999-12-31', false, true],
      ['1000-01-01', true, true],
    ])
  })

  it('says no to a log with custom entries: their schemas decide, and some are dropped', () => {
    expect(certainlyValidLog(makeLog('D001', 1, { custom: [] }))).toBe(false)
  })
})

// Random logs as applications send them: any mix of OCF, sound and proxy clips, copies on a few
// volumes with hashes or without, rates, timecodes and reels. Every log here is valid.
import fc from 'fast-check'

const RATES = [23.976, 24, 25, 29.97, 48, 50, 59.94] as const
const VOLUMES = ['SSD_01', 'RAID_A', 'LTO_0001'] as const

/** A timecode whose frames stay below every rate above (24 frames at 23.976 is refused). */
const timecode = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
  .chain(([h, m, s]) =>
    fc.integer({ min: 0, max: 23 }).map((f) => [h, m, s, f].map((n) => String(n).padStart(2, '0')).join(':')),
  )

const copies = fc.array(
  fc.record(
    {
      volume: fc.constantFrom(...VOLUMES),
      hash: fc.oneof(fc.constant(null), fc.constant(''), fc.stringMatching(/^[0-9a-f]{1,16}$/)),
    },
    { requiredKeys: ['volume'] },
  ),
  { maxLength: 4 },
)

const ocfClip = fc.record(
  {
    clip: fc.string({ minLength: 1, maxLength: 12 }),
    size: fc.integer({ min: 0, max: 2 ** 40 }),
    copies,
    fps: fc.constantFrom(...RATES),
    tc_start: timecode,
    tc_end: timecode,
    duration: timecode,
    reel: fc.constantFrom('A001', 'A002', 'B001', ''),
  },
  { requiredKeys: ['clip', 'size', 'copies'] },
)

const soundClip = fc.record(
  { clip: fc.string({ minLength: 1, maxLength: 12 }), size: fc.integer({ min: 0, max: 2 ** 32 }), copies },
  { requiredKeys: ['clip', 'size', 'copies'] },
)

const proxyClip = fc.record({
  clip: fc.string({ minLength: 1, maxLength: 12 }),
  size: fc.integer({ min: 0, max: 2 ** 32 }),
  format: fc.constant('mov'),
  codec: fc.constant('ProRes 422 Proxy'),
  resolution: fc.constant('1920x1080'),
})

const parts = {
  unit: fc.constantFrom('Main Unit', 'Second Unit', ''),
  ocf: fc.record(
    {
      files: fc.nat({ max: 5000 }),
      size: fc.integer({ min: 0, max: 2 ** 44 }),
      duration: timecode,
      reels: fc.array(fc.constantFrom('A001', 'A002', 'C001'), { maxLength: 3 }),
      copies: fc.uniqueArray(fc.constantFrom(...VOLUMES), { maxLength: 3 }),
      clips: fc.array(ocfClip, { maxLength: 8 }),
    },
    { requiredKeys: [] },
  ),
  sound: fc.record(
    {
      files: fc.nat({ max: 500 }),
      size: fc.integer({ min: 0, max: 2 ** 36 }),
      copies: fc.uniqueArray(fc.constantFrom(...VOLUMES), { maxLength: 3 }),
      clips: fc.array(soundClip, { maxLength: 5 }),
    },
    { requiredKeys: [] },
  ),
  proxy: fc.record(
    {
      files: fc.nat({ max: 5000 }),
      size: fc.integer({ min: 0, max: 2 ** 40 }),
      clips: fc.array(proxyClip, { maxLength: 4 }),
    },
    { requiredKeys: [] },
  ),
}

/** The parts of a log after its keys (id, day, date), each there or not. */
export const logBody = fc.record(parts, { requiredKeys: [] })

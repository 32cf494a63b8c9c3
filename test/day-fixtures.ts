// A shooting day as the checks tests build it: clips on reel A001, every copy hashed, proxy and
// sound for each; the checks on their own and through the service start from it.
export type Clip = Record<string, unknown>
export type Day = { id: string; day: number; date: string; ocf: Clip; sound?: Clip; proxy?: Clip; [k: string]: unknown }

export const VOLUMES = ['SSD_01', 'RAID_A']
export const tc = (seconds: number, frames = 0) =>
  [Math.floor(seconds / 3600) % 24, Math.floor(seconds / 60) % 60, seconds % 60, frames]
    .map((n) => String(n).padStart(2, '0'))
    .join(':')
export const hex16 = (n: number) => n.toString(16).padStart(16, '0')

/** A day of `count` clips on reel A001, 60 s each a minute apart, every copy hashed, proxy and sound for each. */
export function cleanDay(count = 4, id = 'D001', reel = 'A001'): Day {
  const clips = Array.from({ length: count }, (_, i) => ({
    clip: `${reel}C${String(i + 1).padStart(3, '0')}_240101_R1AB`,
    size: 1000 + i,
    fps: 24,
    tc_start: tc(36_000 + i * 120),
    tc_end: tc(36_060 + i * 120),
    copies: VOLUMES.map((volume) => ({ volume, hash: `xxh64:${hex16(i + 1)}` })),
  }))
  return {
    id,
    day: Number(id.slice(1)),
    date: '2024-01-01',
    ocf: { copies: [...VOLUMES], size: clips.reduce((a, c) => a + c.size, 0), clips },
    sound: {
      copies: [...VOLUMES],
      clips: clips.map((c, i) => ({
        clip: `S${String(i + 1).padStart(3, '0')}.wav`,
        size: 50,
        tc_start: tc(35_990 + i * 120),
        tc_end: tc(36_070 + i * 120),
        copies: VOLUMES.map((volume) => ({ volume, hash: `md5:${'ab'.repeat(16)}` })),
      })),
    },
    proxy: {
      clips: clips.map((c) => ({ clip: `${c.clip}.mov`, size: 10, format: 'mov', codec: 'ProRes', resolution: 'HD' })),
    },
  }
}

// A clip and a day's log as the tests build them: pure data, for the worker tests and the Node ones.
export function clip(i: number, overrides: Record<string, unknown> = {}) {
  const n = String(i).padStart(3, '0')
  return {
    clip: `A001C${n}_240101_R1AB`,
    size: 1_234_567_890 + i,
    copies: [
      { volume: 'SSD_01', hash: `xxh64:${n.padStart(16, '0')}` },
      { volume: 'RAID_A', hash: null },
    ],
    tc_start: '10:00:00:00',
    tc_end: '10:01:00:00',
    duration: '00:01:00:00',
    camera_model: 'ARRI ALEXA 35',
    reel: 'A001',
    fps: 24,
    lens: 'Signature Prime 35mm',
    resolution: '4608x3164',
    codec: 'ARRIRAW',
    ...overrides,
  }
}

export function makeLog(id = 'D001', clips = 3, overrides: Record<string, unknown> = {}) {
  return {
    id,
    day: 1,
    date: '2024-01-01',
    unit: 'Main Unit',
    ocf: { reels: ['A001'], copies: ['SSD_01', 'RAID_A'], clips: Array.from({ length: clips }, (_, i) => clip(i + 1)) },
    // What the reference application writes; a log without it is stored with version 1 (SPEC §4).
    version: 1,
    ...overrides,
  }
}

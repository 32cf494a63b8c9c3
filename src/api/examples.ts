/** The examples the OpenAPI document shows, and the contract test sends to the running service. */

export const EXAMPLE_LOG = {
  id: 'D001',
  day: 1,
  date: '2024-03-01',
  ocf: {
    copies: ['SSD_01', 'RAID_A'],
    clips: [
      {
        clip: 'A001C001_240301_R1AB',
        size: 1234567890,
        fps: 24,
        tc_start: '10:00:00:00',
        tc_end: '10:01:00:00',
        reel: 'A001',
        copies: [
          { volume: 'SSD_01', hash: 'xxh64:ef46db3751d8e999' },
          { volume: 'RAID_A', hash: 'xxh64:ef46db3751d8e999' },
        ],
      },
    ],
  },
  version: 1,
}

/** A classic MHL of the example log's one clip, as an offload tool writes it after copying to a shuttle. */
export const EXAMPLE_MHL = `<?xml version="1.0" encoding="UTF-8"?>
<hashlist version="1.1">
  <creatorinfo><tool>offload</tool><startdate>2024-03-01T19:00:00Z</startdate></creatorinfo>
  <hash>
    <file>A001C001_240301_R1AB.mxf</file>
    <size>1234567890</size>
    <xxhash64be>ef46db3751d8e999</xxhash64be>
  </hash>
</hashlist>
`

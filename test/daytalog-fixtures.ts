/**
 * A project and days in the shapes the reference application (Daytalog, npm `daytalog` 1.2.1)
 * writes, made for these tests from its published schemas: camera metadata as numbers where its
 * CameraMetadataZod has numbers (fps, sensor_fps, shutter, ei, wb), a custom schema whose clip
 * fields mirror camera metadata (`{type: "clip"}`, `ei`, `shutter`) beside all five field types,
 * PDF and e-mail presets naming its stock templates and templates of a user's own, and keys of
 * its own (`match_schema`, `csv_parsing`) that this service keeps as sent.
 */

export const PROJECT = {
  project_name: 'Harbour Lights',
  logid_template: 'D<dd>_<yymmdd>',
  unit: 'Main',
  match_sound: true,
  match_schema: true,
  custom_info: [{ Director: 'Mira Sand' }, { 'Director of Photography': 'Olof Berg' }],
  custom_schemas: [
    {
      id: 'cameraNotes',
      sync: 'clip',
      order: 1,
      active: true,
      csv_parsing: false,
      log_fields: [
        { type: 'text', key_name: 'director' },
        { type: 'text_list', key_name: 'weather', delimiter: ',' },
      ],
      clip_fields: [
        { type: 'clip' },
        { type: 'ei' },
        { type: 'shutter' },
        { type: 'text', key_name: 'take_note' },
        { type: 'text_list', key_name: 'props', delimiter: ',' },
        { type: 'text_list_list', key_name: 'crew', primary_delimiter: ',', secondary_delimiter: '|' },
        { type: 'kv_map', key_name: 'filters', primary_delimiter: ';', secondary_delimiter: ':' },
        {
          type: 'kv_map_list',
          key_name: 'issues',
          subfields: [{ key_name: 'TC' }, { key_name: 'urgency' }, { key_name: 'issue' }],
        },
      ],
    },
    {
      id: 'scriptSupervisor',
      sync: 'tc',
      order: 2,
      active: true,
      clip_fields: [
        { type: 'text', key_name: 'scene' },
        { type: 'text', key_name: 'take' },
      ],
    },
  ],
  pdfs: [
    {
      id: 'clp01',
      label: 'Clips report',
      output_name: 'Clips_Day<dd>_<yymmdd>.pdf',
      react: 'ClipsReport.tsx',
      enabled: true,
    },
    {
      id: 'cam02',
      label: 'Camera report',
      output_name: 'Camera_<log>.pdf',
      react: 'CameraReport_v2.jsx',
      enabled: true,
    },
    { id: 'dat03', label: 'Data report', output_name: 'Data_<yyyymmdd>.pdf', react: 'DataReport.tsx', enabled: false },
  ],
  emails: [
    {
      id: 'eod01',
      label: 'End of day',
      recipients: ['producer@example.com', 'post@example.com'],
      subject: 'Log for <log>',
      attachments: ['clp01'],
      react: 'DaySummary.tsx',
      enabled: true,
    },
    {
      id: 'wrp02',
      label: 'End of production',
      recipients: ['producer@example.com'],
      subject: 'Wrap — <project>',
      react: 'ProductionWrap.tsx',
      enabled: true,
    },
    {
      id: 'nte03',
      label: 'Note to post',
      recipients: ['post@example.com'],
      subject: '<project>: a note',
      message: 'Cards are wiped.',
      react: 'Plain.tsx',
      enabled: true,
    },
  ],
  version: 1,
}

const copies = (hash: string) => [
  { volume: 'Master_01', hash },
  { volume: 'Backup_01', hash },
  { volume: 'Shuttle_03', hash: null },
]

/** An OCF clip as its camera reports it, numbers where the reference application has numbers. */
function ocfClip(name: string, reel: string, tcStart: string, tcEnd: string, size: number, hash: string) {
  return {
    clip: name,
    size,
    copies: copies(hash),
    tc_start: tcStart,
    tc_end: tcEnd,
    duration: '00:00:15:00',
    camera_model: 'Sony Venice 2',
    reel,
    fps: 25,
    sensor_fps: 25,
    lens: '32.00mm',
    shutter: 180,
    resolution: '8640x5760',
    codec: 'X-OCN ST',
    gamma: 's-log3-cine',
    ei: 1250,
    wb: 5600,
    tint: '+2',
    lut: 'HarbourShow_v3.cube',
  }
}

export const DAY_1 = {
  id: 'D01_250602',
  day: 1,
  date: '2025-06-02',
  unit: 'Main',
  ocf: {
    clips: [
      ocfClip(
        'B001C001_250602_R2KJ',
        'B001',
        '09:12:04:00',
        '09:12:19:00',
        3_110_224_512,
        'a41f0c77e2d9b35816c0f9a2d4e7b1c3',
      ),
      ocfClip(
        'B001C002_250602_R2KJ',
        'B001',
        '09:20:41:10',
        '09:20:56:10',
        2_987_114_496,
        '0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a',
      ),
      ocfClip(
        'B002C001_250602_R2KJ',
        'B002',
        '10:02:00:00',
        '10:02:15:00',
        3_402_331_136,
        '77aa88bb99cc00dd11ee22ff33aa44bb',
      ),
    ],
  },
  proxy: {
    clips: [
      {
        clip: 'B001C001_250602_R2KJ',
        size: 91_234_000,
        format: 'mov',
        codec: 'ProRes 422 Proxy',
        resolution: '1920x1080',
      },
      {
        clip: 'B001C002_250602_R2KJ',
        size: 88_002_000,
        format: 'mov',
        codec: 'ProRes 422 Proxy',
        resolution: '1920x1080',
      },
    ],
  },
  sound: {
    clips: [
      {
        clip: 'T001_SC12_TK1.wav',
        size: 181_440_044,
        copies: copies('5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e'),
        tc_start: '09:12:01:00',
        tc_end: '09:12:22:00',
      },
    ],
  },
  custom: [
    {
      schema: 'cameraNotes',
      log: { director: 'Mira Sand', weather: ['overcast', 'wind 5 m/s'] },
      clips: [
        {
          clip: 'B001C001_250602_R2KJ',
          ei: 1250,
          take_note: 'Boom in frame at the end',
          props: ['lantern', 'rope'],
          crew: [
            ['Anna', 'Focus puller'],
            ['Jonas', 'Clapper loader'],
          ],
          filters: { ND: '0.6', Pola: 'yes' },
          issues: [{ TC: '09:12:17:00', urgency: 'low', issue: 'Boom dip' }],
        },
      ],
    },
    { schema: 'scriptSupervisor', clips: [{ tc_start: '09:12:00:00', tc_end: '09:12:30:00', scene: '12', take: '1' }] },
  ],
  version: 1,
}

/**
 * Day 2, shot before day 1's date by a second unit, as some productions number them. Its crew
 * rows come as objects with numeric keys, as some clients of the reference application send them.
 */
export const DAY_2_SENT = {
  id: 'D02_250601',
  day: 2,
  date: '2025-06-01',
  unit: 'Second',
  ocf: {
    clips: [
      ocfClip(
        'C001C001_250601_R9QX',
        'C001',
        '14:00:00:00',
        '14:00:15:00',
        2_500_000_000,
        'c001c001c001c001c001c001c001c001',
      ),
    ],
  },
  custom: [
    {
      schema: 'cameraNotes',
      clips: [{ clip: 'C001C001_250601_R9QX', crew: [{ 0: 'Sven', 1: 'Grip' }, ['Lea', 'Gaffer']] }],
    },
  ],
  version: 1,
}

/** Day 2 as stored: the reference application reads numbered rows as the arrays they number. */
export const DAY_2_STORED = {
  ...DAY_2_SENT,
  custom: [
    {
      schema: 'cameraNotes',
      clips: [
        {
          clip: 'C001C001_250601_R9QX',
          crew: [
            ['Sven', 'Grip'],
            ['Lea', 'Gaffer'],
          ],
        },
      ],
    },
  ],
}

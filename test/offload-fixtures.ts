/**
 * Offload files as the public formats define them, written here from those definitions: ASC MHL
 * v2.0 manifests and the chain file (the ASC MHL specification and its XSD, urn:ASC:MHL:v2.0 and
 * urn:ASC:MHL:DIRECTORY:v2.0), classic MHL 1.1 (`<hashlist version="1.1">` with `<hash><file>…`),
 * and ALE as Avid documents it (Heading, Column, Data; tab-separated).
 */

export type AscEntry = {
  path: string
  size: number
  /** Algorithm (c4, md5, sha1, xxh128, xxh3, xxh64) to value. */
  hashes: Record<string, string>
  action?: 'original' | 'verified' | 'failed'
}

export type AscFolder = { path: string; content: Record<string, string>; structure: Record<string, string> }

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export function ascManifest(options: {
  created: string
  entries: AscEntry[]
  folders?: AscFolder[]
  process?: 'in-place' | 'transfer' | 'flatten'
}): string {
  const { created } = options
  const hashElements = (hashes: Record<string, string>, action?: string) =>
    Object.entries(hashes)
      .map(
        ([alg, value]) => `      <${alg}${action ? ` action="${action}"` : ''} hashdate="${created}">${value}</${alg}>`,
      )
      .join('\n')
  const entries = options.entries.map(
    (e) =>
      `    <hash>\n      <path size="${e.size}" lastmodificationdate="${created}">${escaped(e.path)}</path>\n${hashElements(e.hashes, e.action ?? 'original')}\n    </hash>`,
  )
  const folders = (options.folders ?? []).map(
    (f) =>
      `    <directoryhash>\n      <path>${escaped(f.path)}</path>\n      <content>\n${hashElements(f.content)}\n      </content>\n      <structure>\n${hashElements(f.structure)}\n      </structure>\n    </directoryhash>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>
<hashlist version="2.0" xmlns="urn:ASC:MHL:v2.0">
  <creatorinfo>
    <creationdate>${created}</creationdate>
    <hostname>dit-cart.local</hostname>
    <tool version="1.0">offload</tool>
  </creatorinfo>
  <processinfo>
    <process>${options.process ?? 'transfer'}</process>
    <ignore>
      <pattern>.DS_Store</pattern>
    </ignore>
  </processinfo>
  <hashes>
${[...entries, ...folders].join('\n')}
  </hashes>
</hashlist>
`
}

export function ascChain(links: Array<{ generation: number; path: string; c4: string }>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<ascmhldirectory xmlns="urn:ASC:MHL:DIRECTORY:v2.0">
${links.map((l) => `  <hashlist sequencenr="${l.generation}">\n    <path>${escaped(l.path)}</path>\n    <c4>${l.c4}</c4>\n  </hashlist>`).join('\n')}
</ascmhldirectory>
`
}

export type ClassicEntry = { file: string; size: number; hashes: Record<string, string> }

export function classicManifest(options: { started: string; entries: ClassicEntry[]; encoding?: string }): string {
  const entries = options.entries.map(
    (e) =>
      `  <hash>\n    <file>${escaped(e.file)}</file>\n    <size>${e.size}</size>\n${Object.entries(e.hashes)
        .map(([alg, value]) => `    <${alg}>${value}</${alg}>`)
        .join('\n')}\n    <hashdate>${options.started}</hashdate>\n  </hash>`,
  )
  return `<?xml version="1.0" encoding="${options.encoding ?? 'UTF-8'}"?>
<hashlist version="1.1">
  <creatorinfo>
    <name>DIT</name>
    <username>dit</username>
    <hostname>dit-cart</hostname>
    <tool>offload 3.2</tool>
    <startdate>${options.started}</startdate>
    <finishdate>${options.started}</finishdate>
  </creatorinfo>
${entries.join('\n')}
</hashlist>
`
}

/** An ALE: heading pairs, the column names, rows of cells (a blank cell is ''), CRLF lines. */
export function ale(options: { heading?: Record<string, string>; columns: string[]; rows: string[][] }): string {
  const heading = { FIELD_DELIM: 'TABS', VIDEO_FORMAT: '1080', AUDIO_FORMAT: '48khz', FPS: '25', ...options.heading }
  return [
    'Heading',
    ...Object.entries(heading).map(([k, v]) => `${k}\t${v}`),
    '',
    'Column',
    options.columns.join('\t'),
    '',
    'Data',
    ...options.rows.map((row) => row.join('\t')),
    '',
  ].join('\r\n')
}

/** Text as UTF-16 with a byte order mark, in either byte order. */
export function utf16(text: string, littleEndian = true): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2)
  const view = new DataView(out.buffer)
  view.setUint16(0, 0xfeff, littleEndian)
  for (let i = 0; i < text.length; i++) view.setUint16(2 + i * 2, text.charCodeAt(i), littleEndian)
  return out
}

/** Text as UTF-32 with a byte order mark. */
export function utf32(text: string, littleEndian = true): Uint8Array {
  const points = [0xfeff, ...Array.from(text, (c) => c.codePointAt(0)!)]
  const out = new Uint8Array(points.length * 4)
  const view = new DataView(out.buffer)
  points.forEach((p, i) => view.setUint32(i * 4, p, littleEndian))
  return out
}

/** Text in ISO-8859-1 (every character below U+0100), one byte each. */
export const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))

export const base64 = (bytes: Uint8Array) => {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}

export type OffloadFile = { path: string; bytes: Uint8Array }

const HEX = (n: number, width = 16) => n.toString(16).padStart(width, '0')
const utf8 = (text: string) => new TextEncoder().encode(text)

/** The camera clips of the card offload: three MXF clips and an ARRIRAW sequence of three frames. */
export const CARD = {
  reel: 'A002R1AB',
  clips: ['A002C001_250614_R1AB', 'A002C002_250614_R1AB', 'A002C003_250614_R1AB'],
  sequence: 'A002C004_250614_R1AB',
  size: (i: number) => 1_000_000 + i,
  hash: (i: number) => HEX(0xa000 + i),
  frameSize: 12_000,
}

/**
 * A day's card offloaded to two shuttle drives, each with the ASC MHL history a copy tool leaves:
 * generation 1 written by the transfer (`original`), generation 2 by a verification pass the next
 * evening (`verified`; on SHUTTLE_B, A002C003 `failed`), the chain file with each generation's
 * C4, and an ALE of the card's camera metadata with a blank cell. Paths as on a Mac.
 */
export async function cardOffload(
  c4Of: (bytes: Uint8Array) => Promise<string>,
  root = '/Volumes',
): Promise<OffloadFile[]> {
  const files: OffloadFile[] = []
  for (const volume of ['SHUTTLE_A', 'SHUTTLE_B']) {
    const card = `${root}/${volume}/D012/${CARD.reel}`
    const links: Array<{ generation: number; path: string; c4: string }> = []
    const generations = [
      { created: '2025-06-14T10:15:00+02:00', action: 'original' as const, stamp: '2025-06-14_081500Z' },
      { created: '2025-06-14T18:30:00+02:00', action: 'verified' as const, stamp: '2025-06-14_163000Z' },
    ]
    for (const [g, generation] of generations.entries()) {
      const entries: AscEntry[] = CARD.clips.map((clip, i) => ({
        path: `Clips/${clip}.mxf`,
        size: CARD.size(i),
        hashes: { xxh64: CARD.hash(i) },
        action: g === 1 && volume === 'SHUTTLE_B' && i === 2 ? 'failed' : generation.action,
      }))
      entries[2]!.hashes = g === 1 && volume === 'SHUTTLE_B' ? { xxh64: HEX(0xbad) } : entries[2]!.hashes
      for (let frame = 1; frame <= 3; frame++)
        entries.push({
          path: `${CARD.sequence}/${CARD.sequence}.${String(frame).padStart(7, '0')}.ari`,
          size: CARD.frameSize,
          hashes: { xxh64: HEX(0xf000 + frame) },
          action: generation.action,
        })
      entries.push({ path: 'Sidecar.txt', size: 58, hashes: { xxh64: HEX(0x5) }, action: generation.action })
      const folders = [
        { path: CARD.sequence, content: { xxh64: HEX(0xf00d) }, structure: { xxh64: HEX(0xf11e) } },
        { path: 'Clips', content: { xxh64: HEX(0xc1) }, structure: { xxh64: HEX(0xc2) } },
      ]
      const name = `${String(g + 1).padStart(4, '0')}_${CARD.reel}_${generation.stamp}.mhl`
      const bytes = utf8(
        ascManifest({ created: generation.created, entries, folders, process: g ? 'in-place' : 'transfer' }),
      )
      files.push({ path: `${card}/ascmhl/${name}`, bytes })
      links.push({ generation: g + 1, path: name, c4: await c4Of(bytes) })
    }
    files.push({ path: `${card}/ascmhl/ascmhl_chain.xml`, bytes: utf8(ascChain(links)) })
  }
  const rows = CARD.clips.map((clip, i) => [
    clip,
    `${clip}.mxf`,
    `14:0${i}:00:00`,
    `14:0${i}:30:00`,
    'A002',
    i === 1 ? '' : 'ALEXA 35',
    'Signature Prime 40mm',
  ])
  files.push({
    path: `${root}/SHUTTLE_A/D012/${CARD.reel}.ale`,
    bytes: utf8(
      ale({
        columns: ['Name', 'Source File', 'Start', 'End', 'Tape', 'Camera_Model', 'Lens_Type'],
        rows,
      }),
    ),
  })
  return files
}

/**
 * One shuttle's copy of a card, as each kind of report records it: every file with its path on
 * the volume, size, XXH64 (big-endian, as xxHash's reference writes it) and MD5.
 */
export type ReportedFile = { path: string; size: number; xxh64: string; md5: string }

export function reportedCard(volume = 'SHUTTLE_A'): ReportedFile[] {
  const root = `/Volumes/${volume}/D012`
  const files = CARD.clips.map((clip, i) => ({
    path: `${root}/Clips/${clip}.mxf`,
    size: CARD.size(i),
    xxh64: CARD.hash(i),
    md5: HEX(0xd000 + i, 32),
  }))
  for (let frame = 1; frame <= 3; frame++)
    files.push({
      path: `${root}/${CARD.sequence}/${CARD.sequence}.${String(frame).padStart(7, '0')}.ari`,
      size: CARD.frameSize,
      xxh64: HEX(0xf000 + frame),
      md5: HEX(0xe000 + frame, 32),
    })
  return files
}

/** The files as an ASC MHL generation of the volume's `D012/ascmhl/` folder records them. */
export const reportedAsMhl = (files: ReportedFile[], root = '/Volumes/SHUTTLE_A/D012') =>
  ascManifest({
    created: '2025-06-14T10:15:00+02:00',
    entries: files.map((f) => ({
      path: f.path.slice(root.length + 1),
      size: f.size,
      hashes: { xxh64: f.xxh64, md5: f.md5 },
    })),
  })

/**
 * A transfer log as an ALE in the form YoYotta's are described (an ALE whose rows carry MD5 and
 * xxHash beside size, path and destination): Heading, Column and Data as the Avid ALE
 * specification lays them out, a row a copied file with its name, source and destination paths,
 * destination volume, size, MD5 (upper case) and xxHash64 (big-endian, YoYotta's `xxHash64be`),
 * and a camera metadata column. The column names are this fixture's own choice.
 */
export function hashAle(files: ReportedFile[], volume = 'SHUTTLE_A'): string {
  const name = (path: string) => path.slice(path.lastIndexOf('/') + 1)
  return ale({
    columns: [
      'Name',
      'Source File',
      'Source Path',
      'Destination',
      'Destination Path',
      'File Size',
      'MD5',
      'xxHash64BE',
      'Camera_Model',
    ],
    rows: files.map((f) => [
      name(f.path).replace(/\.\w+$/, ''),
      name(f.path),
      f.path.replace(`/Volumes/${volume}/D012`, '/Volumes/A002'),
      volume,
      f.path.slice(0, f.path.lastIndexOf('/')),
      String(f.size),
      f.md5.toUpperCase(),
      f.xxh64,
      'ALEXA 35',
    ]),
  })
}

/**
 * A transfer report as CSV in the form Silverstack's are described (UTF-16LE with a byte-order
 * mark, quoted fields, one over two lines): a title line, a header row, every field quoted, sizes
 * with thousands separators. The title and column names are this fixture's own choice.
 */
export function silverstackCsv(files: ReportedFile[], volume = 'SHUTTLE_A'): Uint8Array {
  const quoted = (cell: string) => `"${cell.replace(/"/g, '""')}"`
  const lines = [
    quoted('Offload Report D012'),
    ['File Name', 'Volume', 'Destination Path', 'File Size', 'xxHash64', 'MD5', 'Comment'].map(quoted).join(','),
    ...files.map((f, i) =>
      [
        f.path.slice(f.path.lastIndexOf('/') + 1),
        volume,
        f.path,
        f.size.toLocaleString('en-US'),
        f.xxh64,
        f.md5,
        i === 0 ? 'Card checked, "A" cam\nSecond line of the comment' : '',
      ]
        .map(quoted)
        .join(','),
    ),
  ]
  return utf16(`${lines.join('\r\n')}\r\n`)
}

/** A sequence's digest as the README defines it: SHA-256 of `name<TAB>digest<LF>` lines in name order. */
export async function framesDigest(frames: Array<[name: string, hex: string]>, algorithm = 'xxh64') {
  const lines = frames.map(([name, hex]) => `${name}\t${hex}\n`).join('')
  const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(lines)))
  return `${algorithm}-frames:${Array.from(sum, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

/**
 * A transfer ALE with the columns YoYotta's carry (Path, Name, Reel, Start, Duration, End,
 * Resolution, Codec, MD5, xxHash): a row a copied file, its destination path, and no size column.
 * The order and names of the columns are as such reports were seen; the rows are this fixture's.
 */
export function yoyottaAle(files: ReportedFile[]): string {
  const name = (path: string) => path.slice(path.lastIndexOf('/') + 1)
  return ale({
    columns: ['Path', 'Name', 'Reel', 'Start', 'Duration', 'End', 'Resolution', 'Codec', 'MD5', 'xxHash'],
    rows: files.map((f, i) => [
      f.path,
      name(f.path),
      'A002',
      `14:0${i}:00:00`,
      '00:00:30:00',
      `14:0${i}:30:00`,
      '4608x3164',
      'ARRIRAW',
      f.md5.toUpperCase(),
      f.xxh64,
    ]),
  })
}

/**
 * A transfer CSV as YoYotta writes its reports: the destination's name in `Media`, the folder the
 * job copied into in `Base` (`/Volumes/areca/…`), each file's `Path` under it, its size and
 * digests. The column names are those of the reports seen; the rows are this fixture's.
 */
export function yoyottaCsv(files: ReportedFile[], volume: string, base: string): string {
  const lines = [
    ['Media', 'Base', 'Path', 'Name', 'Size', 'MD5', 'xxHash64be'].join(','),
    ...files.map((f) => {
      const under = f.path.slice(f.path.indexOf('/D012/') + 1)
      return [volume, base, under, under.slice(under.lastIndexOf('/') + 1), String(f.size), f.md5, f.xxh64].join(',')
    }),
  ]
  return `${lines.join('\r\n')}\r\n`
}

/**
 * The ASC's public scenario 04 (github.com/ascmitc/mhl, examples/scenarios/Output/scenario_04): a
 * card's folder sealed on a travel drive (generation 1: two clips and `Sidecar.txt`), copied to a
 * file server, where generation 2 verifies the two clips and records the sidecar's read-back as
 * `failed`, its content altered on the way. Written here as manifests of the sample's paths,
 * sizes, digests and times; the chain file is left out, as the import does not need it.
 */
export function scenario04(): Array<{ path: string; content: string; volume: string }> {
  const clips = [
    { path: 'Clips/A002C006_141024_R2EC.mov', size: 5, xxh64: '0ea03b369a463d9d' },
    { path: 'Clips/A002C007_141024_R2EC.mov', size: 4, xxh64: '7680e5f98f4a80fd' },
  ]
  const first = ascManifest({
    created: '2020-01-16T09:15:00+00:00',
    process: 'in-place',
    entries: [
      ...clips.map((c) => ({ path: c.path, size: c.size, hashes: { xxh64: c.xxh64 } })),
      { path: 'Sidecar.txt', size: 58, hashes: { xxh64: '3ab5a4166b9bde44' } },
    ],
  })
  const second = ascManifest({
    created: '2020-01-17T14:30:00+00:00',
    process: 'in-place',
    entries: [
      ...clips.map((c) => ({ path: c.path, size: c.size, hashes: { xxh64: c.xxh64 }, action: 'verified' as const })),
      { path: 'Sidecar.txt', size: 60, hashes: { xxh64: '70d2cf31aaa3eac4' }, action: 'failed' as const },
    ],
  })
  const history = (volume: string) => `${volume}/A002R2EC/ascmhl`
  return [
    { path: `${history('travel_01')}/0001_A002R2EC_2020-01-16_091500.mhl`, content: first, volume: 'travel_01' },
    { path: `${history('file_server')}/0001_A002R2EC_2020-01-16_091500.mhl`, content: first, volume: 'file_server' },
    { path: `${history('file_server')}/0002_A002R2EC_2020-01-17_143000.mhl`, content: second, volume: 'file_server' },
  ]
}

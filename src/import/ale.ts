/**
 * ALE (Avid Log Exchange) as cameras, dailies systems and Avid bins export it: a `Heading` of
 * tab-separated name/value pairs (FIELD_DELIM, VIDEO_FORMAT, FPS), a `Column` line naming the
 * columns, then `Data` rows, one clip each, tab-separated, cells left blank where a clip has no
 * value. Column names differ by who wrote the file (`Camera_Model`, `Camera Type`, `Tape`,
 * `Reel Name`…): they are matched to log fields without regard to case, spaces or underscores,
 * and a column this service has no field for is passed over.
 */
import { framesOf } from '../schemas/timecode'
import type { Note } from './notes'
import { UnreadableFile } from './text'

/** Log fields an ALE column fills; `name` and `source_file` find the clip. */
const COLUMNS: Record<string, string> = {
  name: 'name',
  clipname: 'name',
  sourcefile: 'source_file',
  sourcefilename: 'source_file',
  filename: 'source_file',
  start: 'tc_start',
  starttc: 'tc_start',
  end: 'tc_end',
  endtc: 'tc_end',
  duration: 'duration',
  fps: 'fps',
  tape: 'reel',
  reel: 'reel',
  reelname: 'reel',
  camroll: 'reel',
  cameraroll: 'reel',
  cameramodel: 'camera_model',
  cameratype: 'camera_model',
  sensorfps: 'sensor_fps',
  camerafps: 'sensor_fps',
  lens: 'lens',
  lenstype: 'lens',
  lensmodel: 'lens',
  shutter: 'shutter',
  shutterangle: 'shutter',
  resolution: 'resolution',
  imagesize: 'resolution',
  framesize: 'resolution',
  codec: 'codec',
  videocodec: 'codec',
  gamma: 'gamma',
  whitebalance: 'wb',
  wb: 'wb',
  colortemp: 'wb',
  tint: 'tint',
  lut: 'lut',
  lookname: 'lut',
  soundroll: 'sound_roll',
  soundtc: 'sound_tc',
  soundtimecode: 'sound_tc',
}

const TIMECODES = new Set(['tc_start', 'tc_end', 'duration', 'sound_tc'])
/** Kept as numbers when they are numbers, as the reference application writes them. */
const NUMBERS = new Set(['sensor_fps', 'wb'])

/** One data row: the names that find its clip, and the log fields it gives. */
export type AleRow = { line: number; names: string[]; fields: Record<string, string | number> }

type Ale = { rows: AleRow[] }

/** Where a reader says what it passed over, a note at a time (import/notes.ts sums and bounds them). */
export type NoteSink = (note: Omit<Note, 'name'>) => void

const keyOf = (column: string) => column.toLowerCase().replace(/[^a-z0-9]/g, '')

/**
 * What an ALE may hold, well past any day's: a file beyond them is refused rather than read into
 * memory (a 64 MiB body of short lines would be millions of rows). The rows are also what one
 * import reads in all, across its files (`rowsLeft`).
 */
export const MAX_COLUMNS = 1000
export const MAX_ALE_ROWS = 200_000

type Section = 'start' | 'heading' | 'column' | 'data'
const SECTIONS: ReadonlySet<string> = new Set(['heading', 'column', 'data'])

/**
 * An ALE read: its rows' metadata, and, where its columns carry hashes (a transfer log as YoYotta
 * writes one: MD5 and xxHash columns beside size, path and destination), its rows as cells for
 * report.ts to read as copies.
 */
export type ReadAle = Ale & { table?: Table }

/** A report's columns and its rows' cells, each row with its line number. */
export type Table = { columns: string[]; rows: Array<{ line: number; cells: string[] }> }

export function readAle(text: string, rowsLeft = MAX_ALE_ROWS, note: NoteSink = () => {}): ReadAle {
  let section: Section = 'start'
  const header = new Map<string, string>()
  let columns: string[] | undefined
  let fields: AleFields | undefined
  let table: Table | undefined
  let fps = NaN
  const rows: AleRow[] = []
  for (const [n, line] of linesOf(text)) {
    const word = line.trim().toLowerCase()
    // Data rows are never section names: a clip may be called "Data".
    if (section !== 'data' && SECTIONS.has(word)) {
      section = word as Section
      if (section === 'data' && !columns) break
      if (section === 'data') fps = Number(header.get('fps'))
      continue
    }
    if (section === 'heading') {
      const [name, value] = line.split('\t', 2)
      if (name?.trim() && value?.trim()) header.set(keyOf(name), value.trim())
    } else if (section === 'column' && !columns && word) {
      const delimiter = header.get('fielddelim')
      if (delimiter && delimiter.toUpperCase() !== 'TABS')
        throw new UnreadableFile(`fields delimited by ${delimiter}: ALE knows only TABS`)
      columns = cellsOf(line).map((name) => name.trim())
      fields = new AleFields(columns)
      if (hasHashColumn(columns)) table = { columns, rows: [] }
      if (!fields.named && !(table && fields.pathed))
        throw new UnreadableFile('no Name or Source File column: its rows cannot be matched to clips')
    } else if (section === 'data' && word) {
      if ((table ? table.rows.length : rows.length) === rowsLeft) throw new UnreadableFile(tooManyRows(rowsLeft))
      const cells = cellsOf(line)
      if (table) table.rows.push({ line: n, cells })
      const row = fields!.row(n, cells, note, fps, !table)
      if (row) rows.push(row)
    }
  }
  if (section !== 'data' || !columns)
    throw new UnreadableFile('not an ALE: no "Column" section followed by a "Data" section')
  return table ? { rows, table } : { rows }
}

/** Columns that name a file's path (on the volume it was copied to). */
const PATH_COLUMNS: ReadonlySet<string> = new Set([
  'path',
  'filepath',
  'fullpath',
  'sourcepath',
  'destinationpath',
  'destpath',
  'copypath',
  'targetpath',
])

/** Whether some column holds digests (report.ts reads which). */
const hasHashColumn = (columns: readonly string[]) => columns.some((c) => hashColumn(c) !== undefined)

/**
 * The columns of a list (ALE, CSV) as log fields, and each row's fields: `Name` and `Source File`
 * (or, in a transfer report without them, a path's last part) find the clip.
 */
export class AleFields {
  readonly #fields: Array<string | undefined>
  readonly #paths: number[]
  readonly named: boolean
  readonly pathed: boolean

  constructor(private readonly columns: readonly string[]) {
    this.#fields = columns.map((name) => COLUMNS[keyOf(name)])
    this.#paths = columns.flatMap((name, c) => (PATH_COLUMNS.has(keyOf(name)) ? [c] : []))
    this.named = this.#fields.includes('name') || this.#fields.includes('source_file')
    this.pathed = this.#paths.length > 0
  }

  /** A row's names and fields; undefined (with a note where `noted`) when it names no clip. */
  row(line: number, cells: readonly string[], note: NoteSink, fps = NaN, noted = true) {
    const row: AleRow = { line, names: [], fields: {} }
    cells.forEach((cell, c) => {
      const field = this.#fields[c]
      const value = cell.trim()
      if (!field || !value) return
      if (field === 'name' || field === 'source_file') return row.names.push(value)
      const read = fieldValue(field, value)
      if (read === undefined)
        note({
          message: `line ${line}: ${this.columns[c]} "${value}" is not ${what(field)}`,
          kind: 'not-a-value',
          item: `line ${line}: ${this.columns[c]} "${value.slice(0, 40)}"`,
        })
      else row.fields[field] = read
    })
    if (!row.names.length)
      for (const c of this.#paths) {
        const path = cells[c]?.trim().replace(/\\/g, '/')
        const name = path?.slice(path.lastIndexOf('/') + 1)
        if (name) row.names.push(name)
      }
    if (row.fields.fps === undefined && fps > 0 && fps <= 1000) row.fields.fps = fps
    if (row.names.length) return row
    if (noted) note({ message: `line ${line}: no clip name`, kind: 'no-clip-name', item: `line ${line}` })
    return undefined
  }
}

/**
 * The digest a column holds, by its name (`MD5`, `MD5 Checksum`, `xxHash64BE`, `Destination
 * xxHash`, `SHA-1`): as the checks label it. An xxHash64 column is read as big-endian, the order
 * xxHash's reference writes its digests in and YoYotta writes them (report.ts says where this is
 * documented), unless its name says little-endian (`xxHash64 LE`): that is labelled `xxhash64`,
 * classic MHL's little-endian label, which the checks turn round.
 */
export function hashColumn(column: string): string | undefined {
  const key = keyOf(column)
    .replace(/^(source|src|destination|dest|target|copy|file)/, '')
    .replace(/(checksum|digest|value|hex)$/, '')
  return HASH_COLUMNS[key]
}

const HASH_COLUMNS: Record<string, string> = {
  md5: 'md5',
  md5hash: 'md5',
  sha1: 'sha1',
  sha1hash: 'sha1',
  xxhash: 'xxh64',
  xxhash64: 'xxh64',
  xxh64: 'xxh64',
  xxhash64be: 'xxh64',
  xxh64be: 'xxh64',
  xxhash64bigendian: 'xxh64',
  xxhash64le: 'xxhash64',
  xxh64le: 'xxhash64',
  xxhash64littleendian: 'xxhash64',
  xxh128: 'xxh128',
  xxhash128: 'xxh128',
  xxh3: 'xxh3',
  xxhash3: 'xxh3',
  xxh364: 'xxh3',
  c4: 'c4',
  c4id: 'c4',
}

const rowCount = (n: number) => n.toLocaleString('en-US')

export function tooManyRows(left: number): string {
  if (left === MAX_ALE_ROWS) return `more than ${rowCount(MAX_ALE_ROWS)} rows, what one import reads: split it`
  return `more rows than the ${rowCount(left)} left of the ${rowCount(MAX_ALE_ROWS)} one import reads: send it in an import of its own`
}

/** Each line and its number, CR, LF or CRLF ending it, without splitting the text into an array. */
function* linesOf(text: string): Generator<[number, string]> {
  const end = /\r\n|\r|\n/g
  let at = 0
  for (let n = 1; at <= text.length; n++) {
    const match = end.exec(text)
    const stop = match ? match.index : text.length
    yield [n, text.slice(at, stop)]
    if (!match) return
    at = end.lastIndex
  }
}

function cellsOf(line: string): string[] {
  const cells = line.split('\t', MAX_COLUMNS + 1)
  if (cells.length > MAX_COLUMNS) throw new UnreadableFile(`more than ${MAX_COLUMNS} columns`)
  return cells
}

function fieldValue(field: string, value: string): string | number | undefined {
  if (TIMECODES.has(field)) return framesOf(value) === undefined ? undefined : value
  if (field === 'fps') {
    const fps = Number(value)
    return fps > 0 && fps <= 1000 ? fps : undefined
  }
  if (NUMBERS.has(field) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value)
  return value
}

const what = (field: string) => (field === 'fps' ? 'a frame rate' : 'a timecode HH:MM:SS:FF')

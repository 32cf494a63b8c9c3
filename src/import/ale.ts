/**
 * ALE (Avid Log Exchange) as cameras, dailies systems and Avid bins export it: a `Heading` of
 * tab-separated name/value pairs (FIELD_DELIM, VIDEO_FORMAT, FPS), a `Column` line naming the
 * columns, then `Data` rows, one clip each, tab-separated, cells left blank where a clip has no
 * value. Column names differ by who wrote the file (`Camera_Model`, `Camera Type`, `Tape`,
 * `Reel Name`…): they are matched to log fields without regard to case, spaces or underscores,
 * and a column this service has no field for is passed over.
 */
import { framesOf } from '../schemas/timecode'
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

/** One data row: the names that find its clip, and the log fields it gives; `file` the ALE's name. */
export type AleRow = { line: number; names: string[]; fields: Record<string, string | number>; file?: string }

export type Ale = { rows: AleRow[]; notes: string[] }

const keyOf = (column: string) => column.toLowerCase().replace(/[^a-z0-9]/g, '')

export function readAle(text: string): Ale {
  const lines = text.split(/\r\n|\r|\n/)
  const at = (section: string) => lines.findIndex((line) => line.trim().toLowerCase() === section)
  const heading = at('heading')
  const column = at('column')
  const data = at('data')
  if (column < 0 || data < 0 || data < column)
    throw new UnreadableFile('not an ALE: no "Column" section followed by a "Data" section')

  const header = new Map<string, string>()
  for (let i = heading + 1; heading >= 0 && i < column; i++) {
    const [name, value] = lines[i]!.split('\t')
    if (name?.trim() && value?.trim()) header.set(keyOf(name), value.trim())
  }
  const delimiter = header.get('fielddelim')
  if (delimiter && delimiter.toUpperCase() !== 'TABS')
    throw new UnreadableFile(`fields delimited by ${delimiter}: ALE knows only TABS`)

  const columnLine = lines.slice(column + 1, data).find((line) => line.trim())
  if (!columnLine) throw new UnreadableFile('not an ALE: its Column section is empty')
  const fields = columnLine.split('\t').map((name) => COLUMNS[keyOf(name)])
  if (!fields.includes('name') && !fields.includes('source_file'))
    throw new UnreadableFile('no Name or Source File column: its rows cannot be matched to clips')

  const fps = Number(header.get('fps'))
  const notes: string[] = []
  const rows: AleRow[] = []
  for (let i = data + 1; i < lines.length; i++) {
    const cells = lines[i]!.split('\t')
    if (!cells.some((cell) => cell.trim())) continue
    const row: AleRow = { line: i + 1, names: [], fields: {} }
    cells.forEach((cell, c) => {
      const field = fields[c]
      const value = cell.trim()
      if (!field || !value) return
      if (field === 'name' || field === 'source_file') return row.names.push(value)
      const read = fieldValue(field, value)
      if (read === undefined) notes.push(`line ${i + 1}: ${columnName(columnLine, c)} "${value}" is not ${what(field)}`)
      else row.fields[field] = read
    })
    if (row.fields.fps === undefined && fps > 0 && fps <= 1000) row.fields.fps = fps
    if (row.names.length) rows.push(row)
    else notes.push(`line ${i + 1}: no clip name`)
  }
  return { rows, notes }
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
const columnName = (line: string, c: number) => line.split('\t')[c]!.trim()

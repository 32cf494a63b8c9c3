/** The clip table's columns: the built-in clip fields and `custom:<schema id>.<key_name>` fields. */
import { copiesOf } from '../copies/account'
import { CLIP_WORDS, STATE_WORDS } from '../copies/states'
import type { LogOutput, OcfClip } from '../schemas/log'
import { CLIP_COLUMNS, type Settings } from '../schemas/settings'
import { clipDuration } from '../summary/summary'
import { formatBytes, formatFps, textOf } from './model'
import type { Column } from './table'

/** Without a preset's `columns`: every built-in column but sensor FPS and shutter, which a preset names to get. */
const DEFAULT_COLUMNS = CLIP_COLUMNS.filter((name) => name !== 'sensor_fps' && name !== 'shutter')

type BuiltIn = (typeof CLIP_COLUMNS)[number]

const text = (key: keyof OcfClip) => (clip: OcfClip) => textOf(clip[key])

/**
 * A clip's volumes, one each, with its copy's state in the one account's words where it is more
 * than a checksum recorded or matching (`SHUTTLE_B (not found on read-back)`, `RAID_A (verified)`).
 */
export const volumesOf = (copies: unknown) =>
  [...copiesOf(copies).values()]
    .map(({ volume, state }) =>
      state === 'recorded' || state === 'match' ? volume : `${volume} (${STATE_WORDS[state].label})`,
    )
    .join(', ')

/** A clip's size as a report prints it: `unknown` where no report stated it, never `0 B`. */
export const sizeOf = (clip: { size?: unknown; size_unknown?: unknown }) =>
  clip.size_unknown === true ? CLIP_WORDS.unknown : typeof clip.size === 'number' ? formatBytes(clip.size) : ''

function builtIn(name: BuiltIn, fps: number): Column<OcfClip> {
  switch (name) {
    case 'clip':
      return { label: 'Clip', wrap: true, min: 92, value: text('clip') }
    case 'tc_start':
      return { label: 'TC In', value: text('tc_start') }
    case 'tc_end':
      return { label: 'TC Out', value: text('tc_end') }
    case 'duration':
      return { label: 'Duration', value: (c) => clipDuration(c, fps) }
    case 'fps':
      return {
        label: 'FPS',
        align: 'right',
        value: (c) => (typeof c.fps === 'number' ? formatFps(c.fps) : textOf(c.fps)),
      }
    case 'sensor_fps':
      return { label: 'Sensor FPS', align: 'right', value: text('sensor_fps') }
    case 'size':
      return { label: 'Size', align: 'right', value: sizeOf }
    case 'camera_model':
      return { label: 'Camera', wrap: true, value: text('camera_model') }
    case 'reel':
      return { label: 'Reel', value: text('reel') }
    case 'lens':
      return { label: 'Lens', wrap: true, value: text('lens') }
    case 'resolution':
      return { label: 'Resolution', value: text('resolution') }
    case 'codec':
      return { label: 'Codec', wrap: true, value: text('codec') }
    case 'gamma':
      return { label: 'Gamma', wrap: true, value: text('gamma') }
    case 'ei':
      return { label: 'EI', align: 'right', value: text('ei') }
    case 'shutter':
      return { label: 'Shutter', align: 'right', value: text('shutter') }
    case 'wb':
      return { label: 'WB', align: 'right', value: text('wb') }
    case 'tint':
      return { label: 'Tint', align: 'right', value: text('tint') }
    case 'lut':
      return { label: 'LUT', wrap: true, value: text('lut') }
    case 'copies':
      return { label: 'Copies', wrap: true, value: (c) => volumesOf(c.copies) }
  }
  return { label: name, wrap: true, value: (c) => textOf((c as Record<string, unknown>)[name]) }
}

type CustomClip = Record<string, unknown> & { clip?: unknown; tc_start?: unknown; tc_end?: unknown }

// `HH:MM:SS;FF` (drop frame) sorts with the `:` form; fixed-width timecodes then compare as text.
const tcKey = (tc: unknown) => (typeof tc === 'string' ? tc.replace(';', ':') : undefined)

/** Finds a clip's entry in a custom schema's clips: by clip name, or by the TC range holding its TC In. */
function customLookup(
  log: LogOutput,
  schemaId: string,
  sync: 'clip' | 'tc',
): (clip: OcfClip) => CustomClip | undefined {
  const entry = (log.custom ?? []).find((e) => (e as { schema?: unknown })?.schema === schemaId) as
    { clips?: unknown } | undefined
  const clips = (Array.isArray(entry?.clips) ? entry.clips : []).filter(
    (c): c is CustomClip => !!c && typeof c === 'object',
  )
  if (sync === 'clip') {
    const byName = new Map<unknown, CustomClip>()
    for (const c of clips) if (!byName.has(c.clip)) byName.set(c.clip, c)
    return (clip) => byName.get(clip.clip)
  }
  const ranges = clips
    .map((c) => ({ start: tcKey(c.tc_start)!, end: tcKey(c.tc_end)!, c }))
    .filter((r) => r.start && r.end)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))
  return (clip) => {
    const tc = tcKey(clip.tc_start)
    if (!tc) return undefined
    let lo = 0
    let hi = ranges.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (ranges[mid]!.start <= tc) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    const range = ranges[found]
    return range && tc <= range.end ? range.c : undefined
  }
}

function custom(name: string, log: LogOutput, settings: Settings): Column<OcfClip> {
  const [schemaId, key] = splitCustom(name)
  const schema = settings.custom_schemas?.find((s) => s.id === schemaId && s.active !== false)
  const field = schema?.clip_fields?.find((f) => (f as { key_name?: unknown }).key_name === key) as
    { column?: string } | undefined
  const label = field?.column || key
  if (!schema) return { label, wrap: true, value: () => '' }
  const lookup = customLookup(log, schemaId, schema.sync)
  return { label, wrap: true, value: (clip) => textOf(lookup(clip)?.[key]) }
}

const splitCustom = (name: string): [string, string] => {
  const rest = name.slice('custom:'.length)
  const dot = rest.indexOf('.')
  return [rest.slice(0, dot), rest.slice(dot + 1)]
}

/**
 * The columns a preset asks for, in its order. Without a choice the defaults show, less those no
 * clip of the log fills, so a log without lens metadata does not print an empty Lens column.
 */
export function clipColumns(
  chosen: readonly string[] | undefined,
  log: LogOutput,
  settings: Settings,
  fps: number,
): Column<OcfClip>[] {
  const names = chosen ?? DEFAULT_COLUMNS
  const columns = names.map((name) =>
    name.startsWith('custom:') ? custom(name, log, settings) : builtIn(name as BuiltIn, fps),
  )
  return chosen ? columns : columns.map((c, i) => (names[i] === 'clip' ? c : { ...c, optional: true }))
}

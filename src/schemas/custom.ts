import * as v from 'valibot'
import { append } from '../shared/lists'
import type { IssueDetail } from '../shared/problem'
import { TimecodeSchema } from './timecode'
import { toDetails } from './issues'
import { looseObject, record, strictObject } from './shapes'
import type { CustomSchema, Settings } from './settings'
import type { FIELD_TYPES } from './settings'

type Field = { type: (typeof FIELD_TYPES)[number]; key_name: string; subfields?: { key_name: string }[] }
type AnySchema = v.GenericSchema

const valueSchema = (field: Field): AnySchema => {
  switch (field.type) {
    case 'text':
      return v.string('must be a string')
    case 'text_list':
      return v.array(v.string('must be a string'), 'must be an array of strings')
    case 'text_list_list':
      return v.array(
        v.array(v.string('must be a string'), 'must be an array of strings'),
        'must be an array of string arrays',
      )
    case 'kv_map':
      return record(v.string('must be a string'), 'must be a map of strings')
    case 'kv_map_list': {
      const keys = (field.subfields ?? []).map((s) => s.key_name)
      const entries = Object.fromEntries(keys.map((k) => [k, v.optional(v.string('must be a string'))]))
      return v.array(
        strictObject(entries, `must be an object with keys ${keys.join(', ') || '(none declared)'}`),
        'must be an array of objects',
      )
    }
  }
}

/** Fields that hold their own value (a clip field may instead mirror OCF metadata). */
const ownFields = (fields: readonly unknown[] | undefined) =>
  (fields ?? []).filter((f): f is Field => typeof (f as Field).key_name === 'string')

function entrySchema(schema: CustomSchema): AnySchema {
  const logEntries = Object.fromEntries(
    ownFields(schema.log_fields).map((f) => [f.key_name, v.optional(valueSchema(f))]),
  )
  const clipEntries: Record<string, AnySchema> = Object.fromEntries(
    ownFields(schema.clip_fields).map((f) => [f.key_name, v.optional(valueSchema(f))]),
  )
  if (schema.sync === 'clip') clipEntries.clip = v.string('must be the clip id (this schema syncs by clip)')
  else {
    clipEntries.tc_start = v.union([TimecodeSchema], 'must be a timecode (this schema syncs by timecode)')
    clipEntries.tc_end = v.union([TimecodeSchema], 'must be a timecode (this schema syncs by timecode)')
  }
  return looseObject({
    schema: v.pipe(v.string(), v.maxLength(50, 'must be 1 to 50 characters')),
    log: v.optional(looseObject(logEntries, 'must be an object')),
    clips: v.optional(v.array(looseObject(clipEntries, 'must be an object'), 'must be an array of clips')),
  })
}

type Entry = Record<string, unknown>
const isEntry = (x: unknown): x is Entry => typeof x === 'object' && x !== null && !Array.isArray(x)

/**
 * A `text_list_list` row sent as an object with numeric keys (`{"0": "Johnny", "1": "Bravo"}`),
 * as some clients of the reference application write them, is read as the array those keys
 * number; the reference application does the same. Everything else stays as sent.
 */
function rowsAsArrays(value: unknown): unknown {
  if (!Array.isArray(value)) return value
  let changed = false
  const rows = value.map((row: unknown) => {
    if (!isEntry(row) || !Object.keys(row).every((key) => /^\d+$/.test(key))) return row
    changed = true
    return Object.keys(row)
      .map(Number)
      .sort((a, b) => a - b)
      .map((key) => row[key])
  })
  return changed ? rows : value
}

/** The entry with rowsAsArrays applied to its text_list_list fields; the same object if none changed. */
function withListRows(entry: Entry, schema: CustomSchema): Entry {
  const listKeys = (fields: readonly unknown[] | undefined) =>
    ownFields(fields)
      .filter((f) => f.type === 'text_list_list')
      .map((f) => f.key_name)
  const convert = (target: unknown, keys: string[]): unknown => {
    if (!isEntry(target) || !keys.length) return target
    let out = target
    for (const key of keys) {
      const rows = rowsAsArrays(target[key])
      if (rows !== target[key]) out = { ...out, [key]: rows }
    }
    return out
  }
  const log = convert(entry.log, listKeys(schema.log_fields))
  const clipKeys = listKeys(schema.clip_fields)
  const clips =
    Array.isArray(entry.clips) && clipKeys.length ? entry.clips.map((clip) => convert(clip, clipKeys)) : entry.clips
  const clipsChanged =
    clips !== entry.clips && (clips as unknown[]).some((clip, i) => clip !== (entry.clips as unknown[])[i])
  if (log === entry.log && !clipsChanged) return entry
  return { ...entry, ...(log !== entry.log ? { log } : {}), ...(clipsChanged ? { clips } : {}) }
}

/** Validators for the project's active schemas, built once per settings object. */
export class CustomSchemas {
  readonly #byId = new Map<string, { schema: CustomSchema; validator: AnySchema }>()

  constructor(settings: Pick<Settings, 'custom_schemas'>) {
    for (const schema of settings.custom_schemas ?? []) {
      if (schema.active !== false) this.#byId.set(schema.id, { schema, validator: entrySchema(schema) })
    }
  }

  /**
   * Drops entries of schemas the project does not define or has switched off (seed §2.8) and
   * validates the rest, with error paths at their original indexes. `changed` says whether the
   * kept entries differ from what was sent (an entry dropped, or rows read as arrays).
   */
  apply(custom: unknown[]): { kept: unknown[]; changed: boolean; details: IssueDetail[] } {
    const kept: unknown[] = []
    const details: IssueDetail[] = []
    let changed = false
    custom.forEach((sent, index) => {
      const id = (sent as { schema?: unknown })?.schema
      const known = typeof id === 'string' ? this.#byId.get(id) : undefined
      if (!known) {
        changed = true
        return
      }
      const entry = isEntry(sent) ? withListRows(sent, known.schema) : sent
      if (entry !== sent) changed = true
      const result = v.safeParse(known.validator, entry)
      if (!result.success) append(details, toDetails(result.issues, `custom.${index}`))
      kept.push(entry)
    })
    return { kept, changed, details }
  }
}

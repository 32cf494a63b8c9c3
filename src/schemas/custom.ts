import * as v from 'valibot'
import type { IssueDetail } from '../http/errors'
import { TimecodeSchema } from './timecode'
import { toDetails } from './issues'
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
      return v.array(v.array(v.string('must be a string'), 'must be an array of strings'), 'must be an array of string arrays')
    case 'kv_map':
      return v.record(v.string(), v.string('must be a string'), 'must be a map of strings')
    case 'kv_map_list': {
      const keys = (field.subfields ?? []).map((s) => s.key_name)
      const entries = Object.fromEntries(keys.map((k) => [k, v.optional(v.string('must be a string'))]))
      return v.array(v.strictObject(entries, `must be an object with keys ${keys.join(', ') || '(none declared)'}`), 'must be an array of objects')
    }
  }
}

/** Fields that hold their own value (a clip field may instead mirror OCF metadata). */
const ownFields = (fields: readonly unknown[] | undefined) =>
  (fields ?? []).filter((f): f is Field => typeof (f as Field).key_name === 'string')

function entrySchema(schema: CustomSchema): AnySchema {
  const logEntries = Object.fromEntries(ownFields(schema.log_fields).map((f) => [f.key_name, v.optional(valueSchema(f))]))
  const clipEntries: Record<string, AnySchema> = Object.fromEntries(
    ownFields(schema.clip_fields).map((f) => [f.key_name, v.optional(valueSchema(f))]),
  )
  if (schema.sync === 'clip') clipEntries.clip = v.string('must be the clip id (this schema syncs by clip)')
  else {
    clipEntries.tc_start = v.union([TimecodeSchema], 'must be a timecode (this schema syncs by timecode)')
    clipEntries.tc_end = v.union([TimecodeSchema], 'must be a timecode (this schema syncs by timecode)')
  }
  return v.looseObject({
    schema: v.pipe(v.string(), v.maxLength(50, 'must be 1 to 50 characters')),
    log: v.optional(v.looseObject(logEntries, 'must be an object')),
    clips: v.optional(v.array(v.looseObject(clipEntries, 'must be an object'), 'must be an array of clips')),
  })
}

/** Validators for the project's active schemas, built once per settings object. */
export class CustomSchemas {
  readonly #byId = new Map<string, AnySchema>()

  constructor(settings: Pick<Settings, 'custom_schemas'>) {
    for (const schema of settings.custom_schemas ?? []) {
      if (schema.active !== false) this.#byId.set(schema.id, entrySchema(schema))
    }
  }

  /**
   * Drops entries of schemas the project does not define or has switched off (seed §2.8) and
   * validates the rest. Returns the kept entries with their original indexes for error paths.
   */
  apply(custom: unknown[]): { kept: unknown[]; details: IssueDetail[] } {
    const kept: unknown[] = []
    const details: IssueDetail[] = []
    custom.forEach((entry, index) => {
      const id = (entry as { schema?: unknown })?.schema
      const schema = typeof id === 'string' ? this.#byId.get(id) : undefined
      if (!schema) return
      const result = v.safeParse(schema, entry)
      if (!result.success) details.push(...toDetails(result.issues, `custom.${index}`))
      kept.push(entry)
    })
    return { kept, details }
  }
}

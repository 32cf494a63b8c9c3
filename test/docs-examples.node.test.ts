// The examples of docs/ against the code the service runs: docs/log.md's whole day and its settings
// are accepted as they stand, its error example is the error the service gives, and every field
// the schema knows is described on the page; docs/projects.md's presets are valid settings whose
// every tag is one the service fills.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CustomSchemas } from '../src/schemas/custom'
import { checkLog, LogSchema } from '../src/schemas/log'
import { checkSettings } from '../src/schemas/settings'
import { fillTags } from '../src/shared/tags'
import { summarize } from '../src/summary/summary'

const page = readFileSync(resolve(import.meta.dirname, '../docs/log.md'), 'utf8')
const blocks = (lang: string) =>
  [...page.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!)
const [dayText, settingsText] = blocks('json')
const day = () => JSON.parse(dayText!) as Record<string, any>
/** The page's PATCH /project/config body, over a project's settings. */
const settings = () => {
  const { settings, details } = checkSettings({ project_name: 'Northern Lights', ...JSON.parse(settingsText!) })
  expect(details).toEqual([])
  return settings!
}

type Schema = { entries?: Record<string, Schema>; wrapped?: Schema; item?: Schema; pipe?: Schema[] }

/** The properties an object schema names, through optional, array and pipe wrappers. */
function entriesOf(schema: Schema): Record<string, Schema> {
  if (schema.entries) return schema.entries
  const inner = schema.wrapped ?? schema.item ?? schema.pipe?.find((s) => entriesOf(s) !== NONE)
  return inner ? entriesOf(inner) : NONE
}
const NONE = {}

describe('docs/log.md', () => {
  it('holds a whole day the service takes as it stands, custom data included', () => {
    const { log, details } = checkLog(day(), new CustomSchemas(settings()))
    expect(details).toEqual([])
    // Nothing dropped or changed: the day read back is the day on the page.
    expect(log).toEqual(day())
    expect(log.custom).toHaveLength(1)
  })

  it('shows the error the service gives for the day with a bad timecode', () => {
    const bad = day()
    bad.ocf.clips[1].tc_start = '14:10:60:00'
    const shown = JSON.parse(blocks('text').find((b) => b.includes('Validation Error'))!)
    const { details } = checkLog(bad, new CustomSchemas(settings()))
    expect({ error: 'Validation Error', details }).toEqual(shown)
  })

  it('drops a custom entry of a schema the project does not have, and refuses a wrong type', () => {
    const schemas = new CustomSchemas(settings())
    const other = day()
    other.custom.push({ schema: 'not-a-schema', log: { anything: 1 } })
    expect(checkLog(other, schemas).log.custom).toEqual(day().custom)
    const wrong = day()
    wrong.custom[0].log.weather = 7
    expect(checkLog(wrong, schemas).details).toEqual([{ prop: 'custom.0.log.weather', message: 'must be a string' }])
  })

  it('describes every field the schema knows, in the day, its parts and their clips', () => {
    const log = entriesOf(LogSchema as unknown as Schema)
    const parts = ['ocf', 'sound', 'proxy'].map((part) => entriesOf(log[part]!))
    const clips = parts.map((entries) => entriesOf(entries.clips!))
    const copy = entriesOf(entriesOf(clips[0]!.copies!))
    const fields = [log, ...parts, ...clips, copy].flatMap((entries) => Object.keys(entries))
    expect(fields.length).toBeGreaterThan(30)
    for (const field of new Set(fields)) expect(page, field).toContain(`\`${field}\``)
  })
})

describe('docs/projects.md', () => {
  const projects = readFileSync(resolve(import.meta.dirname, '../docs/projects.md'), 'utf8')
  const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(projects)![1]!)

  it('shows presets the service takes, every tag of their names and subjects filled', () => {
    const { settings, details } = checkSettings({ project_name: 'Northern Lights', ...example })
    expect(details).toEqual([])
    const logs = [summarize(day() as never)]
    const names = [...settings!.pdfs!.map((p) => p.output_name), ...settings!.emails!.map((e) => e.subject!)]
    expect(names.length).toBeGreaterThanOrEqual(3)
    for (const name of names) {
      const filled = fillTags(name, { projectName: 'Northern Lights', unit: 'Main Unit', logs })
      expect(filled, name).not.toMatch(/[<>]/)
    }
    expect(fillTags(example.emails[0].subject, { projectName: 'Northern Lights', logs })).toBe(
      'Northern Lights — Day 12 (14-06-2025)',
    )
  })
})

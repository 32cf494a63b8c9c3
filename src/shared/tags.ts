/**
 * Tag replacement for `output_name`, e-mail subjects and `logid_template` (SPEC §5). A value that
 * differs between the first and the last of several logs prints as `first-last`, day tags from the
 * lowest day to the highest, date tags from the earliest date to the latest; a tag this list does
 * not know stays as written.
 */
import { inDateOrder, inLogOrder } from './log-order'

/** A log as a tag reads it: `owner`, the unit whose cart wrote it (summary/summary.ts unitOf). */
type TagLog = { id: string; day: number; date: string; unit?: string; owner?: string }
export type TagContext = { projectName: string; unit?: string; logs: TagLog[] }

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

const pad = (n: number, width: number) => String(n).padStart(width, '0')

function calendar(date: string) {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return { y, m, d, utc: new Date(Date.UTC(y, m - 1, d)) }
}

/** ISO 8601 week: the week holding the year's first Thursday is week 1. */
function isoWeek(date: string) {
  const { utc } = calendar(date)
  const thursday = new Date(utc)
  thursday.setUTCDate(utc.getUTCDate() + 3 - ((utc.getUTCDay() + 6) % 7))
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1)
  return Math.floor((thursday.getTime() - yearStart) / 86_400_000 / 7) + 1
}

const YEAR_FIRST = /^(yyyy|yy)([-/]?)mm\2dd$/
const DAY_FIRST = /^dd([-/]?)mm\1(yyyy|yy)$/
const MONTH_FIRST = /^mm([-/]?)dd\1(yyyy|yy)$/

/** The value of a date tag for one date, or undefined when `tag` is no date tag. */
function dateTag(tag: string, date: string): string | undefined {
  const { y, m, d } = calendar(date)
  const year = (form: string) => (form === 'yyyy' ? pad(y, 4) : pad(y % 100, 2))
  let match = YEAR_FIRST.exec(tag)
  if (match) return [year(match[1]!), pad(m, 2), pad(d, 2)].join(match[2])
  match = DAY_FIRST.exec(tag)
  if (match) return [pad(d, 2), pad(m, 2), year(match[2]!)].join(match[1])
  match = MONTH_FIRST.exec(tag)
  if (match) return [pad(m, 2), pad(d, 2), year(match[2]!)].join(match[1])
  return undefined
}

/** `Monday` for `2024-01-01`. */
export const weekdayOf = (date: string) => WEEKDAYS[calendar(date).utc.getUTCDay()]!

function logTag(tag: string, log: TagLog, unit: string | undefined): string | undefined {
  switch (tag) {
    case 'log':
      return log.id
    case 'unit':
      return log.unit || log.owner || unit || ''
    case 'd':
      return String(log.day)
    case 'dd':
      return pad(log.day, 2)
    case 'ddd':
      return pad(log.day, 3)
    case 'e':
    case 'ee':
    case 'eee':
    case 'eeee': {
      const name = weekdayOf(log.date)
      return tag === 'eeee' ? name : name.slice(0, tag.length)
    }
    case 'w':
      return String(isoWeek(log.date))
    case 'ww':
      return pad(isoWeek(log.date), 2)
  }
  return dateTag(tag, log.date)
}

/** Tags read from a log's date: over several logs they run from the earliest date to the latest. */
const DATE_TAG = /^(?:e{1,4}|ww?|[dmy/-]{4,10})$/

export function fillTags(template: string, context: TagContext): string {
  const byDay = [...context.logs].sort(inLogOrder)
  const byDate = [...context.logs].sort(inDateOrder)
  return template.replace(/<([^<>]*)>/g, (whole, tag: string) => {
    if (tag === 'project') return context.projectName
    const logs = DATE_TAG.test(tag) ? byDate : byDay
    const first = logs[0]
    const last = logs[logs.length - 1]
    if (!first || !last) return tag === 'unit' && context.unit !== undefined ? context.unit : whole
    const from = logTag(tag, first, context.unit)
    if (from === undefined) return whole
    const to = logTag(tag, last, context.unit)!
    return from === to ? from : `${from}-${to}`
  })
}

/** What a stored log is found and ordered by. */
export type LogKeys = { id: string; day: number; date: string }

/** The order logs are listed, reported and summed up in (SPEC §4): day, then date, then id. */
export const inLogOrder = (a: LogKeys, b: LogKeys) =>
  a.day - b.day || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** By date, then day, then id: where a range of dates is asked for. */
export const inDateOrder = (a: LogKeys, b: LogKeys) =>
  (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || inLogOrder(a, b)

/**
 * The days and dates a range of logs spans. A day's number and its date need not rise together (a
 * second unit's day 3 shot before the main unit's day 2): the span is the lowest and highest day,
 * and the earliest and latest date, each on its own.
 */
export function spanOf(logs: ReadonlyArray<Pick<LogKeys, 'day' | 'date'>>) {
  let firstDay = Infinity
  let lastDay = -Infinity
  let firstDate = ''
  let lastDate = ''
  for (const { day, date } of logs) {
    firstDay = Math.min(firstDay, day)
    lastDay = Math.max(lastDay, day)
    if (!firstDate || date < firstDate) firstDate = date
    if (!lastDate || date > lastDate) lastDate = date
  }
  return { firstDay, lastDay, firstDate, lastDate }
}

/** `Day 3 — 2024-01-03`: one shooting day, as reports and e-mails title it. */
export const dayTitle = (log: Pick<LogKeys, 'day' | 'date'>) => `Day ${log.day} — ${log.date}`

/** dayTitle, or over several logs the lowest to highest day and the earliest to latest date. */
export function rangeTitle(logs: ReadonlyArray<Pick<LogKeys, 'day' | 'date'>>) {
  if (logs.length === 1) return dayTitle(logs[0]!)
  const { firstDay, lastDay, firstDate, lastDate } = spanOf(logs)
  const days = firstDay === lastDay ? `Day ${firstDay}` : `Days ${firstDay}–${lastDay}`
  return `${days} — ${firstDate === lastDate ? firstDate : `${firstDate} – ${lastDate}`}`
}

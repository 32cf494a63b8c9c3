/**
 * The project's time zone (an IANA name such as `Europe/Berlin`): where "generated" stamps in
 * reports are read. A log's `date` is a calendar date and is never converted.
 */

/** Whether the runtime knows `zone` as an IANA time zone (`UTC` included). */
export function isTimeZone(zone: string): boolean {
  if (!zone) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/**
 * The wall clock of `zone` at `date`: its calendar date and time of day, to the second, as numbers.
 * The stamps of reports and the Date header of e-mails are both written from it.
 */
export function wallClock(date: Date, zone = 'UTC') {
  return Object.fromEntries(
    new Intl.DateTimeFormat('en', {
      timeZone: zone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** `2024-03-01 18:05 Europe/Berlin`: the minute `date` is, on the clocks of `zone`. */
export function localStamp(date: Date, zone = 'UTC'): string {
  const { year, month, day, hour, minute } = wallClock(date, zone)
  return `${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)} ${zone}`
}

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

/** `2024-03-01 18:05 Europe/Berlin`: the minute `date` is, on the clocks of `zone`. */
export function localStamp(date: Date, zone = 'UTC'): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${zone}`
}

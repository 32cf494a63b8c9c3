import type { LogKeys } from '../schemas/plain-log'

/** The order logs are listed, reported and summed up in (SPEC §4): day, then date, then id. */
export const inLogOrder = (a: LogKeys, b: LogKeys) =>
  a.day - b.day || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/**
 * valibot's object and record schemas accept an array too (an array is an object), and would keep
 * `custom_info: [["DIT", "Jane"]]` as `[{"0": "DIT", "1": "Jane"}]` or `ocf: []` as is. Every
 * object and map here is built from these, which refuse anything but a plain object first.
 */
import * as v from 'valibot'

const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x)

const notArray = (message: string) => v.custom<Record<string, unknown>>(isPlainObject, message)

export const looseObject = <const E extends v.ObjectEntries>(entries: E, message = 'must be an object') =>
  v.pipe(notArray(message), v.looseObject(entries, message))

export const strictObject = <const E extends v.ObjectEntries>(entries: E, message = 'must be an object') =>
  v.pipe(notArray(message), v.strictObject(entries, message))

/** A map of strings to values of `value`. */
export const record = <const V extends v.GenericSchema>(value: V, message: string) =>
  v.pipe(notArray(message), v.record(v.string(), value, message))

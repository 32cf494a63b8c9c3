/**
 * valibot's object and record schemas accept an array too (an array is an object), and would keep
 * `custom_info: [["DIT", "Jane"]]` as `[{"0": "DIT", "1": "Jane"}]` or `ocf: []` as is. Every
 * object and map here is built from these, which refuse anything but a plain object first.
 */
import * as v from 'valibot'

const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x)

/**
 * The first step of each pipe below. It is typed as what the whole pipe takes (a pipe's input type
 * is its first step's), so that a client's types say what a log or a setting must hold.
 */
const notArray = <T>(message: string) => v.custom<T>(isPlainObject, message)

export const looseObject = <const E extends v.ObjectEntries>(entries: E, message = 'must be an object') =>
  v.pipe(notArray<v.InferInput<v.LooseObjectSchema<E, string>>>(message), v.looseObject(entries, message))

export const strictObject = <const E extends v.ObjectEntries>(entries: E, message = 'must be an object') =>
  v.pipe(notArray<v.InferInput<v.StrictObjectSchema<E, string>>>(message), v.strictObject(entries, message))

/** A map of strings to values of `value`. */
export const record = <const V extends v.GenericSchema>(value: V, message: string) =>
  v.pipe(
    notArray<v.InferInput<v.RecordSchema<v.StringSchema<undefined>, V, string>>>(message),
    v.record(v.string(), value, message),
  )

/**
 * Two versions of one log written from a common one (docs/units.md), merged where they cannot
 * contradict, as a three-way merge of text does: what only one side changed is taken from it.
 * A log's parts (`ocf`, `sound`, `proxy`) are merged a field at a time and their clips a clip at a
 * time, by clip name (as the checks compare names), so one side's new clips and the other side's
 * new copies of other clips both stay. What both sides changed differently (the same field, the
 * same clip, a part's clips on both sides with its totals on either) is a contradiction: no merge,
 * the versions stay in conflict for the operator.
 */
import { nameKey } from './clip-names'

/** A JSON value as parsed; undefined for a property a version does not have. */
type Json = null | boolean | number | string | Json[] | JsonObject | undefined
type JsonObject = { [key: string]: Json }
type Merge = (base: Json, ours: Json, theirs: Json) => Json | typeof CONTRADICTS

const PARTS = ['ocf', 'sound', 'proxy']

/** A value as text with its keys sorted: two writers' key orders are not a change. */
function canonical(value: Json): string | undefined {
  if (value === undefined) return undefined
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item) ?? 'null').join(',')}]`
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .filter((key) => value[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`
  return JSON.stringify(value)
}

const same = (a: Json, b: Json) => canonical(a) === canonical(b)

const isObject = (value: Json): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A property of a parsed object, never one of Object.prototype's (a log may name a field `toString`). */
const own = (object: JsonObject | undefined, key: string): Json =>
  object !== undefined && Object.hasOwn(object, key) ? object[key] : undefined

/** A sentinel for "contradicts": no merge. */
const CONTRADICTS = Symbol('contradicts')

/** One value three ways: absent is a value too (a side that removed a field changed it). */
function pick(base: Json, ours: Json, theirs: Json): Json | typeof CONTRADICTS {
  if (same(ours, theirs)) return ours
  if (same(ours, base)) return theirs
  if (same(theirs, base)) return ours
  return CONTRADICTS
}

/** Objects a key at a time; `special` merges the keys it names its own way. */
function mergeObjects(
  base: JsonObject,
  ours: JsonObject,
  theirs: JsonObject,
  special: ReadonlyMap<string, Merge> = new Map(),
): JsonObject | typeof CONTRADICTS {
  const out: JsonObject = {}
  // Our keys in our order, then keys only theirs has, then those only the base had.
  const keys = new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(base)])
  for (const key of keys) {
    const value = (special.get(key) ?? pick)(own(base, key), own(ours, key), own(theirs, key))
    if (value === CONTRADICTS) return CONTRADICTS
    if (value !== undefined) out[key] = value
  }
  return out
}

/** Clip lists by clip name: ours in our order, then the clips only theirs added, in theirs. */
function mergeClips(base: Json, ours: Json, theirs: Json): Json | typeof CONTRADICTS {
  if (ours === undefined || theirs === undefined) return pick(base, ours, theirs)
  const lists = [base ?? [], ours, theirs]
  if (!lists.every(Array.isArray)) return pick(base, ours, theirs)
  const keyed = (lists as Json[][]).map((list) => {
    const byName = new Map<string, Json>()
    for (const clip of list) {
      const name = isObject(clip) ? own(clip, 'clip') : undefined
      // A clip without a name, or a name twice: no key to merge by.
      if (typeof name !== 'string' || byName.has(nameKey(name))) return undefined
      byName.set(nameKey(name), clip)
    }
    return byName
  })
  const [b, o, t] = keyed
  if (!b || !o || !t) return pick(base, ours, theirs)
  const out: Json[] = []
  for (const name of new Set([...o.keys(), ...t.keys(), ...b.keys()])) {
    const clip = pick(b.get(name), o.get(name), t.get(name))
    if (clip === CONTRADICTS) return CONTRADICTS
    if (clip !== undefined) out.push(clip)
  }
  return out
}

/**
 * A part a field at a time. When both sides changed its clips, its other fields (file counts,
 * sizes, durations: totals of the clips) must be as they were on both, or the merged totals
 * would be neither side's.
 */
function mergePart(base: Json, ours: Json, theirs: Json): Json | typeof CONTRADICTS {
  if (!isObject(ours) || !isObject(theirs) || (base !== undefined && !isObject(base))) return pick(base, ours, theirs)
  const b = base ?? {}
  const clipsChanged = (side: JsonObject) => !same(own(b, 'clips'), own(side, 'clips'))
  if (clipsChanged(ours) && clipsChanged(theirs)) {
    const totals = (side: JsonObject) =>
      [...new Set([...Object.keys(b), ...Object.keys(side)])].some(
        (key) => key !== 'clips' && !same(own(b, key), own(side, key)),
      )
    if (totals(ours) || totals(theirs)) return CONTRADICTS
  }
  return mergeObjects(b, ours, theirs, new Map([['clips', mergeClips]]))
}

/** The merged log, or undefined when the two versions contradict each other. */
export function mergedVersions(
  base: Record<string, unknown>,
  ours: Record<string, unknown>,
  theirs: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const parts = new Map<string, Merge>(PARTS.map((part) => [part, mergePart]))
  const merged = mergeObjects(base as JsonObject, ours as JsonObject, theirs as JsonObject, parts)
  return merged === CONTRADICTS ? undefined : merged
}

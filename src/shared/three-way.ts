/**
 * Two versions of one log written from a common one (docs/units.md), merged where they cannot
 * contradict, as a three-way merge of text does: what only one side changed is taken from it.
 * A log's parts (`ocf`, `sound`, `proxy`) are merged a field at a time and their clips a clip at a
 * time, by clip name, so one side's new clips and the other side's new copies of other clips both
 * stay. What both sides changed differently (the same field, the same clip) is a contradiction:
 * no merge, the versions stay in conflict for the operator.
 */

/** A JSON value as parsed; undefined for a property a version does not have. */
type Json = null | boolean | number | string | Json[] | JsonObject | undefined
type JsonObject = { [key: string]: Json }

const PARTS = ['ocf', 'sound', 'proxy'] as const

const same = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b)

const isObject = (value: Json): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

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
  special: Record<string, (base: Json, ours: Json, theirs: Json) => Json | typeof CONTRADICTS> = {},
): JsonObject | typeof CONTRADICTS {
  const out: JsonObject = {}
  // Our keys in our order, then keys only theirs has.
  const keys = [...Object.keys(ours), ...Object.keys(theirs).filter((key) => !Object.hasOwn(ours, key))]
  for (const key of new Set([...keys, ...Object.keys(base)])) {
    const merge = special[key] ?? pick
    const value = merge(base[key], ours[key], theirs[key])
    if (value === CONTRADICTS) return CONTRADICTS
    if (value !== undefined) out[key] = value
  }
  return out
}

const clipName = (clip: Json) => (isObject(clip) && typeof clip.clip === 'string' ? clip.clip : undefined)

/** Clip lists by clip name: ours in our order, then the clips only theirs added, in theirs. */
function mergeClips(base: Json, ours: Json, theirs: Json): Json | typeof CONTRADICTS {
  const lists = [base ?? [], ours ?? [], theirs ?? []]
  if (!lists.every(Array.isArray)) return pick(base, ours, theirs)
  const [b, o, t] = (lists as Json[][]).map((list) => {
    const byName = new Map<string, Json>()
    for (const clip of list) {
      const name = clipName(clip)
      // A clip without a name, or a name twice: no key to merge by.
      if (name === undefined || byName.has(name)) return undefined
      byName.set(name, clip)
    }
    return byName
  })
  if (!b || !o || !t) return pick(base, ours, theirs)
  const names = [...o.keys(), ...[...t.keys()].filter((name) => !o.has(name))]
  const out: Json[] = []
  for (const name of new Set([...names, ...b.keys()])) {
    const clip = pick(b.get(name), o.get(name), t.get(name))
    if (clip === CONTRADICTS) return CONTRADICTS
    if (clip !== undefined) out.push(clip)
  }
  return ours === undefined && theirs === undefined ? undefined : out
}

function mergePart(base: Json, ours: Json, theirs: Json): Json | typeof CONTRADICTS {
  if (![base, ours, theirs].every((part) => part === undefined || isObject(part))) return pick(base, ours, theirs)
  if (ours === undefined || theirs === undefined) return pick(base, ours, theirs)
  return mergeObjects((base ?? {}) as JsonObject, ours as JsonObject, theirs as JsonObject, { clips: mergeClips })
}

/** The merged log, or undefined when the two versions contradict each other. */
export function mergedVersions(
  base: Record<string, unknown>,
  ours: Record<string, unknown>,
  theirs: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const parts = Object.fromEntries(PARTS.map((part) => [part, mergePart]))
  const merged = mergeObjects(base as JsonObject, ours as JsonObject, theirs as JsonObject, parts)
  return merged === CONTRADICTS ? undefined : merged
}

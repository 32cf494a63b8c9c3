/**
 * Revision histories of logs, as CouchDB and PouchDB keep them, for the carts and the production
 * that sync a project (docs/units.md). Every write of a log is a revision `<generation>-<random>`
 * that names the revisions it replaces (`ancestors`, newest first). A replica keeps, per log, the
 * revisions no other one it holds replaces: its leaves. One leaf is the log as served (the
 * winner, chosen by the same rule everywhere); any other is a conflict kept whole until the
 * operator resolves it. Replicas that have seen the same revisions hold the same leaves and the
 * same winner, whatever the order they saw them in.
 */

export type Leaf = {
  rev: string
  /** The revisions this one replaces, newest first, at most ANCESTORS_KEPT. */
  ancestors: string[]
  deleted: boolean
  /** The unit whose cart wrote the log first, which alone writes it (none: the production's). */
  owner?: string
}

/**
 * Ancestors a revision carries (CouchDB keeps 1,000 by default): they travel in a URL, and 200 of
 * them stay under 6 KB. A day sees tens of writes; a cart that wrote one log more often than this
 * between two rounds makes a conflict where none was.
 */
export const ANCESTORS_KEPT = 200

/**
 * `3-9f0c…`: a generation (1 for a log's first write), a dash, 16 to 32 lowercase hex digits. A
 * generation of at most 15 digits is an exact number; with GENERATION_LEAP, reaching the limit
 * would take a billion versions sent.
 */
export const REVISION = /^[1-9]\d{0,14}-[0-9a-f]{16,32}$/

export const generationOf = (rev: string) => Number.parseInt(rev, 10)

/**
 * How far a version's generation may pass the highest a replica knows of its log: a million
 * writes of one day between two rounds is far beyond any cart. A sender cannot leap to the
 * limit (to win every conflict, or to make the next write's revision one no replica reads).
 */
export const GENERATION_LEAP = 1_000_000

/**
 * Why a version sent to a replica holding `leaves` cannot be one (undefined: it can): not above
 * each revision it replaces, or a generation beyond GENERATION_LEAP of what is known. Pulled from
 * a production too: one that answered `999999999999999-…` once had its carts' next writes read
 * `1000000000000000-…`, a revision no service takes.
 */
export function implausible(leaves: Leaf[], incoming: Leaf): string | undefined {
  const generation = generationOf(incoming.rev)
  if (incoming.ancestors.some((rev) => generationOf(rev) >= generation))
    return 'must be of a later generation than every revision it replaces'
  const known = Math.max(0, ...leaves.flatMap((leaf) => [leaf.rev, ...leaf.ancestors]).map(generationOf))
  if (generation > known + GENERATION_LEAP)
    return `must be at most ${GENERATION_LEAP.toLocaleString('en')} generations past the log's newest known`
  return undefined
}

/**
 * Versions a replica keeps of one log, the one served included. Honest conflicts come from a few
 * units logging one id unseen; without a bound, one cart's token sending a hundred conflicting
 * versions of a day made every page of the feed too large for the others to push, and each new
 * version cost a write per version held. A version that would pass it is refused (set aside on
 * the cart that sent it) until the operator keeps one.
 */
export const MAX_VERSIONS = 16

/** A new revision replacing `leaves` (the winner for an edit; several for a resolution). */
export function nextRevision(leaves: Leaf[]): Pick<Leaf, 'rev' | 'ancestors'> {
  const generation = Math.max(0, ...leaves.map((leaf) => generationOf(leaf.rev))) + 1
  const random = crypto.getRandomValues(new Uint8Array(8))
  const rev = `${generation}-${Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('')}`
  return { rev, ancestors: ancestorsOf(leaves) }
}

/** The ancestors a revision replacing `leaves` carries: theirs and them, newest first, capped. */
export function ancestorsOf(leaves: Leaf[]): string[] {
  // The leaves replaced come first and are never cut: a resolution of a short branch against a
  // long one must name both, or the short one would live on elsewhere.
  const replaced = leaves.map((leaf) => leaf.rev).sort(newestFirst)
  const seen = new Set(replaced)
  const deeper = new Set<string>()
  for (const leaf of leaves) for (const rev of leaf.ancestors) if (!seen.has(rev)) deeper.add(rev)
  return [...replaced, ...[...deeper].sort(newestFirst)].slice(0, Math.max(ANCESTORS_KEPT, replaced.length))
}

const newestFirst = (a: string, b: string) => generationOf(b) - generationOf(a) || (a < b ? 1 : a > b ? -1 : 0)

/**
 * CouchDB's winner: a live revision before a deleted one, then the higher generation, then the
 * greater revision text. Deterministic, so every replica serves the same version.
 */
export function beats(a: Leaf, b: Leaf): boolean {
  if (a.deleted !== b.deleted) return !a.deleted
  const ga = generationOf(a.rev)
  const gb = generationOf(b.rev)
  return ga !== gb ? ga > gb : a.rev > b.rev
}

export const winnerOf = (leaves: Leaf[]): Leaf | undefined =>
  leaves.reduce<Leaf | undefined>((best, leaf) => (best === undefined || beats(leaf, best) ? leaf : best), undefined)

/** Whether a replica holding `leaves` has `rev` or something that replaced it. */
/** The newest revision both versions replace: the one they were both written from. */
export function newestCommon(a: Leaf, b: Leaf): string | undefined {
  const theirs = new Set(b.ancestors)
  return a.ancestors.filter((rev) => theirs.has(rev)).sort(newestFirst)[0]
}

export const knows = (leaves: Leaf[], rev: string) =>
  leaves.some((leaf) => leaf.rev === rev || leaf.ancestors.includes(rev))

/**
 * The leaves after receiving `incoming`: undefined when already known; else the leaves it does
 * not replace, with it.
 */
export function received(leaves: Leaf[], incoming: Leaf): { kept: Leaf[]; replaced: Leaf[] } | undefined {
  if (knows(leaves, incoming.rev)) return undefined
  const replaced = leaves.filter((leaf) => incoming.ancestors.includes(leaf.rev))
  return { kept: [...leaves.filter((leaf) => !replaced.includes(leaf)), incoming], replaced }
}

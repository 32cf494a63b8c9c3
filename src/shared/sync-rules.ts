/**
 * The rules a replica follows when units sync (docs/units.md), as data: who may write a log, which
 * two versions a production may merge, and what taking a version does to a log's leaves and row.
 * Pure: the store (workspace/revisions.ts) carries a plan out in SQL. The revision rules they
 * build on are revisions.ts's.
 */
import { conflict, forbidden, invalid, notFound } from './problem'
import {
  MAX_VERSIONS,
  generationOf,
  implausible,
  newestCommon,
  nextRevision,
  received,
  winnerOf,
  type Leaf,
} from './revisions'

/** Versions of a log as far as who owns them goes (`owner` null or absent: none). */
export type Owned = Array<{ deleted: boolean; owner?: string | null | undefined }>

/** The owner of a live version among `leaves` that is neither `unit` nor none. */
export const otherOwner = (unit: string, leaves: Owned) =>
  leaves.find((leaf) => !leaf.deleted && leaf.owner != null && leaf.owner !== unit)?.owner ?? undefined

const ownedElsewhere = (owner: string) => forbidden(`Log belongs to ${owner}: it is written on that unit's cart`)

/**
 * On a cart writing as `unit`, 403 unless the unit may write the log, as its production will take
 * it: a write replaces the version served alone, which must be the unit's or no unit's.
 */
export function requireOwned(unit: string | undefined, leaves: Array<Leaf & { winner: boolean }>) {
  if (unit === undefined) return
  const owner = leaves.find((leaf) => leaf.winner && !leaf.deleted)?.owner
  if (owner !== undefined && owner !== unit) throw ownedElsewhere(owner)
}

/**
 * Throws 403 unless a version sent by `unit` is that unit's to write: it names no other owner,
 * and replaces no version of a day another unit owns (nor that unit's deletion of it while a
 * version of that unit lives on beside: the operator decides between them). Anything else is
 * kept by the revision rules: beside another unit's version, a conflict for the production's
 * operator, never merged (mergeable).
 */
function requireSendersOwn(unit: string, incoming: Leaf, leaves: Leaf[], replaced: Leaf[]) {
  if (incoming.owner !== undefined && incoming.owner !== unit)
    throw forbidden(`Approved as ${unit}: it sends versions of its own days, not ${incoming.owner}'s`)
  const livesOn = (owner: string) => leaves.some((leaf) => !leaf.deleted && leaf.owner === owner)
  const over = replaced.find(
    (leaf) => leaf.owner !== undefined && leaf.owner !== unit && (!leaf.deleted || livesOn(leaf.owner)),
  )
  if (over) throw ownedElsewhere(over.owner!)
}

/**
 * Whether a production may merge a log's two versions three ways: both live, one unit's (only the
 * operator chooses between units), and both written from the version it kept as their base (their
 * newest common ancestor, and no other: an older one would undo what came between).
 */
export function mergeable(leaves: Leaf[], base: string | undefined): boolean {
  const [a, b] = leaves
  if (leaves.length !== 2 || !a || !b || a.deleted || b.deleted || a.owner !== b.owner) return false
  return base !== undefined && newestCommon(a, b) === base
}

/**
 * What taking a version does, step by step, in the order the store carries it out:
 * - `oldWinner`: the log's row before, kept as a conflict leaf's body, or as the base a production
 *   merges against (the version the incoming one replaced), then removed from the row;
 * - `row`: what the log's row holds after: the incoming version, a conflict leaf's body brought
 *   back (`restore`), the same row under a new revision (`touch`), or nothing (a deletion won);
 * - `drop`: leaves the incoming one replaces; `setAside`: those of them a choice or a merge made
 *   elsewhere ended (endedElsewhere), set aside first unless the incoming body is theirs;
 * - `keepBeside`: the incoming body kept beside the row (it did not win); `crown`: the leaf served
 *   now, when it changed.
 */
export type ReceivePlan =
  | { outcome: 'known' }
  | {
      outcome: 'winner' | 'conflict'
      oldWinner?: { rev: string; keep: 'conflict' | 'base' | 'nothing' }
      row: 'incoming' | { restore: string } | 'touch' | 'none'
      drop: string[]
      setAside: string[]
      keepBeside: boolean
      crown?: string
    }

/**
 * The plan for version `incoming` of a log whose leaves are `leaves` (`hasBody`: it came with the
 * log's bytes, not a tombstone). `sender`: the unit that sent it in a request, held to its own
 * days. Refusals are thrown: a leap of generations, more versions than MAX_VERSIONS, another unit's day.
 */
export function planReceive(
  leaves: Array<Leaf & { winner: boolean }>,
  incoming: Leaf,
  hasBody: boolean,
  sender?: string,
): ReceivePlan {
  const after = received(leaves, incoming)
  if (!after) return { outcome: 'known' }
  const why = implausible(leaves, incoming)
  if (why) throw invalid([{ prop: 'rev', message: why }])
  if (after.kept.length > MAX_VERSIONS)
    throw invalid([
      { prop: 'rev', message: `the log holds ${MAX_VERSIONS} versions already: its operator keeps one first` },
    ])
  if (sender !== undefined) requireSendersOwn(sender, incoming, leaves, after.replaced)
  const before = leaves.find((leaf) => leaf.winner)
  const winner = winnerOf(after.kept)!
  const moved = winner.rev !== before?.rev
  const outcome = winner === incoming ? 'winner' : 'conflict'
  const drop = after.replaced.map((leaf) => leaf.rev)
  const setAside = after.replaced
    .filter((leaf) => !leaf.deleted && (after.replaced.length > 1 || endedElsewhere(leaf, incoming)))
    .map((leaf) => leaf.rev)
  const keepBeside = winner !== incoming && hasBody
  if (!moved) return { outcome, row: 'touch', drop, setAside, keepBeside }
  const oldWinner =
    before && !before.deleted
      ? {
          rev: before.rev,
          keep: !after.replaced.includes(before)
            ? ('conflict' as const)
            : leaves.length === 1
              ? ('base' as const)
              : ('nothing' as const),
        }
      : undefined
  const row = winner === incoming ? (hasBody ? 'incoming' : 'none') : winner.deleted ? 'none' : { restore: winner.rev }
  return { outcome, ...(oldWinner && { oldWinner }), row, drop, setAside, keepBeside, crown: winner.rev }
}

/**
 * Whether `incoming`, which replaces `leaf`, ended it by a choice or a merge made elsewhere rather
 * than by a write on top of it: its history joins another line, a revision neither `leaf`, nor one
 * of its ancestors, nor after it. A write on top (or several a replica missed) descends from `leaf`
 * alone, so every revision of its history at `leaf`'s generation or before is `leaf`'s own; a
 * resolution names the other version, whose line began at `leaf`'s generation or before. So a
 * cart that held only its own version of a day sets it aside when the production's operator kept
 * another unit's, as a replica that held both does.
 */
function endedElsewhere(leaf: Leaf, incoming: Leaf): boolean {
  const generation = generationOf(leaf.rev)
  const own = new Set([leaf.rev, ...leaf.ancestors])
  if (incoming.ancestors.some((rev) => !own.has(rev) && generationOf(rev) <= generation)) return true
  // A resolution names the versions it replaced first, newest first, and only then their history:
  // a later generation after `leaf` in the list is one it replaced beside it. So a kept line too
  // long for its beginning to fit the list (200 ancestors) still shows the choice.
  const at = incoming.ancestors.indexOf(leaf.rev)
  return at >= 0 && incoming.ancestors.slice(at + 1).some((rev) => generationOf(rev) > generation)
}

/**
 * What a resolution or a merge does to a log's row and leaves: a new revision replacing every
 * leaf (so every replica that takes it ends the conflict the same way), and the row as it then
 * serves: touched where the version kept is the one served, else the served one removed and the
 * kept one's body restored (none for a deletion), or the merged body put in its place.
 */
export type EndPlan = {
  leaf: Leaf
  row: 'touch' | { remove: boolean; restore?: string }
  drop: string[]
  /** The live versions not kept, set aside before they go (workspace/set-aside.ts); `served`: in the row. */
  setAside: Array<{ rev: string; served: boolean }>
}

/**
 * The operator keeps version `keep` of a log in conflict. `unit`: the unit this cart writes as
 * (none on a production), which may not set aside another unit's version, and which a deletion
 * kept on a cart is owned by (another unit's deletion it may keep, not send as that unit's).
 */
export function planResolve(leaves: Array<Leaf & { winner: boolean }>, keep: string, unit?: string): EndPlan {
  const kept = leaves.find((leaf) => leaf.rev === keep)
  if (!kept) throw notFound('Revision')
  if (leaves.length < 2) throw conflict('Log has no versions in conflict')
  const other = unit === undefined ? undefined : otherOwner(unit, leaves)
  if (other !== undefined)
    throw forbidden(`A version of this log belongs to ${other}: the production's operator keeps one`)
  const owner = kept.deleted ? (unit ?? kept.owner) : kept.owner
  const before = leaves.find((leaf) => leaf.winner)
  return {
    leaf: replacing(leaves, kept.deleted, owner),
    row:
      kept === before ? 'touch' : { remove: !!before && !before.deleted, ...(!kept.deleted && { restore: kept.rev }) },
    drop: leaves.map((leaf) => leaf.rev),
    setAside: leaves
      .filter((leaf) => leaf !== kept && !leaf.deleted)
      .map((leaf) => ({ rev: leaf.rev, served: leaf.winner })),
  }
}

/** Two versions in conflict merged into one body (shared/three-way.ts), owned as the served one is. */
export function planMerge(leaves: Array<Leaf & { winner: boolean }>): EndPlan {
  const winner = leaves.find((leaf) => leaf.winner)
  if (leaves.length !== 2 || !winner) throw conflict('Log has no two versions to merge')
  return {
    leaf: replacing(leaves, false, winner.owner),
    row: { remove: !winner.deleted },
    drop: leaves.map((leaf) => leaf.rev),
    // Both versions it joined are set aside, as every other service that takes the merge sets them
    // aside (it cannot tell a merge from a choice): the same record everywhere.
    setAside: leaves.filter((leaf) => !leaf.deleted).map((leaf) => ({ rev: leaf.rev, served: leaf.winner })),
  }
}

/** The revision that replaces every leaf: past each one's generation, naming them all as ancestors. */
const replacing = (leaves: Leaf[], deleted: boolean, owner: string | undefined): Leaf => ({
  ...nextRevision(leaves),
  deleted,
  ...(owner !== undefined && { owner }),
})

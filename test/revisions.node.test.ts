// The revision rules units sync by (src/shared/revisions.ts): replicas that received the same
// revisions hold the same leaves and serve the same winner, whatever the order they came in.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  GENERATION_LEAP,
  REVISION,
  ancestorsOf,
  beats,
  implausible,
  nextRevision,
  received,
  winnerOf,
  type Leaf,
} from '../src/shared/revisions'
import { planMerge, planReceive, planResolve } from '../src/shared/sync-rules'
import { Problem } from '../src/shared/problem'

/** A replica's leaves after receiving `revisions` in that order. */
function replicaOf(revisions: Leaf[]): Leaf[] {
  let leaves: Leaf[] = []
  for (const revision of revisions) leaves = received(leaves, revision)?.kept ?? leaves
  return leaves
}

const sorted = (leaves: Leaf[]) => leaves.map((leaf) => leaf.rev).sort()

/**
 * A history of writes on three replicas: each write replaces what its writer holds (an edit
 * replaces the winner, a resolution every leaf); now and then a replica receives another's.
 */
const histories = fc.array(
  fc.record({
    writer: fc.integer({ min: 0, max: 2 }),
    action: fc.constantFrom('edit', 'delete', 'resolve', 'receive'),
    from: fc.integer({ min: 0, max: 2 }),
  }),
  { minLength: 1, maxLength: 40 },
)

function play(steps: Array<{ writer: number; action: string; from: number }>) {
  const replicas: Leaf[][] = [[], [], []]
  const written: Leaf[] = []
  for (const { writer, action, from } of steps) {
    const leaves = replicas[writer]!
    if (action === 'receive') {
      for (const leaf of replicas[from]!)
        replicas[writer] = received(replicas[writer]!, leaf)?.kept ?? replicas[writer]!
      continue
    }
    const winner = winnerOf(leaves)
    const replaced = action === 'resolve' ? leaves : winner ? [winner] : []
    const { rev } = nextRevision(leaves)
    const leaf = { rev, ancestors: ancestorsOf(replaced), deleted: action === 'delete' }
    written.push(leaf)
    replicas[writer] = received(leaves, leaf)!.kept
  }
  return written
}

describe('revision rules', () => {
  it('converge: every order of the same revisions gives the same leaves and winner', () => {
    fc.assert(
      fc.property(histories, fc.integer(), (steps, seed) => {
        const written = play(steps)
        const shuffled = fc.sample(fc.shuffledSubarray(written, { minLength: written.length }), {
          seed,
          numRuns: 1,
        })[0]!
        const a = replicaOf(written)
        const b = replicaOf(shuffled)
        expect(sorted(b)).toEqual(sorted(a))
        expect(winnerOf(b)?.rev).toBe(winnerOf(a)?.rev)
      }),
      { numRuns: 300 },
    )
  })

  it('keeps both of two concurrent writes, and a later one that names both replaces them', () => {
    const a = { rev: '1-aaaaaaaaaaaaaaaa', ancestors: [], deleted: false }
    const b = { rev: '1-bbbbbbbbbbbbbbbb', ancestors: [], deleted: false }
    const both = replicaOf([a, b])
    expect(sorted(both)).toEqual([a.rev, b.rev])
    expect(winnerOf(both)).toBe(b)
    const resolution = { rev: '2-cccccccccccccccc', ancestors: ancestorsOf(both), deleted: false }
    expect(resolution.ancestors).toEqual([b.rev, a.rev])
    expect(replicaOf([a, b, resolution])).toEqual([resolution])
    // Already replaced: an older revision arriving late changes nothing.
    expect(received([resolution], a)).toBeUndefined()
  })

  it('names both branches when one replaces a long branch and a short one, however long', () => {
    const long: Leaf[] = []
    for (let g = 1; g <= 300; g++)
      long.push({ rev: `${g}-${'a'.repeat(16)}`, ancestors: ancestorsOf(long.slice(-1)), deleted: false })
    const tip = long.at(-1)!
    expect(tip.ancestors).toHaveLength(200)
    const short = { rev: '1-bbbbbbbbbbbbbbbb', ancestors: [], deleted: false }
    const both = replicaOf([tip, short])
    const resolution = { rev: '301-cccccccccccccccc', ancestors: ancestorsOf(both), deleted: false }
    expect(resolution.ancestors.slice(0, 2)).toEqual([tip.rev, short.rev])
    expect(resolution.ancestors).toHaveLength(200)
    expect(replicaOf([tip, short, resolution])).toEqual([resolution])
  })

  it("chooses CouchDB's winner: live over deleted, then the higher generation, then the greater text", () => {
    const leaf = (rev: string, deleted = false) => ({ rev, ancestors: [], deleted })
    expect(beats(leaf('1-0000000000000000'), leaf('5-ffffffffffffffff', true))).toBe(true)
    expect(beats(leaf('10-0000000000000000'), leaf('9-ffffffffffffffff'))).toBe(true)
    expect(beats(leaf('2-bbbbbbbbbbbbbbbb'), leaf('2-aaaaaaaaaaaaaaaa'))).toBe(true)
    expect(nextRevision([leaf('7-0000000000000000'), leaf('3-0000000000000000')]).rev).toMatch(/^8-[0-9a-f]{16}$/)
  })

  it('refuses a generation that leaps past what is known, or is not above what it replaces', () => {
    const at = (generation: number, ancestors: string[] = []) => ({
      rev: `${generation}-${'a'.repeat(16)}`,
      ancestors,
      deleted: false,
    })
    const held = [{ ...at(40), ancestors: [at(39).rev, at(12).rev] }]
    expect(implausible(held, at(40 + GENERATION_LEAP, [at(40).rev]))).toBeUndefined()
    expect(implausible(held, at(41 + GENERATION_LEAP, [at(40).rev]))).toMatch(/^must be at most 1,000,000 generations/)
    expect(implausible([], at(GENERATION_LEAP))).toBeUndefined()
    expect(implausible([], at(GENERATION_LEAP + 1))).toMatch(/^must be at most/)
    expect(implausible([], at(3, [at(3).rev]))).toMatch(/^must be of a later generation/)
    // Claimed ancestors raise nothing: only what the replica holds does.
    expect(implausible([], at(GENERATION_LEAP + 2, [at(GENERATION_LEAP + 1).rev]))).toMatch(/^must be at most/)
    expect(implausible(held, at(41, [at(41).rev]))).toBe(
      'must be of a later generation than every revision it replaces',
    )
    // The greatest generation a replica reads is an exact number.
    expect(REVISION.test(`${'9'.repeat(15)}-${'0'.repeat(16)}`)).toBe(true)
    expect(REVISION.test(`1${'0'.repeat(15)}-${'0'.repeat(16)}`)).toBe(false)
    expect(Number.isSafeInteger(Number.parseInt('9'.repeat(15), 10))).toBe(true)
  })
})

/**
 * A replica as the store keeps it: its leaves (one served), which version the log's row holds,
 * and which versions are kept whole beside it. A plan (src/shared/sync-rules.ts) carried out here
 * as the store carries it out in SQL.
 */
type Replica = { leaves: Array<Leaf & { winner: boolean }>; row?: string; beside: Set<string> }

function carryOut(replica: Replica, incoming: Leaf): Replica {
  const plan = planReceive(replica.leaves, incoming, !incoming.deleted)
  if (plan.outcome === 'known') return replica
  const beside = new Set(replica.beside)
  let row = replica.row
  if (plan.oldWinner?.keep === 'conflict') beside.add(plan.oldWinner.rev)
  if (plan.oldWinner) row = undefined
  if (plan.row === 'incoming') row = incoming.rev
  else if (plan.row !== 'touch' && plan.row !== 'none') {
    row = plan.row.restore
    beside.delete(plan.row.restore)
  }
  let leaves = replica.leaves.filter((leaf) => !plan.drop.includes(leaf.rev))
  for (const rev of plan.drop) beside.delete(rev)
  leaves.push({ ...incoming, winner: false })
  if (plan.keepBeside) beside.add(incoming.rev)
  if (plan.crown !== undefined) leaves = leaves.map((leaf) => ({ ...leaf, winner: leaf.rev === plan.crown }))
  return { leaves, row, beside }
}

describe('what taking a version does (planReceive)', () => {
  it('leaves the row holding the live winner and every other live version kept beside it, in any order', () => {
    fc.assert(
      fc.property(histories, fc.integer(), (steps, seed) => {
        const written = play(steps)
        const order = fc.sample(fc.shuffledSubarray(written, { minLength: written.length }), { seed, numRuns: 1 })[0]!
        let replica: Replica = { leaves: [], beside: new Set() }
        for (const revision of order) {
          try {
            replica = carryOut(replica, revision)
          } catch (err) {
            // More versions in conflict than a log may hold: refused, nothing changed.
            expect(err).toBeInstanceOf(Problem)
            continue
          }
          const served = replica.leaves.filter((leaf) => leaf.winner)
          expect(served).toHaveLength(1)
          expect(served[0]!.rev).toBe(winnerOf(replica.leaves)!.rev)
          expect(replica.row).toBe(served[0]!.deleted ? undefined : served[0]!.rev)
          const live = replica.leaves.filter((leaf) => !leaf.winner && !leaf.deleted).map((leaf) => leaf.rev)
          expect([...replica.beside].sort()).toEqual(live.sort())
        }
        expect(sorted(replica.leaves)).toEqual(sorted(replicaOf(order)))
      }),
      { numRuns: 300 },
    )
  })
})

describe('which versions a received one ends by a choice made elsewhere (planReceive setAside)', () => {
  /** A revision written on top of `parents` (one: an edit; several: a resolution of them). */
  const onTop = (...parents: Leaf[]): Leaf => ({ ...nextRevision(parents), deleted: false })
  const root: Leaf = { ...nextRevision([]), deleted: false }
  const held = (leaf: Leaf) => [{ ...leaf, winner: true }]
  const setAsideOf = (leaves: Array<Leaf & { winner: boolean }>, incoming: Leaf) => {
    const plan = planReceive(leaves, incoming, true)
    return plan.outcome === 'known' ? 'known' : plan.setAside
  }

  it('sets aside a cart’s only version when a resolution elsewhere kept another, however long either line', () => {
    const ours = onTop(root)
    const theirs = onTop(onTop(onTop(onTop(root))))
    expect(setAsideOf(held(ours), onTop(ours, onTop(root)))).toEqual([ours.rev])
    expect(setAsideOf(held(ours), onTop(ours, theirs))).toEqual([ours.rev])
    // Our line longer than theirs.
    const long = onTop(onTop(onTop(ours)))
    expect(setAsideOf(held(long), onTop(long, onTop(root)))).toEqual([long.rev])
    // Theirs so long that its beginning falls out of the resolution's 200 ancestors.
    let longer = onTop(root)
    for (let i = 0; i < 260; i++) longer = onTop(longer)
    const chosen = onTop(ours, longer)
    expect(chosen.ancestors.some((rev) => Number.parseInt(rev, 10) <= 2 && rev !== ours.rev)).toBe(false)
    expect(setAsideOf(held(ours), chosen)).toEqual([ours.rev])
    // An edit on top of the resolution, the resolution itself never received: ended all the same.
    expect(setAsideOf(held(ours), onTop(onTop(ours, theirs)))).toEqual([ours.rev])
  })

  it('sets nothing aside for writes on top of the version held, several missed, nor for a past conflict in its history', () => {
    const ours = onTop(root)
    expect(setAsideOf(held(ours), onTop(ours))).toEqual([])
    expect(setAsideOf(held(ours), onTop(onTop(onTop(ours))))).toEqual([])
    // A conflict resolved before the version held: its other line is in the history of both.
    const resolved = onTop(onTop(root), onTop(onTop(root)))
    const later = onTop(onTop(resolved))
    expect(setAsideOf(held(later), onTop(onTop(later)))).toEqual([])
    // A deletion replaced is no record of a day: nothing to set aside.
    const gone: Leaf = { ...onTop(ours), deleted: true }
    expect(setAsideOf(held(gone), onTop(gone, onTop(root)))).toEqual([])
  })

  it('sets aside every live version a replica held that one revision replaced at once', () => {
    const a = onTop(root)
    const b = onTop(root)
    const leaves = [
      { ...a, winner: true },
      { ...b, winner: false },
    ]
    expect((setAsideOf(leaves, onTop(a, b)) as string[]).sort()).toEqual([a.rev, b.rev].sort())
  })
})

describe('what keeping one version, or merging two, does (planResolve, planMerge)', () => {
  const served = {
    rev: '2-aaaaaaaaaaaaaaaa',
    ancestors: ['1-0000000000000000'],
    deleted: false,
    winner: true,
    owner: 'A',
  }
  const beside = { rev: '2-bbbbbbbbbbbbbbbb', ancestors: ['1-0000000000000000'], deleted: false, winner: false }
  const deletion = { rev: '3-cccccccccccccccc', ancestors: ['2-dddddddddddddddd'], deleted: true, winner: false }
  const refusal = (work: () => unknown) => {
    try {
      work()
    } catch (err) {
      return err instanceof Problem ? { kind: err.kind, error: err.error } : err
    }
    return undefined
  }

  it('replaces every version with one revision past them all; the row is touched when the served one is kept', () => {
    expect(planResolve([served, beside], served.rev)).toEqual({
      leaf: {
        rev: expect.stringMatching(/^3-[0-9a-f]{16}$/),
        ancestors: ancestorsOf([served, beside]),
        deleted: false,
        owner: 'A',
      },
      row: 'touch',
      drop: [served.rev, beside.rev],
      // The live version not kept is set aside before it goes.
      setAside: [{ rev: beside.rev, served: false }],
    })
  })

  it('takes the kept version’s body into the row in place of the served one, or leaves none for a deletion', () => {
    expect(planResolve([served, beside], beside.rev)).toMatchObject({
      leaf: { deleted: false },
      row: { remove: true, restore: beside.rev },
      setAside: [{ rev: served.rev, served: true }],
    })
    const plan = planResolve([served, deletion], deletion.rev, 'A')
    // A deletion kept on a cart is that cart's unit's act.
    expect(plan).toMatchObject({ leaf: { deleted: true, owner: 'A' }, row: { remove: true } })
    expect(plan.row).not.toHaveProperty('restore')
    expect(plan.leaf.rev.startsWith('4-')).toBe(true)
  })

  it('refuses a version it does not hold, a log not in conflict, and on a cart another unit’s version', () => {
    expect(refusal(() => planResolve([served, beside], '9-eeeeeeeeeeeeeeee'))).toEqual({
      kind: 'not-found',
      error: 'Revision not found',
    })
    expect(refusal(() => planResolve([served], served.rev))).toEqual({
      kind: 'conflict',
      error: 'Log has no versions in conflict',
    })
    expect(refusal(() => planResolve([served, beside], beside.rev, 'B'))).toEqual({
      kind: 'forbidden',
      error: "A version of this log belongs to A: the production's operator keeps one",
    })
  })

  it('merges two versions into a body owned as the served one is, the served row replaced', () => {
    expect(planMerge([served, beside])).toEqual({
      leaf: { rev: expect.stringMatching(/^3-/), ancestors: ancestorsOf([served, beside]), deleted: false, owner: 'A' },
      row: { remove: true },
      drop: [served.rev, beside.rev],
      setAside: [
        { rev: served.rev, served: true },
        { rev: beside.rev, served: false },
      ],
    })
    expect(refusal(() => planMerge([served]))).toEqual({ kind: 'conflict', error: 'Log has no two versions to merge' })
  })
})

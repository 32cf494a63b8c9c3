// Two versions of a log written from a common one, merged where they cannot contradict
// (src/shared/three-way.ts): other clips, other copies, other fields; the rest is no merge.
import { describe, expect, it } from 'vitest'
import { mergedVersions } from '../src/shared/three-way'
import { clip, makeLog } from './log-fixtures'

type Log = Record<string, unknown> & { ocf: { clips: Array<Record<string, unknown>> } }
const copyOf = <T>(value: T): T => structuredClone(value)

describe('three-way merge of two versions of a log', () => {
  const base = makeLog('D001', 3) as unknown as Log

  it('takes one side’s new clips and the other side’s new field', () => {
    const ours = copyOf(base)
    ours.ocf.clips.push(clip(4))
    const theirs = { ...copyOf(base), notes: 'Lens swap at lunch' }
    expect(mergedVersions(base, ours, theirs)).toEqual({ ...ours, notes: 'Lens swap at lunch' })
  })

  it('takes one side’s copies of one clip and the other side’s new clip', () => {
    const ours = copyOf(base)
    ours.ocf.clips[0] = { ...ours.ocf.clips[0], copies: [{ volume: 'RAID', hash: 'xxh64:0123456789abcdef' }] }
    const theirs = copyOf(base)
    theirs.ocf.clips.push(clip(50))
    const merged = mergedVersions(base, ours, theirs) as Log
    expect(merged.ocf.clips).toEqual([...ours.ocf.clips, clip(50)])
  })

  it('keeps a clip one side removed and the other left as it was, removed', () => {
    const ours = copyOf(base)
    ours.ocf.clips.splice(1, 1)
    const theirs = { ...copyOf(base), unit: 'Second' }
    expect(mergedVersions(base, ours, theirs)).toEqual({ ...ours, unit: 'Second' })
  })

  it('does not merge what both sides changed differently: a field, a clip', () => {
    expect(mergedVersions(base, { ...base, unit: 'A' }, { ...base, unit: 'B' })).toBeUndefined()
    const ours = copyOf(base)
    ours.ocf.clips[0] = { ...ours.ocf.clips[0], size: 1 }
    const theirs = copyOf(base)
    theirs.ocf.clips[0] = { ...theirs.ocf.clips[0], size: 2 }
    expect(mergedVersions(base, ours, theirs)).toBeUndefined()
    // A clip one side removed and the other changed: a contradiction too.
    const removed = copyOf(base)
    removed.ocf.clips.splice(0, 1)
    expect(mergedVersions(base, removed, theirs)).toBeUndefined()
  })

  it('merges both sides’ new clips while the part’s totals stay as they were, and not when one side changed them', () => {
    const ours = copyOf(base)
    ours.ocf.clips.push(clip(4))
    const theirs = copyOf(base)
    theirs.ocf.clips.push(clip(5))
    expect((mergedVersions(base, ours, theirs) as Log).ocf.clips).toEqual([...ours.ocf.clips, clip(5)])
    const counted = { ...copyOf(theirs), ocf: { ...theirs.ocf, copies: ['SSD_01'] } }
    expect(mergedVersions(base, ours, counted)).toBeUndefined()
  })

  it('knows a clip by its name as the checks do, whatever its case or extension', () => {
    const ours = copyOf(base)
    ours.ocf.clips.push(clip(4))
    const theirs = copyOf(base)
    theirs.ocf.clips.push({ ...clip(4), clip: 'a001c004_240101_r1ab.mxf', size: 1 })
    expect(mergedVersions(base, ours, theirs)).toBeUndefined()
  })

  it('reads fields named like an object’s own methods as fields, and key order as no change', () => {
    const ours = { ...copyOf(base), toString: 'a', valueOf: 'b' }
    const reordered = Object.fromEntries(Object.entries(copyOf(base)).reverse())
    const theirs = { ...reordered, hasOwnProperty: 'c', notes: 'x' }
    expect(mergedVersions(base, ours, theirs)).toEqual({ ...ours, hasOwnProperty: 'c', notes: 'x' })
  })

  it('takes the same change made on both sides once', () => {
    const ours = { ...copyOf(base), unit: 'Main' }
    expect(mergedVersions(base, ours, copyOf(ours))).toEqual(ours)
  })
})

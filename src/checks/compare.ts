/**
 * Two versions of one day side by side (docs/units.md, conflicts): what one holds that the other
 * does not, so an operator choosing between them sees what each would keep and lose. Clips are
 * matched by name, OCF and sound apart; a clip in both differs by its size, reel, or copies (a
 * volume more or less, a checksum or state that differs).
 */
import type { Clip, ReadDay } from './day'

/** Names listed per kind of difference; `count` says how many there are in all. */
const LISTED = 50

type Listed<T> = { count: number; listed: T[] }

export type DayDifferences = {
  added: Listed<string>
  removed: Listed<string>
  changed: Listed<{ clip: string; what: Array<'size' | 'reel' | 'copies' | 'checksums'> }>
  volumes: { added: string[]; removed: string[] }
}

/** What `other` holds against `served`: its clips added, removed and changed, its volumes. */
export function compareDays(served: ReadDay, other: ReadDay): DayDifferences {
  const added: string[] = []
  const removed: string[] = []
  const changed: DayDifferences['changed']['listed'] = []
  for (const part of ['ocf', 'sound'] as const) {
    const before = byName(served[part])
    const after = byName(other[part])
    for (const [name, clip] of after) {
      const was = before.get(name)
      if (!was) added.push(name)
      else {
        const what = differences(was, clip)
        if (what.length) changed.push({ clip: name, what })
      }
    }
    for (const name of before.keys()) if (!after.has(name)) removed.push(name)
  }
  const servedVolumes = volumesOf(served)
  const otherVolumes = volumesOf(other)
  return {
    added: listed(added),
    removed: listed(removed),
    changed: listed(changed),
    volumes: {
      added: [...otherVolumes].filter((v) => !servedVolumes.has(v)).sort(),
      removed: [...servedVolumes].filter((v) => !otherVolumes.has(v)).sort(),
    },
  }
}

/** The volumes a day's clips are copied to. */
export function volumesOf(day: ReadDay): Set<string> {
  const volumes = new Set<string>()
  for (const clip of [...day.ocf, ...day.sound]) for (const volume of clip.copies.keys()) volumes.add(volume)
  return volumes
}

const byName = (clips: readonly Clip[]) => new Map(clips.map((clip) => [clip.name, clip]))

const listed = <T>(all: T[]): Listed<T> => ({ count: all.length, listed: all.slice(0, LISTED) })

function differences(a: Clip, b: Clip): DayDifferences['changed']['listed'][number]['what'] {
  const what: DayDifferences['changed']['listed'][number]['what'] = []
  if (a.size !== b.size || a.sizeUnknown !== b.sizeUnknown) what.push('size')
  if (a.reel !== b.reel) what.push('reel')
  const volumes = new Set([...a.copies.keys(), ...b.copies.keys()])
  let copies = false
  let checksums = false
  for (const volume of volumes) {
    const x = a.copies.get(volume)
    const y = b.copies.get(volume)
    if (!x || !y || x.state !== y.state) copies = true
    else if (x.hash !== y.hash) checksums = true
  }
  if (copies) what.push('copies')
  if (checksums) what.push('checksums')
  return what
}

/**
 * The checks of a range of days: each day's own (day.ts), and what shows only across days: a
 * camera reel never logged between two that were (`A002` missing between `A001` and `A003`), and a
 * clip logged on two days. Days are read one at a time, as a report reads them.
 */
import type { LazyLog } from '../large-logs/read'
import type { LogSummary } from '../summary/summary'
import { checkRead, readDay, type DayCheckOptions } from './day'
import { Findings, conflictFinding, finding, type Checked, type FindingsSummary, type VolumeFindings } from './findings'
import { cameraClipOf, cameraReelOf, gapsIn, missingIn, reelName } from './names'
import { nameKey } from '../shared/clip-names'

/** A day of the range: its stored summary, and its log, read when its turn comes. */
/** A day of a range; `versions` kept of it (two or more: in conflict, docs/units.md). */
export type CheckedDay = { summary: LogSummary; log: () => Promise<LazyLog>; versions?: number }

/** `checks` listed to a limit per kind over the range; `summary` and each day's count them all. */
export type RangeChecks = {
  checks: Checked['findings']
  summary: FindingsSummary
  volumes: VolumeFindings[]
  days: Array<{ log: string; day: number; date: string; summary: FindingsSummary; volumes: VolumeFindings[] }>
}

/**
 * `onDay`: each day's own findings as checkDay gives them, for a caller that will draw them again
 * (a message's clips PDF) and need not compute them twice.
 */
export async function checkRange(
  days: readonly CheckedDay[],
  options: DayCheckOptions,
  onDay?: (id: string, checked: Checked) => void,
): Promise<RangeChecks> {
  const range = new Findings()
  const answer: RangeChecks['days'] = []
  // Camera → reel number → the first day that logged it.
  const reels = new Map<string, Map<number, string>>()
  const firstDayOf = new Map<string, string>()
  for (const { summary, log, versions = 1 } of days) {
    // Each day read once: its own checks and the names and reels the range needs come from it.
    const day = await readDay(await log())
    const found = await checkRead(day, options)
    onDay?.(summary.id, found)
    const own = new Findings()
    if (versions > 1) own.add(conflictFinding(versions, summary.id))
    own.addChecked(found, summary.id)
    const logReel = (camera: string, reel: number) => {
      const byNumber = reels.get(camera) ?? new Map<number, string>()
      if (!byNumber.has(reel)) byNumber.set(reel, summary.id)
      reels.set(camera, byNumber)
    }
    for (const name of summary.reels) {
      const reel = cameraReelOf(name)
      if (reel) logReel(reel.camera, reel.reel)
    }
    const seenToday = new Set<string>()
    for (const { name } of day.ocf) {
      const numbered = cameraClipOf(name)
      if (numbered) logReel(numbered.camera, numbered.reel)
      const key = nameKey(name)
      if (seenToday.has(key)) continue
      seenToday.add(key)
      const first = firstDayOf.get(key)
      if (first === undefined) firstDayOf.set(key, summary.id)
      else own.add(finding('duplicate-across-days', `${name} is also in log ${first}`, { log: summary.id, clip: name }))
    }
    const checked = own.checked()
    answer.push({
      log: summary.id,
      day: summary.day,
      date: summary.date,
      summary: checked.summary,
      volumes: checked.volumes,
    })
    range.addChecked(checked)
  }
  for (const [camera, byNumber] of reels) {
    const reel = (n: number) => reelName(camera, n)
    for (const gap of gapsIn(byNumber.keys())) {
      const [before, after] = gap
      range.add(
        finding(
          'reel-gap',
          `${missingIn(gap, reel, ['was', 'were'])} never logged between ${reel(before)} (log ${byNumber.get(before)}) and ${reel(after)} (log ${byNumber.get(after)})`,
          { reel: reel(before + 1) },
        ),
      )
    }
  }
  const { findings, summary, volumes } = range.checked()
  return { checks: findings, summary, volumes, days: answer }
}

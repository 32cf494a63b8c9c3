/**
 * The console's Days view (operator only): one row per log of the active project, and one day's
 * findings and copies. Rows are drawn from the stored summaries and the cached check counts, so a
 * project of many days costs a read of each, not its clips; a day's detail reads its clips once.
 */
import { readDay, checkRead, type Clip, type ReadDay } from '../checks/day'
import { withConflict, type Counts } from '../checks/findings'
import { groupsOf } from '../checks/groups'
import { VolumeTally, plannedVolumes } from '../copies/account'
import { chipOf, unknownSizeWords } from '../copies/words'
import type { Handler } from '../api/call'
import { tagOf } from '../shared/etag'
import { dayChecks } from '../flows/range'
import { isEnabled, reportOf, type Settings } from '../schemas/settings'
import { unitOf, type LogSummary, type Media, type VolumeCount } from '../summary/summary'
import { logReader, workspace, type WorkspaceClient } from '../workspace/client'

/** Findings of one group a day's detail lists; `count` says how many there are in all. */
const DETAIL_PER_GROUP = 200

type Part = 'ocf' | 'sound'

/**
 * One volume's copies of one part of a day, as the console draws its chip: clips held of those
 * owed, the verdict and its mark, and the words (src/copies/words.ts): the console says what it is
 * given and derives nothing.
 */
const chip = (part: Part, count: VolumeCount) => ({ part, ...chipOf(count) })

/** A part's files and known sizes; clips of unknown size counted, and said in the account's words. */
const media = (m: Media | undefined) =>
  m
    ? {
        files: m.files,
        size: m.size,
        ...(m.unknownSizes && { unknownSizes: m.unknownSizes, unknown: unknownSizeWords(m.unknownSizes) }),
      }
    : null

/**
 * A day's row: what its stored summary says, and its check counts. `written` changes with every
 * write of the log: a console showing the day's detail asks for it again only then.
 */
const rowOf = (summary: LogSummary, settings: Settings, checks: Counts, revision: number) => ({
  id: summary.id,
  written: String(revision),
  day: summary.day,
  date: summary.date,
  unit: unitOf(summary, settings.unit),
  clips: summary.clips,
  ocf: media(summary.ocf),
  sound: media(summary.sound),
  proxy: media(summary.proxy),
  copies: [...summary.copies.map((c) => chip('ocf', c)), ...summary.soundCopies.map((c) => chip('sound', c))],
  checks,
})

/** GET /approve/days: the active project's days in log order (none with no project loaded). */
export const listDays: Handler<'listDays'> = async ({ env }) => {
  const ws = workspace(env)
  const plan = await ws.daysPlan()
  if (!plan) return { etag: NO_DAYS_TAG, answer: () => ({ days: [], presets: { pdfs: [], emails: [] } }) }
  const { projectId, settings, summaries, revisions, etag } = plan
  return {
    etag,
    answer: async () => {
      const counts = await dayChecks(ws, projectId, settings.match_sound !== false, new Map())(summaries)
      return {
        days: summaries.map((summary, i) => rowOf(summary, settings, counts.get(summary.id)!, revisions[i]!)),
        presets: presetsOf(settings),
      }
    },
  }
}

/** The Days view with no project loaded: always the same. */
const NO_DAYS_TAG = tagOf('days', 'no project')

/** The presets the view offers: a download per PDF preset, an e-mail per e-mail preset. */
const presetsOf = (settings: Settings) => ({
  pdfs: (settings.pdfs ?? []).map((p) => ({ id: p.id, label: p.label, enabled: isEnabled(p), report: reportOf(p) })),
  emails: (settings.emails ?? []).map((p) => ({ id: p.id, label: p.label, enabled: isEnabled(p) })),
})

/**
 * GET /approve/days/{id}: the day's row, its findings as lines (most serious first, a kind and volume
 * each, the first clips named), and its copies by reel and volume: a line per reel, whatever the
 * number of clips.
 */
export const getDay: Handler<'getDay'> = async ({ env, params }) => {
  const id = params.id!
  const ws = workspace(env)
  const plan = await ws.dayPlan(id)
  return {
    etag: plan.etag,
    answer: async () => dayDetail(plan, await readDay(await logReader(ws, plan.projectId)(id))),
  }
}

type DayPlan = Awaited<ReturnType<WorkspaceClient['dayPlan']>>

async function dayDetail({ settings, summary, revision, versions }: DayPlan, read: ReadDay) {
  const checked = withConflict(await checkRead(read, { matchSound: settings.match_sound !== false }), versions)
  const { summary: found } = checked
  const counts = { errors: found.errors, warnings: found.warnings, info: found.info }
  return {
    day: rowOf(summary, settings, counts, revision),
    checks: groupsOf(checked).map(({ findings, ...group }) => ({
      ...group,
      findings: findings.slice(0, DETAIL_PER_GROUP).map(({ part, clip, volume, reel, file, message }) => ({
        ...(part && { part }),
        ...(clip !== undefined && { clip }),
        ...(volume !== undefined && { volume }),
        ...(reel !== undefined && { reel }),
        ...(file !== undefined && { file }),
        message,
      })),
    })),
    copies: [
      ...reelCopies('ocf', read.ocf, summary.copies, read.log.ocf?.copies),
      ...reelCopies('sound', read.sound, summary.soundCopies, read.log.sound?.copies),
    ],
  }
}

/**
 * The copies of a part's clips, a line per reel (clips without one together, reel ""), a cell per
 * volume of the day in the summary's order, each the account of that reel's clips on the volume:
 * a volume the day plans owes every clip of each reel.
 */
function reelCopies(part: Part, clips: readonly Clip[], volumes: readonly VolumeCount[], listed?: readonly string[]) {
  const held = new Set<string>()
  if (!listed?.length) for (const clip of clips) for (const volume of clip.copies.keys()) held.add(volume)
  const planned = plannedVolumes(listed, held)
  const order = volumes.map((v) => v.volume)
  const reels = new Map<string, VolumeTally>()
  for (const clip of clips) {
    const reel = typeof clip.reel === 'string' ? clip.reel : ''
    let tally = reels.get(reel)
    if (!tally) reels.set(reel, (tally = new VolumeTally()))
    tally.add(clip.copies)
  }
  return [...reels].map(([reel, tally]) => {
    const cells = new Map(tally.counts(order, planned).map((count) => [count.volume, count]))
    return {
      part,
      reel,
      clips: tally.clips,
      // A volume that holds none of the reel and owes it nothing has no cell (the console draws —).
      volumes: order.flatMap((volume) => {
        const count = cells.get(volume)
        return count?.clips ? [chipOf(count)] : []
      }),
    }
  })
}

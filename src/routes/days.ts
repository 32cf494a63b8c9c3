/**
 * The console's Days view (operator only): one row per log of the active project, and one day's
 * findings and copies. Rows are drawn from the stored summaries and the cached check counts, so a
 * project of many days costs a read of each, not its clips; a day's detail reads its clips once.
 */
import type { IRequest } from 'itty-router'
import { readDay, checkRead, type Clip, type ReadDay } from '../checks/day'
import { KIND_TITLES, byKind, withConflict, type Counts } from '../checks/findings'
import { computedJson } from '../http/conditional'
import { logIdOf } from '../http/params'
import { tagOf } from '../shared/etag'
import { dayChecks } from '../flows/range'
import { isEnabled, reportOf, type Settings } from '../schemas/settings'
import { copyStates, unitOf, type LogSummary, type Media, type VolumeCount } from '../summary/summary'
import { logReader, workspace, type WorkspaceClient } from '../workspace/client'

/** Findings of one kind a day's detail lists; `count` says how many there are in all. */
const DETAIL_PER_KIND = 100

type Part = 'ocf' | 'sound'

/**
 * One volume's copies of one part of a day: how many of the day's clips it holds, and how well:
 * `failed` verification, `noHash` (nothing to compare), `verified` (read back and found equal).
 */
type VolumeChip = {
  part: Part
  volume: string
  present: number
  expected: number
  failed: number
  noHash: number
  verified: number
}

const chip = (part: Part, count: VolumeCount): VolumeChip => {
  const { failed, noChecksum, verified } = copyStates(count)
  return {
    part,
    volume: count.volume,
    present: count.copied,
    expected: count.total,
    failed,
    noHash: noChecksum,
    verified,
  }
}

const media = (m: Media | undefined) => (m ? { files: m.files, size: m.size } : null)

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
export async function listDays(request: IRequest, env: Env) {
  const ws = workspace(env)
  const plan = await ws.daysPlan()
  if (!plan) return computedJson(request, NO_DAYS_TAG, () => ({ days: [], presets: { pdfs: [], emails: [] } }))
  const { projectId, settings, summaries, revisions, etag } = plan
  return computedJson(request, etag, async () => {
    const counts = await dayChecks(ws, projectId, settings.match_sound !== false, new Map())(summaries)
    return {
      days: summaries.map((summary, i) => rowOf(summary, settings, counts.get(summary.id)!, revisions[i]!)),
      presets: presetsOf(settings),
    }
  })
}

/** The Days view with no project loaded: always the same. */
const NO_DAYS_TAG = tagOf('days', 'no project')

/** The presets the view offers: a download per PDF preset, an e-mail per e-mail preset. */
const presetsOf = (settings: Settings) => ({
  pdfs: (settings.pdfs ?? []).map((p) => ({ id: p.id, label: p.label, enabled: isEnabled(p), report: reportOf(p) })),
  emails: (settings.emails ?? []).map((p) => ({ id: p.id, label: p.label, enabled: isEnabled(p) })),
})

/**
 * GET /approve/days/{id}: the day's row, its findings by kind (most serious first, each naming its
 * clip), and its copies by reel and volume: a line per reel, whatever the number of clips.
 */
export async function getDay(request: IRequest, env: Env) {
  const id = logIdOf(request)
  const ws = workspace(env)
  const plan = await ws.dayPlan(id)
  return computedJson(request, plan.etag, async () =>
    dayDetail(plan, await readDay(await logReader(ws, plan.projectId)(id))),
  )
}

type DayPlan = Awaited<ReturnType<WorkspaceClient['dayPlan']>>

async function dayDetail({ settings, summary, revision, versions }: DayPlan, read: ReadDay) {
  const checked = await checkRead(read, { matchSound: settings.match_sound !== false })
  const { findings, summary: found } = withConflict(checked, versions)
  const counts = { errors: found.errors, warnings: found.warnings, info: found.info }
  return {
    day: rowOf(summary, settings, counts, revision),
    checks: byKind(findings).map(({ kind, severity, findings }) => ({
      kind,
      title: KIND_TITLES[kind],
      severity,
      count: found.kinds[kind] ?? findings.length,
      findings: findings.slice(0, DETAIL_PER_KIND).map(({ part, clip, volume, reel, message }) => ({
        ...(part && { part }),
        ...(clip !== undefined && { clip }),
        ...(volume !== undefined && { volume }),
        ...(reel !== undefined && { reel }),
        message,
      })),
    })),
    copies: [...reelCopies('ocf', read.ocf, summary.copies), ...reelCopies('sound', read.sound, summary.soundCopies)],
  }
}

/** A reel's copies on one volume: clips present (failed and without a hash among them), missing. */
type Cell = { volume: string; present: number; failed: number; noHash: number; missing: number }

/**
 * The copies of a part's clips, a line per reel (clips without one together, reel ""), a cell per
 * volume of the day in the summary's order.
 */
function reelCopies(part: Part, clips: readonly Clip[], volumes: readonly VolumeCount[]) {
  const reels = new Map<string, { clips: number; cells: Map<string, Cell> }>()
  for (const clip of clips) {
    const reel = typeof clip.reel === 'string' ? clip.reel : ''
    let line = reels.get(reel)
    if (!line) {
      const cells = new Map<string, Cell>()
      for (const { volume } of volumes) cells.set(volume, { volume, present: 0, failed: 0, noHash: 0, missing: 0 })
      reels.set(reel, (line = { clips: 0, cells }))
    }
    line.clips++
    for (const { volume, hash, failed } of clip.copies.values()) {
      const cell = line.cells.get(volume)
      if (!cell) continue
      cell.present++
      if (failed) cell.failed++
      else if (!hash) cell.noHash++
    }
  }
  return [...reels].map(([reel, { clips, cells }]) => ({
    part,
    reel,
    clips,
    volumes: [...cells.values()].map((cell) => ({ ...cell, missing: clips - cell.present })),
  }))
}

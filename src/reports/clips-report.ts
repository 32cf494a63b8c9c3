/** `clips-report`: one section per log, from its header and summary down to every clip (SPEC §8). */
import { checkDay } from '../checks/day'
import { withConflict, type Checked } from '../checks/findings'
import type { LazyLog } from '../large-logs/read'
import { checksBlock } from './checks-block'
import type { LogOutput, ProxyClip, SoundClip } from '../schemas/log'
import type { Settings } from '../schemas/settings'
import { dayTitle } from '../shared/log-order'
import { weekdayOf } from '../shared/tags'
import { cards, copiesLine, heading, infoGrid, note, runningHeader, titleBlock, type Card } from './blocks'
import { clipColumns, sizeOf, volumesOf } from './columns'
import { sizeWords } from '../copies/words'
import type { ReportDocument } from './document'
import { unitOf, type Duration, type LogSummary, type Media } from '../summary/summary'
import { formatBytes, formatFps, mergeReels, plural, textOf } from './model'
import { drawTable, type Column } from './table'

export type ReportContext = { settings: Settings; label: string; columns: readonly string[] | undefined }

/** A part's size: what its clips' known sizes add up to, and how many sizes are unknown. */
const mediaSize = (media: Media | undefined) => (media ? sizeWords(media, formatBytes) : formatBytes(0))

const mediaCard = (label: string, media: Media | undefined, noun: string): Card =>
  media
    ? media.unknownSizes
      ? {
          label,
          value: media.size === 0 ? mediaSize(media) : formatBytes(media.size),
          detail: `${plural(media.files, noun)} · ${plural(media.unknownSizes, 'size')} unknown`,
        }
      : { label, value: formatBytes(media.size), detail: plural(media.files, noun) }
    : { label, value: '—', detail: `no ${noun}s` }

/** The cards under a report's title: duration, OCF, proxies, sound and merged reel ranges. */
export function summaryCards(t: {
  duration?: Duration
  ocf?: Media
  proxy?: Media
  sound?: Media
  reels: string[]
  clips: number
}): Card[] {
  const reels = mergeReels(t.reels)
  return [
    {
      label: 'OCF duration',
      value: t.duration?.text ?? '—',
      detail: t.duration ? `${plural(t.clips, 'clip')} · ${formatFps(t.duration.fps)} fps` : plural(t.clips, 'clip'),
    },
    mediaCard('OCF', t.ocf, 'file'),
    mediaCard('Proxies', t.proxy, 'file'),
    mediaCard('Sound', t.sound, 'file'),
    { label: 'Reels', value: reels || '—', detail: plural(new Set(t.reels).size, 'reel'), span: 2 },
  ]
}

/** `custom_info` lines, then the log-level fields of the project's active custom schemas. */
export function infoPairs(settings: Settings, log?: LogOutput): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (const map of settings.custom_info ?? []) for (const [k, v] of Object.entries(map)) if (k || v) pairs.push([k, v])
  if (!log) return pairs
  for (const schema of settings.custom_schemas ?? []) {
    if (schema.active === false) continue
    const entry = (log.custom ?? []).find((e) => (e as { schema?: unknown })?.schema === schema.id) as
      { log?: Record<string, unknown> } | undefined
    if (!entry?.log || typeof entry.log !== 'object') continue
    for (const field of schema.log_fields ?? []) {
      const value = textOf(entry.log[field.key_name])
      if (value) pairs.push([field.column || field.key_name, value])
    }
  }
  return pairs
}

const SOUND_COLUMNS: Column<SoundClip>[] = [
  { label: 'Clip', wrap: true, min: 92, value: (c) => textOf(c.clip) },
  { label: 'TC In', value: (c) => textOf(c.tc_start) },
  { label: 'TC Out', value: (c) => textOf(c.tc_end) },
  { label: 'Size', align: 'right', value: sizeOf },
  { label: 'Copies', wrap: true, value: (c) => volumesOf(c.copies) },
]

const PROXY_COLUMNS: Column<ProxyClip>[] = [
  { label: 'Clip', wrap: true, min: 92, value: (c) => textOf(c.clip) },
  { label: 'Format', value: (c) => textOf(c.format) },
  { label: 'Codec', wrap: true, value: (c) => textOf(c.codec) },
  { label: 'Resolution', value: (c) => textOf(c.resolution) },
  { label: 'Size', align: 'right', value: sizeOf },
]

/**
 * A day of a clips report: its stored summary, the log itself, read only when its turn comes, its
 * own findings where they were computed already, and how many versions of it are kept (two or
 * more: in conflict, a finding of its checks).
 */
export type ReportDay = {
  summary: LogSummary
  log: () => Promise<LazyLog>
  checks?: Checked | undefined
  versions?: number
}

/**
 * Whether a clip of a part has an error the checks name (a copy missing, failed or disagreeing, a
 * clip of zero bytes or listed twice), and whether any row will be marked. Findings about no part
 * are of either's names. A clip recorded but on no volume has no row. The checks list a kind's
 * first 1,000 findings: past them a row is counted, not marked.
 */
function erroneous(found: Checked | undefined) {
  const names = { ocf: new Set<string>(), sound: new Set<string>() }
  for (const f of found?.findings ?? []) {
    if (f.severity !== 'error' || f.clip === undefined || f.kind === 'recorded-not-copied') continue
    if (f.part !== 'sound') names.ocf.add(f.clip)
    if (f.part !== 'ocf') names.sound.add(f.clip)
  }
  return {
    marked: (part: 'ocf' | 'sound', clip: unknown) => typeof clip === 'string' && names[part].has(clip),
    any: names.ocf.size + names.sound.size > 0,
  }
}

/** One section per day; each day's log is read when its section is drawn and let go after it. */
export async function clipsReport(report: ReportDocument, project: string, days: ReportDay[], ctx: ReportContext) {
  for (const { summary: s, log: readDay, checks, versions = 1 } of days) {
    const day = await readDay()
    const { log, ocf: clips, sound, proxy: proxies } = day
    const unit = unitOf(s, ctx.settings.unit)
    const title = dayTitle(s)
    await report.section(runningHeader(project, unit ? `${title} · ${unit}` : title, ctx.label))
    titleBlock(report, {
      project,
      title,
      subtitle: `${weekdayOf(s.date)} · Log ${s.id}`,
      report: 'Clips report',
      label: ctx.label,
      unit,
    })
    infoGrid(report, infoPairs(ctx.settings, log))
    cards(report, summaryCards(s))
    copiesLine(report, 'OCF copies', s.copies)
    copiesLine(report, 'Sound copies', s.soundCopies)
    const found =
      !clips.length && !sound.length && !proxies.length && versions < 2
        ? undefined
        : withConflict(checks ?? (await checkDay(day, { matchSound: ctx.settings.match_sound !== false })), versions)
    const { marked, any } = erroneous(found)
    if (found) await checksBlock(report, found, any)

    if (clips.length) {
      await heading(report, 'Camera clips', `${plural(clips.length, 'clip')} · ${mediaSize(s.ocf)}`)
      await drawTable(report, clipColumns(ctx.columns, log, ctx.settings, s.fps), clips, {
        marked: (c) => marked('ocf', c.clip),
      })
      report.y += 14
    }
    if (sound.length) {
      await heading(report, 'Sound', `${plural(sound.length, 'file')} · ${mediaSize(s.sound)}`)
      await drawTable(report, SOUND_COLUMNS, sound, { marked: (c) => marked('sound', c.clip) })
      report.y += 14
    }
    if (proxies.length) {
      await heading(report, 'Proxies', `${plural(proxies.length, 'file')} · ${mediaSize(s.proxy)}`)
      await drawTable(report, PROXY_COLUMNS, proxies)
      report.y += 14
    }
    if (!clips.length && !sound.length && !proxies.length) note(report, 'This log lists no clips.')
  }
}

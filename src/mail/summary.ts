import { formatBytes, mergeReels } from '../reports/model'
import { dayTitle, inLogOrder, rangeTitle } from '../shared/log-order'
import { total, unitOf, type LogSummary, type Media, type VolumeCount } from '../summary/summary'

/**
 * What the `day-summary` body shows, taken from the logs' stored summaries as the PDF reports are,
 * so both say the same figures. It is small (no clips), so the window keeps it.
 */
export type MailSummary = { projectName: string; days: DaySummary[]; total: DaySummary | null }

export type DaySummary = {
  title: string
  unit: string
  duration: string | null
  ocf: Media | null
  proxy: Media | null
  sound: Media | null
  reels: string
  copies: VolumeCopies[]
  soundCopies: VolumeCopies[]
}

/** Clips a volume holds out of the day's clips, and how many of those copies carry a checksum. */
export type VolumeCopies = VolumeCount

export function summarize(projectName: string, projectUnit: string | undefined, summaries: LogSummary[]): MailSummary {
  const ordered = [...summaries].sort(inLogOrder)
  const days = ordered.map((s): DaySummary => ({
    title: dayTitle(s),
    unit: unitOf(s, projectUnit),
    duration: s.duration?.text ?? null,
    ocf: s.ocf ?? null,
    proxy: s.proxy ?? null,
    sound: s.sound ?? null,
    reels: mergeReels(s.reels),
    copies: s.copies,
    soundCopies: s.soundCopies,
  }))
  return { projectName, days, total: ordered.length > 1 ? totalOf(ordered) : null }
}

function totalOf(ordered: LogSummary[]): DaySummary {
  const sum = total(ordered)
  return {
    title: `Total — ${rangeTitle(ordered)}`,
    unit: '',
    duration: sum.duration?.text ?? null,
    ocf: sum.ocf ?? null,
    proxy: sum.proxy ?? null,
    sound: sum.sound ?? null,
    reels: mergeReels(sum.reels),
    copies: sum.copies,
    soundCopies: [],
  }
}

// ---- wording shared by the HTML and text bodies

export const formatSize = formatBytes

export function describeCopies(copies: VolumeCopies[]): string[] {
  return copies.map(({ volume, copied, total, hashed }) => {
    if (!total) return volume
    return `${volume}: ${copied}/${total} clips${hashed ? `, ${hashed} with checksum` : ''}`
  })
}

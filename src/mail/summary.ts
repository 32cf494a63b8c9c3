import {
  formatBytes,
  mergeReels,
  summarize as summarizeLog,
  total,
  type LogSummary as ReportSummary,
  type Media,
  type VolumeCount,
} from '../reports/model'
import type { LogOutput } from '../schemas/log'
import { dayTitle, inLogOrder, rangeTitle } from '../shared/log-order'

/**
 * What the `day-summary` body shows, taken from the same model as the PDF reports so both say the
 * same figures. It is small (no clips), so the window keeps it instead of re-reading the logs.
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
export type VolumeCopies = { volume: string; copied: number; total: number; hashed: number }

export function summarize(projectName: string, projectUnit: string | undefined, logs: LogOutput[]): MailSummary {
  const ordered = [...logs].sort(inLogOrder)
  const summaries = ordered.map((log) => summarizeLog(log, projectUnit))
  const days = summaries.map((s): DaySummary => ({
    title: dayTitle(s.log),
    unit: s.unit,
    duration: s.duration?.text ?? null,
    ocf: s.ocf ?? null,
    proxy: s.proxy ?? null,
    sound: s.sound ?? null,
    reels: mergeReels(s.reels),
    copies: withChecksums(s.copies, [s.log.ocf?.clips]),
    soundCopies: withChecksums(s.soundCopies, [s.log.sound?.clips]),
  }))
  return { projectName, days, total: ordered.length > 1 ? totalOf(summaries, ordered) : null }
}

function totalOf(summaries: ReportSummary[], ordered: LogOutput[]): DaySummary {
  const sum = total(summaries)
  return {
    title: `Total — ${rangeTitle(ordered)}`,
    unit: '',
    duration: sum.duration?.text ?? null,
    ocf: sum.ocf ?? null,
    proxy: sum.proxy ?? null,
    sound: sum.sound ?? null,
    reels: mergeReels(sum.reels),
    copies: withChecksums(
      sum.copies,
      ordered.map((l) => l.ocf?.clips),
    ),
    soundCopies: [],
  }
}

type CopiedClip = { copies?: Array<{ volume?: unknown; hash?: unknown }> }

/** A copy with a hash was verified when it was made; the report counts copies, the mail also says this. */
function withChecksums(counts: VolumeCount[], clipLists: Array<readonly CopiedClip[] | undefined>): VolumeCopies[] {
  const hashed = new Map<string, number>()
  for (const clips of clipLists) {
    for (const clip of clips ?? []) {
      const seen = new Set<string>()
      for (const copy of clip.copies ?? []) {
        if (typeof copy?.volume !== 'string' || seen.has(copy.volume) || typeof copy.hash !== 'string' || !copy.hash)
          continue
        seen.add(copy.volume)
        hashed.set(copy.volume, (hashed.get(copy.volume) ?? 0) + 1)
      }
    }
  }
  return counts.map((c) => ({ ...c, hashed: hashed.get(c.volume) ?? 0 }))
}

// ---- wording shared by the HTML and text bodies

export const formatSize = formatBytes

export function describeCopies(copies: VolumeCopies[]): string[] {
  return copies.map(({ volume, copied, total, hashed }) => {
    if (!total) return volume
    return `${volume}: ${copied}/${total} clips${hashed ? `, ${hashed} with checksum` : ''}`
  })
}

import { KIND_TITLES, type FindingsSummary, type Kind, type VolumeFindings } from '../checks/findings'
import type { RangeChecks } from '../checks/range'
import { formatBytes, formatCount, mergeReels } from '../reports/model'
import { dayTitle, inLogOrder, rangeTitle } from '../shared/log-order'
import { total, unitOf, type LogSummary, type Media, type VolumeCount } from '../summary/summary'

/**
 * The figures the `day-summary` body shows, taken from the logs' stored summaries (summary/) as the
 * PDF reports are, so both say the same. It is small (no clips), so the window keeps it (as its
 * `summary`, the name it is stored under).
 */
export type MailFigures = {
  projectName: string
  days: DayFigures[]
  total: DayFigures | null
  /**
   * How many findings the days' checks gave, by severity, and by kind (absent from windows stored
   * before kinds were kept); absent from windows opened before checks.
   */
  findings?: { errors: number; warnings: number; info: number; kinds?: FindingsSummary['kinds'] }
}

export type DayFigures = {
  /** The day's log; absent from the total and from windows stored before it was kept. */
  log?: string
  title: string
  unit: string
  duration: string | null
  ocf: Media | null
  proxy: Media | null
  sound: Media | null
  reels: string
  copies: VolumeCopies[]
  soundCopies: VolumeCopies[]
  /** What the checks found of the copies, in words; absent from windows opened before checks. */
  verification?: string[]
  soundVerification?: string[]
  /** The checks' other findings, a line per kind. */
  checks?: string[]
}

/** Clips a volume holds out of the day's clips, and how many of those copies carry a checksum. */
export type VolumeCopies = VolumeCount

/** The kinds that are about copies: the verification lines say them; the checks line the rest. */
const COPY_KINDS: ReadonlySet<Kind> = new Set<Kind>([
  'copy-missing',
  'not-verified',
  'verification-failed',
  'hash-mismatch',
  'hash-not-comparable',
])

export function figuresOf(
  projectName: string,
  projectUnit: string | undefined,
  summaries: LogSummary[],
  checks?: RangeChecks,
): MailFigures {
  const ordered = [...summaries].sort(inLogOrder)
  // Findings of no one day (reel gaps) go with the total, or with the day when there is one.
  const checksOf = (id?: string): DayChecks | undefined =>
    !checks || id === undefined || ordered.length === 1 ? checks : checks.days.find((d) => d.log === id)
  const days = ordered.map((s): DayFigures => ({
    log: s.id,
    title: dayTitle(s),
    unit: unitOf(s, projectUnit),
    duration: s.duration?.text ?? null,
    ocf: s.ocf ?? null,
    proxy: s.proxy ?? null,
    sound: s.sound ?? null,
    reels: mergeReels(s.reels),
    copies: s.copies,
    soundCopies: s.soundCopies,
    ...(checks && checkLines(s.copies, s.soundCopies, checksOf(s.id) ?? NOTHING_FOUND)),
  }))
  const total = ordered.length > 1 ? totalOf(ordered, checksOf()) : null
  if (!checks) return { projectName, days, total }
  const { errors, warnings, info, kinds } = checks.summary
  return { projectName, days, total, findings: { errors, warnings, info, kinds } }
}

/** What the lines below need of a day's checks (or the range's): counts by kind and by volume. */
type DayChecks = { summary: FindingsSummary; volumes: VolumeFindings[] }

const NOTHING_FOUND: DayChecks = { summary: { errors: 0, warnings: 0, info: 0, kinds: {} }, volumes: [] }

const VERIFIED = 'verified'
const RECORDED = 'checksums recorded, not read back'

/**
 * What a volume's hashed copies promise. Only a copy read back and compared (an ASC MHL `verified`
 * action) is verified; a checksum recorded at copy time says nothing of the
 * copy as it is now.
 */
function stateOf(hashed: number, verified: number): string {
  if (!hashed) return ''
  if (verified >= hashed) return VERIFIED
  if (verified) return `${formatCount(verified)} verified, ${formatCount(hashed - verified)} checksums recorded only`
  return RECORDED
}

/**
 * The verification of a day's copies as computed: "2 copies, all verified", or per volume what
 * is missing, not verified or disagrees; then the other findings, a line per kind. Drawn from the
 * counts, which are whole, not from the findings listed, which stop at a limit.
 */
function checkLines(copies: VolumeCount[], soundCopies: VolumeCount[], { summary, volumes }: DayChecks) {
  const clips = (n: number) => `${formatCount(n)} ${n === 1 ? 'clip' : 'clips'}`
  const verification = (counts: VolumeCount[], part: 'ocf' | 'sound') => {
    const perVolume = (kind: Kind) => {
      const found = new Map<string, number>()
      for (const v of volumes)
        if (v.kind === kind && v.part === part) found.set(v.volume, (found.get(v.volume) ?? 0) + v.count)
      return found
    }
    const disagreeing = perVolume('hash-mismatch')
    const failed = perVolume('verification-failed')
    const incomparable = [...perVolume('hash-not-comparable').values()].reduce((sum, n) => sum + n, 0)
    const lines = counts.map(({ volume, copied, total, hashed, verified = 0 }) => ({
      volume,
      problems: [
        total > copied && `${clips(total - copied)} missing`,
        copied > hashed && `${clips(copied - hashed)} without a checksum`,
        failed.has(volume) && `${clips(failed.get(volume)!)} failed verification`,
        disagreeing.has(volume) && `${clips(disagreeing.get(volume)!)} whose hash disagrees`,
      ].filter(Boolean),
      state: stateOf(hashed, verified),
    }))
    const copies = `${counts.length} ${counts.length === 1 ? 'copy' : 'copies'}`
    let words: string[]
    if (lines.some((v) => v.problems.length))
      // A volume with a problem is named for it; the others say what their checksums promise.
      words = lines.map(({ volume, problems, state }) => `${volume}: ${problems.length ? problems.join(', ') : state}`)
    else if (lines.every((v) => v.state === VERIFIED)) words = [`${copies}, all verified (read back)`]
    else if (lines.every((v) => v.state === RECORDED))
      // Hashes of one algorithm that agree across volumes (else the checks said so) match.
      words = [`${copies}, checksums ${counts.length > 1 && !incomparable ? 'match' : 'recorded'} (not read back)`]
    else words = lines.map(({ volume, state }) => `${volume}: ${state}`)
    if (incomparable)
      words.push(`${formatCount(incomparable)} ${incomparable === 1 ? 'hash' : 'hashes'} could not be compared`)
    return words
  }
  const others = (Object.keys(KIND_TITLES) as Kind[])
    .filter((kind) => !COPY_KINDS.has(kind) && summary.kinds[kind])
    .map((kind) => `${KIND_TITLES[kind]}: ${formatCount(summary.kinds[kind]!)}`)
  return {
    ...(copies.length && { verification: verification(copies, 'ocf') }),
    ...(soundCopies.length && { soundVerification: verification(soundCopies, 'sound') }),
    checks: others.length ? others : ['nothing else found'],
  }
}

function totalOf(ordered: LogSummary[], checks: DayChecks | undefined): DayFigures {
  const sum = total(ordered)
  return {
    ...(checks && checkLines(sum.copies, sum.soundCopies, checks)),
    title: `Total — ${rangeTitle(ordered)}`,
    unit: '',
    duration: sum.duration?.text ?? null,
    ocf: sum.ocf ?? null,
    proxy: sum.proxy ?? null,
    sound: sum.sound ?? null,
    reels: mergeReels(sum.reels),
    copies: sum.copies,
    soundCopies: sum.soundCopies,
  }
}

// ---- wording shared by the HTML and text bodies

export const formatSize = formatBytes

export function describeCopies(copies: VolumeCopies[]): string[] {
  return copies.map(({ volume, copied, total, hashed, days, verified }) => {
    if (!total) return volume
    const on = days ? ` on ${days} ${days === 1 ? 'day' : 'days'}` : ''
    const read = verified ? `, ${verified} read back` : ''
    return `${volume}: ${copied}/${total} clips${on}${hashed ? `, ${hashed} with checksum` : ''}${read}`
  })
}

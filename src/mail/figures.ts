import type { Finding, FindingsSummary, Kind, VolumeFindings } from '../checks/findings'
import { groupsOf } from '../checks/groups'
import type { RangeChecks } from '../checks/range'
import { accountOf } from '../copies/account'
import { verificationLines, volumeWords } from '../copies/words'
import { formatBytes, mergeReels } from '../reports/model'
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

/** A volume's copies in the one account's states (src/copies/account.ts). */
export type VolumeCopies = VolumeCount

/**
 * The kinds that are a copy's state (src/copies/states.ts): the copies and verification lines say
 * them, from the same counts; the checks lines say the rest.
 */
const COPY_KINDS: ReadonlySet<Kind> = new Set<Kind>([
  'copy-missing',
  'copy-not-found',
  'not-verified',
  'verification-failed',
  'other-file-failed',
  'hash-mismatch',
])

export function figuresOf(
  projectName: string,
  projectUnit: string | undefined,
  summaries: LogSummary[],
  checks?: RangeChecks,
): MailFigures {
  const ordered = [...summaries].sort(inLogOrder)
  // Findings of no one day (reel gaps) go with the total, or with the day when there is one.
  // A day's own lines need not name the day; the total's name each clip's.
  const unnamed = (findings: Finding[]) => findings.map(({ log: _, ...f }) => f)
  const checksOf = (id?: string): DayChecks | undefined => {
    if (!checks) return undefined
    if (ordered.length === 1) return { ...checks, findings: unnamed(checks.checks) }
    if (id === undefined) return { ...checks, findings: checks.checks }
    const day = checks.days.find((d) => d.log === id)
    return day && { ...day, findings: unnamed(checks.checks.filter((f) => f.log === id)) }
  }
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

/** What the lines below need of a day's checks (or the range's): counts by kind and volume, the findings listed. */
type DayChecks = { summary: FindingsSummary; volumes: VolumeFindings[]; findings: Finding[] }

const NOTHING_FOUND: DayChecks = { summary: { errors: 0, warnings: 0, info: 0, kinds: {} }, volumes: [], findings: [] }

/**
 * The verification of a day's copies in the one account's words (src/copies/words.ts): "2 copies,
 * all verified (read back)", or each volume with what is wrong; then the checks' other findings, a
 * line a kind with the first clips named (checks/groups.ts). Drawn from the counts, which are
 * whole, not from the findings listed, which stop at a limit.
 */
function checkLines(copies: VolumeCount[], soundCopies: VolumeCount[], checks: DayChecks) {
  const others = groupsOf(checks)
    .filter((group) => !COPY_KINDS.has(group.kind))
    .map((group) => group.words)
  return {
    ...(copies.length && { verification: verificationLines(copies) }),
    ...(soundCopies.length && { soundVerification: verificationLines(soundCopies) }),
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

/**
 * Each volume's copies in words: `SSD_01: 12 clips, all verified (read back)`. A window sent before
 * copies had states keeps its figures as drawn then: they are read as the account.
 */
export const describeCopies = (copies: VolumeCopies[]): string[] =>
  copies.map((c) => `${c.volume}: ${volumeWords(accountOf(c))}`)

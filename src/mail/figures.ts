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
 * The verification of a day's copies in the one account's words (src/copies/): each problem as the
 * findings' line says it, a kind and volume with the first clips named (`Copies not found on
 * read-back — SHUTTLE_C: 1 clip (A001C003…)`), else what every volume promises ("2 copies, all
 * verified (read back)"); then the checks' other findings, a line a kind. Counted from the checks'
 * counts, which are whole; the findings listed only name the first clips.
 */
function checkLines(copies: VolumeCount[], soundCopies: VolumeCount[], checks: DayChecks) {
  const groups = groupsOf(checks)
  const problems = (part: 'ocf' | 'sound') =>
    groups.filter((g) => COPY_KINDS.has(g.kind) && (part === 'sound') === (g.part === 'sound')).map((g) => g.words)
  const verification = (counts: VolumeCount[], part: 'ocf' | 'sound') => {
    const said = problems(part)
    return said.length ? said : verificationLines(counts)
  }
  const others = groups.filter((g) => !COPY_KINDS.has(g.kind)).map((g) => g.words)
  return {
    ...(copies.length && { verification: verification(copies, 'ocf') }),
    ...(soundCopies.length && { soundVerification: verification(soundCopies, 'sound') }),
    checks: others.length ? others : [NO_OTHER_FINDINGS],
  }
}

/** The checks line of a day with nothing found but what its copies say. */
const NO_OTHER_FINDINGS = 'no other findings'

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

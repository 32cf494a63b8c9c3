/** What a check finds, how serious each kind is, and the counts an answer gives with them. */

type Severity = 'error' | 'warning' | 'info'

/** Every kind, in the order findings are listed within their severity. */
const KINDS = {
  'versions-in-conflict': 'error',
  'hash-mismatch': 'error',
  'verification-failed': 'error',
  'copy-not-found': 'error',
  'other-file-failed': 'error',
  'name-collision': 'error',
  'copy-missing': 'error',
  'no-copy': 'error',
  'recorded-not-copied': 'error',
  'zero-size': 'error',
  'duplicate-clip': 'error',
  'not-verified': 'warning',
  'copy-in-doubt': 'warning',
  'copy-repeated': 'warning',
  'not-in-camera-list': 'warning',
  'clip-gap': 'warning',
  'reel-gap': 'warning',
  'duplicate-across-days': 'warning',
  'no-proxy': 'warning',
  'proxy-without-clip': 'warning',
  'size-mismatch': 'warning',
  'size-unknown': 'warning',
  'hash-not-comparable': 'info',
  'no-sound': 'info',
  'sound-without-clip': 'info',
} as const satisfies Record<string, Severity>

export type Kind = keyof typeof KINDS

/** Every kind, most serious first: the order findings are said in. */
export const KINDS_IN_ORDER = Object.keys(KINDS) as Kind[]

export const severityOf = (kind: Kind): Severity => KINDS[kind]

/** Each kind as a heading over its findings (reports, e-mail). */
export const KIND_TITLES: Record<Kind, string> = {
  'versions-in-conflict': 'Days in conflict',
  'hash-mismatch': 'Copies whose checksum differs from another copy’s',
  'verification-failed': 'Copies read back and different',
  'copy-not-found': 'Copies not found on read-back',
  'other-file-failed': 'Files that are not media (sidecars) read back and different',
  'name-collision': 'Different files under one clip name',
  'copy-missing': 'Missing copies',
  'no-copy': 'Clips on no volume',
  'recorded-not-copied': 'Clips recorded (camera list) but on no volume',
  'zero-size': 'Zero-byte clips',
  'duplicate-clip': 'Clips listed twice',
  'not-verified': 'Copies without a checksum',
  'copy-in-doubt': 'Copies whose manifests disagree',
  'copy-repeated': 'Clips on one volume twice',
  'not-in-camera-list': 'Clips on a volume but in no camera list of their reel',
  'clip-gap': 'Gaps in clip numbers',
  'reel-gap': 'Reels never logged',
  'duplicate-across-days': 'Clips logged on another day too',
  'no-proxy': 'Clips without a proxy',
  'proxy-without-clip': 'Proxies without a camera clip',
  'size-mismatch': 'Totals that are not the sum of their clips',
  'size-unknown': 'Clips of unknown size (no report stated it)',
  'hash-not-comparable': 'Checksums that cannot be compared',
  'no-sound': 'Camera clips without sound',
  'sound-without-clip': 'Sound without a camera clip',
}

/**
 * `log`: the day a finding is about, in an answer over several days; `part`: whether a copy's
 * finding is of the camera clips or the sound.
 */
export type Finding = {
  kind: Kind
  severity: Severity
  log?: string
  part?: 'ocf' | 'sound'
  clip?: string
  volume?: string
  reel?: string
  /** A file that is not media (a sidecar), by its path on the volume. */
  file?: string
  /** Of a copy read back: by what tool, and when (docs/checks.md). */
  tool?: string
  hashdate?: string
  message: string
}

export type FindingsSummary = { errors: number; warnings: number; info: number; kinds: Partial<Record<Kind, number>> }

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 }
const KIND_ORDER = Object.fromEntries(Object.keys(KINDS).map((kind, i) => [kind, i])) as Record<Kind, number>

export const finding = (
  kind: Kind,
  message: string,
  about: Omit<Finding, 'kind' | 'severity' | 'message'> = {},
): Finding => ({
  kind,
  severity: KINDS[kind],
  ...about,
  message,
})

/**
 * A day whose versions are in conflict (docs/units.md): found by the store, not in the log, and
 * added to the day's findings and counts wherever they are shown.
 */
export const conflictFinding = (versions: number, log?: string): Finding =>
  finding(
    'versions-in-conflict',
    `${versions} versions of this day were written without seeing each other: one is kept under Production (in the production's console where two units wrote them)`,
    log === undefined ? {} : { log },
  )

/** `checked` with a day's conflict: its finding first, its count in the summary. */
export function withConflict<T extends { findings: Finding[]; summary: FindingsSummary }>(
  checked: T,
  versions: number,
  log?: string,
): T {
  if (versions < 2) return checked
  const summary = { ...checked.summary, errors: checked.summary.errors + 1 }
  summary.kinds = { ...summary.kinds, 'versions-in-conflict': (summary.kinds['versions-in-conflict'] ?? 0) + 1 }
  return { ...checked, findings: [conflictFinding(versions, log), ...checked.findings], summary }
}

/** Most serious first, kinds together, each kind in the order it was found (a stable sort). */
const ordered = (findings: Finding[]): Finding[] =>
  findings.sort(
    (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || KIND_ORDER[a.kind] - KIND_ORDER[b.kind],
  )

/** The kinds that need `match_sound` on. */
const SOUND_KINDS: ReadonlySet<string> = new Set(['no-sound', 'sound-without-clip'])

export type Counts = { errors: number; warnings: number; info: number }

/** Counts by severity of a day's findings counted by kind (as cached with `match_sound` on). */
export function countsOf(kinds: Partial<Record<string, number>>, matchSound: boolean): Counts {
  const counts: Counts = { errors: 0, warnings: 0, info: 0 }
  for (const [kind, n] of Object.entries(kinds)) {
    if (!n || !(kind in KINDS) || (!matchSound && SOUND_KINDS.has(kind))) continue
    const severity = KINDS[kind as Kind]
    if (severity === 'error') counts.errors += n
    else if (severity === 'warning') counts.warnings += n
    else counts.info += n
  }
  return counts
}

/**
 * Findings of each kind listed in one answer; `summary` counts them all. A 20,000-clip day with six
 * planned volumes and no copies yet finds 120,000 missing copies, and a list that long once took
 * the service down: the figures stay exact, the list stops at this.
 */
const LISTED_PER_KIND = 1000

/** How many findings of a kind are about one volume of one part. */
export type VolumeFindings = { kind: Kind; part?: 'ocf' | 'sound'; volume: string; count: number }

/** Findings as an answer holds them: listed to a limit per kind, counted in full. */
export type Checked = { findings: Finding[]; summary: FindingsSummary; volumes: VolumeFindings[] }

/**
 * Findings as they are found: each one counted (by kind, and by volume where it has one), listed
 * while its kind has room. Memory stays with the list's limit whatever the day holds.
 */
export class Findings {
  readonly #listed: Finding[] = []
  readonly #counts = new Map<Kind, { total: number; listed: number }>()
  readonly #volumes = new Map<string, VolumeFindings>()

  /**
   * Counts a finding of `kind` about `volume` of `part`, `n` times; whether one more of the kind
   * may be listed (then `list` it). A finding that will not be listed need not be made.
   */
  count(kind: Kind, about: { part?: 'ocf' | 'sound'; volume?: string } = {}, n = 1): boolean {
    const counts = this.#counts.get(kind) ?? { total: 0, listed: 0 }
    counts.total += n
    this.#counts.set(kind, counts)
    if (about.volume !== undefined) {
      const key = `${kind}\u0000${about.part ?? ''}\u0000${about.volume}`
      const entry = this.#volumes.get(key)
      if (entry) entry.count += n
      else this.#volumes.set(key, { kind, ...(about.part && { part: about.part }), volume: about.volume, count: n })
    }
    return counts.listed < LISTED_PER_KIND
  }

  /** Lists a finding already counted, while its kind has room; whether it had. */
  list(finding: Finding): boolean {
    const counts = this.#counts.get(finding.kind)
    if (!counts || counts.listed >= LISTED_PER_KIND || counts.listed >= counts.total) return false
    counts.listed++
    this.#listed.push(finding)
    return true
  }

  add(finding: Finding) {
    if (this.count(finding.kind, finding)) this.list(finding)
  }

  /** Another answer's findings and counts, each finding said of `log` where one is given. */
  addChecked({ findings, summary, volumes }: Checked, log?: string) {
    for (const [kind, n] of Object.entries(summary.kinds) as Array<[Kind, number]>) {
      const counts = this.#counts.get(kind) ?? { total: 0, listed: 0 }
      counts.total += n
      this.#counts.set(kind, counts)
    }
    for (const { kind, part, volume, count } of volumes) {
      const key = `${kind}\u0000${part ?? ''}\u0000${volume}`
      const entry = this.#volumes.get(key)
      if (entry) entry.count += count
      else this.#volumes.set(key, { kind, ...(part && { part }), volume, count })
    }
    for (const finding of findings) this.list(log === undefined ? finding : { ...finding, log })
  }

  checked(): Checked {
    const summary: FindingsSummary = { errors: 0, warnings: 0, info: 0, kinds: {} }
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const n = this.#counts.get(kind)?.total
      if (!n) continue
      summary.kinds[kind] = n
      if (KINDS[kind] === 'error') summary.errors += n
      else if (KINDS[kind] === 'warning') summary.warnings += n
      else summary.info += n
    }
    return { findings: ordered(this.#listed), summary, volumes: [...this.#volumes.values()] }
  }
}

/** The kinds of which an answer lists fewer findings than it counts, and how many it leaves out. */
export function unlistedOf({
  findings,
  summary,
}: Pick<Checked, 'findings' | 'summary'>): Partial<Record<Kind, number>> {
  const listed = new Map<Kind, number>()
  for (const { kind } of findings) listed.set(kind, (listed.get(kind) ?? 0) + 1)
  const unlisted: Partial<Record<Kind, number>> = {}
  for (const [kind, n] of Object.entries(summary.kinds) as Array<[Kind, number]>)
    if (n > (listed.get(kind) ?? 0)) unlisted[kind] = n - (listed.get(kind) ?? 0)
  return unlisted
}

/** What a check finds, how serious each kind is, and the counts an answer gives with them. */

type Severity = 'error' | 'warning' | 'info'

/** Every kind, in the order findings are listed within their severity. */
const KINDS = {
  'hash-mismatch': 'error',
  'verification-failed': 'error',
  'copy-missing': 'error',
  'zero-size': 'error',
  'duplicate-clip': 'error',
  'not-verified': 'warning',
  'clip-gap': 'warning',
  'reel-gap': 'warning',
  'duplicate-across-days': 'warning',
  'no-proxy': 'warning',
  'proxy-without-clip': 'warning',
  'size-mismatch': 'warning',
  'hash-not-comparable': 'info',
  'no-sound': 'info',
  'sound-without-clip': 'info',
} as const satisfies Record<string, Severity>

export type Kind = keyof typeof KINDS

/** Each kind as a heading over its findings (reports, e-mail). */
export const KIND_TITLES: Record<Kind, string> = {
  'hash-mismatch': 'Hashes that disagree',
  'verification-failed': 'Copies that failed verification',
  'copy-missing': 'Missing copies',
  'zero-size': 'Zero-byte clips',
  'duplicate-clip': 'Clips listed twice',
  'not-verified': 'Copies without a hash (not verified)',
  'clip-gap': 'Gaps in clip numbers',
  'reel-gap': 'Reels never logged',
  'duplicate-across-days': 'Clips logged on another day too',
  'no-proxy': 'Clips without a proxy',
  'proxy-without-clip': 'Proxies without a camera clip',
  'size-mismatch': 'Totals that are not the sum of their clips',
  'hash-not-comparable': 'Hashes that cannot be compared',
  'no-sound': 'Camera clips without sound',
  'sound-without-clip': 'Sound without a camera clip',
}

/** A kind's findings together, in the order `ordered` gives them. */
export function byKind(findings: readonly Finding[]): Array<{ kind: Kind; severity: Severity; findings: Finding[] }> {
  const groups = new Map<Kind, Finding[]>()
  for (const f of findings) {
    const group = groups.get(f.kind)
    if (group) group.push(f)
    else groups.set(f.kind, [f])
  }
  return [...groups].map(([kind, list]) => ({ kind, severity: KINDS[kind], findings: list }))
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

/** Most serious first, kinds together, each kind in the order it was found (a stable sort). */
export const ordered = (findings: Finding[]): Finding[] =>
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

export function summaryOf(findings: readonly Finding[]): FindingsSummary {
  const summary: FindingsSummary = { errors: 0, warnings: 0, info: 0, kinds: {} }
  for (const { kind, severity } of findings) {
    if (severity === 'error') summary.errors++
    else if (severity === 'warning') summary.warnings++
    else summary.info++
    summary.kinds[kind] = (summary.kinds[kind] ?? 0) + 1
  }
  return summary
}

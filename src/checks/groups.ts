/**
 * Findings as a person reads them: a line per kind and volume with how many, the first clips by
 * name and the count of the rest, most serious first. A day of 150 clips missing from one shuttle is
 * one line, not 150. The console, the reports, the e-mail and `media-log checks` say these lines;
 * each group keeps its findings for whoever asks for the rest.
 */
import {
  KINDS_IN_ORDER,
  KIND_TITLES,
  severityOf,
  type Checked,
  type Finding,
  type Kind,
  type VolumeFindings,
} from './findings'

/** Clips a line names before it counts the rest. */
const NAMED = 5

export type FindingGroup = {
  kind: Kind
  severity: Finding['severity']
  title: string
  /** The volume a copy's findings are about (and of which part), for kinds counted by volume. */
  volume?: string
  part?: 'ocf' | 'sound'
  /** How many findings the group has, listed or not. */
  count: number
  /** Its listed findings, in order. */
  findings: Finding[]
  /** The line: `Copies not found on read-back — SHUTTLE_C: 1 clip (A001C003)`. */
  words: string
}

const number = (n: number) => n.toLocaleString('en-US')
const clipsWord = (n: number) => `${number(n)} ${n === 1 ? 'clip' : 'clips'}`

/** `A, B, C, and 4 more`: the first few of `names`, out of `count`. */
function named(names: readonly string[], count: number): string {
  const shown = names.slice(0, NAMED)
  const more = count - shown.length
  return shown.join(', ') + (more > 0 ? `${shown.length ? ', and ' : ''}${number(more)} more` : '')
}

/** The clips a group's findings name, each once, with the day where findings of several days are listed. */
function clipNames(findings: readonly Finding[]): string[] {
  const names: string[] = []
  const seen = new Set<string>()
  for (const f of findings) {
    if (f.clip === undefined) continue
    const name = f.log !== undefined ? `${f.clip} (${f.log})` : f.clip
    if (seen.has(name)) continue
    seen.add(name)
    names.push(name)
    if (names.length >= NAMED) break
  }
  return names
}

const where = (volume: string, part: 'ocf' | 'sound' | undefined) => (part === 'sound' ? `${volume} (sound)` : volume)

/**
 * The groups of an answer's findings, most serious first: every kind its summary counts, listed or
 * not (over a range the list stops at 1,000 a kind, and a day's own lines are cut from it). Copies'
 * findings are grouped by volume and counted from the answer's per-volume counts; the others by
 * kind, counted from its summary. Counts are whole; the listed findings only name the first clips
 * (or quote the first findings).
 */
export function groupsOf({
  findings,
  summary,
  volumes,
}: Pick<Checked, 'findings' | 'summary' | 'volumes'>): FindingGroup[] {
  const byKind = new Map<Kind, Finding[]>()
  for (const f of findings) {
    const list = byKind.get(f.kind)
    if (list) list.push(f)
    else byKind.set(f.kind, [f])
  }
  const perVolume = new Map<Kind, VolumeFindings[]>()
  for (const v of volumes) {
    const list = perVolume.get(v.kind)
    if (list) list.push(v)
    else perVolume.set(v.kind, [v])
  }
  const groups: FindingGroup[] = []
  for (const kind of KINDS_IN_ORDER) {
    const total = summary.kinds[kind] ?? 0
    if (!total) continue
    const title = KIND_TITLES[kind]
    const severity = severityOf(kind)
    const listed = byKind.get(kind) ?? []
    const counted = perVolume.get(kind)
    if (counted && listed.every((f) => f.volume !== undefined)) {
      for (const { volume, part, count } of counted) {
        const mine = listed.filter((f) => f.volume === volume && f.part === part)
        groups.push({
          kind,
          severity,
          title,
          volume,
          ...(part && { part }),
          count,
          findings: mine,
          words: `${title} — ${where(volume, part)}: ${volumeDetail(kind, mine, count)}`,
        })
      }
      continue
    }
    groups.push({ kind, severity, title, count: total, findings: listed, words: `${title}${detail(listed, total)}` })
  }
  return groups
}

/** `3 clips (A, B, C)`, or of files that are no clip, `1 file (Sidecar.txt)`. */
function volumeDetail(kind: Kind, mine: readonly Finding[], count: number): string {
  if (kind === 'other-file-failed') {
    const files = `${number(count)} ${count === 1 ? 'file' : 'files'}`
    return mine.length
      ? `${files} (${named(
          mine.map((f) => f.file ?? f.message),
          count,
        )})`
      : files
  }
  const names = clipNames(mine)
  return names.length ? `${clipsWord(count)} (${named(names, count)})` : clipsWord(count)
}

/** `: 3 clips (A, B, C)`, or the first findings quoted, or how many where none is listed. */
function detail(listed: readonly Finding[], count: number): string {
  if (!listed.length) return `: ${number(count)}`
  const names = clipNames(listed)
  if (names.length === Math.min(listed.length, NAMED) && listed.every((f) => f.clip !== undefined))
    return `: ${clipsWord(count)} (${named(names, count)})`
  const quoted = listed.slice(0, 3).map((f) => f.message)
  return count > quoted.length
    ? ` (${number(count)}): ${quoted.join('; ')}; and ${number(count - quoted.length)} more`
    : `: ${quoted.join('; ')}`
}

/** How a report prints values: sizes, rates, counts, any JSON value as text, reel ranges. */
const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB']

/** Decimal units, as media tools and drive labels count: 1.23 TB = 1.23 × 10¹² bytes. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return ''
  if (bytes < 1000) return `${Math.round(bytes)} B`
  let unit = 0
  let value = bytes
  while (value >= 999.995 && unit < UNITS.length - 1) {
    value /= 1000
    unit++
  }
  return `${value.toFixed(2)} ${UNITS[unit]}`
}

export const formatFps = (fps: number) => String(Math.round(fps * 1000) / 1000)

export const formatCount = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')

/** `1 clip`, `2,000 clips`. */
export const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`

/** Any JSON value as one line of text: lists joined, maps as `key: value`. */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value))
    return value
      .map((v) => (Array.isArray(v) ? v.map(textOf).join(', ') : textOf(v)))
      .filter(Boolean)
      .join(Array.isArray(value[0]) ? '; ' : ', ')
  if (typeof value === 'object')
    return Object.entries(value)
      .map(([k, v]) => `${k}: ${textOf(v)}`)
      .join(', ')
  return ''
}

const REEL = /^(.*?)(\d+)(\D*)$/

/** `A001, A002, A003, B001` → `A001–A003, B001`: consecutive numbers with the same prefix merge. */
export function mergeReels(reels: Iterable<string>): string {
  type Numbered = { prefix: string; suffix: string; digits: number; n: number; name: string }
  const numbered: Numbered[] = []
  const others: string[] = []
  for (const name of new Set(reels)) {
    if (!name) continue
    const m = REEL.exec(name)
    if (m) numbered.push({ prefix: m[1]!, suffix: m[3]!, digits: m[2]!.length, n: Number(m[2]), name })
    else others.push(name)
  }
  const collator = new Intl.Collator('en', { numeric: true })
  numbered.sort(
    (a, b) =>
      collator.compare(a.prefix, b.prefix) || collator.compare(a.suffix, b.suffix) || a.digits - b.digits || a.n - b.n,
  )
  const parts: string[] = []
  let i = 0
  while (i < numbered.length) {
    const first = numbered[i]!
    let j = i
    while (j + 1 < numbered.length) {
      const next = numbered[j + 1]!
      if (
        next.prefix !== first.prefix ||
        next.suffix !== first.suffix ||
        next.digits !== first.digits ||
        next.n !== numbered[j]!.n + 1
      )
        break
      j++
    }
    parts.push(j > i ? `${first.name}–${numbered[j]!.name}` : first.name)
    i = j + 1
  }
  return [...parts, ...others.sort(collator.compare)].join(', ')
}

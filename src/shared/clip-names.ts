/**
 * What makes two lists' names the same clip: Unicode composed alike (macOS writes decomposed
 * file names), a file extension left off (a proxy `A001C001.mov` is the clip `A001C001`), case
 * ignored.
 */
export function nameKey(name: string): string {
  const composed = name.normalize('NFC').trim()
  const dot = composed.lastIndexOf('.')
  const stem =
    dot > 0 && composed.length - dot <= 5 && /^\.[A-Za-z0-9]+$/.test(composed.slice(dot))
      ? composed.slice(0, dot)
      : composed
  return stem.toUpperCase()
}

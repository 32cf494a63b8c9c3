/** Fitting text into a width: clipped with an ellipsis, or wrapped onto a few lines. */
import type { Run, TextFont } from './fonts'

const ELLIPSIS = '…'
/** Widths fitted to a text come back through float arithmetic a hair short of it. */
export const FIT_SLACK = 0.01
// A line may break after these: clip names and paths have no spaces but do have separators.
const BREAK_AFTER = new Set([' ', '_', '-', '/', '\\', '.', ',', ';', '|', ':', '+'])

/** `text` cut to fit `width` at `size`, ending in `…` when anything was cut. */
export function clip(font: TextFont, text: string, size: number, width: number): Run {
  width += FIT_SLACK
  const run = font.run(text)
  if (run.width * size <= width) return run
  const { chars, advances } = font.advances(text)
  const room = width / size - font.run(ELLIPSIS).width
  let used = 0
  let end = 0
  while (end < chars.length && used + advances[end]! <= room) used += advances[end++]!
  return font.run(chars.slice(0, end).join('').trimEnd() + ELLIPSIS)
}

/** Lines of at most `width`; past `maxLines` the last line ends in `…`. */
export function wrap(font: TextFont, text: string, size: number, width: number, maxLines: number): Run[] {
  width += FIT_SLACK
  const run = font.run(text)
  if (run.width * size <= width) return [run]
  const { chars, advances } = font.advances(text)
  const room = width / size
  const lines: Run[] = []
  let start = 0
  while (start < chars.length) {
    while (start < chars.length && chars[start] === ' ') start++
    if (start >= chars.length) break
    if (lines.length === maxLines - 1) {
      lines.push(clip(font, chars.slice(start).join(''), size, width))
      break
    }
    let used = 0
    let end = start
    let breakAt = -1
    while (end < chars.length && used + advances[end]! <= room) {
      used += advances[end]!
      if (BREAK_AFTER.has(chars[end]!)) breakAt = end + 1
      end++
    }
    if (end < chars.length && breakAt > start) end = breakAt
    if (end === start) end = start + 1 // a single character wider than the cell still advances
    lines.push(font.run(chars.slice(start, end).join('').trimEnd()))
    start = end
  }
  return lines.length ? lines : [run]
}

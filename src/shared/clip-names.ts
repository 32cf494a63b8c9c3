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

/** Extensions of files that are frames of an image sequence (or segments of a RED clip). */
export const SEQUENCE_EXTENSIONS: ReadonlySet<string> = new Set('ari arx dng exr dpx tif tiff r3d cri'.split(' '))

/** `NAME.[0059556-0059713].arx`: a sequence as Resolve and Avid name it, by its range of frames. */
const FRAME_RANGE = /^(.+?)[._-]?\[\d+-\d+\](?:\.[A-Za-z0-9]{1,5})?$/
/** `NAME.0059556.arx`, `NAME_0059556.dng`: a sequence named by one of its frames. */
const ONE_FRAME = /^(.+?)[._-](\d{3,})\.([A-Za-z0-9]{1,5})$/

/**
 * The sequence clip a name stands for, when it names one as editors and offload tools write it:
 * its frames' range (`NAME.[first-last].ext`) or one frame (`NAME.first.ext`, `NAME_first.ext`,
 * of an image-sequence extension). An import makes the sequence clip `NAME` (src/import/clips.ts).
 */
export function sequenceOf(name: string): string | undefined {
  const composed = name.normalize('NFC').trim()
  const range = FRAME_RANGE.exec(composed)
  if (range) return range[1]
  const frame = ONE_FRAME.exec(composed)
  return frame && SEQUENCE_EXTENSIONS.has(frame[3]!.toLowerCase()) ? frame[1] : undefined
}

/**
 * Every key a name may find its clip by: its own (nameKey), then, for a name of a sequence in any
 * of the forms sequenceOf reads, the sequence clip's. The bare `NAME` is its own key.
 */
export function clipKeys(name: string): string[] {
  const keys = [nameKey(name)]
  const sequence = sequenceOf(name)
  if (sequence !== undefined) {
    const key = sequence.toUpperCase()
    if (key !== keys[0]) keys.push(key)
  }
  return keys
}

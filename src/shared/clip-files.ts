/**
 * Which clip a file of a volume is, by its name and folder: media told apart from sidecars by
 * extension, frames of an image sequence (ARRIRAW, DNG, EXR, DPX) and segments of a RED clip one
 * clip. An import makes clips by these rules (src/import/clips.ts), and `media-log verify` finds
 * the files of a log's clips on a volume by the same ones: the two never disagree on a name.
 */
import { SEQUENCE_EXTENSIONS } from './clip-names'

export type Part = 'ocf' | 'sound'

/**
 * What a file is: the clip it is (`sequence`: the key its sequence's frames share, where it is one
 * frame of several), a file in a proxy folder, or no media at all.
 */
export type FileClip = { part: Part; clip: string; sequence?: string } | 'proxy' | undefined

const OCF = new Set(
  'mxf mov mp4 m4v avi mts m2ts ari arx braw r3d crm cri rmf dng exr dpx tif tiff cine nev vrw insv'.split(' '),
)
const SOUND = new Set('wav bwf rf64 aif aiff flac'.split(' '))
/** A folder named for proxies anywhere in a file's path (`…/Proxy/`, `…/PROXIES/`). */
const PROXY_FOLDER = /(^|\/)prox(y|ies)(\/|$)/i
/** A frame's number at the end of its name, after an optional separator: 3 digits at least. */
const FRAME_NUMBER = /^(.*?)([._-]?)(\d{3,})$/

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
}

const stem = (name: string) => name.slice(0, name.length - extensionOf(name).length - 1)

/** A path's last part: a file's name, or a folder's. */
export const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1)

/** A camera file's name as the clip it is: `A001C001.mxf` is `A001C001`; other names as they are. */
export function clipNameOf(name: string): string {
  return OCF.has(extensionOf(name)) ? stem(name) : name
}

/**
 * The clip the file `name` in `folder` (a path with `/`) is. Frames are one sequence only when
 * they share a folder, a name before the number, the number's width and the extension:
 * `A001C001.mov` and `A001C002.mov` stay two clips. A sequence is named by what comes before the
 * number, else by its folder. `kind` makes every media file of that part.
 */
export function clipOfFile(folder: string, name: string, kind?: Part): FileClip {
  const ext = extensionOf(name)
  if (!OCF.has(ext) && !SOUND.has(ext)) return undefined
  // Proxies are the log's own list, with codec and resolution a manifest does not give: an
  // offload of a proxy folder must not make camera clips of them.
  if (PROXY_FOLDER.test(folder)) return 'proxy'
  const part = kind ?? (SOUND.has(ext) ? 'sound' : 'ocf')
  const frame = SEQUENCE_EXTENSIONS.has(ext) ? FRAME_NUMBER.exec(stem(name)) : null
  if (!frame) return { part, clip: stem(name) }
  const [, prefix, separator, number] = frame
  const sequence = `${folder}\u0000${prefix}\u0000${separator}\u0000${number!.length}\u0000${ext}`
  return { part, clip: prefix || lastSegment(folder), sequence }
}

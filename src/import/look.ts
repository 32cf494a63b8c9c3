/**
 * What a file the import does not read looks like, and what to export instead: DITs hand over
 * whatever the day left on the cart, and "not an MHL" tells them nothing of what to send. Told by
 * the file's extension and, for text, its first bytes.
 */

/** Each look: what it is, what to send in its place. */
const EXPORT_ALE = 'export the clips as an ALE instead'
const SEND_MHL = 'send the MHL or the transfer report (CSV) of the offload instead'

const BY_EXTENSION: Record<string, string> = {
  avb: `an Avid bin: ${EXPORT_ALE} (File › Export, ALE)`,
  avp: `an Avid project: ${EXPORT_ALE} from its bins`,
  avs: `an Avid project setting: ${EXPORT_ALE} from the project’s bins`,
  drp: `a Resolve project: ${EXPORT_ALE} from its media pool`,
  drt: `a Resolve timeline export: ${EXPORT_ALE} from the media pool`,
  drx: `a Resolve grade still: ${EXPORT_ALE} from the media pool`,
  edl: `an EDL (a timeline export): ${EXPORT_ALE} from the media pool`,
  fcpxml: `a Final Cut Pro XML timeline export: ${EXPORT_ALE}`,
  fcpxmld: `a Final Cut Pro XML timeline export: ${EXPORT_ALE}`,
  otio: `an OpenTimelineIO timeline export: ${EXPORT_ALE}`,
  aaf: `an AAF (a timeline export): ${EXPORT_ALE}`,
  cube: 'a LUT, not a clip list: the clips’ `lut` comes from their ALE',
  cdl: 'a colour decision list, not a clip list: the clips’ metadata comes from their ALE',
  ccc: 'a colour decision list, not a clip list: the clips’ metadata comes from their ALE',
  pdf: `a PDF report: ${SEND_MHL}`,
  md5: 'a checksum list without sizes or volumes: send the MHL the tool wrote beside it',
  xxhash: 'a checksum list without sizes or volumes: send the MHL the tool wrote beside it',
  jpg: 'a still image, not a list: send the clips’ ALE or the offload’s MHL',
  jpeg: 'a still image, not a list: send the clips’ ALE or the offload’s MHL',
  png: 'a still image, not a list: send the clips’ ALE or the offload’s MHL',
  xls: 'a spreadsheet workbook: save it as CSV (comma-separated, with its header row) and send that',
  xlsx: 'a spreadsheet workbook: save it as CSV (comma-separated, with its header row) and send that',
  numbers: 'a spreadsheet workbook: save it as CSV (comma-separated, with its header row) and send that',
}

const MEDIA = new Set('mxf mov mp4 ari arx braw r3d crm dng exr dpx wav bwf'.split(' '))
const STILL = /\.(jpe?g|png|tiff?|heic|bmp|gif)$/i

/** Why a file is not read, named for what it looks like. */
export function lookOf(base: string, bytes: Uint8Array): string {
  const dot = base.lastIndexOf('.')
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : ''
  const known = BY_EXTENSION[ext]
  if (known) return known
  if (MEDIA.has(ext)) return `a media file, not a report of it: ${SEND_MHL}`
  const head = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes.subarray(0, 4096))
  if (/<xmeml[\s>]/.test(head)) return `a timeline export (Final Cut Pro 7 XML, as Resolve writes it): ${EXPORT_ALE}`
  if (/<fcpxml[\s>]/.test(head)) return `a Final Cut Pro XML timeline export: ${EXPORT_ALE}`
  if (/^\s*TITLE:/.test(head) && /\bFCM:/.test(head)) return `an EDL (a timeline export): ${EXPORT_ALE}`
  const lines = head.split(/\r\n|\r|\n/).filter((l) => l.trim())
  if (lines.length >= 2 && isStillList(lines.slice(0, 20).map((l) => l.trim().replace(/^"|"$/g, '')))) return STILL_LIST
  return 'not an MHL, ascmhl_chain.xml or ALE file'
}

export const STILL_LIST = `a still image list, not a clip list: ${SEND_MHL}, or the clips’ ALE`

/** Whether every name of a list is a still image's (`.jpg`, `.png`, `.tif`, …). */
export const isStillList = (names: readonly string[]) => names.length > 0 && names.every((n) => STILL.test(n))

/**
 * Embedded TrueType text for reports, without pdf-lib's per-string shaping: a glyph is looked up
 * once per code point (cmap, no layout), strings are encoded from those glyphs and cached, and the
 * subset program is built once per distinct glyph set and kept for the isolate's lifetime.
 */
import fontkit from '@pdf-lib/fontkit'
import { PDFName, PDFString, type PDFContext, type PDFRef } from 'pdf-lib'
import { FONT_FILES } from './font-files'
import { deflate } from './deflate'
import { subsetProgram } from './font-program'

type Font = ReturnType<typeof fontkit.create>

/** Printed for a character the font lacks (CJK, most emoji): visible, never an error. */
const REPLACEMENT = 0x25a1 // □

/** Pre-seeded in this order so that most reports share one subset, and so one cached font program. */
const COMMON = Array.from({ length: 95 }, (_, i) => 0x20 + i).concat([
  0x2013,
  0x2014,
  0x2026,
  0x00b7,
  0x2713,
  REPLACEMENT,
])

// Joiners, variation selectors, skin-tone modifiers and tag characters shape emoji; alone they print nothing.
const isIgnorable = (cp: number) =>
  cp === 0x200d ||
  (cp >= 0xfe00 && cp <= 0xfe0f) ||
  (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
  (cp >= 0xe0000 && cp <= 0xe007f) ||
  cp === 0xad

/** Font metrics and per-code-point glyphs, shared by every document the isolate renders. */
class Face {
  readonly font: Font
  readonly unitsPerEm: number
  readonly #glyphs = new Map<number, { gid: number; advance: number }>()
  readonly #programs = new Map<string, { bytes: Uint8Array; length: number }>()

  constructor(bytes: ArrayBuffer | Uint8Array) {
    this.font = fontkit.create(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes))
    this.unitsPerEm = this.font.unitsPerEm
  }

  /** Glyph id and advance (in text space units per 1 pt) of a code point, replaced when missing. */
  glyph(cp: number): { gid: number; advance: number } {
    let g = this.#glyphs.get(cp)
    if (!g) {
      const glyph = this.font.glyphForCodePoint(this.font.hasGlyphForCodePoint(cp) ? cp : REPLACEMENT)
      g = { gid: glyph.id, advance: glyph.advanceWidth / this.unitsPerEm }
      this.#glyphs.set(cp, g)
    }
    return g
  }

  /** The subset's TrueType program, deflated; built once per glyph list. */
  program(gids: number[]): { bytes: Uint8Array; length: number } {
    const key = gids.join(',')
    let program = this.#programs.get(key)
    if (!program) {
      const raw = subsetProgram(this.font, gids)
      program = { bytes: deflate(raw), length: raw.length }
      if (this.#programs.size >= 16) this.#programs.clear()
      this.#programs.set(key, program)
    }
    return program
  }
}

let faces: { regular: Face; bold: Face } | undefined

function sharedFaces() {
  faces ??= { regular: new Face(FONT_FILES.regular), bold: new Face(FONT_FILES.bold) }
  return faces
}

/** An encoded string: hex glyph codes for a `Tj`, and its width per 1 pt of font size. */
export type Run = { text: string; hex: string; width: number }

const HEX = '0123456789ABCDEF'
const hex4 = (n: number) => HEX[(n >> 12) & 15]! + HEX[(n >> 8) & 15]! + HEX[(n >> 4) & 15]! + HEX[n & 15]!

// Tabs, line breaks and other controls would print as boxes: a cell shows them as spaces.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g
const PLAIN = /^[\u0020-\u007e]*$/

/** Text as a report prints it: one line, composed accents (NFC), no invisible shaping characters. */
export function printable(text: string): string {
  if (PLAIN.test(text)) return text
  return text.replace(CONTROLS, ' ').normalize('NFC')
}

/** One face within one document: its own subset numbering, string cache and font dictionary. */
export class TextFont {
  readonly #face: Face
  readonly #codes = new Map<number, { hex: string; advance: number }>()
  readonly #gids: number[] = [0]
  readonly #cids = new Map<number, number>([[0, 0]])
  readonly #unicode: number[] = [0xfffd]
  readonly #runs = new Map<string, Run>()
  readonly #ascii: Array<{ hex: string; advance: number }> = []

  constructor(
    face: Face,
    readonly name: string,
    readonly ref: PDFRef,
  ) {
    this.#face = face
    for (const cp of COMMON) this.#code(cp)
    for (let c = 0x20; c < 0x7f; c++) this.#ascii[c] = this.#codes.get(c)!
  }

  get ascent() {
    return this.#face.font.ascent / this.#face.unitsPerEm
  }

  #code(cp: number) {
    let code = this.#codes.get(cp)
    if (!code) {
      const { gid, advance } = this.#face.glyph(cp)
      let cid = this.#cids.get(gid)
      if (cid === undefined) {
        cid = this.#gids.push(gid) - 1
        this.#cids.set(gid, cid)
        this.#unicode.push(this.#face.font.hasGlyphForCodePoint(cp) ? cp : REPLACEMENT)
      }
      code = { hex: hex4(cid), advance }
      this.#codes.set(cp, code)
    }
    return code
  }

  /** Encodes text that is already `printable`. */
  run(text: string): Run {
    let run = this.#runs.get(text)
    if (run) return run
    let hex = ''
    let width = 0
    const ascii = this.#ascii
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      let code = c < 0x7f ? ascii[c] : undefined
      if (!code) {
        const cp = text.codePointAt(i)!
        if (cp > 0xffff) i++
        if (isIgnorable(cp)) continue
        code = this.#code(cp)
      }
      hex += code.hex
      width += code.advance
    }
    run = { text, hex, width }
    // Bounded: a 20,000-clip log has hundreds of thousands of distinct cell values.
    if (this.#runs.size >= 20_000) this.#runs.clear()
    this.#runs.set(text, run)
    return run
  }

  /** Advance of each code point of `text` (ignorable ones count 0), for wrapping and clipping. */
  advances(text: string): { chars: string[]; advances: number[] } {
    const chars: string[] = []
    const advances: number[] = []
    for (const ch of text) {
      const cp = ch.codePointAt(0)!
      chars.push(ch)
      advances.push(isIgnorable(cp) ? 0 : this.#code(cp).advance)
    }
    return { chars, advances }
  }

  /** Writes the Type0 font, its CIDFont, descriptor, program and ToUnicode map (PDF 32000 §9.7). */
  embed(context: PDFContext) {
    const face = this.#face
    const font = face.font
    const program = face.program(this.#gids)
    const scale = 1000 / face.unitsPerEm
    const baseFont = `${subsetTag(this.#gids)}+${font.postscriptName ?? 'DejaVuSans'}`
    const fontFile = context.register(context.stream(program.bytes, { Filter: 'FlateDecode', Length1: program.length }))
    const bbox = font.bbox
    const descriptor = context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: baseFont,
        Flags: 32,
        FontBBox: [bbox.minX * scale, bbox.minY * scale, bbox.maxX * scale, bbox.maxY * scale].map(Math.round),
        ItalicAngle: font.italicAngle,
        Ascent: Math.round(font.ascent * scale),
        Descent: Math.round(font.descent * scale),
        CapHeight: Math.round((font.capHeight || font.ascent * 0.76) * scale),
        XHeight: Math.round((font.xHeight || font.ascent * 0.56) * scale),
        StemV: 80,
        FontFile2: fontFile,
      }),
    )
    const widths = this.#gids.map((gid) => Math.round(font.getGlyph(gid).advanceWidth * scale))
    const cidFont = context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        BaseFont: baseFont,
        CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
        FontDescriptor: descriptor,
        W: [0, widths],
        CIDToGIDMap: 'Identity',
      }),
    )
    const toUnicode = context.register(deflatedStream(context, toUnicodeCMap(this.#unicode)))
    context.assign(
      this.ref,
      context.obj({
        Type: 'Font',
        Subtype: 'Type0',
        BaseFont: baseFont,
        Encoding: 'Identity-H',
        DescendantFonts: [cidFont],
        ToUnicode: toUnicode,
      }),
    )
  }
}

export type Fonts = { regular: TextFont; bold: TextFont }

export function documentFonts(context: PDFContext): Fonts {
  const { regular, bold } = sharedFaces()
  return { regular: new TextFont(regular, 'F1', context.nextRef()), bold: new TextFont(bold, 'F2', context.nextRef()) }
}

export const fontResources = (fonts: Fonts) =>
  [
    [PDFName.of(fonts.regular.name), fonts.regular.ref],
    [PDFName.of(fonts.bold.name), fonts.bold.ref],
  ] as const

/** Six capitals derived from the glyph set, as PDF requires for a subset; stable for a cached program. */
function subsetTag(gids: number[]) {
  let h = 2166136261
  for (const gid of gids) h = Math.imul(h ^ gid, 16777619)
  let tag = ''
  for (let i = 0; i < 6; i++) {
    tag += String.fromCharCode(65 + ((h >>> 0) % 26))
    h = Math.imul(h, 16777619) ^ i
  }
  return tag
}

function utf16Hex(cp: number) {
  if (cp <= 0xffff) return hex4(cp)
  const v = cp - 0x10000
  return hex4(0xd800 + (v >> 10)) + hex4(0xdc00 + (v & 0x3ff))
}

function toUnicodeCMap(unicode: number[]) {
  const lines: string[] = []
  for (let start = 1; start < unicode.length; start += 100) {
    const chunk = unicode.slice(start, start + 100)
    lines.push(`${chunk.length} beginbfchar`)
    chunk.forEach((cp, i) => lines.push(`<${hex4(start + i)}> <${utf16Hex(cp)}>`))
    lines.push('endbfchar')
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...lines,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n')
}

const ascii = new TextEncoder()

/** Content streams and CMaps are plain ASCII, so UTF-8 encoding is byte for byte. */
function deflatedStream(context: PDFContext, text: string) {
  return context.stream(deflate(ascii.encode(text)), { Filter: 'FlateDecode' })
}

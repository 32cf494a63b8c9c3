import fontkit from '@pdf-lib/fontkit'
import { describe, expect, it } from 'vitest'
import { FONT_FILES } from '../src/reports/font-files'
import { subsetProgram } from '../src/reports/font-program'

/** fontkit's own encoder, one call at a time (its stream defers through a shared timer). */
function streamed(font: ReturnType<typeof fontkit.create>, gids: number[]): Promise<Uint8Array> {
  const subset = font.createSubset()
  for (const gid of gids) subset.includeGlyph(gid)
  const parts: Uint8Array[] = []
  return new Promise((resolve) =>
    subset
      .encodeStream()
      .on('data', (b) => parts.push(b))
      .on('end', () => {
        const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
        parts.reduce((at, p) => (out.set(p, at), at + p.length), 0)
        resolve(out)
      }),
  )
}

const gidsOf = (font: ReturnType<typeof fontkit.create>, text: string) => [
  0,
  ...new Set([...text].map((ch) => font.glyphForCodePoint(ch.codePointAt(0)!).id)),
]

describe('subset font program', () => {
  for (const [face, bytes] of Object.entries(FONT_FILES)) {
    const font = fontkit.create(new Uint8Array(bytes as ArrayBuffer))
    it(`${face}: byte for byte what fontkit's stream encoder writes, composite glyphs included`, async () => {
      // Accented Latin, Greek and Cyrillic glyphs in DejaVu are composites of a base and a mark.
      for (const text of [' !"#0123456789ABCabc–—…·✓□', 'Ångström Łódź Ñandú Ελλάδα Москва ĳ ǅ', 'x']) {
        const gids = gidsOf(font, text)
        const ours = subsetProgram(font, gids)
        expect(ours.length).toBeGreaterThan(1000)
        expect(ours).toEqual(await streamed(font, gids))
        // A subset keeps only what it names: the program is far smaller than the whole face.
        expect(ours.length).toBeLessThan((bytes as ArrayBuffer).byteLength / 10)
      }
    })
  }
})

/**
 * One page's content stream, written as PDF operators directly: pdf-lib's drawText builds several
 * operator objects per call, which costs more than the whole table here. Coordinates are top-down
 * (y grows down the page) and converted on the way out.
 */
import type { Run, TextFont } from './fonts'

/** Fill colours as PDF `r g b` operands. */
export const INK = '0.12 0.14 0.17'
export const MUTED = '0.42 0.45 0.5'
export const FAINT = '0.62 0.65 0.69'
export const RULE = '0.82 0.84 0.87'
export const ACCENT = '0.11 0.33 0.55'
export const HEADER_FILL = '0.17 0.22 0.29'
export const ZEBRA = '0.95 0.96 0.975'
export const CARD = '0.955 0.965 0.98'
export const WHITE = '1 1 1'
export const GOOD = '0.1 0.48 0.25'
export const WARN = '0.72 0.4 0.02'
export const BAD = '0.72 0.13 0.11'
/** A table row of a clip with an error. */
export const ERROR_FILL = '0.99 0.92 0.91'

const n = (v: number) => String(Math.round(v * 100) / 100)

export type Align = 'left' | 'right' | 'center'

export class Canvas {
  readonly #ops: string[] = []
  #inText = false
  #font = ''
  #fill = ''
  #stroke = ''
  #lineWidth = -1

  constructor(
    readonly width: number,
    readonly height: number,
  ) {}

  #endText() {
    if (this.#inText) {
      this.#ops.push('ET')
      this.#inText = false
    }
  }

  #fillColor(color: string) {
    if (this.#fill !== color) {
      this.#ops.push(`${color} rg`)
      this.#fill = color
    }
  }

  rect(x: number, top: number, w: number, h: number, color: string) {
    this.#endText()
    this.#fillColor(color)
    this.#ops.push(`${n(x)} ${n(this.height - top - h)} ${n(w)} ${n(h)} re f`)
  }

  line(x1: number, y1: number, x2: number, y2: number, color: string, width = 0.5) {
    this.#endText()
    if (this.#stroke !== color) {
      this.#ops.push(`${color} RG`)
      this.#stroke = color
    }
    if (this.#lineWidth !== width) {
      this.#ops.push(`${n(width)} w`)
      this.#lineWidth = width
    }
    this.#ops.push(`${n(x1)} ${n(this.height - y1)} m ${n(x2)} ${n(this.height - y2)} l S`)
  }

  /** Draws an encoded run with its baseline at `baseline`; `x` is its left, right or centre edge. */
  text(font: TextFont, size: number, color: string, x: number, baseline: number, run: Run, align: Align = 'left') {
    if (!run.hex) return
    if (!this.#inText) {
      this.#ops.push('BT')
      this.#inText = true
    }
    const key = `/${font.name} ${n(size)} Tf`
    if (this.#font !== key) {
      this.#ops.push(key)
      this.#font = key
    }
    this.#fillColor(color)
    const left = align === 'left' ? x : align === 'right' ? x - run.width * size : x - (run.width * size) / 2
    this.#ops.push(`1 0 0 1 ${n(left)} ${n(this.height - baseline)} Tm <${run.hex}>Tj`)
  }

  toString() {
    this.#endText()
    return this.#ops.join('\n')
  }
}

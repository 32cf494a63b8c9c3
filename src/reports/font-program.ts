/**
 * The subset TrueType program of a report's glyphs, encoded synchronously.
 *
 * fontkit's `Subset.encodeStream()` defers through a module-wide `nextTick` queue drained by one
 * setTimeout. In a Worker, the first request to schedule that timer then runs every other request's
 * callbacks, and the runtime fails those requests ("promise resolved from a different request
 * context"). The subset's own `encode(stream)` is synchronous; this sink gives it the writer API of
 * restructure's EncodeStream without the stream.
 */
import type fontkit from '@pdf-lib/fontkit'

type Font = ReturnType<typeof fontkit.create>
type Encodable = { includeGlyph(gid: number): number; encode(sink: ByteSink): void }

const SIZES = {
  UInt8: 1,
  Int8: 1,
  UInt16: 2,
  Int16: 2,
  UInt24: 3,
  Int24: 3,
  UInt32: 4,
  Int32: 4,
  Float: 4,
  Double: 8,
} as const
type NumberType = keyof typeof SIZES

class ByteSink {
  pos = 0
  #bytes = new Uint8Array(64 * 1024)
  #view = new DataView(this.#bytes.buffer)

  #ensure(n: number) {
    if (this.pos + n <= this.#bytes.length) return
    const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.pos + n))
    grown.set(this.#bytes.subarray(0, this.pos))
    this.#bytes = grown
    this.#view = new DataView(grown.buffer)
  }

  writeNumber(type: NumberType, little: boolean, value: number) {
    const size = SIZES[type]
    this.#ensure(size)
    const at = this.pos
    const view = this.#view
    switch (type) {
      case 'UInt8':
        view.setUint8(at, value)
        break
      case 'Int8':
        view.setInt8(at, value)
        break
      case 'UInt16':
        view.setUint16(at, value, little)
        break
      case 'Int16':
        view.setInt16(at, value, little)
        break
      case 'UInt32':
        view.setUint32(at, value, little)
        break
      case 'Int32':
        view.setInt32(at, value, little)
        break
      case 'Float':
        view.setFloat32(at, value, little)
        break
      case 'Double':
        view.setFloat64(at, value, little)
        break
      default: {
        const v = value < 0 ? value + 0x1000000 : value
        const b = [(v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]
        this.#bytes.set(little ? b.reverse() : b, at)
      }
    }
    this.pos += size
  }

  writeBuffer(bytes: Uint8Array) {
    this.#ensure(bytes.length)
    this.#bytes.set(bytes, this.pos)
    this.pos += bytes.length
  }

  /** TrueType tags are ASCII; the subset writes no other strings. */
  writeString(text: string, encoding = 'ascii') {
    if (encoding !== 'ascii' && encoding !== 'latin1' && encoding !== 'binary')
      throw new Error(`unsupported string encoding ${encoding}`)
    const bytes = new Uint8Array(text.length)
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff
    this.writeBuffer(bytes)
  }

  fill(value: number, length: number) {
    this.#ensure(length)
    this.#bytes.fill(value, this.pos, this.pos + length)
    this.pos += length
  }

  bytes() {
    return this.#bytes.slice(0, this.pos)
  }
}

// restructure calls `stream['write' + type + endianness]`: writeUInt16BE, writeInt8, writeFloatLE…
for (const type of Object.keys(SIZES) as NumberType[]) {
  const names: Array<[string, boolean]> =
    SIZES[type] === 1
      ? [[type, false]]
      : [
          [`${type}BE`, false],
          [`${type}LE`, true],
        ]
  for (const [name, little] of names) {
    Object.defineProperty(ByteSink.prototype, `write${name}`, {
      value(this: ByteSink, value: number) {
        this.writeNumber(type, little, value)
      },
    })
  }
}

/** The TrueType program holding `gids` (in that order: glyph id i of the subset is gids[i]). */
export function subsetProgram(font: Font, gids: number[]): Uint8Array {
  const subset = font.createSubset() as unknown as Encodable
  for (const gid of gids) subset.includeGlyph(gid)
  const sink = new ByteSink()
  subset.encode(sink)
  return sink.bytes()
}

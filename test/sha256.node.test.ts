// The synchronous SHA-256 that checks every API token against its stored digest must agree with
// the runtime's own: on the FIPS 180-4 examples, at every length around the block boundaries, and
// on arbitrary text.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sha256Sync } from '../src/shared/secrets'

const hex = (digest: ArrayBuffer | Uint8Array) =>
  Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
const subtle = async (text: string) => hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))

describe('sha256Sync', () => {
  it('gives the FIPS 180-4 digests', () => {
    expect(hex(sha256Sync(''))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(hex(sha256Sync('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(hex(sha256Sync('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    )
  })

  it('agrees with crypto.subtle at every length from 0 to 300 bytes', async () => {
    for (let n = 0; n <= 300; n++) {
      const text = Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 7 + n) % 90))).join('')
      expect(hex(sha256Sync(text)), `length ${n}`).toBe(await subtle(text))
    }
  })

  it('agrees with crypto.subtle on arbitrary text, multi-byte characters included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), async (text) => {
        expect(hex(sha256Sync(text))).toBe(await subtle(text))
      }),
      { seed: 20_26_11_22, numRuns: 500 },
    )
  })
})

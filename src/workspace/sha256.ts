/**
 * SHA-256 (FIPS 180-4), synchronous. Every API request hashes its token's secret; through
 * crypto.subtle that is a promise, a buffer copy and a trip through the runtime, several times the
 * cost of the hash itself, on the path of every request. Tests hold it to crypto.subtle's digest.
 */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
])

// The message schedule, reused: the object is single-threaded and the function never yields.
const W = new Uint32Array(64)
const encoder = new TextEncoder()

const ror = (x: number, n: number) => (x >>> n) | (x << (32 - n))

/** A string's UTF-8 bytes, padded as SHA-256 pads a message: 0x80, zeros, the length in bits. */
function padded(text: string): Uint8Array {
  let bytes: Uint8Array | undefined
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      bytes = encoder.encode(text)
      break
    }
  }
  const length = bytes ? bytes.length : text.length
  const message = new Uint8Array((((length + 8) >> 6) + 1) << 6)
  // Tokens are ASCII: their characters are their bytes.
  if (bytes) message.set(bytes)
  else for (let i = 0; i < length; i++) message[i] = text.charCodeAt(i)
  message[length] = 0x80
  const end = message.length
  const high = Math.floor(length / 0x20000000)
  const low = (length << 3) >>> 0
  message[end - 8] = high >>> 24
  message[end - 7] = high >>> 16
  message[end - 6] = high >>> 8
  message[end - 5] = high
  message[end - 4] = low >>> 24
  message[end - 3] = low >>> 16
  message[end - 2] = low >>> 8
  message[end - 1] = low
  return message
}

/** The SHA-256 digest of a string's UTF-8 bytes. */
export function sha256Sync(text: string): ArrayBuffer {
  const m = padded(text)
  let h0 = 0x6a09e667,
    h1 = 0xbb67ae85,
    h2 = 0x3c6ef372,
    h3 = 0xa54ff53a,
    h4 = 0x510e527f,
    h5 = 0x9b05688c,
    h6 = 0x1f83d9ab,
    h7 = 0x5be0cd19
  for (let block = 0; block < m.length; block += 64) {
    for (let i = 0, j = block; i < 16; i++, j += 4)
      W[i] = (m[j]! << 24) | (m[j + 1]! << 16) | (m[j + 2]! << 8) | m[j + 3]!
    for (let i = 16; i < 64; i++) {
      const w15 = W[i - 15]!
      const w2 = W[i - 2]!
      const s0 = ror(w15, 7) ^ ror(w15, 18) ^ (w15 >>> 3)
      const s1 = ror(w2, 17) ^ ror(w2, 19) ^ (w2 >>> 10)
      W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0
    }
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4,
      f = h5,
      g = h6,
      h = h7
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0
      const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
      h = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    h0 = (h0 + a) | 0
    h1 = (h1 + b) | 0
    h2 = (h2 + c) | 0
    h3 = (h3 + d) | 0
    h4 = (h4 + e) | 0
    h5 = (h5 + f) | 0
    h6 = (h6 + g) | 0
    h7 = (h7 + h) | 0
  }
  const words = [h0, h1, h2, h3, h4, h5, h6, h7]
  const digest = new Uint8Array(32)
  for (let i = 0; i < 8; i++) {
    const word = words[i]!
    digest[i * 4] = word >>> 24
    digest[i * 4 + 1] = word >>> 16
    digest[i * 4 + 2] = word >>> 8
    digest[i * 4 + 3] = word
  }
  return digest.buffer
}

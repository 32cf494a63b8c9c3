/** Secrets and their digests, for API tokens (workspace/access.ts) and the operator's key (http/guards.ts). */
import { hex } from '@scure/base'

const encoder = new TextEncoder()

export const randomHex = (bytes: number) => hex.encode(crypto.getRandomValues(new Uint8Array(bytes)))

export async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-256', encoder.encode(text))
}

/** Equal-length digests compared without an early exit. */
export function digestsEqual(a: ArrayBuffer, b: ArrayBuffer): boolean {
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b)
}

/**
 * An API token: `mls_<id>_<secret>`. The id finds the record, the 256-bit secret is checked against
 * its digest. The worker refuses anything of another form before it reads a body.
 */
export const TOKEN = /^mls_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/

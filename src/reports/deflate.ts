import { deflateSync } from 'node:zlib'

/**
 * zlib-wrapped deflate (PDF FlateDecode), native and synchronous (`nodejs_compat`). A stream-based
 * CompressionStream needs several trips through the event loop per page, and with reports rendered
 * side by side every trip let another report run first: slower, and a long tail of waits.
 */
export function deflate(bytes: Uint8Array): Uint8Array {
  const out = deflateSync(bytes)
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength)
}

// The one function of node:zlib the reports use (the runtime provides it under nodejs_compat).
declare module 'node:zlib' {
  export function deflateSync(data: Uint8Array): Uint8Array
}

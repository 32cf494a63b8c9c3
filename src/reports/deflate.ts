/** zlib-wrapped deflate (PDF FlateDecode) with the runtime's native CompressionStream: far faster than pako. */
export async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/**
 * A TCP proxy between a cart and its production, to cut the network and bring it back: cut, every
 * open connection is reset and new ones are refused at once (as a set with no network answers);
 * `delayMs` holds each chunk back, as a slow link does.
 */
import { createServer, connect, type Socket } from 'node:net'

export type Proxy = { port: number; cut(): void; restore(): void; close(): Promise<void> }

export async function startProxy(port: number, target: number, delayMs = 0): Promise<Proxy> {
  let open = true
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const slow = (from: Socket, to: Socket) =>
    from.on('data', (chunk) => {
      if (!delayMs) to.write(chunk)
      else setTimeout(() => to.writable && to.write(chunk), delayMs)
    })
  const server = createServer((client) => {
    track(client)
    if (!open) return client.resetAndDestroy()
    const upstream = connect(target, '127.0.0.1')
    track(upstream)
    slow(client, upstream)
    slow(upstream, client)
    client.once('end', () => upstream.end())
    upstream.once('end', () => client.end())
    client.once('close', () => upstream.destroy())
    upstream.once('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    port,
    cut() {
      open = false
      for (const socket of sockets) socket.resetAndDestroy()
    },
    restore() {
      open = true
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

import { describe, expect, it } from 'vitest'
import { BASE, approvedToken, call, fetchWorker, makeLog, operator, withProject } from './helpers'

/** GET /sync/live as a cart asks for it; the answer's body is read where there is one. */
async function listen(token: string, query = '', headers: Record<string, string> = { upgrade: 'websocket' }) {
  const response = await fetchWorker(
    new Request(`${BASE}/sync/live${query}`, { headers: { 'x-api-token': token, ...headers } }),
  )
  if (response.status === 101) return { status: 101, socket: response.webSocket!, body: undefined }
  return { status: response.status, socket: undefined, body: await response.json() }
}

/** The next message or close of a socket, or `nothing` after `ms`. */
function next(socket: WebSocket, ms = 1000): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done('nothing'), ms)
    const done = (what: string) => {
      clearTimeout(timer)
      socket.removeEventListener('message', onMessage)
      socket.removeEventListener('close', onClose)
      resolve(what)
    }
    const onMessage = (event: MessageEvent) => done(String(event.data))
    const onClose = (event: CloseEvent) => done(`closed ${event.code} ${event.reason}`)
    socket.addEventListener('message', onMessage)
    socket.addEventListener('close', onClose)
  })
}

/** Closes a socket and waits until the service closed its end. */
function closed(socket: WebSocket) {
  const answered = next(socket)
  socket.close(1000, 'done')
  return answered
}

describe('GET /sync/live', () => {
  it('says `changed` once for a burst of writes, answers ping, and goes quiet for a revoked token', async () => {
    const { token, project } = await withProject()
    const { status, socket } = await listen(token, `?project=${project.id}`)
    expect(status).toBe(101)
    socket!.accept()
    expect(await next(socket!, 300)).toBe('nothing')

    // Ten writes at once are told in a message or two, not one a write: a message follows a burst.
    const heard: string[] = []
    const listening = (event: MessageEvent) => heard.push(String(event.data))
    socket!.addEventListener('message', listening)
    const ids = Array.from({ length: 10 }, (_, i) => `D${String(i + 1).padStart(3, '0')}`)
    const written = await Promise.all(ids.map((id, i) => call('POST', '/log', { token, body: makeLog(id, i + 1) })))
    expect(written.map((w) => w.status)).toEqual(ids.map(() => 201))
    await new Promise((r) => setTimeout(r, 500))
    socket!.removeEventListener('message', listening)
    expect(heard.length).toBeGreaterThanOrEqual(1)
    expect(heard.length).toBeLessThanOrEqual(2)
    expect(new Set(heard)).toEqual(new Set(['changed']))

    socket!.send('ping')
    expect(await next(socket!)).toBe('pong')

    // A patch and a delete are writes too.
    const patched = next(socket!)
    expect((await call('PATCH', '/log/D001', { token, body: { unit: 'Second unit' } })).status).toBe(200)
    expect(await patched).toBe('changed')

    // Listening again with the same token: the older socket goes.
    const replaced = next(socket!)
    const second = await listen(token)
    second.socket!.accept()
    expect(await replaced).toBe('closed 4409 Listening again')

    // Revoked, the token's socket is closed at once.
    const { body } = await operator('GET', '/approve/tokens')
    const closedNow = next(second.socket!)
    expect((await operator('DELETE', `/approve/tokens/${body.tokens[0].id}`)).status).toBe(200)
    expect(await closedNow).toBe('closed 4401 Token revoked')
  })

  it('refuses what is not a WebSocket, an unknown token, another project, and says why', async () => {
    const { token, project } = await withProject()
    expect(await listen(token, '', {})).toEqual({
      status: 426,
      socket: undefined,
      body: { error: 'Upgrade Required: GET /sync/live is a WebSocket' },
    })
    expect(await listen(`mls_${'0'.repeat(16)}_${'A'.repeat(43)}`)).toEqual({
      status: 401,
      socket: undefined,
      body: { error: 'Unauthorized' },
    })
    expect(await listen('not a token')).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
    expect(await listen(token, '?project=another')).toEqual({
      status: 409,
      socket: undefined,
      body: { error: 'The project this cart is linked to is not the one loaded here: load it again' },
    })
    // Without a project named, the active one; a close is answered.
    const { status, socket } = await listen(token, `?project=${project.id}`)
    expect(status).toBe(101)
    socket!.accept()
    expect(await closed(socket!)).toBe('closed 1000 Closed')
  })

  it('takes at most 64 listeners at once, and one more once one closed', { timeout: 60_000 }, async () => {
    const { token } = await withProject()
    const sockets: WebSocket[] = []
    for (let i = 0; i < 64; i++) {
      const { status, socket } = await listen(i ? await approvedToken(`Office ${i}`) : token)
      expect(status).toBe(101)
      socket!.accept()
      sockets.push(socket!)
    }
    const more = await approvedToken('One more')
    expect(await listen(more)).toEqual({ status: 429, socket: undefined, body: { error: '64 carts listen already' } })
    expect(await closed(sockets.pop()!)).toBe('closed 1000 Closed')
    const { status, socket } = await listen(more)
    expect(status).toBe(101)
    socket!.accept()
    sockets.push(socket!)
    await Promise.all(sockets.map((s) => closed(s)))
  })
})

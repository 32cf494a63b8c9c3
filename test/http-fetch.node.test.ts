// The command's requests go over node:http (bin/http-fetch.mjs), not Node's fetch: what the
// service's client reads of an answer must read the same, and a failure must look as fetch's does,
// which the command turns into "nothing answers at …".
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MediaLogClient, MediaLogError } from '../src/client'

const { httpFetch } = (await import('../bin/http-fetch.mjs' as string)) as { httpFetch: typeof fetch }

let server: Server
let base = ''
/** The connection each request came on. */
const sockets: unknown[] = []
const seen: Array<{ method?: string; url?: string; headers: Record<string, unknown>; body: string }> = []

beforeAll(async () => {
  server = createServer((req, res) => {
    sockets.push(req.socket)
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body })
      if (req.url === '/moved') return res.writeHead(302, { location: 'http://elsewhere.example/' }).end()
      if (req.url === '/bom')
        return res.writeHead(200, { 'content-type': 'application/json' }).end('\uFEFF{"name":"Unité 🎬"}')
      if (req.url === '/pdf')
        return res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from([37, 80, 0, 255]))
      if (req.url === '/tagged') return res.writeHead(304, { etag: '"a"' }).end()
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Log not found"}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('the command’s fetch', () => {
  it('sends the method, headers and body, and reads the answer as fetch does', async () => {
    const client = new MediaLogClient({ baseUrl: base, token: 't0ken', fetch: httpFetch })
    const sent = await client.send('POST', '/bom', { a: 1 })
    // The byte order mark dropped, the text decoded as UTF-8.
    expect(sent).toEqual({ status: 200, body: { name: 'Unité 🎬' }, text: '{"name":"Unité 🎬"}' })
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/bom',
      headers: { 'x-api-token': 't0ken', 'content-type': 'application/json' },
      body: '{"a":1}',
    })
    expect(await client.send('GET', '/pdf')).toEqual({
      status: 200,
      body: undefined,
      text: '',
      bytes: new Uint8Array([37, 80, 0, 255]),
    })
    expect(await client.send('GET', '/tagged')).toEqual({ status: 304, body: undefined, text: '', etag: '"a"' })
    await expect(client.log('D001')).rejects.toMatchObject({ status: 404, error: 'Log not found' })
  })

  it('keeps its connection through answers with no body, and fails a header that cannot be sent', async () => {
    const client = new MediaLogClient({ baseUrl: base, token: 't0ken', fetch: httpFetch })
    for (let i = 0; i < 5; i++) expect((await client.send('GET', '/tagged')).status).toBe(304)
    // One closed after each answer would make five; a connection freed a moment after the next
    // request set out, as with Node's fetch, makes two.
    expect(new Set(sockets.slice(-5)).size).toBeLessThanOrEqual(2)
    const newline = new MediaLogClient({ baseUrl: base, token: 't0ken\nx', fetch: httpFetch })
    await expect(newline.send('GET', '/tagged')).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'ERR_INVALID_CHAR' },
    })
    await expect(httpFetch('not a url')).rejects.toMatchObject({ message: 'fetch failed' })
  })

  it('never follows a redirect', async () => {
    const client = new MediaLogClient({ baseUrl: base, token: 't0ken', fetch: httpFetch })
    const before = seen.length
    const refused = await client.send('GET', '/moved').catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(MediaLogError)
    expect(refused).toMatchObject({ status: 302 })
    expect(seen.length).toBe(before + 1)
  })

  it('fails as fetch fails where nothing answers: a TypeError whose cause is the refused connection', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const failed = await httpFetch(`http://127.0.0.1:${port}/ping`).catch((err: unknown) => err)
    expect(failed).toBeInstanceOf(TypeError)
    expect(failed).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } })
  })
})

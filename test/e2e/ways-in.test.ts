/**
 * Every port either start command opens, tried the way an attacker on this machine would: a local
 * process, a web page on another localhost port spraying ports in Chromium, and DNS rebinding (a
 * foreign Host). Miniflare's loopback server once wrote any file for anyone
 * (`/core/store-temp-file?prefix=../..`), and `wrangler dev` opened inspectors that run code in
 * the worker for any page; none of that may answer, and the service must still work.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openBrowser } from './browser'
import {
  ONE_CLIP_LOG,
  copyOfTree,
  launch,
  listeningSockets,
  type Command,
  type Launched,
  type Listening,
} from './launch'
import { approvedToken, jsonCaller } from './server'

type Answer = { status: number; body: string } | { error: string }

/** One HTTP/1.1 request with exactly these headers (fetch would not send a foreign Host). */
function raw(
  host: string,
  port: number,
  path: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: host.replace(/^\[|\]$/g, ''), port, path, method, headers, timeout: 5000, setHost: !('host' in headers) },
      (res) => {
        let text = ''
        res.on('data', (d) => (text += d))
        res.on('end', () => resolve({ status: res.statusCode!, body: text }))
        res.on('error', (e) => resolve({ error: e.message }))
      },
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', (e) => resolve({ error: e.message }))
    req.end(body)
  })
}

/** The traversal that wrote /tmp/x.sh: a prefix climbing out of Miniflare's temporary folder into `target`. */
const traversal = (target: string) =>
  `/core/store-temp-file?prefix=${encodeURIComponent('../'.repeat(24) + relative('/', target))}&extension=sh`
const traversalByExtension = (target: string) =>
  `/core/store-temp-file?extension=${encodeURIComponent(`/../${'../'.repeat(24)}${relative('/', target)}/x.sh`)}`

/**
 * A page on another localhost port that knows nothing but a list of ports: it posts the traversal
 * to each (`no-cors`, as any page may) and opens a WebSocket to each as a debugger would.
 */
function hostilePage(ports: Array<{ host: string; port: number }>, target: string) {
  const paths = [traversal(target), traversalByExtension(target)]
  return `<!doctype html><title>hostile</title><script>
    const ports = ${JSON.stringify(ports)}, paths = ${JSON.stringify(paths)};
    (async () => {
      const tries = [];
      for (const { host, port } of ports) {
        for (const path of paths) tries.push(fetch('http://' + host + ':' + port + path, { method: 'POST', mode: 'no-cors', body: 'echo owned' }).catch(() => {}));
        for (const path of ['/', '/ws', '/core:user:media-log-service']) tries.push(new Promise((done) => {
          const ws = new WebSocket('ws://' + host + ':' + port + path);
          ws.onopen = () => { ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: '1' } })); document.title += ' opened:' + port; setTimeout(done, 200) };
          ws.onerror = ws.onclose = () => done();
          setTimeout(done, 2000);
        }));
      }
      await Promise.all(tries);
      document.body.dataset.done = 'yes';
    })();
  </script>`
}

const running: Array<{ service?: Launched; remove: () => void }> = []
afterAll(async () => {
  for (const { service, remove } of running) {
    await service?.stop()
    remove()
  }
})

describe.each<[Command, number]>([
  ['start', 5611],
  ['dev', 5621],
])('npm %s', (command, port) => {
  const tree = copyOfTree()
  // Where the traversal aims: it must stay empty.
  const target = mkdtempSync(join(tmpdir(), 'media-log-target-'))
  const entry: (typeof running)[number] = {
    remove: () => (tree.remove(), rmSync(target, { recursive: true, force: true })),
  }
  running.push(entry)
  let service: Launched
  let sockets: Listening[] = []

  it('serves: a token through approval, a log posted and read back', async () => {
    service = await launch(command, { dir: tree.dir, port, state: join(tree.dir, '.wrangler', 'state') })
    entry.service = service
    const call = jsonCaller(service)
    const token = await approvedToken(call)
    const log = ONE_CLIP_LOG
    expect((await call('POST', '/project/create', { token, body: { project_name: 'Ways In' } })).status).toBe(201)
    expect(await call('POST', '/log', { token, body: log })).toEqual({ status: 201, body: { success: true } })
    expect(await call('GET', '/log/D001', { token })).toEqual({ status: 200, body: log })
  })

  it('listens on loopback only, and no port speaks the DevTools protocol', async () => {
    sockets = listeningSockets(service.child.pid!)
    expect(
      sockets
        .filter((s) => s.port === port)
        .map((s) => s.host)
        .sort(),
    ).toEqual(['127.0.0.1', '[::1]'])
    // The loopback server and workerd's entry socket at least, besides the service's own port.
    expect(sockets.length).toBeGreaterThanOrEqual(4)
    for (const socket of sockets) {
      expect(['127.0.0.1', '[::1]'], JSON.stringify(socket)).toContain(socket.host)
      for (const path of ['/json/version', '/json/list']) {
        const answer = await raw(socket.host, socket.port, path)
        expect(
          'body' in answer && answer.body.includes('webSocketDebuggerUrl'),
          `${socket.host}:${socket.port}${path}`,
        ).toBe(false)
        expect(
          'status' in answer && answer.status === 200,
          `${socket.host}:${socket.port}${path} answered ${JSON.stringify(answer)}`,
        ).toBe(false)
      }
    }
  })

  it('writes no file for a local process, on any port', async () => {
    for (const { host, port } of sockets) {
      for (const path of [traversal(target), traversalByExtension(target)]) {
        const answer = await raw(host, port, path, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'echo owned',
        })
        expect('status' in answer && answer.status === 200, `${host}:${port} answered ${JSON.stringify(answer)}`).toBe(
          false,
        )
      }
    }
    expect(readdirSync(target)).toEqual([])
  })

  it('refuses a rebinding Host on every port', async () => {
    for (const { host, port } of sockets) {
      const foreign = { host: `rebind.test:${port}` }
      for (const [method, path] of [
        ['GET', '/'],
        ['GET', '/ping'],
        ['GET', '/approve'],
        ['GET', '/core/do-storage/x'],
        ['GET', '/core/dev-registry'],
        ['POST', traversal(target)],
      ] as const) {
        const answer = await raw(host, port, path, {
          method,
          headers: foreign,
          body: method === 'POST' ? 'echo owned' : undefined,
        })
        expect('status' in answer ? answer.status : answer.error, `${method} ${host}:${port}${path}`).toBe(403)
      }
    }
    expect(readdirSync(target)).toEqual([])
  })

  it('a page on another localhost port, spraying every port from Chromium, writes nothing and opens no debugger', async () => {
    // A server that answers the spray as the old loopback server did, to show the page's requests arrive.
    const canaryHits: string[] = []
    const canary: Server = createServer((req, res) => {
      canaryHits.push(`${req.method} ${req.url}`)
      res.end()
    })
    const page: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(hostilePage([...sockets, { host: '127.0.0.1', port: canaryPort }], target))
    })
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r))
    const canaryPort = (canary.address() as { port: number }).port
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r))
    const browser = await openBrowser()
    try {
      const tab = await browser.context.newPage()
      await tab.goto(`http://localhost:${(page.address() as { port: number }).port}/`)
      await tab.waitForSelector('body[data-done="yes"]', { state: 'attached', timeout: 60_000 })
      const opened = (await tab.title()).split(' ').filter((w) => w.startsWith('opened:'))
      expect(canaryHits.filter((hit) => hit.startsWith('POST /core/store-temp-file')).length).toBe(2)
      expect(opened.filter((w) => w !== `opened:${canaryPort}`)).toEqual([])
    } finally {
      await browser.close()
      canary.close()
      page.close()
    }
    expect(readdirSync(target)).toEqual([])
  })

  if (command === 'start') {
    it('answers malformed requests without a stack in its output', async () => {
      const send = (text: string) =>
        new Promise<string>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => socket.end(text))
          let answer = ''
          socket.on('data', (d) => (answer += d))
          socket.on('close', () => resolve(answer.split('\r\n')[0]!))
          socket.on('error', () => resolve(answer))
        })
      // The worker sees this one: 400 in the error shape.
      const seen = await raw('127.0.0.1', port, '/ping', { headers: { host: 'localhost:99999999' } })
      expect(seen).toEqual({ status: 400, body: '{"error":"Invalid Host header"}' })
      // workerd answers these itself, before the worker runs; the output has one line for each.
      const before = service.output().length
      for (const request of [
        'GET /ping HTTP/1.1\r\nHost: user@localhost\r\nConnection: close\r\n\r\n',
        'GET /ping HTTP/1.1\r\nHost: localhost\r\nHost: evil.test\r\nConnection: close\r\n\r\n',
        'GET http://evil.test/ping HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
        'POST /auth HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: -1\r\nConnection: close\r\n\r\n{}',
      ]) {
        expect(await send(request)).toMatch(/^HTTP\/1\.1 [45]\d\d /)
      }
      await new Promise((r) => setTimeout(r, 300))
      const printed = service.output().slice(before).trim().split('\n')
      expect(printed).toHaveLength(4)
      for (const line of printed) expect(line).toMatch(/^workerd refused a request it could not read: /)
    })
  }

  if (command === 'dev') {
    it('reloads the worker when a source file changes', async () => {
      const meta = join(tree.dir, 'src', 'routes', 'meta.ts')
      const text = readFileSync(meta, 'utf8')
      writeFileSync(meta, text.replace("status: 'ok'", "status: 'ok', reloaded: true"))
      let answer: unknown
      for (let i = 0; i < 120; i++) {
        answer = await (await fetch(`${service.base}/ping`)).json()
        if ((answer as { reloaded?: boolean }).reloaded) break
        await new Promise((r) => setTimeout(r, 250))
      }
      expect(answer).toEqual({ status: 'ok', reloaded: true, active: true })
    })
  }

  it('keeps its state readable by this user only', () => {
    const loose: string[] = []
    const walk = (path: string) => {
      const stat = statSync(path)
      if ((stat.mode & 0o077) !== 0) loose.push(`${(stat.mode & 0o777).toString(8)} ${path}`)
      if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name))
    }
    walk(join(tree.dir, '.wrangler'))
    expect(loose).toEqual([])
  })
})

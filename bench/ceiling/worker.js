// What a Worker + Durable Object costs with nothing of the service on top: no router, no
// validation, no token. GET /log/:id answers the stored JSON text, POST /log stores the body.
import { DurableObject } from 'cloudflare:workers'

export class Store extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env)
    this.sql = ctx.storage.sql
    this.sql.exec('CREATE TABLE IF NOT EXISTS logs (id TEXT PRIMARY KEY, body TEXT NOT NULL)')
  }

  get(id) {
    return this.sql.exec('SELECT body FROM logs WHERE id = ?', id).toArray()[0]?.body ?? null
  }

  put(id, body) {
    this.sql.exec('INSERT OR REPLACE INTO logs (id, body) VALUES (?, ?)', id, body)
  }
}

const json = (body, status = 200) => new Response(body, { status, headers: { 'content-type': 'application/json' } })

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url)
    const store = env.STORE.get(env.STORE.idFromName('store'))
    if (pathname === '/ping') return json('{"status":"ok"}')
    if (request.method === 'POST' && pathname === '/log') {
      const body = await request.text()
      // The log's id, as any store of logs needs it; the same cost the service pays to read it.
      await store.put(JSON.parse(body).id, body)
      return json('{"success":true}', 201)
    }
    if (request.method === 'GET' && pathname.startsWith('/log/')) {
      const body = await store.get(decodeURIComponent(pathname.slice(5)))
      return body === null ? json('{"error":"Log not found"}', 404) : json(body)
    }
    return json('{"error":"Not found"}', 404)
  },
}

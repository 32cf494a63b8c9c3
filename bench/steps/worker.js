// Runs one step of POST /log `n` times in a row inside workerd; bench/steps.mjs times each call
// from outside. Whole requests on these machines swing by ±15% from one second to the next, a
// step repeated a thousand times in one call by a few percent. Worker steps meet stubs that answer
// at once instead of the Durable Objects; Durable Object steps write `n` logs in one call, so the
// commit each request pays (the same for both) is left out.
import service from '../../src/index'
import { parseJson, parseObject, readJsonBody } from '../../src/http/body'
import { certainlyValidLog } from '../../src/schemas/plain-log'
import { Workspace } from '../../src/workspace/Workspace'
import ceiling, { Store as CeilingStore } from '../ceiling/worker.js'

const answered = Promise.resolve(undefined)
const stubbed = (methods) => ({ idFromName: () => ({}), get: () => methods })
const serviceEnv = {
  WORKSPACE: stubbed({ createLog: () => answered }),
  ALLOWED_HOSTS: '',
}
const ceilingEnv = { STORE: stubbed({ put: () => answered }) }
const ctx = { waitUntil() {}, passThroughOnException() {} }

/** Each step takes a fresh request carrying the log and reads its body, as a real one would. */
const STEPS = {
  request: (request) => request.arrayBuffer(),
  text: (request) => request.text(),
  read: (request) => readJsonBody(request),
  parse: async (request) => JSON.parse(await request.text()),
  walk: async (request) => parseJson(await request.text()),
  check: async (request) => certainlyValidLog(parseObject(await request.text())),
  ceiling: (request) => ceiling.fetch(request, ceilingEnv, ctx),
  service: (request) => service.fetch(request, serviceEnv, ctx),
}

/** The service's workspace with a token approved through its own approval flow. */
export class StepsWorkspace extends Workspace {
  async approve() {
    const pending = this.requestAccess({ appName: 'steps' })
    while (!this.pendingRequests().length) await new Promise((resolve) => setTimeout(resolve, 5))
    this.decide(this.pendingRequests()[0].id, 'approve')
    this.token = (await pending).value.token
    this.createProject(this.token, 'Steps')
    this.count = 0
  }

  // Called together, the writes run as one group: one commit for all, as the ceiling's loop has.
  async createLogs(n, bytes) {
    const writes = Array.from({ length: n }, () =>
      this.createLog(this.token, bytes, {
        checked: { id: `L${this.count++}`, day: 1, date: '2024-01-01', summary: '{}' },
      }),
    )
    for (const failure of await Promise.all(writes)) if (failure) throw new Error(JSON.stringify(failure))
  }
}

export class Store extends CeilingStore {
  count = 0

  createLogs(n, text) {
    for (let i = 0; i < n; i++) this.put(`L${this.count++}`, text)
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url)
    const step = url.searchParams.get('step')
    const n = Number(url.searchParams.get('n'))
    const [before, after] = (await request.text()).split('@ID@')
    if (step === 'workspace' || step === 'store') {
      const bytes = new TextEncoder().encode(`${before}L${after}`)
      const workspace = env.WORKSPACE.get(env.WORKSPACE.idFromName('steps'))
      if (step === 'workspace') await workspace.createLogs(n, bytes)
      else await env.STORE.get(env.STORE.idFromName('steps')).createLogs(n, new TextDecoder().decode(bytes))
      return new Response('done')
    }
    if (step === 'approve') {
      await env.WORKSPACE.get(env.WORKSPACE.idFromName('steps')).approve()
      return new Response('done')
    }
    const run = STEPS[step]
    if (!run) return new Response(`no step ${step}`, { status: 404 })
    for (let i = 0; i < n; i++) {
      const body = `${before}c${i.toString(36)}${after}`
      const headers = {
        host: '127.0.0.1',
        'content-type': 'application/json',
        'content-length': String(body.length),
        'x-api-token': 'mls_0',
      }
      const answer = await run(new Request('http://127.0.0.1/log', { method: 'POST', body, headers }))
      if (answer instanceof Response && answer.status !== 201)
        return new Response(`${step}: ${answer.status} ${await answer.text()}`, { status: 500 })
    }
    return new Response('done')
  },
}

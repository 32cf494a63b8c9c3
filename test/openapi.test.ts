// GET /openapi.json: the contract, served without a token, naming every route of the router's
// table and nothing else.
import { describe, expect, it } from 'vitest'
import { router } from '../src/router'
import { call, fetchWorker } from './helpers'

const METHODS = ['get', 'post', 'patch', 'delete', 'put']

describe('GET /openapi.json', () => {
  it('answers an OpenAPI 3.1 document without a token', async () => {
    const answer = await call('GET', '/openapi.json')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toContain('application/json')
    expect(answer.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Media-Log Service' } })
  })

  it('names as its server the address it was fetched at: a generated client calls that service', async () => {
    expect((await call('GET', '/openapi.json')).body.servers).toEqual([{ url: 'http://localhost:5252' }])
    const elsewhere = await fetchWorker(new Request('http://127.0.0.1:6001/openapi.json'))
    expect(((await elsewhere.json()) as { servers: unknown }).servers).toEqual([{ url: 'http://127.0.0.1:6001' }])
    // A request whose URL names another host than its (checked) Host header: the Host is named.
    const absolute = await fetchWorker(
      new Request('http://evil.example:1/openapi.json', { headers: { host: 'localhost:5252' } }),
    )
    expect(((await absolute.json()) as { servers: unknown }).servers).toEqual([{ url: 'http://localhost:5252' }])
  })

  it("documents every route of the router's table, and nothing else", async () => {
    const { body } = await call('GET', '/openapi.json')
    const documented = Object.entries(body.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((k) => METHODS.includes(k))
          .map((m) => `${m.toUpperCase()} ${path}`),
      )
      .sort()
    // The table's own routes; each path's catch-all that answers 405 is not an operation.
    const routed = router.routes
      .filter(([method]) => method !== 'ALL')
      .map(([method, , , path]) => `${method} ${path!.replace(/:(\w+)/g, '{$1}')}`)
      .sort()
    expect(documented).toEqual(routed)
  })

  it('describes every answer of every operation, errors included', async () => {
    const { body } = await call('GET', '/openapi.json')
    const undescribed = Object.entries(body.paths as Record<string, Record<string, { responses?: object }>>).flatMap(
      ([path, item]) =>
        Object.entries(item)
          .filter(([method]) => METHODS.includes(method))
          .flatMap(([method, op]) =>
            Object.entries(op.responses ?? {})
              .filter(([, answer]) => typeof (answer as { description?: unknown }).description !== 'string')
              .map(([status]) => `${method} ${path} ${status}`),
          ),
    )
    expect(undescribed).toEqual([])
  })

  it('asks for the API token where the service does, and for the operator where it does', async () => {
    const { body } = await call('GET', '/openapi.json')
    expect(body.paths['/log/{id}'].get.security).toEqual([{ apiToken: [] }])
    expect(body.paths['/approve/tokens'].get.security).toEqual([{ operatorKey: [] }, { operatorSession: [] }])
    expect(body.paths['/ping'].get.security).toEqual([])
    expect(body.components.securitySchemes.apiToken).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-token',
      description: 'A token from POST /auth',
    })
  })
})

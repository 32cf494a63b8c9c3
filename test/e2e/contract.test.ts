/**
 * The contract and the service cannot drift: the OpenAPI document validates as OpenAPI 3.1 (a
 * validator from npm), and the document's and the README's examples, sent to the running service,
 * get answers that its response schemas accept (Ajv, JSON Schema 2020-12), with statuses it names.
 */
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApiDocument } from '../../src/openapi/document'
import { approvedToken, freePort, jsonCaller, startService, type Call, type Service } from './server'

type Doc = {
  paths: Record<string, Record<string, any>>
  components: { schemas: Record<string, object> }
}

let service: Service
let call: Call
let doc: Doc

beforeAll(async () => {
  service = await startService({ port: await freePort(5960, 5969) })
  call = jsonCaller(service)
  doc = (await call('GET', '/openapi.json')).body
})

afterAll(async () => {
  await service?.stop()
})

const ajv = new Ajv2020({ strict: false, allErrors: true })

/** The operation a request path falls under (`/log/D001` is `/log/{id}`). */
function operationOf(method: string, path: string) {
  const bare = path.split('?')[0]!
  const entry = Object.entries(doc.paths).find(([template]) =>
    new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+').replace(/\./g, '\\.')}$`).test(bare),
  )
  return entry?.[1][method.toLowerCase()]
}

/** The answer is one the document names, and its body fits the schema given for that status. */
function expectDocumented(method: string, path: string, answer: { status: number; body: unknown; bytes?: Uint8Array }) {
  const operation = operationOf(method, path)
  expect(operation, `${method} ${path} is documented`).toBeDefined()
  const response = operation.responses[String(answer.status)]
  expect(response, `${method} ${path} documents ${answer.status}`).toBeDefined()
  if (answer.bytes) {
    // A file: the media type the document names, and a PDF's first bytes.
    expect(Object.keys(response.content), `${method} ${path}`).toEqual(['application/pdf'])
    expect(new TextDecoder().decode(answer.bytes.subarray(0, 5))).toBe('%PDF-')
    return
  }
  let schema = response.content['application/json'].schema
  if (schema.$ref) schema = doc.components.schemas[schema.$ref.split('/').at(-1)]
  const validate = ajv.compile(schema)
  expect(validate(answer.body), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true)
}

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1 and is what the service serves', async () => {
    const result = await new Validator().validate(openApiDocument('0.1.0') as object)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument((doc as any).info.version, service.base))))
    // The server it names is the one it was fetched from.
    expect((doc as any).servers).toEqual([{ url: service.base }])
  })

  it("answers the document's and the README's examples as the document says", async () => {
    const example = (method: string, path: string) =>
      operationOf(method, path).requestBody?.content['application/json'].example
    const send = async (method: string, path: string, options: Parameters<Call>[2] = {}) => {
      const answer = await call(method, path, options)
      expectDocumented(method, path, answer)
      return answer
    }
    const token = await approvedToken(call, example('POST', '/auth').appName)
    expect((await send('POST', '/project/create', { token, body: example('POST', '/project/create') })).status).toBe(
      201,
    )
    expect((await send('PATCH', '/project/config', { token, body: example('PATCH', '/project/config') })).status).toBe(
      200,
    )
    // The presets the README's examples name.
    const presets = {
      pdfs: [{ id: 'clips', label: 'Clips', output_name: 'clips.pdf', template: 'clips-report' }],
      emails: [{ id: 'daily', label: 'Daily', recipients: ['p@example.com'], subject: 'Day <d>' }],
    }
    expect((await send('PATCH', '/project/config', { token, body: presets })).status).toBe(200)
    expect((await send('POST', '/log', { token, body: example('POST', '/log') })).status).toBe(201)
    const day2 = { ...example('POST', '/log'), id: 'D002', day: 2, date: '2024-03-02' }
    expect((await send('POST', '/log', { token, body: day2 })).status).toBe(201)
    expect((await send('GET', '/log/D001', { token })).body).toEqual(example('POST', '/log'))
    expect((await send('PATCH', '/log/D001', { token, body: example('PATCH', '/log/{id}') })).status).toBe(200)
    for (const path of ['/logs', '/projects', '/project', '/project/config', '/pdf-presets', '/email-presets'])
      expect((await send('GET', path, { token })).status).toBe(200)
    // The document's import example: the example day's clip, copied to a shuttle, merged in.
    const imported = await send('POST', '/log/D001/import', { token, body: example('POST', '/log/{id}/import') })
    expect(imported).toEqual({
      status: 200,
      body: operationOf('POST', '/log/{id}/import').responses['200'].content['application/json'].example,
    })
    expect((await send('GET', '/log/D001/checks', { token })).status).toBe(200)
    expect((await send('GET', '/checks?from=1&to=2', { token })).status).toBe(200)
    expect((await send('POST', '/generate-pdf', { token, body: example('POST', '/generate-pdf') })).status).toBe(200)
    expect((await send('GET', '/log/D001/pdf/clips', { token })).status).toBe(200)
    expect((await send('GET', '/pdf/clips?from=1&to=2', { token })).status).toBe(200)
    expect((await send('GET', '/pdf/nope1', { token })).status).toBe(404)
    expect(
      (await send('POST', '/open-email-window', { token, body: example('POST', '/open-email-window') })).status,
    ).toBe(200)
    for (const path of ['/ping', '/version']) expect((await send('GET', path)).status).toBe(200)
    for (const path of [
      '/approve/requests',
      '/approve/tokens',
      '/approve/windows',
      '/approve/days',
      '/approve/days/D001',
    ])
      expect((await send('GET', path, { operator: true })).status).toBe(200)
    // Refusals too: each is a status the document names, in the one error shape.
    expect((await send('GET', '/log/nope', { token })).status).toBe(404)
    expect((await send('POST', '/log', { token, body: { id: 'D003' } })).status).toBe(400)
    expect((await send('POST', '/log/D003/import', { token, body: { files: [] } })).status).toBe(400)
    expect((await send('GET', '/logs')).status).toBe(401)
    expect((await send('POST', '/log', { token, body: example('POST', '/log') })).status).toBe(409)
    expect((await send('DELETE', '/log/D002', { token })).status).toBe(200)
  })
})

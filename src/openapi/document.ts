/**
 * GET /openapi.json: the service's contract as an OpenAPI 3.1 document, made from the route
 * declarations (api/routes.ts). Request bodies are the valibot schemas the routes validate with,
 * converted by @valibot/to-json-schema (checks it cannot express, such as a real calendar date,
 * are left to the prose of the docs); answers are the shapes in api/shapes.ts.
 */
import { toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { ID, ROUTES, type Route, type Who } from '../api/routes'
import * as shapes from '../api/shapes'

const ERRORS: Record<number, string> = {
  400: 'Validation Error: `details` names every failing property',
  401: 'Unauthorized: no token, an unknown or revoked one (or no operator session)',
  403: 'Refused: not approved, a Host not allowed, a cross-site operator request',
  404: 'Not found (the log, project, preset, request, window or path)',
  408: 'Timed out: the approval, or a body that did not arrive in time',
  409: 'Conflict: No Project Loaded, Log already exists, … (an e-mail that changed since it was shown: `{error, window}`)',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type: bodies are application/json',
  426: 'Upgrade Required: a WebSocket asked for without `Upgrade: websocket`',
  429: 'Too many: waiting approvals, unsent e-mails or listening carts',
  502: 'The e-mail provider refused the message or could not be reached',
}

const SECURITY: Record<Who, Array<Record<string, string[]>>> = {
  anyone: [],
  application: [{ apiToken: [] }],
  operator: [{ operatorKey: [] }, { operatorSession: [] }],
}

/**
 * A valibot schema as JSON Schema 2020-12, OpenAPI 3.1's dialect: the values a body may hold
 * (`ignore`: through the pipelines' transforms), or a query's text (`input`). Every object of the service
 * starts with a check that refuses arrays (schemas/shapes.ts), a custom schema the converter
 * cannot read: it stands for "an object" here.
 */
function jsonSchema(schema: v.GenericSchema, typeMode: 'ignore' | 'input' = 'ignore'): Record<string, unknown> {
  const { $schema: _, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore',
    overrideSchema: ({ valibotSchema }) => (valibotSchema.type === 'custom' ? { type: 'object' } : undefined),
  }) as Record<string, unknown>
  return rest
}

/** A PATCH body: the schema's properties, none of them required (the stored ones fill in). */
function partial(schema: v.GenericSchema): Record<string, unknown> {
  const { required: _, ...rest } = jsonSchema(schema)
  return rest
}

const errorResponse = (status: number) => ({
  description: ERRORS[status]!,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

function operationObject(name: string, op: Route) {
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: ID,
    schema: { type: 'string' },
  }))
  // Read by a valibot schema: each parameter's text, before the schema turns it into a number.
  const read = op.query && (jsonSchema(op.query.in, 'input') as { properties: Record<string, object> }).properties
  const queries = Object.entries(op.query?.about ?? {}).map(([name, description]) => ({
    name,
    in: 'query',
    required: false,
    description,
    schema: read![name],
  }))
  const [status, body] = op.ok
  const content =
    typeof body === 'string'
      ? { [body]: { schema: { type: 'string' } } }
      : {
          'application/json': {
            schema: jsonSchema(body),
            ...(op.example?.response !== undefined && { example: op.example.response }),
          },
        }
  return {
    operationId: name,
    summary: op.summary,
    ...(op.description && { description: op.description }),
    tags: [op.tag],
    security: SECURITY[op.who],
    ...(params.length + queries.length + (op.conditional ? 1 : 0) && {
      parameters: [...params, ...queries, ...(op.conditional ? [IF_NONE_MATCH] : [])],
    }),
    ...(op.body && {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: op.partial ? partial(op.body) : jsonSchema(op.body),
            ...(op.example?.request !== undefined && { example: op.example.request }),
          },
        },
      },
    }),
    responses: {
      [status]:
        status === 101
          ? { description: 'Switching Protocols: the WebSocket' }
          : { description: 'Success', ...(op.conditional && { headers: TAG_HEADERS }), content },
      ...(op.conditional && {
        304: { description: 'Not modified: the copy the request named by its tag is the answer', headers: TAG_HEADERS },
      }),
      ...(op.alsoOk && { [op.alsoOk[0]]: { description: op.alsoOk[1], content } }),
      ...Object.fromEntries(op.errors.map((s) => [s, errorResponse(s)])),
    },
  }
}

/** A conditional GET's request header (Route.conditional). */
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'the `ETag` of the answer the client holds: 304 with no body while it is still the answer',
  schema: { type: 'string' },
}

/** A conditional GET's answer headers. */
const TAG_HEADERS = {
  ETag: { description: 'the tag of what the answer was made from', schema: { type: 'string' } },
  'Cache-Control': {
    description: '`private, no-cache`: keep it, and ask again with its tag',
    schema: { type: 'string' },
  },
}

let built: Record<string, unknown> | undefined

/**
 * The document, built once per isolate. `server`: where it was fetched from, named as the one
 * server: a client generated from it calls the service it came from (a port other than 5252, a
 * deployed workspace), not a default.
 */
export function openApiDocument(version: string, server = 'http://localhost:5252'): object {
  const { openapi, info, ...rest } = documentOf(version)
  return { openapi, info, servers: [{ url: server }], ...rest }
}

function documentOf(version: string): Record<string, unknown> {
  if (built) return built
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [name, op] of Object.entries(ROUTES) as Array<[string, Route]>)
    (paths[op.path] ??= {})[op.method] = operationObject(name, op)
  built = {
    openapi: '3.1.0',
    info: {
      title: 'Media-Log Service',
      version,
      description:
        "A shooting day's logs over HTTP/JSON, approved per application by the DIT, with PDF reports, e-mail and day checks. Interface 0.1.0 and its extensions.",
    },
    tags: [
      'Logs',
      'Checks',
      'Projects',
      'Reports and e-mail',
      'Units',
      'Watch folders',
      'Service',
      'Approval',
      'Operator',
    ].map((name) => ({
      name,
    })),
    paths,
    components: {
      schemas: { Error: jsonSchema(shapes.ErrorSchema) },
      securitySchemes: {
        apiToken: { type: 'apiKey', in: 'header', name: 'x-api-token', description: 'A token from POST /auth' },
        operatorKey: { type: 'apiKey', in: 'header', name: 'x-operator-key', description: "The operator's key" },
        operatorSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'mls_operator',
          description: 'The console session (every call also sends x-csrf-token); named __Host-mls_operator over HTTPS',
        },
      },
    },
  }
  return built
}

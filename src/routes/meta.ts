import pkg from '../../package.json'
import { openApiDocument } from '../openapi/document'
import { workspace } from '../workspace/client'

const API_VERSION = '0.1.0'

/** Liveness for scripts and the start command, and whether a project is loaded: no token needed. */
export const ping = async (_request: Request, env: Env) => ({
  status: 'ok',
  active: await workspace(env).hasActiveProject(),
})

export const version = () => ({ version: { app: pkg.version, api: API_VERSION } })

/** The contract as OpenAPI 3.1, built from the schemas the routes validate with: no token needed. */
/** GET /openapi.json, naming as its server the origin it was asked at (the Host is checked before). */
export const openApi = (request: Request) => openApiDocument(pkg.version, new URL(request.url).origin)

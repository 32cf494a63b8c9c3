import pkg from '../../package.json'
import type { Handler } from '../api/call'
import { openApiDocument } from '../openapi/document'
import { holdsProductions, productionOf } from '../http/productions'
import { workspace } from '../workspace/client'

const API_VERSION = '0.1.0'

/**
 * Liveness for scripts and the start command, and whether a project is loaded: no token needed. A
 * deployment holding productions answers it outside them without asking any workspace: there the
 * workspace a laptop has would be one nobody set up, made by whoever asks.
 */
export const ping: Handler<'ping'> = async ({ env }) => ({
  status: 'ok',
  active: holdsProductions(env) && !productionOf(env) ? false : await workspace(env).hasActiveProject(),
})

export const version: Handler<'version'> = () => ({ version: { app: pkg.version, api: API_VERSION } })

/**
 * The contract as OpenAPI 3.1, built from the schemas the routes validate with: no token needed.
 * Its server is the one it was asked at, named by the Host header withAllowedHost let through (the
 * URL's own host may differ: an absolute request target), so it never names a host not allowed.
 */
export const openApi: Handler<'openApi'> = ({ request }) => {
  const url = new URL(request.url)
  return openApiDocument(pkg.version, `${url.protocol}//${request.headers.get('host') ?? url.host}`)
}

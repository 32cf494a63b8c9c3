/**
 * A deployment that holds productions (docs/units.md): `PRODUCTIONS` names them, and each is served
 * under /productions/<name>/ by its own Durable Object (one workspace per production, found by
 * name), with every route of the laptop's service. The names are the deployment's to give: a
 * path naming another is 404, so no request makes an object nobody set up.
 */
import { StatusError } from 'itty-router'

/** The environment a production's requests are handled with: its name, and where its paths start. */
export type ProductionEnv = Env & { production?: string; base?: string }

const PREFIX = '/productions/'

/** A production's name: lowercase letters, digits and dashes, as a URL and an object name take it. */
const NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/

const listed = new Map<string, Set<string>>()

function productionsOf(env: Env): Set<string> {
  const text = env.PRODUCTIONS ?? ''
  let names = listed.get(text)
  if (!names) {
    names = new Set(
      text
        .split(',')
        .map((name) => name.trim())
        .filter((name) => NAME.test(name)),
    )
    listed.set(text, names)
  }
  return names
}

/**
 * The production a path names, its env and the path within it; the path as it is otherwise. A
 * deployment holding productions serves only them, GET /ping and GET /version besides.
 */
/** PRODUCTIONS set, even to no valid name, makes a production: it never serves as a cart. */
export const holdsProductions = (env: Env) => (env.PRODUCTIONS ?? '').trim() !== ''

/** The production a request was routed to (routedTo), if any. */
export const productionOf = (env: Env) => (env as ProductionEnv).production

export function routedTo(path: string, env: Env): { env: Env; path: string } {
  const names = productionsOf(env)
  if (!path.startsWith(PREFIX)) {
    if (holdsProductions(env) && path !== '/ping' && path !== '/version')
      throw new StatusError(404, { error: 'Not found: this service holds productions, at /productions/<name>/' })
    return { env, path }
  }
  const end = path.indexOf('/', PREFIX.length)
  const name = path.slice(PREFIX.length, end === -1 ? undefined : end)
  if (!names.has(name)) throw new StatusError(404, { error: 'Production not found' })
  const production: ProductionEnv = Object.create(env, {
    production: { value: name },
    base: { value: PREFIX + name },
  }) as ProductionEnv
  return { env: production, path: end === -1 ? '/' : path.slice(end) }
}

/** Where the service's paths start for this request: '' on the laptop, /productions/<name> deployed. */
export const baseOf = (env: Env) => (env as ProductionEnv).base ?? ''

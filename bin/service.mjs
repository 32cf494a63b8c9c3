// The service the command works with, and the token it is known by: where the service is (see
// bin/media-log.mjs's header), and a client with a token the service still accepts, asked for
// once and kept in the user's config folder, readable by the user alone.
import { readFileSync } from 'node:fs'
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { MediaLogClient, MediaLogError } from 'media-log-service/client'
import { httpFetch } from './http-fetch.mjs'
import { Failure, shown, warn } from './terminal.mjs'

export const APP_NAME = 'media-log'
/** The service's project folder, which this command is part of: its .dev.vars may name the port. */
const PROJECT = resolve(import.meta.dirname, '..')

/** @typedef {{url: string, from: string}} Service  its URL, and what said so (`--url`, `PORT`…) */

/** The service's URL once the command has turned to it, for the message when nothing answers. */
export const contacted = { url: /** @type {string | undefined} */ (undefined) }

/**
 * Where the service is, and what said so: as `npm start` was told (see the header).
 * @param {string | undefined} option `--url`
 * @returns {Service}
 */
export function serviceUrl(option) {
  /** @type {string} */
  let url
  /** @type {string} */
  let from
  if (option) [url, from] = [option, '--url']
  else if (process.env.MEDIA_LOG_URL) [url, from] = [process.env.MEDIA_LOG_URL, 'MEDIA_LOG_URL']
  else if (process.env.PORT) [url, from] = [localUrl(process.env.PORT, 'PORT'), 'PORT']
  else {
    const file = join(PROJECT, '.dev.vars')
    const port = projectPort(file)
    if (port) [url, from] = [localUrl(port, `PORT in ${file}`), `PORT in ${file}`]
    else [url, from] = ['http://localhost:5252', 'the default port']
  }
  let protocol
  try {
    protocol = new URL(url).protocol
  } catch {
    throw new Failure(`${from}: ${url} is not a URL`)
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new Failure(`${from}: ${url} is not an http(s) URL`)
  // One spelling per service: the kept tokens are found by it.
  return { url: url.replace(/\/+$/, ''), from }
}

/** @param {string} port @param {string} from */
function localUrl(port, from) {
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)
    throw new Failure(`${from}: ${port} is not a port number`)
  return `http://localhost:${Number(port)}`
}

/** The `PORT=` line of the project's .dev.vars, which `npm start` and `npm run dev` read too. @param {string} file */
function projectPort(file) {
  return /^PORT\s*=\s*"?(\d{1,5})"?\s*$/m.exec(textOf(file))?.[1]
}

/** @param {string} file */
function textOf(file) {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

/**
 * The operator key, for what only the operator may do (linking this cart to a production):
 * `MEDIA_LOG_OPERATOR_KEY`, else the `OPERATOR_KEY=` line of this project's .dev.vars.
 */
export function operatorKey() {
  const key =
    process.env.MEDIA_LOG_OPERATOR_KEY ??
    /^OPERATOR_KEY\s*=\s*"?([^"\s]+)"?\s*$/m.exec(textOf(join(PROJECT, '.dev.vars')))?.[1]
  if (!key) throw new Failure(`no operator key: set MEDIA_LOG_OPERATOR_KEY, or start the service once (npm start)`)
  return key
}

/** Where the token is kept: the platform's folder for an application's settings. */
export function configFolder() {
  if (process.env.MEDIA_LOG_CONFIG_DIR) return process.env.MEDIA_LOG_CONFIG_DIR
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'media-log')
  if (process.platform === 'win32') return join(process.env.APPDATA ?? homedir(), 'media-log')
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'media-log')
}

const tokenFile = () => join(configFolder(), 'tokens.json')

/** @returns {Promise<Record<string, string>>} the tokens by the service's URL */
async function storedTokens() {
  try {
    /** @type {unknown} JSON.parse types nothing: the file is this command's own (storeToken) */
    const tokens = JSON.parse(await readFile(tokenFile(), 'utf8'))
    // Kept the user's alone whatever made them otherwise since (a folder made 0755 by another tool).
    await Promise.all([chmod(configFolder(), 0o700), chmod(tokenFile(), 0o600)])
    return /** @type {Record<string, string>} */ (tokens)
  } catch {
    return {}
  }
}

/** @param {string} baseUrl @param {string | undefined} token undefined: the kept one goes */
async function storeToken(baseUrl, token) {
  const tokens = await storedTokens()
  if (token) tokens[baseUrl] = token
  else delete tokens[baseUrl]
  await mkdir(configFolder(), { recursive: true, mode: 0o700 })
  // A folder that existed keeps its mode through mkdir (0755 from another tool): the user's alone again.
  await chmod(configFolder(), 0o700)
  if (!Object.keys(tokens).length) return rm(tokenFile(), { force: true })
  await writeFile(tokenFile(), JSON.stringify(tokens, null, 2) + '\n', { mode: 0o600 })
  // A file that existed keeps its mode through writeFile: made the user's alone again.
  await chmod(tokenFile(), 0o600)
}

/**
 * A client with a token the service still accepts: the kept one, else a new one, which waits
 * until the operator approves "media-log" in the console.
 * @param {Service} service
 */
export async function connectedClient(service) {
  return (await askConnected(service, (client) => client.projects())).client
}

/**
 * The service's answer to `ask`, and the client it was asked with: the kept token is tried with
 * `ask` itself, one round trip rather than two (`verify` reads nothing before it has the log);
 * refused (401), a new token is asked for as connectedClient does, and `ask` asked again.
 * @template T
 * @param {Service} service
 * @param {(client: MediaLogClient) => Promise<T>} ask
 * @returns {Promise<{client: MediaLogClient, answer: T}>}
 */
export async function askConnected({ url: baseUrl, from }, ask) {
  warn(`service: ${baseUrl} (from ${from})`)
  contacted.url = baseUrl
  const kept = (await storedTokens())[baseUrl]
  if (kept) {
    const client = new MediaLogClient({ baseUrl, token: kept, fetch: httpFetch })
    try {
      return { client, answer: await ask(client) }
    } catch (err) {
      if (!(err instanceof MediaLogError && err.status === 401)) throw err
      await storeToken(baseUrl, undefined).catch(() => {})
      warn('the kept token is no longer accepted: asking for a new one')
    }
  }
  // Nothing answering is said first (exit 2), before the operator is asked to approve a code in a
  // console that is not there either.
  await new MediaLogClient({ baseUrl, fetch: httpFetch }).ping()
  const client = await MediaLogClient.connect({
    baseUrl,
    fetch: httpFetch,
    appName: APP_NAME,
    userAgent: `${APP_NAME} (pid ${process.pid})`,
    onCode: (code) =>
      warn(`asking for a token: in the console (${baseUrl}/approve), approve "${APP_NAME}" showing code ${code}`),
  })
  // A config folder the user cannot write (made by a run under sudo, a file in its place) costs the
  // next run an approval, not this run its work.
  await storeToken(baseUrl, client.token).then(
    () => warn(`approved; the token is kept in ${tokenFile()}`),
    (/** @type {Error} */ err) =>
      warn(`approved; the token could not be kept in ${tokenFile()} (${err.message}): the next run asks again`),
  )
  return { client, answer: await ask(client) }
}

/**
 * A log the service's project does not hold (404), said in the command's words; any other error
 * as it was. `client.log(id).catch(unlessNoSuchLog(id))`.
 * @param {string} id
 */
export const unlessNoSuchLog = (id) => (/** @type {unknown} */ err) => {
  if (err instanceof MediaLogError && err.status === 404)
    throw new Failure(`${shown(id)}: no such log in the service's project`)
  throw err
}

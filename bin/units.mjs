// `media-log link`, `unlink` and `sync`: this cart's link to its production (docs/units.md). Only
// the operator links a cart: these calls carry the operator key (service.mjs), never a token.
import { MediaLogError, MediaLogOperator } from 'media-log-service/client'
import { contacted, operatorKey, serviceUrl } from './service.mjs'
import { Failure, count, print, printJson, shown } from './terminal.mjs'

/** @typedef {import('./media-log.mjs').Options} Options */
/** @typedef {Awaited<ReturnType<MediaLogOperator['linkStatus']>>} LinkStatus */

/**
 * `media-log link <url> --unit NAME --code CODE`: links with the code the production's operator
 * made for the unit (its console's Production section), answered at once.
 * @param {string[]} args @param {Options} options @param {string} usage
 */
export async function link(args, options, usage) {
  const [url, ...extra] = args
  const { unit, code } = options
  if (!url || extra.length || !unit || !code)
    throw new Failure(
      `link needs the production's URL, --unit and the link code its operator gave you (--code)\n${usage}`,
    )
  const status = await answered(operatorOf(options).link({ url, unit, linkCode: code }))
  return said(status, options)
}

/**
 * `media-log unlink`: stops syncing; every log stays.
 * @param {string[]} rest @param {Options} options @param {string} usage
 */
export async function unlink(rest, options, usage) {
  if (rest.length) throw new Failure(`unlink takes no arguments\n${usage}`)
  await answered(operatorOf(options).unlink())
  if (options.json) return printJson({ linked: false }, 0)
  return print('unlinked: this cart keeps every log it holds and no longer syncs', 0)
}

/**
 * `media-log sync`: the link's status; exit 1 while the last round failed or logs are in conflict.
 * @param {string[]} rest @param {Options} options @param {string} usage
 */
export async function syncStatus(rest, options, usage) {
  if (rest.length) throw new Failure(`sync takes no arguments\n${usage}`)
  return said(await answered(operatorOf(options).linkStatus()), options)
}

/** @param {LinkStatus} status @param {Options} options */
function said(status, options) {
  const troubled =
    (status.linked && (status.error !== null || status.refused.length > 0)) || status.conflicts.length > 0
  if (options.json) return printJson(status, troubled ? 1 : 0)
  const lines = status.linked
    ? [
        `linked to ${shown(status.production)} as ${shown(status.unit)}`,
        `last sync: ${status.lastSync ? shown(status.lastSync) : 'not yet'}; ${count(status.pending, 'log')} waiting to go`,
        ...(status.live ? ['live: the production tells this cart of other units’ writes as they happen'] : []),
        ...(status.error ? [`last round failed: ${shown(status.error)}`] : []),
        ...status.refused.map(
          (r) =>
            `set aside: ${shown(r.id)} ${r.rev}, refused by ${r.way === 'push' ? 'the production' : 'this cart'}: ${shown(r.error)}`,
        ),
      ]
    : ['not linked to a production']
  for (const { id, leaves } of status.conflicts)
    lines.push(`conflict: ${shown(id)} has ${leaves} versions; see the console's Production section`)
  return print(lines.join('\n'), troubled ? 1 : 0)
}

/**
 * The operator of the service the command works with, by its key.
 * @param {Options} options
 */
function operatorOf(options) {
  const { url } = serviceUrl(options.url)
  contacted.url = url
  // The key of this folder's .dev.vars opens this laptop's service: it goes to no other machine.
  const host = new URL(url).hostname
  if (!['localhost', '127.0.0.1', '[::1]'].includes(host) && !process.env.MEDIA_LOG_OPERATOR_KEY)
    throw new Failure(`${url} is not this machine: set MEDIA_LOG_OPERATOR_KEY to that service's operator key`)
  return new MediaLogOperator({
    baseUrl: url,
    key: operatorKey(),
    // An answer that is not JSON comes from something other than the service: said as such, not
    // as the service's refusal.
    fetch: async (input, init) => {
      const response = await fetch(input, init)
      try {
        JSON.parse(await response.clone().text())
      } catch {
        throw new Failure(`${url} answered ${response.status} with no JSON`)
      }
      return response
    },
  })
}

/**
 * What the service answered; its refusal said as its `error`, then each failing property.
 * @template T
 * @param {Promise<T>} call
 * @returns {Promise<T>}
 */
async function answered(call) {
  try {
    return await call
  } catch (err) {
    if (!(err instanceof MediaLogError)) throw err
    // Each detail on its own line: the terminal's escaping keeps a detail to one line, not the list.
    const details = err.details.map((d) => `\n  ${shown(d.prop)}: ${shown(d.message)}`).join('')
    throw new Failure(`${shown(err.error)}${details}`)
  }
}

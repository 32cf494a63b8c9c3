// `media-log link`, `unlink` and `sync`: this cart's link to its production (docs/units.md). Only
// the operator links a cart: these calls carry the operator key (service.mjs), never a token.
import { contacted, operatorKey, serviceUrl } from './service.mjs'
import { Failure, count, print, printJson, shown } from './terminal.mjs'

/**
 * `media-log link <url> --unit NAME --code CODE`: links with the code the production's operator
 * made for the unit (its console's Production section), answered at once.
 * @param {string[]} args
 */
export async function link(args, options, usage) {
  const [url, ...extra] = args
  if (!url || extra.length || !options.unit || !options.code)
    throw new Failure(
      `link needs the production's URL, --unit and the link code its operator gave you (--code)\n${usage}`,
    )
  const status = await operatorCall(options, 'POST', '/approve/link', {
    url,
    unit: options.unit,
    linkCode: options.code,
  })
  return said(status, options)
}

/** `media-log unlink`: stops syncing; every log stays. */
export async function unlink(rest, options, usage) {
  if (rest.length) throw new Failure(`unlink takes no arguments\n${usage}`)
  await operatorCall(options, 'DELETE', '/approve/link')
  if (options.json) return printJson({ linked: false }, 0)
  return print('unlinked: this cart keeps every log it holds and no longer syncs', 0)
}

/** `media-log sync`: the link's status; exit 1 while the last round failed or logs are in conflict. */
export async function syncStatus(rest, options, usage) {
  if (rest.length) throw new Failure(`sync takes no arguments\n${usage}`)
  return said(await operatorCall(options, 'GET', '/approve/link'), options)
}

function said(status, options) {
  const troubled =
    (status.linked && (status.error !== null || status.refused.length > 0)) || status.conflicts.length > 0
  if (options.json) return printJson(status, troubled ? 1 : 0)
  const lines = status.linked
    ? [
        `linked to ${shown(status.production)} as ${shown(status.unit)}`,
        `last sync: ${status.lastSync ? shown(status.lastSync) : 'not yet'}; ${count(status.pending, 'log')} waiting to go`,
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

async function operatorCall(options, method, path, body) {
  const { url } = serviceUrl(options.url)
  contacted.url = url
  // The key of this folder's .dev.vars opens this laptop's service: it goes to no other machine.
  const host = new URL(url).hostname
  if (!['localhost', '127.0.0.1', '[::1]'].includes(host) && !process.env.MEDIA_LOG_OPERATOR_KEY)
    throw new Failure(`${url} is not this machine: set MEDIA_LOG_OPERATOR_KEY to that service's operator key`)
  const response = await fetch(url + path, {
    method,
    redirect: 'manual',
    headers: {
      'x-operator-key': operatorKey(),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let answer
  try {
    answer = JSON.parse(text)
  } catch {
    throw new Failure(`${url} answered ${response.status} with no JSON`)
  }
  if (!response.ok) {
    const details = (answer.details ?? []).map((d) => `\n  ${d.prop}: ${d.message}`).join('')
    throw new Failure(`${shown(answer.error ?? response.status)}${shown(details)}`)
  }
  return answer
}

// `media-log checks ID` and `media-log volume rename|remove`: a day's checks and copies in the
// service's words, and a volume of a day renamed or taken off (the checks follow).
import { connectedClient, serviceUrl, unlessNoSuchLog } from './service.mjs'
import { Failure, copyLine, count, print, printJson, shown } from './terminal.mjs'

/** @typedef {import('./media-log.mjs').Options} Options */

/** @param {string[]} ids @param {Options} options @param {string} usage */
export async function printChecks([id], options, usage) {
  if (!id) throw new Failure(`checks needs a log id\n${usage}`)
  const client = await connectedClient(serviceUrl(options.url))
  const { checks, summary, groups, copies } = await client.checks(id).catch(unlessNoSuchLog(id))
  const status = summary.errors ? 1 : 0
  if (options.json) return printJson({ checks, summary, groups, copies }, status)
  const lines = [
    `${shown(id)}: ${count(summary.errors, 'error')}, ${count(summary.warnings, 'warning')}, ${summary.info} info`,
    // A line per kind and volume, the first clips named; --all lists every finding, each on its line.
    ...(options.all
      ? checks.map((f) => `  ${shown(f.severity).padEnd(7)} ${shown(f.kind).padEnd(22)} ${shown(f.message)}`)
      : groups.map((g) => `  ${shown(g.severity).padEnd(7)} ${shown(g.words)}`)),
    ...(copies.length ? ['copies:'] : []),
    ...copies.map(copyLine),
  ]
  return print(lines.join('\n'), status)
}

/**
 * `volume rename ID OLD NEW`, `volume remove ID NAME`: a volume of a day renamed, or taken off the
 * day, and the day's copies as they stand after.
 * @param {string[]} args @param {Options} options @param {string} usage
 */
export async function changeVolume([action, id, volume, name], options, usage) {
  if (!id || !volume || (action === 'rename' ? !name : action !== 'remove'))
    throw new Failure(`volume rename ID OLD NEW, or volume remove ID NAME\n${usage}`)
  const client = await connectedClient(serviceUrl(options.url))
  const done = action === 'rename' ? await client.renameVolume(id, volume, name) : await client.removeVolume(id, volume)
  const { summary, copies } = await client.checks(id)
  if (options.json) return printJson({ ...done, summary, copies }, 0)
  print(
    [
      action === 'rename'
        ? `${shown(id)}: ${shown(volume)} is ${shown(name)} now (${count(done.copies, 'copy', 'copies')})`
        : `${shown(id)}: ${shown(volume)} taken off the day (${count(done.copies, 'copy', 'copies')})`,
      ...copies.map(copyLine),
      `checks: ${count(summary.errors, 'error')}, ${count(summary.warnings, 'warning')}, ${summary.info} info`,
    ].join('\n'),
  )
  return 0
}

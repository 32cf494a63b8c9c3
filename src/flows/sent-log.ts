/**
 * What the worker learns of a log a client or another unit sends, before the workspace sees it:
 * every refusal that needs no project state is answered here, outside the single-threaded
 * workspace. Checked there, 200,000 invalid clips held every other request for seconds.
 */
import { checkLog, type LogOutput } from '../schemas/log'
import { certainlyValidLog } from '../schemas/plain-log'
import { parseObject } from '../schemas/json'
import type { JsonBody } from '../http/body'
import { checkPiecewiseInTurns, NO_SCHEMAS, PIECEWISE_BYTES } from '../large-logs/check'
import { invalid } from '../shared/problem'
import { rpcSafe, utf8Bytes } from '../shared/utf8'
import { summarize } from '../summary/summary'
import type { LogRead } from '../workspace/logs'

export type SentLog = { log: Record<string, unknown>; read: LogRead }

/**
 * A sent log checked as far as the worker can: refused when invalid, otherwise with what the
 * workspace needs to store it. `checked`: nothing left to check, stored as sent, never parsed
 * again; `valid`: checked whole, the workspace checking only its custom entries; `scanned`: too
 * large to parse whole, checked a clip at a time, the workspace checking only its custom entries.
 * `admitted` asks the workspace whether the caller's token is good, before any costly check.
 */
export async function readSentLog(sent: JsonBody, admitted: () => Promise<unknown>): Promise<SentLog> {
  // `text` is decoded when first read: a log too large to parse whole never is.
  const { bytes } = sent
  if (bytes.length > PIECEWISE_BYTES) {
    const { skeleton, log, summary, details, unlisted, custom } = await checkPiecewiseInTurns(bytes)
    if (details.length) throw invalid(details, unlisted)
    return {
      log,
      read: {
        scanned: {
          skeleton: rpcSafe(utf8Bytes(skeleton)),
          summary: JSON.stringify(summary),
          ...(custom && { custom }),
        },
      },
    }
  }
  const log = parseObject(sent.text)
  if (certainlyValidLog(log))
    return {
      log,
      read: {
        checked: { id: log.id, day: log.day, date: log.date, summary: JSON.stringify(summarize(log)) },
      },
    }
  // Checked only for a caller the workspace admits: a small body's token was not asked before it
  // was read (serve.ts), and checking 500,000 bad clips costs half a second.
  await admitted()
  const { details, unlisted } = checkLog(log, NO_SCHEMAS)
  if (details.length) throw invalid(details, unlisted)
  // Only its custom entries are left to check, where the project's schemas are (a log was checked
  // whole twice: here, then in the workspace). The summary does not read them.
  return { log, read: { valid: { summary: JSON.stringify(summarize(log as LogOutput)) } } }
}

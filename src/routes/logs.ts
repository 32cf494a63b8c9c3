import type { IRequest } from 'itty-router'
import { readJsonBody } from '../http/body'
import { apiToken } from '../http/guards'
import { ifNoneMatch } from '../http/conditional'
import { jsonAnswer, notModified } from '../http/headers'
import { logIdOf } from '../http/params'
import { framedStream, rpcSafe, streamOf, utf8Bytes } from '../shared/utf8'
import { PIECEWISE_BYTES } from '../large-logs/check'
import { workspace } from '../workspace/client'
import type { LogBody } from '../workspace/logs'
import type { Tagged } from '../workspace/answers'

import { tokenForBody } from '../flows/token'
import { readSentLog } from '../flows/sent-log'

export async function createLog(request: IRequest, env: Env) {
  const token = await tokenForBody(request, env)
  const sent = await readJsonBody(request)
  const { bytes } = sent
  // Checked in the worker as far as it can be; what is left needs the project's custom schemas.
  const { log, read } = await readSentLog(sent, () => workspace(env).checkToken(token))
  await workspace(env).createLog(token, rpcSafe(log.version === undefined ? withVersion(bytes) : bytes), read)
  return jsonAnswer('{"success":true}', 201)
}

/**
 * SPEC §4: a log without `version` is stored with `version: 1`, which the reference application's
 * readers require. Written into the bytes as sent, before their closing brace, so nothing else of
 * the log is parsed and written again.
 */
function withVersion(bytes: Uint8Array): Uint8Array {
  let end = bytes.length - 1
  while (end > 0 && bytes[end] !== 0x7d) end--
  let last = end - 1
  while (last > 0 && (bytes[last] === 0x20 || bytes[last] === 0x0a || bytes[last] === 0x0d || bytes[last] === 0x09))
    last--
  // `{}` has nothing to follow with a comma; it is refused as a log anyway.
  if (bytes[last] === 0x7b) return bytes
  const tail = utf8Bytes(',"version":1')
  const out = new Uint8Array(bytes.length + tail.length)
  out.set(bytes.subarray(0, end))
  out.set(tail, end)
  out.set(bytes.subarray(end), end + tail.length)
  return out
}

/** GET /logs; 304 when the request names the tag of the project's logs as they are. */
export async function listLogs(request: IRequest, env: Env) {
  return answerOf(await workspace(env).logsJson(apiToken(request), ifNoneMatch(request)))
}

/** GET /log/{id}; 304 when the request names the tag of the log as it is, the log not read. */
export async function getLog(request: IRequest, env: Env) {
  const token = apiToken(request)
  return answerOf(await workspace(env).logJson(token, logIdOf(request), ifNoneMatch(request)))
}

const answerOf = ({ etag, body }: Tagged<LogBody>) =>
  body === undefined ? notModified(etag) : jsonAnswer(body, 200, etag)

export async function patchLog(request: IRequest, env: Env) {
  const id = logIdOf(request)
  const token = await tokenForBody(request, env)
  const sent = await readJsonBody(request)
  // A large patch goes to the workspace as bytes, merged there without being parsed whole.
  const patch = sent.bytes.length > PIECEWISE_BYTES ? rpcSafe(sent.bytes) : sent.text
  const merged = await workspace(env).patchLog(token, id, patch)
  return jsonAnswer(
    typeof merged === 'string'
      ? `{"success":true,"data":${merged}}`
      : framedStream('{"success":true,"data":', merged instanceof Uint8Array ? streamOf([merged]) : merged, '}'),
  )
}

export async function deleteLog(request: IRequest, env: Env) {
  const token = apiToken(request)
  await workspace(env).deleteLog(token, logIdOf(request))
  return { success: true }
}

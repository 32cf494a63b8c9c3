import type * as v from 'valibot'
import type { Handler } from '../api/call'
import { jsonAnswer } from '../http/headers'
import type { LogSchema } from '../schemas/log'
import type { LogListSchema, PatchedLogSchema } from '../api/shapes'
import { framedStream, rpcSafe, streamOf, utf8Bytes } from '../shared/utf8'
import { PIECEWISE_BYTES } from '../large-logs/check'
import { workspace, workspaceName } from '../workspace/client'
import { forgetLog, keepLog, keptLog, touchLog } from '../http/kept-logs'
import type { LogBody } from '../workspace/logs'
import { untagged, type Tagged } from '../workspace/answers'
import { Problem } from '../shared/problem'
import { readSentLog } from '../flows/sent-log'

type StoredLog = v.InferInput<typeof LogSchema>

export const createLog: Handler<'createLog'> = async ({ env, token, body }) => {
  const sent = await body()
  const { bytes } = sent
  // Checked in the worker as far as it can be; what is left needs the project's custom schemas.
  const { log, read } = await readSentLog(sent, () => workspace(env).checkToken(token))
  await workspace(env).createLog(token, rpcSafe(log.version === undefined ? withVersion(bytes) : bytes), read)
  return { success: true }
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

/** GET /logs; the tag is of the project's logs as they are, known without reading one. */
export const listLogs: Handler<'listLogs'> = async ({ env, token, ifNoneMatch }) =>
  stored<v.InferInput<typeof LogListSchema>>(await workspace(env).logsJson(token, ifNoneMatch))

/** GET /log/{id}; the tag is of the log as it is: a request naming it costs no read of the log. */
export const getLog: Handler<'getLog'> = async ({ env, token, params, ifNoneMatch }) => {
  const id = params.id!
  const store = workspaceName(env)
  // The tag of the text this isolate keeps goes too: where it is current, the text stays here.
  const kept = keptLog(store, id)
  const tagged = await workspace(env)
    .logJson(token, id, ifNoneMatch, kept?.etag)
    .catch((err: unknown) => {
      // A log deleted, or no project loaded (also not found): its kept text would never be
      // answered again. Unless another request kept a newer one meanwhile.
      if (kept && err instanceof Problem && err.kind === 'not-found' && keptLog(store, id) === kept)
        forgetLog(store, id)
      throw err
    })
  const { etag, body } = untagged(tagged)
  if (body === undefined && kept?.etag === etag) touchLog(store, id, kept)
  else keepLog(store, id, etag, typeof body === 'string' ? body : undefined)
  // Without a body, a tag named is current: the client's (answered 304 unmade) or the kept text's.
  return { etag, answer: () => jsonAnswer<StoredLog>(body ?? kept!.bytes) }
}

/** Stored JSON under its tag; the workspace left the body out where the request names the tag. */
const stored = <T>(tagged: Tagged<LogBody>) => {
  const { etag, body } = untagged(tagged)
  return { etag, answer: () => jsonAnswer<T>(body!) }
}

export const patchLog: Handler<'patchLog'> = async ({ env, token, params, body }) => {
  const sent = await body()
  // A large patch goes to the workspace as bytes, merged there without being parsed whole.
  const patch = sent.bytes.length > PIECEWISE_BYTES ? rpcSafe(sent.bytes) : sent.text
  const merged = await workspace(env).patchLog(token, params.id!, patch)
  return jsonAnswer<v.InferInput<typeof PatchedLogSchema>>(
    typeof merged === 'string'
      ? `{"success":true,"data":${merged}}`
      : framedStream('{"success":true,"data":', merged instanceof Uint8Array ? streamOf([merged]) : merged, '}'),
  )
}

export const deleteLog: Handler<'deleteLog'> = async ({ env, token, params }) => {
  await workspace(env).deleteLog(token, params.id!)
  return { success: true }
}

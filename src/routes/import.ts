import { base64 } from '@scure/base'
import type { Handler } from '../api/call'
import type { JsonBody } from '../http/body'
import { jsonAnswer } from '../http/headers'
import type { ImportAnswerSchema, ImportToDayAnswerSchema } from '../api/shapes'
import type { ImportKeys } from '../import/merge'
import { readImport, type ImportFile, type ImportOptions } from '../import/read'
import { dayPieces } from '../import/transfer'
import { bodyText, parseObject } from '../schemas/json'
import { PIECEWISE_BYTES } from '../large-logs/check'
import { jsonStringBytes, scanImport } from '../large-logs/scan'
import type * as v from 'valibot'
import { ImportSchema, parseOrThrow } from '../schemas/requests'
import { invalid, invalidBody, type IssueDetail } from '../shared/problem'
import { RPC_VALUE_BYTES, bytesOrStream, concatBytes, isUtf8, utf8Bytes, utf8Text } from '../shared/utf8'
import { workspace, type WorkspaceClient } from '../workspace/client'

/**
 * Files an offload left (ASC MHL folders, classic MHL, ALE), read here in the worker and merged
 * into the log in the workspace. 201 when the import made the log, else 200; a file that could not
 * be read is in the answer's `unreadable`, and only when none could is the import refused.
 */
export const importFiles: Handler<'importFiles'> = async ({ env, token, params, body }) => {
  const { outcome, read } = await imported(env, token, await body(), (ws, day, keys) =>
    ws.importLog(token, day, { id: params.id!, ...keys }),
  )
  return jsonAnswer<v.InferInput<typeof ImportAnswerSchema>>(
    JSON.stringify(answerOf(outcome, read)),
    outcome.created ? 201 : 200,
  )
}

/** POST /import: the same, into the log of the date the files name (workspace/logs.ts importToDay). */
export const importToDay: Handler<'importToDay'> = async ({ env, token, body }) => {
  const { outcome, read } = await imported(env, token, await body(), (ws, day, keys) => ws.importDay(token, day, keys))
  return jsonAnswer<v.InferInput<typeof ImportToDayAnswerSchema>>(
    JSON.stringify({ ...answerOf(outcome, read), log: outcome.id }),
    outcome.created ? 201 : 200,
  )
}

type Merged = Awaited<ReturnType<WorkspaceClient['importLog']>>

/** The files read and merged by `merge`, once the token is known good. */
async function imported<O extends Merged>(
  env: Env,
  token: string,
  sent: JsonBody,
  merge: (
    ws: WorkspaceClient,
    day: Uint8Array | ReadableStream<Uint8Array>,
    keys: Omit<ImportKeys, 'id'>,
  ) => Promise<O>,
) {
  const ws = workspace(env)
  // Asked first, whatever the body's size: reading manifests is the costliest thing a request can
  // ask for, and no one unapproved may make the service do it (978 KiB once held it 3.8 s).
  await ws.checkToken(token)
  const { files, options, keys } = importBody(sent)
  const read = await readImport(files, options)
  if (read.unreadable.length === files.length) throw invalid(refusals(files, read.unreadable))
  // One value up to RPC's limit (a stream costs a turn a MiB), a stream past it.
  const day = bytesOrStream(dayPieces(read.day), RPC_VALUE_BYTES)
  return { outcome: await merge(ws, day, keys), read }
}

/** A line per file and kind of note (the files', then the merge's), and each note as found. */
function answerOf(outcome: Merged, read: Awaited<ReturnType<typeof readImport>>) {
  const notes = [
    ...read.notes.summed(),
    ...outcome.said.map(({ name, message }) => (name === undefined ? { message } : { name, message })),
  ]
  read.notes.addAll(outcome.notes, outcome.unlisted)
  return {
    success: true,
    created: outcome.created,
    added: outcome.added,
    changed: outcome.changed,
    files: read.files,
    unreadable: read.unreadable,
    notes,
    noteDetail: read.notes.list(),
  } satisfies v.InferInput<typeof ImportAnswerSchema>
}

/**
 * The body's files as bytes, and what else it names. Returned alone so the body's text and its
 * contents as strings can go once read: a 50,000-file manifest is 11 MB of each. Past
 * PIECEWISE_BYTES the contents are taken from the body's bytes and never become strings at all.
 */
function importBody(sent: JsonBody) {
  // Its `text` is decoded when first read: a large body's never is.
  const { bytes } = sent
  let body: v.InferOutput<typeof ImportSchema>
  let contentOf: (file: { content: string }, i: number) => Uint8Array
  if (bytes.length > PIECEWISE_BYTES) {
    if (!isUtf8(bytes)) throw invalidBody('the body is not valid UTF-8')
    const { skeleton, contents } = scanImport(bytes)
    body = parseOrThrow(ImportSchema, parseObject(bodyText(skeleton)))
    contentOf = (_, i) => {
      const [from, to] = contents[i]!
      return jsonStringBytes(bytes.subarray(from, to), `files.${i}.content`)
    }
  } else {
    body = parseOrThrow(ImportSchema, parseObject(sent.text))
    contentOf = (file) => utf8Bytes(file.content)
  }
  const files = body.files.map((file, i): ImportFile => {
    const content = contentOf(file, i)
    const bytes = file.encoding === 'base64' ? base64Content(content, i) : content
    return file.volume === undefined ? { name: file.name, bytes } : { name: file.name, bytes, volume: file.volume }
  })
  const options: ImportOptions = {
    ...(body.volume !== undefined && { volume: body.volume }),
    ...(body.kind !== undefined && { kind: body.kind }),
  }
  const keys = { ...(body.day !== undefined && { day: body.day }), ...(body.date !== undefined && { date: body.date }) }
  return { files, options, keys }
}

/**
 * Base64 a MiB at a time, white space left out (what `\s` matches, as a whole string's
 * `replace(/\s+/g, '')` left it out): a 40 MiB file is never one string. Padding only at the end.
 */
function base64Content(ascii: Uint8Array, i: number): Uint8Array {
  const refused = () => invalid([{ prop: `files.${i}.content`, message: 'must be base64, as its encoding says' }])
  const kept = new Uint8Array(ascii.length)
  let n = 0
  for (let at = 0; at < ascii.length; at++) {
    const byte = ascii[at]!
    if (byte < 0x80) {
      if (!ASCII_SPACE.has(byte)) kept[n++] = byte
      continue
    }
    // Past ASCII, only white space (U+00A0, U+FEFF, U+2028…) may stand between base64 characters.
    let end = at
    while (end < ascii.length && ascii[end]! >= 0x80) end++
    if (!/^\s+$/.test(utf8Text(ascii.subarray(at, end)))) throw refused()
    at = end - 1
  }
  const pad = kept.subarray(0, n).indexOf(0x3d)
  if (pad >= 0 && (pad < n - 2 || kept.subarray(pad, n).some((byte) => byte !== 0x3d))) throw refused()
  // Padding may be left off, as it always could be here (forgiving base64): `QQ` reads as `QQ==`.
  const whole = n - (n % 4)
  const parts: Uint8Array[] = []
  try {
    for (let at = 0; at < whole; at += BASE64_PIECE)
      parts.push(base64.decode(latin1(kept.subarray(at, Math.min(whole, at + BASE64_PIECE)))))
    if (whole < n) parts.push(base64.decode(latin1(kept.subarray(whole, n)).padEnd(4, '=')))
  } catch {
    throw refused()
  }
  return concatBytes(parts)
}

/** White space in ASCII, as `\s` has it. */
const ASCII_SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20])

/** Base64 decoded at a time: a multiple of 4 characters. */
const BASE64_PIECE = 1 << 20
const latin1 = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes)

/** Why each file was not read, by its place in the body. */
function refusals(files: readonly ImportFile[], unreadable: ReadonlyArray<{ name: string; reason: string }>) {
  const at = new Map<string, number>()
  files.forEach((file, i) => at.has(file.name) || at.set(file.name, i))
  return unreadable.map(({ name, reason }): IssueDetail => ({
    prop: `files.${at.get(name)}`,
    message: `${name}: ${reason}`,
  }))
}

import { base64 } from '@scure/base'
import type { IRequest } from 'itty-router'
import { readJsonBody } from '../http/body'
import { apiToken } from '../http/guards'
import { jsonAnswer } from '../http/headers'
import { readImport, type ImportFile, type ImportOptions } from '../import/read'
import { dayPieces } from '../import/transfer'
import { parseObject } from '../schemas/json'
import { ImportSchema, parseOrThrow } from '../schemas/requests'
import { invalid, type IssueDetail } from '../shared/problem'
import { RPC_VALUE_BYTES, bytesOrStream, utf8Bytes } from '../shared/utf8'
import { workspace } from '../workspace/client'
import { logIdOf } from '../http/params'

/**
 * Files an offload left (ASC MHL folders, classic MHL, ALE), read here in the worker and merged
 * into the log in the workspace. 201 when the import made the log, else 200; a file that could not
 * be read is in the answer's `unreadable`, and only when none could is the import refused.
 */
export async function importFiles(request: IRequest, env: Env) {
  const id = logIdOf(request)
  const ws = workspace(env)
  // Asked first, whatever the body's size: reading manifests is the costliest thing a request can
  // ask for, and no one unapproved may make the service do it (978 KiB once held it 3.8 s).
  const token = apiToken(request)
  await ws.checkToken(token)
  const { files, options, keys } = await importBody(request)
  const read = await readImport(files, options)
  if (read.unreadable.length === files.length) throw invalid(refusals(files, read.unreadable))
  // One value up to RPC's limit (a stream costs a turn a MiB), a stream past it.
  const day = bytesOrStream(dayPieces(read.day), RPC_VALUE_BYTES)
  const outcome = await ws.importLog(token, day, { id, ...keys })
  // A line per file and kind of note (the files', then the merge's), and each note as found.
  const notes = [
    ...read.notes.summed(),
    ...outcome.said.map(({ name, message }) => (name === undefined ? { message } : { name, message })),
  ]
  read.notes.addAll(outcome.notes, outcome.unlisted)
  const answer = {
    success: true,
    created: outcome.created,
    added: outcome.added,
    changed: outcome.changed,
    files: read.files,
    unreadable: read.unreadable,
    notes,
    noteDetail: read.notes.list(),
  }
  return jsonAnswer(JSON.stringify(answer), outcome.created ? 201 : 200)
}

/**
 * The body's files as bytes, and what else it names. Returned alone so the body's text and its
 * contents as strings can go once read: a 50,000-file manifest is 11 MB of each.
 */
async function importBody(request: IRequest) {
  const body = parseOrThrow(ImportSchema, parseObject((await readJsonBody(request)).text))
  const files = body.files.map((file, i): ImportFile => {
    const bytes = file.encoding === 'base64' ? base64Content(file.content, i) : utf8Bytes(file.content)
    return file.volume === undefined ? { name: file.name, bytes } : { name: file.name, bytes, volume: file.volume }
  })
  const options: ImportOptions = {
    ...(body.volume !== undefined && { volume: body.volume }),
    ...(body.kind !== undefined && { kind: body.kind }),
  }
  const keys = { ...(body.day !== undefined && { day: body.day }), ...(body.date !== undefined && { date: body.date }) }
  return { files, options, keys }
}

function base64Content(content: string, i: number): Uint8Array {
  try {
    // Padding may be left off, as it always could be here (forgiving base64): `QQ` reads as `QQ==`.
    const text = content.replace(/\s+/g, '')
    return base64.decode(text.length % 4 ? text.padEnd(text.length + 4 - (text.length % 4), '=') : text)
  } catch {
    throw invalid([{ prop: `files.${i}.content`, message: 'must be base64, as its encoding says' }])
  }
}

/** Why each file was not read, by its place in the body. */
function refusals(files: readonly ImportFile[], unreadable: ReadonlyArray<{ name: string; reason: string }>) {
  const at = new Map<string, number>()
  files.forEach((file, i) => at.has(file.name) || at.set(file.name, i))
  return unreadable.map(({ name, reason }): IssueDetail => ({
    prop: `files.${at.get(name)}`,
    message: `${name}: ${reason}`,
  }))
}

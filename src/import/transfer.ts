/**
 * A read day on its way from the worker, which read the files, to the workspace, which merges it:
 * as JSON bytes made a thousand clips at a time. A Durable Object call refuses a value over 32 MiB,
 * and a valid manifest of 100,000 clips with five hashes each reads into 39 MB; bytes past
 * RPC_VALUE_BYTES travel as a stream (shared/utf8.ts), as large logs do.
 */
import { bodyText } from '../schemas/json'
import { utf8Bytes } from '../shared/utf8'
import type { ImportedClip } from './clips'
import type { ImportedDay } from './read'

/** Clips or ALE rows in one piece of the JSON. */
const A_PIECE = 1000

/** The day's JSON, a piece at a time; each piece is made when it is asked for. */
export function* dayPieces({ clips, metadata, others, date }: ImportedDay): Generator<Uint8Array> {
  yield utf8Bytes(`{"date":${JSON.stringify(date ?? null)},"metadata":[`)
  for (const [i, { file, rows, transfer }] of metadata.entries()) {
    const kind = transfer ? ',"transfer":true' : ''
    yield utf8Bytes(`${i ? ',' : ''}{"file":${JSON.stringify(file)}${kind},"rows":[`)
    yield* listPieces(rows, (row) => row)
    yield utf8Bytes(']}')
  }
  yield utf8Bytes('],"others":[')
  yield* listPieces(others, (file) => file)
  yield utf8Bytes('],"clips":[')
  yield* listPieces(clips, sent)
  yield utf8Bytes(']}')
}

function* listPieces<T>(list: readonly T[], shape: (item: T) => unknown): Generator<Uint8Array> {
  for (let at = 0; at < list.length; at += A_PIECE) {
    const piece = list.slice(at, at + A_PIECE).map((item) => JSON.stringify(shape(item)))
    yield utf8Bytes(`${at ? ',' : ''}${piece.join(',')}`)
  }
}

/** What the merge needs of a clip: not the path it was read from. */
const sent = ({ part, clip, size, sizeUnknown, copy, hashes }: ImportedClip) => ({
  part,
  clip,
  size,
  ...(sizeUnknown && { sizeUnknown }),
  copy,
  hashes,
})

export type SentClip = ReturnType<typeof sent>
export type SentDay = Omit<ImportedDay, 'clips'> & { clips: SentClip[] }

/** The day the worker sent (only this service's worker calls the workspace). */
export function dayOf(bytes: Uint8Array): SentDay {
  const { date, metadata, others, clips } = JSON.parse(bodyText(bytes)) as {
    date: string | null
    metadata: SentDay['metadata']
    others: SentDay['others']
    clips: SentClip[]
  }
  return date === null ? { metadata, others, clips } : { metadata, others, clips, date }
}

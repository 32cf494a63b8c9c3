/**
 * What an import says of its files besides the clips: a row that names no clip, a value that is
 * not a timecode, a generation its chain does not list. Listed to a limit and counted past it, so
 * an answer stays small whatever the files hold: 150,000 unmatched rows with long file names once
 * made an answer of gigabytes.
 */

export type Note = { name?: string; message: string }

/** Notes listed in one answer; the rest are counted in one more. */
export const LISTED_NOTES = 100

export class Notes {
  readonly listed: Note[] = []
  unlisted = 0

  add(note: Note) {
    if (this.listed.length < LISTED_NOTES) this.listed.push(note)
    else this.unlisted++
  }

  /** Notes someone else listed and counted (a file's reader, the workspace's merge). */
  addAll(listed: readonly Note[], unlisted = 0) {
    for (const note of listed) this.add(note)
    this.unlisted += unlisted
  }

  /** The answer's notes: those listed, then one that counts the rest. */
  list(): Note[] {
    if (!this.unlisted) return this.listed
    return [...this.listed, { message: `and ${this.unlisted.toLocaleString('en-US')} more notes like these` }]
  }
}

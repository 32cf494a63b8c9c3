/**
 * What an import says of its files besides the clips: a row that names no clip, a value that is
 * not a timecode, a generation its chain does not list. Notes of one kind about one file are said
 * once, summed up (`31 clips kept as the camera's list, on no volume yet (A001C004, …)`): one ALE
 * once gave 67 lines of its rows. Each note is also kept as it was found, listed to a limit and
 * counted past it, for whoever asks for the detail: 150,000 unmatched rows with long file names
 * once made an answer of gigabytes.
 */

/**
 * `kind` and `item`: notes of a kind that are summed up per file, and what each is about (a clip's
 * name, a row). A note without a kind is said as it is.
 */
export type Note = { name?: string; message: string; kind?: NoteKind; item?: string }

/** Notes listed in one answer; the rest are counted in one more. */
const LISTED_NOTES = 100

/** Items a summed note names before it counts the rest. */
const NAMED = 5

/** The kinds of note summed per file, each with its sentence for `n` of them and the first items. */
const SUMS = {
  'camera-list': (n: number, items: string) =>
    `${count(n, 'clip')} kept as the camera's list, on no volume yet (${items}): the checks name each until a copy of it comes`,
  'no-camera-clip': (n: number, items: string) => `${count(n, 'row')} name no camera clip of the log (${items})`,
  'not-a-value': (n: number, items: string) => `${count(n, 'value')} not read (${items})`,
  'no-clip-name': (n: number, items: string) => `${count(n, 'row')} with no clip name (${items})`,
  'sidecar-failed': (n: number, items: string) =>
    `${count(n, 'file')} that ${n === 1 ? 'is' : 'are'} not media (${n === 1 ? 'a sidecar' : 'sidecars'}) read back and different (${items}): the day's checks name ${n === 1 ? 'it' : 'them'}`,
} as const

type NoteKind = keyof typeof SUMS

const count = (n: number, one: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : `${one}s`}`

type Sum = { name?: string; kind: NoteKind; count: number; items: string[] }

export class Notes {
  readonly listed: Note[] = []
  unlisted = 0
  /** Summed notes and the notes without a kind, in the order first found. */
  readonly #said: Array<Note | Sum> = []
  readonly #sums = new Map<string, Sum>()
  /** Notes without a kind past the list's room: counted, said in one more line. */
  #unsaid = 0

  add(note: Note) {
    if (this.listed.length < LISTED_NOTES) this.listed.push(note)
    else this.unlisted++
    if (!note.kind) {
      if (this.#said.length < LISTED_NOTES) this.#said.push(note)
      else this.#unsaid++
      return
    }
    const key = `${note.name ?? ''}\u0000${note.kind}`
    let sum = this.#sums.get(key)
    if (!sum) {
      sum = { ...(note.name !== undefined && { name: note.name }), kind: note.kind, count: 0, items: [] }
      this.#sums.set(key, sum)
      this.#said.push(sum)
    }
    sum.count++
    if (sum.items.length < NAMED) sum.items.push(note.item ?? note.message)
  }

  /** Another's notes, counts and sums whole (a file's, kept apart until the file is read). */
  take(other: Notes) {
    for (const note of other.listed)
      if (this.listed.length < LISTED_NOTES) this.listed.push(note)
      else this.unlisted++
    this.unlisted += other.unlisted
    this.#unsaid += other.#unsaid
    for (const said of other.#said) {
      if (!('count' in said)) {
        if (this.#said.length < LISTED_NOTES) this.#said.push(said)
        else this.#unsaid++
        continue
      }
      const key = `${said.name ?? ''}\u0000${said.kind}`
      const sum = this.#sums.get(key)
      if (!sum) {
        const copy = { ...said, items: [...said.items] }
        this.#sums.set(key, copy)
        this.#said.push(copy)
        continue
      }
      sum.count += said.count
      for (const item of said.items) if (sum.items.length < NAMED) sum.items.push(item)
    }
  }

  /** Notes someone else listed and counted (the workspace's merge). */
  addAll(listed: readonly Note[], unlisted = 0) {
    for (const note of listed) this.add(note)
    this.unlisted += unlisted
  }

  /** Each note as it was found: those listed, then one that counts the rest. */
  list(): Note[] {
    const listed = this.listed.map(({ name, message }) => (name === undefined ? { message } : { name, message }))
    if (!this.unlisted) return listed
    return [...listed, { message: `and ${this.unlisted.toLocaleString('en-US')} more notes like these` }]
  }

  /** A line per file and kind of note: what a person reads. */
  summed(): Array<{ name?: string; message: string }> {
    const lines = this.#said.map((said) => {
      if (!('count' in said))
        return said.name === undefined ? { message: said.message } : { name: said.name, message: said.message }
      const more = said.count - said.items.length
      const items = said.items.join(', ') + (more > 0 ? `, and ${more.toLocaleString('en-US')} more` : '')
      const message = SUMS[said.kind](said.count, items)
      return said.name === undefined ? { message } : { name: said.name, message }
    })
    return this.#unsaid
      ? [...lines, { message: `and ${this.#unsaid.toLocaleString('en-US')} more notes (noteDetail lists them)` }]
      : lines
  }
}

/**
 * Log writes that arrive together are committed together. Every commit of the workspace's SQLite
 * store ends in an fsync, and the Durable Object's one thread waits for it: one commit per write
 * left that thread waiting through a good part of every POST under load. A write is held until the
 * runtime's next turn; then the writes queued meanwhile run in order, in one transaction and one
 * commit. Nothing is answered before its commit (the runtime's output gate holds every reply until
 * then), and each write does all its work, token check included, when it runs, as if it had
 * arrived then. A lone writer pays the one turn it waited.
 */
import { unavailable } from '../shared/problem'

/** A write waiting for its group, and how it is refused when the group cannot be run. */
type Queued = (() => void) & { refuse: () => void }

const refuse = (write: Queued) => write.refuse()

export class GroupCommit {
  #queue: Queued[] = []

  /** `afterGroup` runs once each group's writes have run (the send windows look at what moved). */
  constructor(private readonly afterGroup?: () => void) {}

  /** Runs `write` with the next group; its result, or the error it threw. */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queued = Object.assign(
        () => {
          try {
            resolve(write())
          } catch (err) {
            reject(err)
          }
        },
        { refuse: () => reject(unavailable()) },
      )
      if (this.#queue.push(queued) > 1) return
      try {
        setTimeout(() => this.#commit(), 0)
      } catch {
        // No timer could be set (the runtime's limit): the writes waiting for this one turn are
        // refused, 503, and the queue starts afresh, so the next write is not held behind them.
        const waiting = this.#queue
        this.#queue = []
        for (const write of waiting) refuse(write)
      }
    })
  }

  #commit() {
    const group = this.#queue
    this.#queue = []
    for (const write of group) write()
    this.afterGroup?.()
  }
}

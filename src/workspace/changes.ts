/**
 * The console's live state: a version that moves on every change the console shows (requests,
 * tokens, send windows), and the long polls waiting for it to move.
 */
export class Changes {
  /**
   * Counted from the time the object started, not from 0: a console polling with the version of
   * the object before a restart must find it different at once. From 0 both were 0, and the first
   * poll after a restart waited out its full timeout (~30 s) before the console saw the service.
   */
  #version = Date.now()
  readonly #waiters = new Set<() => void>()

  get version() {
    return this.#version
  }

  changed() {
    this.#version++
    for (const wake of [...this.#waiters]) wake()
  }

  /** Resolves as soon as the version differs from `since`, or after `timeoutMs` with the same one. */
  async after(since: number, timeoutMs: number): Promise<number> {
    if (since !== this.#version) return this.#version
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.#waiters.delete(done)
        resolve()
      }
      const timer = setTimeout(done, timeoutMs)
      this.#waiters.add(done)
    })
    return this.#version
  }
}

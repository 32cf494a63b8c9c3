// The ceiling with its writes committed in groups, as the service commits log writes
// (src/workspace/group-commit.ts), to compare like with like:
//   node bench/compare.mjs --scenario=post bench/ceiling/grouped.toml wrangler.toml
import ceiling, { Store as BareStore } from './worker.js'

export class Store extends BareStore {
  queue = []

  put(id, body) {
    return new Promise((resolve) => {
      if (this.queue.push(() => resolve(super.put(id, body))) === 1) setTimeout(() => this.commit(), 0)
    })
  }

  commit() {
    const group = this.queue
    this.queue = []
    for (const write of group) write()
  }
}

export default ceiling

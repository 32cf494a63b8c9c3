// The ceiling with its writes committed in groups by the service's own GroupCommit, to compare
// like with like:
//   node bench/compare.mjs --scenario=post bench/ceiling/grouped.toml wrangler.toml
import { GroupCommit } from '../../src/workspace/group-commit'
import ceiling, { Store as BareStore } from './worker.js'

export class Store extends BareStore {
  commits = new GroupCommit()

  put(id, body) {
    return this.commits.run(() => super.put(id, body))
  }
}

export default ceiling

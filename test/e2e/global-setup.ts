// Before any e2e file runs: the project's .dev.vars and its operator key, made once. Files run two
// at a time, and two starting `npm start` here on a fresh clone would each write a key of their
// own, one over the other, and one service answer to a key its tests no longer have.
import { ensureOperatorKey } from '../../scripts/local.mjs'

export default function setup() {
  ensureOperatorKey()
}

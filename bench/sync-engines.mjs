// node --expose-gc bench/sync-engines.mjs [clips=20000]
//
// Whether a CRDT sync engine can hold the days that carts would sync to a production: one day's
// log as JSON (as a client sends it, its white space its own), as an Automerge document and as a
// Yjs document of nested maps and arrays. For each: the time to build it from the JSON, the heap it
// takes, its saved form and the time to load that, the update one changed hash makes, and whether
// the JSON comes back byte for byte (the service serves a log exactly as it was sent). Each engine
// is measured in a process of its own, so one's garbage is not the other's heap.
import { spawnSync } from 'node:child_process'
import * as A from '@automerge/automerge'
import * as Y from 'yjs'
import { makeLog } from './client.mjs'

const [, , clipsArg = '20000', engine] = process.argv
const CLIPS = Number(clipsArg)

if (!engine) {
  console.log(`One shooting day of ${CLIPS.toLocaleString('en-US')} clips, held by each engine:`)
  for (const name of ['automerge', 'yjs']) {
    const run = spawnSync(process.execPath, ['--expose-gc', import.meta.filename, clipsArg, name], { stdio: 'inherit' })
    if (run.status !== 0) process.exitCode = 1
  }
} else {
  const text = JSON.stringify(makeLog('D001', CLIPS), null, 1)
  const mib = (n) => `${(n / 2 ** 20).toFixed(1)} MiB`
  const heap = () => {
    globalThis.gc?.()
    return process.memoryUsage().heapUsed
  }
  const timed = (work) => {
    const started = performance.now()
    const value = work()
    return [value, Math.round(performance.now() - started)]
  }
  /** An engine's figures, its saved form's bytes and the log it gives back compared with the log sent. */
  const say = ({ build, held, saved, load, change, back }) =>
    console.log(
      `  ${engine.padEnd(9)} build ${build} ms, heap +${mib(held)}; saved ${mib(saved.length)} (load ${load} ms); ` +
        `one hash changed: ${change} B; the JSON back byte for byte: ${JSON.stringify(back, null, 1) === text ? 'yes' : 'no'} ` +
        `(log as sent: ${mib(Buffer.byteLength(text))})`,
    )
  const before = heap()
  if (engine === 'automerge') {
    const [doc, build] = timed(() => A.from(JSON.parse(text)))
    const held = heap() - before
    const saved = A.save(doc)
    const [loaded, load] = timed(() => A.load(saved))
    const changed = A.change(loaded, (d) => {
      d.ocf.clips[123].copies[0].hash = 'xxh64:0123456789abcdef'
    })
    const change = A.saveSince(changed, A.getHeads(loaded)).length
    say({ build, held, saved, load, change, back: A.toJS(loaded) })
  } else {
    const toY = (value) => {
      if (Array.isArray(value)) {
        const list = new Y.Array()
        list.push(value.map(toY))
        return list
      }
      if (value && typeof value === 'object') {
        const map = new Y.Map()
        for (const [key, item] of Object.entries(value)) map.set(key, toY(item))
        return map
      }
      return value
    }
    const doc = new Y.Doc()
    const [, build] = timed(() =>
      doc.transact(() => {
        const root = doc.getMap('log')
        for (const [key, value] of Object.entries(JSON.parse(text))) root.set(key, toY(value))
      }),
    )
    const held = heap() - before
    const saved = Y.encodeStateAsUpdate(doc)
    const other = new Y.Doc()
    const [, load] = timed(() => Y.applyUpdate(other, saved))
    const vector = Y.encodeStateVector(other)
    other.getMap('log').get('ocf').get('clips').get(123).get('copies').get(0).set('hash', 'xxh64:0123456789abcdef')
    const change = Y.encodeStateAsUpdate(other, vector).length
    say({ build, held, saved, load, change, back: other.getMap('log').toJSON() })
  }
}

/**
 * A stored log read for drawing: the log without its clips, and each clip list as something to
 * iterate, which parses its clips from the stored bytes a run at a time each time it is gone
 * through. A 20,000-clip day parsed whole held some 50 MB of objects on V8's heap through its
 * whole clips report; read this way it holds its bytes (outside the heap) and one run of clips.
 *
 * Stored logs were checked when written, so nothing is checked here.
 */
import type { LogOutput, OcfClip, ProxyClip, SoundClip } from '../schemas/log'
import { utf8Text } from '../shared/utf8'
import { scanLog } from './scan'
import { PIECEWISE_BYTES } from './check'

/** A clip list that knows its length and can be gone through as often as needed. */
type ClipList<C> = { readonly length: number; [Symbol.iterator](): Iterator<C> }

/** A log's clips by part, and the rest of it (`log`, whose clip lists may be empty). */
export type LazyLog = {
  log: LogOutput
  ocf: ClipList<OcfClip>
  sound: ClipList<SoundClip>
  proxy: ClipList<ProxyClip>
}

const NONE: ClipList<never> = []

/**
 * Clips are parsed in runs of up to this many bytes: one decode and one JSON.parse per clip cost
 * a 20,000-clip report some 8% more time in workerd (each decode is a call into the runtime); a run
 * holds a few hundred clips' objects.
 */
const RUN_BYTES = 256 * 1024

/** A log as stored: text or bytes; over PIECEWISE_BYTES its clips are read one at a time. */
export function lazyLog(stored: string | Uint8Array): LazyLog {
  if (typeof stored !== 'string' && stored.length > PIECEWISE_BYTES) return clipByClip(stored)
  const log = JSON.parse(typeof stored === 'string' ? stored : utf8Text(stored)) as LogOutput
  return {
    log,
    ocf: log.ocf?.clips ?? NONE,
    sound: log.sound?.clips ?? NONE,
    proxy: log.proxy?.clips ?? NONE,
  }
}

function clipByClip(bytes: Uint8Array): LazyLog {
  const { skeleton, lists } = scanLog(bytes)
  const parts: Record<string, ClipList<unknown>> = {}
  for (const { part, starts, ends } of lists) {
    parts[part] = {
      length: starts.length,
      *[Symbol.iterator]() {
        // The clips of a list lie in a row with commas between: a run of them parses as an array.
        for (let first = 0; first < starts.length;) {
          let last = first
          while (last + 1 < starts.length && ends[last + 1]! - starts[first]! <= RUN_BYTES) last++
          yield* JSON.parse(`[${utf8Text(bytes.subarray(starts[first], ends[last]))}]`) as unknown[]
          first = last + 1
        }
      },
    }
  }
  return {
    log: JSON.parse(utf8Text(skeleton)) as LogOutput,
    ocf: (parts.ocf as ClipList<OcfClip>) ?? NONE,
    sound: (parts.sound as ClipList<SoundClip>) ?? NONE,
    proxy: (parts.proxy as ClipList<ProxyClip>) ?? NONE,
  }
}

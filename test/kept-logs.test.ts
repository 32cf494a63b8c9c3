// The logs the worker keeps under their tags (http/kept-logs.ts): kept the second time the same
// tag is answered, at most 8 MiB of them, the least recently answered going first.
import { describe, expect, it } from 'vitest'
import { keepLog, keptLog, touchLog } from '../src/http/kept-logs'

const MiB = 1024 * 1024
/** A log's text of `bytes` bytes. */
const text = (bytes: number, fill = 'a') => fill.repeat(bytes)
/** Answered twice under the same tag: kept. */
const answeredTwice = (store: string, id: string, etag: string, body: string) => {
  keepLog(store, id, etag, body)
  keepLog(store, id, etag, body)
}

describe('the kept logs', () => {
  it('keeps a text the second time its tag is answered, as UTF-8, and only for its store', () => {
    keepLog('workspace', 'K001', '"p.1"', '{"unit":"Unité 🎬"}')
    expect(keptLog('workspace', 'K001')).toBeUndefined()
    keepLog('workspace', 'K001', '"p.1"', '{"unit":"Unité 🎬"}')
    const kept = keptLog('workspace', 'K001')!
    expect({ etag: kept.etag, text: new TextDecoder().decode(kept.bytes) }).toEqual({
      etag: '"p.1"',
      text: '{"unit":"Unité 🎬"}',
    })
    expect(keptLog('production:other', 'K001')).toBeUndefined()
    // Answered under another tag: the old text goes at once, the new one is not kept yet.
    keepLog('workspace', 'K001', '"p.2"', '{}')
    expect(keptLog('workspace', 'K001')).toBeUndefined()
    // A 304 to a client, or a log past what is kept: nothing kept for it either.
    answeredTwice('workspace', 'K002', '"p.3"', '{}')
    keepLog('workspace', 'K002', '"p.4"', undefined)
    expect(keptLog('workspace', 'K002')).toBeUndefined()
    answeredTwice('workspace', 'K003', '"p.5"', text(MiB + 1))
    expect(keptLog('workspace', 'K003')).toBeUndefined()
  })

  it('holds 8 MiB at most, the least recently answered going first, and a stale touch brings nothing back', () => {
    for (let i = 0; i < 8; i++) answeredTwice('workspace', `L${i}`, `"q.${i}"`, text(MiB))
    touchLog('workspace', 'L0', keptLog('workspace', 'L0')!)
    const l1 = keptLog('workspace', 'L1')!
    answeredTwice('workspace', 'L8', '"q.8"', text(MiB))
    // L0 was answered after L1: L1 went.
    expect(keptLog('workspace', 'L1')).toBeUndefined()
    expect(keptLog('workspace', 'L0')?.etag).toBe('"q.0"')
    // A request that read L1 before it went touches it after: it stays gone, and the count holds.
    touchLog('workspace', 'L1', l1)
    expect(keptLog('workspace', 'L1')).toBeUndefined()
    answeredTwice('workspace', 'L9', '"q.9"', text(MiB))
    // One more MiB: the least recently answered of those left (L2) goes, the touched L0 stays.
    expect(['L0', 'L2', 'L3', 'L9'].map((id) => keptLog('workspace', id)?.etag)).toEqual([
      '"q.0"',
      undefined,
      '"q.3"',
      '"q.9"',
    ])
  })

  it('never keeps the texts of more logs read in turn than it remembers the tags of', () => {
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 300; i++) keepLog('workspace', `M${i}`, `"r.${i}"`, '{}')
    expect([...Array(300).keys()].filter((i) => keptLog('workspace', `M${i}`))).toEqual([])
  })
})

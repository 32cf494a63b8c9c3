// A PATCH of a log over 8 MiB is merged in the log's bytes (src/large-logs/merge.ts): the merge on
// its own, in plain Node, against the parsed merge `{...stored, ...patch}`. Through the service it
// is in large-patches.test.ts.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkPiecewise } from '../src/large-logs/check'
import { membersOfObject, mergedLog } from '../src/large-logs/merge'
import { membersOf } from '../src/large-logs/scan'
import { CustomSchemas } from '../src/schemas/custom'
import { checkLog, type LogOutput } from '../src/schemas/log'
import { summarize } from '../src/summary/summary'
import { logBody } from './log-arbitraries'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

// Few names, so that the same one comes twice in an object, in the stored log and in the patch.
const name = fc.constantFrom('id', 'day', 'unit', 'ocf', 'version', 'notes', 'é', 'a\u2028b', 'quote"d')
const space = fc.constantFrom('', ' ', '\n  ', '\t')
const members = fc.array(fc.tuple(name, fc.jsonValue({ maxDepth: 2 }), space), { maxLength: 6 })

/** An object's JSON with its members as given, names repeated, white space anywhere between. */
const objectText = (list: Array<[string, unknown, string]>) =>
  `{${list.map(([key, value, ws]) => `${ws}${JSON.stringify(key)}${ws}:${ws}${JSON.stringify(value, null, ws ? 2 : undefined)}${ws}`).join(',')}}`

/** What a parsed merge gives: the patch spread over the stored log, `version: 1` when neither has one. */
function parsedMerge(stored: string, patch: string) {
  const merged = { ...JSON.parse(stored), ...JSON.parse(patch) }
  if (merged.version === undefined) merged.version = 1
  return merged
}

describe('a patch merged in bytes', () => {
  it('is the object a parsed merge gives, member for member and in its order', () => {
    fc.assert(
      fc.property(members, members, fc.boolean(), (stored, patch, parsedPatch) => {
        const storedText = objectText(stored)
        const patchText = objectText(patch)
        const patchMembers = parsedPatch ? membersOfObject(JSON.parse(patchText)) : membersOf(encoder.encode(patchText))
        const merged = JSON.parse(decoder.decode(mergedLog(encoder.encode(storedText), patchMembers)))
        const expected = parsedMerge(storedText, patchText)
        expect(merged).toEqual(expected)
        expect(Object.keys(merged)).toEqual(Object.keys(expected))
      }),
      { numRuns: 1000 },
    )
  })

  it('keeps every value as it came: the patch’s as sent, the stored log’s as stored', () => {
    const stored = '{"id":"D001",  "day" : 1,"ocf":{ "clips" : [ ] },"unit":"Main Unit"}'
    const patch = '{\n  "ocf": {\n    "files": 2\n  },\n  "lens": "Zoom"\n}'
    const merged = decoder.decode(mergedLog(encoder.encode(stored), membersOf(encoder.encode(patch))))
    expect(merged).toBe(
      '{"id":"D001","day":1,"ocf":{\n    "files": 2\n  },"unit":"Main Unit","lens":"Zoom","version":1}',
    )
  })

  it('checks and sums up as the parsed merge does, on random logs and patches', () => {
    const NO_SCHEMAS = new CustomSchemas({})
    fc.assert(
      fc.property(logBody, logBody, fc.boolean(), (first, patch, pretty) => {
        const stored = JSON.stringify(
          { id: 'D001', day: 1, date: '2025-06-14', ...first },
          null,
          pretty ? 2 : undefined,
        )
        const patchText = JSON.stringify(patch)
        const expected = parsedMerge(stored, patchText)
        const { log, summary, details } = checkPiecewise(
          mergedLog(encoder.encode(stored), membersOf(encoder.encode(patchText))),
        )
        expect(details).toEqual(checkLog(expected, NO_SCHEMAS).details)
        expect(summary).toEqual(summarize(expected as LogOutput))
        const { ocf, sound, proxy, ...rest } = expected
        expect(log).toMatchObject(rest)
      }),
      { numRuns: 200 },
    )
  })
})

// A log over 8 MiB is checked a clip at a time (src/large-logs), never parsed whole: its answer
// must be the whole-log check's, the same refusals at the same paths, the same summary, and a
// malformed body refused whenever JSON.parse would refuse it. In plain Node; POST /log over 8 MiB
// through the service is in piecewise.test.ts.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkPiecewise } from '../src/large-logs/check'
import { CustomSchemas } from '../src/schemas/custom'
import { parseObject } from '../src/schemas/json'
import { checkLog, type LogOutput } from '../src/schemas/log'
import { Problem } from '../src/shared/problem'
import { summarize } from '../src/summary/summary'
import { logBody } from './log-arbitraries'
import { clip } from './log-fixtures'

const encoder = new TextEncoder()
const NO_SCHEMAS = new CustomSchemas({})
const byProp = (a: { prop: string }, b: { prop: string }) => (a.prop < b.prop ? -1 : a.prop > b.prop ? 1 : 0)

/** What the whole-log path answers for a body: the refusal it throws, or its details and summary. */
function whole(text: string) {
  try {
    const log = parseObject(text)
    const { details } = checkLog(log, NO_SCHEMAS)
    return { details: details.sort(byProp), summary: details.length ? undefined : summarize(log as LogOutput) }
  } catch (err) {
    return { refused: (err as Problem).kind }
  }
}

function piecewise(text: string) {
  try {
    const { details, summary } = checkPiecewise(encoder.encode(text))
    return { details: details.sort(byProp), summary: details.length ? undefined : summary }
  } catch (err) {
    if (!(err instanceof Problem)) throw err
    return { refused: err.kind }
  }
}

/** Values that break a clip's schema where they land. */
const wrong = fc.constantFrom(-1, 'x', null, [], {}, 1.5, '99:99:99:99', '10:00:00:30')

const anyLog = fc
  .tuple(logBody, fc.integer({ min: 1, max: 999 }), fc.boolean())
  .map(([body, day, pretty]) => ({ log: { id: 'D001', day, date: '2025-06-14', ...body }, pretty }))

describe('a log checked a clip at a time', () => {
  it('answers what the whole-log check answers, valid or not', () => {
    fc.assert(
      fc.property(
        anyLog,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('size', 'copies', 'fps', 'tc_start', 'clip', 'format'), wrong), {
          maxLength: 3,
        }),
        ({ log, pretty }, breaks) => {
          for (const [n, field, value] of breaks) {
            const clips = [log.ocf?.clips, log.sound?.clips, log.proxy?.clips].filter((c) => c?.length)
            const list = clips[n % Math.max(clips.length, 1)] as Record<string, unknown>[] | undefined
            if (list) list[n % list.length]![field] = value
          }
          const text = JSON.stringify(log, null, pretty ? 2 : undefined)
          expect(piecewise(text)).toEqual(whole(text))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('refuses a malformed body whenever JSON.parse refuses it', () => {
    fc.assert(
      fc.property(
        anyLog,
        fc.nat(),
        fc.constantFrom('', ',', '[', ']', '{', '}', '"', ':', '\\', ' ', 'x', ',]'),
        ({ log, pretty }, at, insert) => {
          const sent = JSON.stringify(log, null, pretty ? 2 : undefined)
          const cut = at % (sent.length + 1)
          // Delete a character, or put one in.
          const text =
            insert === '' ? sent.slice(0, cut) + sent.slice(cut + 1) : sent.slice(0, cut) + insert + sent.slice(cut)
          let parses = true
          try {
            JSON.parse(text)
          } catch {
            parses = false
          }
          const answer = piecewise(text)
          if (!parses) expect(answer).toEqual({ refused: 'invalid' })
          else if (!('refused' in answer)) expect(answer).toEqual(whole(text))
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('refuses what lies wrongly between clips', () => {
    const clipJson = JSON.stringify(clip(1))
    for (const list of [
      `[${clipJson} ${clipJson}]`,
      `[${clipJson},]`,
      `[,${clipJson}]`,
      `[${clipJson},,${clipJson}]`,
      `[${clipJson};${clipJson}]`,
      `[${clipJson}`,
    ]) {
      const text = `{"id":"D001","day":1,"date":"2025-06-14","ocf":{"clips":${list}}}`
      expect(() => JSON.parse(text)).toThrow()
      expect(piecewise(text), list).toEqual({ refused: 'invalid' })
    }
  })

  it('refuses a clip list given twice, where JSON.parse would keep only the last', () => {
    const text = '{"id":"D001","day":1,"date":"2025-06-14","ocf":{"clips":[]},"ocf":{"clips":[]}}'
    expect(() => checkPiecewise(encoder.encode(text))).toThrow(
      expect.objectContaining({ details: [{ prop: 'ocf', message: '"ocf" is given twice' }] }),
    )
  })
})

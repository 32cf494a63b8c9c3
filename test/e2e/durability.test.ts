// SPEC §2: an acknowledged write is never lost, also when the process is killed right after the
// answer. The service, started as npm start starts it, takes 100 logs in two projects from two
// approved applications, gets SIGKILL (workerd and its node parent) the moment the last answer
// arrives, and is started again on the same state (bench/durability.mjs does the work).
import { describe, expect, it } from 'vitest'
// @ts-expect-error a plain script of the benchmarks, without types
import { checkDurability } from '../../bench/durability.mjs'

describe('kill -9 right after the last acknowledged write', () => {
  it(
    'finds every log exactly as sent, the active project and both tokens after a restart',
    { timeout: 240_000 },
    async () => {
      const lines: string[] = []
      const result = await checkDurability({ port: 5740, print: (line: string) => lines.push(line) })
      expect(result.problems, lines.join('\n')).toEqual([])
      expect(result.found).toBe(100)
      expect(result.activeProject).toBe('Durability B')
      expect(result.apps).toEqual(['Dashboard (durability)', 'Offload Tool (durability)'])
      expect(result.ok).toBe(true)
    },
  )
})

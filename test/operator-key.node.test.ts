// The operator key npm start and npm run dev make in .dev.vars on a fresh tree (scripts/local.mjs):
// starts side by side (docs/units.md's three terminals) all take the one key the first one made.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const LOCAL = join(import.meta.dirname, '..', 'scripts', 'local.mjs')
const dir = mkdtempSync(join(tmpdir(), 'operator-key-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A start's key: each process waits for the same moment, then makes sure of the key. */
function start(file: string, at: number): Promise<{ key: string; created: boolean }> {
  const script = `const { ensureOperatorKey } = await import(${JSON.stringify(LOCAL)})
    while (Date.now() < ${at});
    const key = ensureOperatorKey(${JSON.stringify(file)})
    process.stderr.write(JSON.stringify({ key }))`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.once('close', (status) =>
      status === 0
        ? resolve({ ...(JSON.parse(stderr) as { key: string }), created: stdout.startsWith('Created an operator key') })
        : reject(new Error(stderr)),
    )
  })
}

describe('the operator key of a fresh tree', () => {
  it('is one key for starts side by side, made once, readable by its user alone', async () => {
    for (let round = 0; round < 3; round++) {
      const file = join(dir, `${round}.dev.vars`)
      const at = Date.now() + 1500
      const starts = await Promise.all(Array.from({ length: 6 }, () => start(file, at)))
      const text = readFileSync(file, 'utf8')
      expect(text).toMatch(/^OPERATOR_KEY=[\w-]{32}\n$/)
      expect(starts.map((s) => s.key)).toEqual(Array(6).fill(text.slice('OPERATOR_KEY='.length, -1)))
      expect(starts.filter((s) => s.created)).toHaveLength(1)
      expect(statSync(file).mode & 0o777).toBe(0o600)
    }
  })
})

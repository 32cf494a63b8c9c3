/**
 * The README's first steps, run as a new user runs them: `npm start` in a fresh copy of the tree
 * (which writes its own .dev.vars), then the shell blocks of "Connecting an application" and "A
 * first day" pasted into bash in that folder, as they stand. Only the port differs: the README's
 * 5252 may be in use on the machine running the tests.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { copyOfTree, launch, type Launched } from './launch'
import { freePort, jsonCaller } from './server'

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8')

/** The text of a `## heading` section of the README, up to the next one. */
function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`)
  expect(start, heading).toBeGreaterThan(0)
  const end = README.indexOf('\n## ', start + 1)
  return README.slice(start, end < 0 ? undefined : end)
}

/** The ```sh blocks of a section, in order. */
const shellBlocks = (text: string) => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!)

const tree = copyOfTree()
const state = mkdtempSync(join(tmpdir(), 'media-log-readme-'))
let service: Launched | undefined

afterAll(async () => {
  await service?.stop()
  tree.remove()
  rmSync(state, { recursive: true, force: true })
})

describe("the README's first day", () => {
  it('connects an application, posts a day, saves its report and opens its e-mail, as written', async () => {
    const port = await freePort(5660, 5679)
    service = await launch('start', { dir: tree.dir, port, state })
    // Every command block of the README is run: the start (done above, as `npm start`), then these.
    const all = shellBlocks(README)
    expect(all).toHaveLength(3)
    expect(all[0]).toBe(
      'npm ci\nnpm start          # the service on http://localhost:5252, prints the operator console URL\n',
    )
    const connect = shellBlocks(section('Connecting an application'))
    const firstDay = shellBlocks(section('A first day'))
    expect(connect).toHaveLength(1)
    expect(firstDay).toHaveLength(1)
    const script = [...connect, ...firstDay].join('\n').replaceAll('localhost:5252', `localhost:${port}`)
    expect(script).not.toContain('5252')

    const out = execFileSync('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: tree.dir,
      encoding: 'utf8',
      timeout: 60_000,
    })
    // curl prints each answer with no line break after it: the answers are split where one ends.
    const lines = out
      .split(/\n|(?<=\})(?=\{)/)
      .map((l) => l.trim())
      .filter(Boolean)
    // The request as the console lists it, the approval, the token, the project, the log, the e-mail.
    expect(JSON.parse(lines[0]!)).toMatchObject({
      requests: [{ appName: 'Offload Tool', code: 'K7QM-2XPD', attempts: 1 }],
    })
    expect(JSON.parse(lines[1]!)).toEqual({ success: true })
    const { token } = JSON.parse(lines[2]!) as { token: string }
    expect(token).toMatch(/^mls_/)
    // Kept in a file no other user of the machine reads.
    expect(statSync(join(tree.dir, 'token.json')).mode & 0o777).toBe(0o600)
    expect(JSON.parse(lines[3]!)).toMatchObject({ project_name: 'First Day', path: 'projects/First Day' })
    expect(JSON.parse(lines[4]!)).toEqual({ success: true })
    expect(JSON.parse(lines[5]!)).toEqual({ success: true })
    expect(lines).toHaveLength(6)

    // The report was saved under the name the README gives, and reads as the day.
    const saved = /saves (\S+\.pdf)/.exec(firstDay[0]!)![1]!
    expect(existsSync(join(tree.dir, saved))).toBe(true)
    const text = execFileSync('pdftotext', ['-layout', join(tree.dir, saved), '-'], { encoding: 'utf8' })
    expect(text).toContain('First Day')
    expect(text).toContain('Day 1 — 2024-03-01')
    expect(text).toContain('A001C001_240301_R1AB')

    // The e-mail waits on the console with the subject the README says.
    const subject = /the subject\s+`([^`]+)`/.exec(section('A first day').replace(/\n/g, ' '))![1]!
    const windows = await jsonCaller(service)('GET', '/approve/windows', { operator: true })
    expect(windows.body.windows.map((w: { subject: string; logIds: string[] }) => [w.subject, w.logIds])).toEqual([
      [subject, ['D001']],
    ])
  })
})

import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { GroupCommit } from '../src/workspace/group-commit'
import { productionProject } from '../src/workspace/production'
import { Problem } from '../src/shared/problem'
import type { Workspace } from '../src/workspace/Workspace'
import { summarize } from '../src/summary/summary'
import { approvedToken, call, makeLog, utf8, withProject } from './helpers'

const stub = () => env.WORKSPACE.get(env.WORKSPACE.idFromName('workspace'))

/** A certainly valid log as the worker hands it over: its bytes, keys and summary. */
const checkedWrite = (workspace: Workspace, token: string, log: ReturnType<typeof makeLog>) =>
  workspace.createLog(token, utf8(JSON.stringify(log)), {
    checked: { id: log.id, day: log.day, date: log.date, summary: JSON.stringify(summarize(log as never)) },
  })

const storedIds = (state: DurableObjectState) =>
  state.storage.sql
    .exec<{ id: string }>('SELECT id FROM logs ORDER BY id')
    .toArray()
    .map((row) => row.id)

describe('GroupCommit', () => {
  it('runs writes called together later, in the order called, each with its own result', async () => {
    const group = new GroupCommit()
    const ran: number[] = []
    const results = [1, 2, 3].map((n) => group.run(() => (ran.push(n), n * 10)))
    expect(ran).toEqual([])
    expect(await Promise.all(results)).toEqual([10, 20, 30])
    expect(ran).toEqual([1, 2, 3])
  })

  it('rejects only the write that threw; the rest of its group runs', async () => {
    const group = new GroupCommit()
    const results = [
      group.run(() => 'first'),
      group.run(() => {
        throw new Error('disk on fire')
      }),
      group.run(() => 'third'),
    ]
    expect(await Promise.allSettled(results)).toEqual([
      { status: 'fulfilled', value: 'first' },
      { status: 'rejected', reason: new Error('disk on fire') },
      { status: 'fulfilled', value: 'third' },
    ])
  })

  it('refuses a group whose turn cannot be set (no timer left), 503, and runs the next write', async () => {
    const group = new GroupCommit()
    // The runtime out of timers, once: workerd's limit is 10,000 alive at a time.
    vi.spyOn(globalThis, 'setTimeout').mockImplementationOnce(() => {
      throw new RangeError('too many timers')
    })
    const [first, second] = await Promise.allSettled([group.run(() => 'first'), group.run(() => 'second')])
    const reason = (first as PromiseRejectedResult).reason as Problem
    expect(reason).toBeInstanceOf(Problem)
    expect([reason.kind, reason.error]).toEqual(['unavailable', 'Service busy: try again'])
    // The queue is not left waiting for a turn that never comes: the next write runs.
    expect(second).toEqual({ status: 'fulfilled', value: 'second' })
    expect(await group.run(() => 'next')).toBe('next')
    vi.restoreAllMocks()
  })

  it('holds a lone write until the next turn as well', async () => {
    const group = new GroupCommit()
    let ran = false
    const result = group.run(() => (ran = true))
    await Promise.resolve()
    expect(ran).toBe(false)
    expect(await result).toBe(true)
  })
})

describe('calls to a production', () => {
  afterEach(() => vi.restoreAllMocks())

  it('clear their deadline’s timer once answered: a burst of calls leaves no timer behind', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json({ id: 'P1', project_name: 'Film' }))
    const set = vi.spyOn(globalThis, 'setTimeout')
    const cleared = vi.spyOn(globalThis, 'clearTimeout')
    for (let i = 0; i < 50; i++)
      expect(await productionProject('https://production.example/productions/film', 'mls_x', 'Film')).toBe('P1')
    // Each call's deadline (its minute) is cleared once it answered.
    const deadlines = set.mock.calls.flatMap(([, ms], i) =>
      ms === 60_000 ? [set.mock.results[i]!.value as unknown] : [],
    )
    expect(deadlines).toHaveLength(50)
    const clearedTimers = new Set(cleared.mock.calls.map(([timer]) => timer as unknown))
    expect(deadlines.filter((timer) => !clearedTimers.has(timer))).toEqual([])
  })
})

describe('log writes committed together', () => {
  it('gives each write of a group its own answer and stores only what it accepted', async () => {
    const { token } = await withProject()
    const first = makeLog('D001', 1)
    const bytes = (log: object) => utf8(JSON.stringify(log))
    const answers = await runInDurableObject(stub(), async (workspace: Workspace, state) => {
      const pending = [
        checkedWrite(workspace, token, first),
        checkedWrite(workspace, token, makeLog('D001', 2)),
        workspace.createLog(token, bytes({ ...makeLog('D002'), day: 'one' })),
        workspace.createLog(token, bytes(makeLog('D003'))),
      ]
      // Nothing is written until the group runs.
      expect(storedIds(state)).toEqual([])
      return Promise.all(pending)
    })
    expect(answers).toEqual([
      undefined,
      expect.objectContaining({ kind: 'conflict', error: 'Log already exists' }),
      expect.objectContaining({
        kind: 'invalid',
        error: 'Validation Error',
        details: [{ prop: 'day', message: 'must be a whole number from 1 to 999' }],
      }),
      undefined,
    ])
    expect((await call('GET', '/log/D001', { token })).body).toEqual(first)
    expect((await call('GET', '/logs', { token })).body.logs.map((log: { id: string }) => log.id)).toEqual([
      'D001',
      'D003',
    ])
  })

  it('checks the token when the write runs: one revoked while its write waited is refused', async () => {
    const { token } = await withProject()
    const revoked = await approvedToken('Rushes Script')
    const answers = await runInDurableObject(stub(), async (workspace: Workspace, state) => {
      const pending = [
        checkedWrite(workspace, token, makeLog('D001')),
        checkedWrite(workspace, revoked, makeLog('D002')),
      ]
      workspace.revokeToken(revoked.split('_')[1]!)
      const answers = await Promise.all(pending)
      return { answers, stored: storedIds(state) }
    })
    expect(answers).toEqual({
      answers: [undefined, expect.objectContaining({ kind: 'unauthorized', error: 'Unauthorized' })],
      stored: ['D001'],
    })
  })
})

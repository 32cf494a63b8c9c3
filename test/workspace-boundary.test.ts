// The worker's side of the Durable Object boundary: a Problem comes back as the same Problem
// whether the workspace returned it or threw it, and anything else stays an error (a 500).
import { describe, expect, it } from 'vitest'
import { Problem } from '../src/shared/problem'
import { workspace } from '../src/workspace/client'

const problemJson = JSON.stringify({ problem: 'not-found', error: 'Window not found' })

/** A namespace whose one object answers `method` as given: what RPC hands the worker. */
function envAnswering(answer: () => Promise<unknown>): Env {
  const stub = { sendWindows: answer }
  return { WORKSPACE: { idFromName: () => ({}), get: () => stub } } as unknown as Env
}

describe('workspace client', () => {
  it('rebuilds a Problem the workspace returned', async () => {
    const ws = workspace(envAnswering(async () => new Error(problemJson)))
    const err = await ws.sendWindows().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(Problem)
    expect(err).toMatchObject({ kind: 'not-found', error: 'Window not found' })
  })

  it('rebuilds a Problem the workspace threw (RPC rejects with its message alone)', async () => {
    const ws = workspace(envAnswering(() => Promise.reject(new Error(problemJson))))
    const err = await ws.sendWindows().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(Problem)
    expect(err).toMatchObject({ kind: 'not-found', error: 'Window not found' })
  })

  it('leaves any other failure as it is', async () => {
    const failure = new TypeError('storage is gone')
    const ws = workspace(envAnswering(() => Promise.reject(failure)))
    expect(await ws.sendWindows().catch((e: unknown) => e)).toBe(failure)
  })
})

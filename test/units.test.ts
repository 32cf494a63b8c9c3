// Units (docs/units.md): every write of a log is a revision a cart and its production exchange;
// versions written elsewhere are taken by the revision rules, kept byte for byte, and a version in
// conflict stays visible until resolved. A deployment holding productions serves each under its path.
import {
  createExecutionContext,
  listDurableObjectIds,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import worker from '../src/index'
import { KIND_TITLES } from '../src/checks/findings'
import { ProductionError, type Production } from '../src/workspace/production'
import { Store } from '../src/workspace/store'
import { UnitLink } from '../src/workspace/units'
import type { Workspace } from '../src/workspace/Workspace'
import { BASE, OPERATOR_KEY, call, getAsSent, makeLog, utf8, withProject } from './helpers'
import { clip } from './log-fixtures'

type Leaf = { rev: string; ancestors: string[]; deleted: boolean }
type Feed = { changes: Array<{ id: string; seq: number; leaves: Leaf[] }>; last: number }

const feed = async (token: string, since = 0) => {
  const answer = await call<Feed>('GET', `/sync/changes?since=${since}`, { token })
  expect(answer.status).toBe(200)
  return answer.body
}

const leavesOf = async (token: string, id: string) => (await feed(token)).changes.find((c) => c.id === id)?.leaves

/** A version as another unit sends it: its revision, what it replaces, the log's bytes. */
const send = (token: string, id: string, leaf: Leaf & { owner?: string }, text?: string, project?: string) =>
  call(
    'POST',
    `/sync/logs/${id}?rev=${leaf.rev}&ancestors=${leaf.ancestors.join(',')}${leaf.deleted ? '&deleted=true' : ''}` +
      (leaf.owner ? `&owner=${encodeURIComponent(leaf.owner)}` : '') +
      (project ? `&project=${project}` : ''),
    { token, ...(text !== undefined && { raw: text }) },
  )

/** The active project's id, as GET /project gives it. */
const withProjectOf = async (token: string) => ({
  project: (await call('GET', '/project', { token })).body.id as string,
})

const rev = (generation: number, digit: string) => `${generation}-${digit.repeat(16)}`

describe('revisions of local writes', () => {
  it('numbers each write, names what it replaced, and keeps a deleted log as a tombstone', async () => {
    const { token } = await withProject()
    expect((await call('POST', '/log', { token, body: makeLog('D001', 2) })).status).toBe(201)
    const [first] = (await leavesOf(token, 'D001'))!
    expect(first).toEqual({ rev: expect.stringMatching(/^1-[0-9a-f]{16}$/), ancestors: [], deleted: false })

    expect((await call('PATCH', '/log/D001', { token, body: { unit: 'Second unit' } })).status).toBe(200)
    const [second] = (await leavesOf(token, 'D001'))!
    expect(second).toEqual({ rev: expect.stringMatching(/^2-/), ancestors: [first!.rev], deleted: false })

    expect((await call('DELETE', '/log/D001', { token })).status).toBe(200)
    const all = await feed(token)
    expect(all.changes).toEqual([
      {
        id: 'D001',
        seq: all.last,
        leaves: [{ rev: expect.stringMatching(/^3-/), ancestors: [second!.rev, first!.rev], deleted: true }],
      },
    ])
    // Read from the end, the feed has nothing more.
    expect((await feed(token, all.last)).changes).toEqual([])
  })
})

describe('versions written elsewhere', () => {
  it('checks a version’s custom entries against this project’s schemas, and keeps its bytes as sent', async () => {
    const { token } = await withProject()
    const schemas = {
      custom_schemas: [{ id: 'script', sync: 'clip', log_fields: [{ type: 'text', key_name: 'director' }] }],
    }
    expect((await call('PATCH', '/project/config', { token, body: schemas })).status).toBe(200)
    // The unit that wrote it has a schema this project lacks: its entry stays, as does every byte.
    const kept = JSON.stringify(
      makeLog('D030', 30, {
        custom: [
          { schema: 'script', log: { director: 'A. Director' } },
          { schema: 'theirs', log: { x: 1 } },
        ],
      }),
    )
    const leaf = { rev: rev(1, 'a'), ancestors: [], deleted: false, owner: 'Second unit' }
    expect(await send(token, 'D030', leaf, kept)).toMatchObject({ status: 200, body: { outcome: 'winner' } })
    expect((await getAsSent('/log/D030', token)).text).toBe(kept)
    // An entry this project's schema refuses is refused, with its path, and nothing is stored.
    const refused = JSON.stringify(makeLog('D031', 31, { custom: [{ schema: 'script', log: { director: 7 } }] }))
    const answer = await send(token, 'D031', { ...leaf, rev: rev(1, 'b') }, refused)
    expect(answer.status).toBe(400)
    expect((answer.body as { details: Array<{ prop: string }> }).details.map((d) => d.prop)).toEqual([
      'custom.0.log.director',
    ])
    expect(await call('GET', '/log/D031', { token })).toMatchObject({ status: 404 })
    expect(await leavesOf(token, 'D031')).toBeUndefined()
  })

  it('stores a new log as sent, knows it after, and serves that version byte for byte', async () => {
    const { token } = await withProject()
    const text = JSON.stringify(makeLog('D002', 3), null, 1)
    const leaf = { rev: rev(1, 'a'), ancestors: [], deleted: false, owner: 'Second unit' }
    expect(await send(token, 'D002', leaf, text)).toMatchObject({ status: 200, body: { outcome: 'winner' } })
    expect((await getAsSent('/log/D002', token)).text).toBe(text)
    expect((await getAsSent(`/sync/logs/D002?rev=${leaf.rev}`, token)).text).toBe(text)
    // The unit that owns the day goes with it.
    expect(await leavesOf(token, 'D002')).toEqual([leaf])
    expect(await send(token, 'D002', leaf, text)).toMatchObject({ status: 200, body: { outcome: 'known' } })
    const missing = await call('POST', '/sync/missing', {
      token,
      body: {
        logs: [
          { id: 'D002', revs: [leaf.rev, rev(2, 'b')] },
          { id: 'D404', revs: [rev(1, 'c')] },
          // Ids that are names of every object's properties are ids like any other.
          { id: 'constructor', revs: [rev(1, 'd')] },
        ],
      },
    })
    expect(missing).toMatchObject({
      status: 200,
      body: {
        missing: [
          { id: 'D002', revs: [rev(2, 'b')] },
          { id: 'D404', revs: [rev(1, 'c')] },
          { id: 'constructor', revs: [rev(1, 'd')] },
        ],
      },
    })
    // A cart names the project it is linked to: another one loaded is refused, not synced into.
    const { project } = await withProjectOf(token)
    expect(await call('GET', `/sync/changes?project=${project}`, { token })).toMatchObject({ status: 200 })
    expect(await call('GET', '/sync/changes?project=another', { token })).toMatchObject({
      status: 409,
      body: { error: 'The project this cart is linked to is not the one loaded here: load it again' },
    })
    expect(
      (await send(token, 'D002', { ...leaf, rev: rev(2, 'e'), ancestors: [leaf.rev] }, text, 'another')).status,
    ).toBe(409)
    expect(await leavesOf(token, 'D002')).toEqual([leaf])
  })

  it('keeps concurrent versions as a conflict: the same winner everywhere, the other retrievable', async () => {
    const { token } = await withProject()
    const ours = JSON.stringify(makeLog('D003', 2))
    const theirs = JSON.stringify({ ...makeLog('D003', 2), unit: 'Splinter' })
    expect((await call('POST', '/log', { token, raw: ours })).status).toBe(201)
    const [local] = (await leavesOf(token, 'D003'))!
    // Another unit's first write of the same day: generation 1 like ours; the greater text wins.
    const other = { rev: rev(1, 'f'), ancestors: [], deleted: false }
    const outcome = await send(token, 'D003', other, theirs)
    const winner = other.rev > local!.rev ? theirs : ours
    expect(outcome.body).toEqual({ outcome: other.rev > local!.rev ? 'winner' : 'conflict' })
    expect((await getAsSent('/log/D003', token)).text).toBe(winner)
    expect((await getAsSent(`/sync/logs/D003?rev=${local!.rev}`, token)).text).toBe(ours)
    expect((await getAsSent(`/sync/logs/D003?rev=${other.rev}`, token)).text).toBe(theirs)
    const conflicts = [{ id: 'D003', leaves: 2 }]
    expect((await call('GET', '/sync/status', { token })).body).toEqual({ linked: false, conflicts })
    expect((await call('GET', '/approve/link', { headers: { 'x-operator-key': OPERATOR_KEY } })).body).toEqual({
      linked: false,
      conflicts,
    })
    // A check finding too: in the day's checks, the range's, and the console's day.
    const finding = {
      kind: 'versions-in-conflict',
      severity: 'error',
      message:
        "2 versions of this day were written without seeing each other: one is kept under Production (in the production's console where two units wrote them)",
    }
    const checks = await call('GET', '/log/D003/checks', { token })
    expect(checks.body.checks[0]).toEqual(finding)
    expect(checks.body.summary.kinds['versions-in-conflict']).toBe(1)
    const range = await call('GET', '/checks', { token })
    expect(range.body.checks[0]).toEqual({ ...finding, log: 'D003' })
    const day = await call('GET', '/approve/days/D003', { headers: { 'x-operator-key': OPERATOR_KEY } })
    expect(day.body.checks[0]).toMatchObject({
      kind: 'versions-in-conflict',
      count: 1,
      findings: [{ message: finding.message }],
    })
    const days = await call('GET', '/approve/days', { headers: { 'x-operator-key': OPERATOR_KEY } })
    expect(days.body.days[0].checks.errors).toBe(day.body.day.checks.errors)
    // And in the figures of a message about the day.
    expect((await call('POST', '/open-email-window', { token, body: { logId: 'D003' } })).status).toBe(200)
    const windows = await call('GET', '/approve/windows', { headers: { 'x-operator-key': OPERATOR_KEY } })
    expect(windows.body.windows[0].checks).toEqual({
      errors: 1,
      warnings: 2,
      info: 0,
      kinds: [
        { kind: 'versions-in-conflict', severity: 'error', title: KIND_TITLES['versions-in-conflict'], count: 1 },
        { kind: 'not-verified', severity: 'warning', title: KIND_TITLES['not-verified'], count: 2 },
      ],
      days: [
        {
          title: 'Day 1 — 2024-01-01',
          lines: [
            'Copies without a checksum — RAID_A: 2 clips (A001C001_240101_R1AB, A001C002_240101_R1AB)',
            `${KIND_TITLES['versions-in-conflict']}: ${finding.message}`,
          ],
        },
      ],
    })

    // A deletion would silently drop one of the two: refused until the conflict is resolved.
    expect(await call('DELETE', '/log/D003', { token })).toMatchObject({
      status: 409,
      body: { error: 'Log has versions in conflict: resolve them first' },
    })

    // The operator's console describes both versions, the served one first.
    const described = await call('GET', '/approve/conflicts', { headers: { 'x-operator-key': OPERATOR_KEY } })
    const [served, kept] = other.rev > local!.rev ? [other, local!] : [local!, other]
    const base = makeLog('D003', 2)
    const unitOf = (leaf: Leaf) => (leaf === other ? 'Splinter' : base.unit)
    expect(described.body).toEqual({
      conflicts: [
        {
          id: 'D003',
          keptHere: true,
          versions: [served, kept].map((leaf) => ({
            rev: leaf.rev,
            deleted: false,
            served: leaf === served,
            owner: null,
            day: base.day,
            date: base.date,
            unit: unitOf(leaf),
            clips: 2,
          })),
        },
      ],
    })

    // A version that replaces both ends the conflict: one leaf again, its bytes served.
    const merged = JSON.stringify({ ...makeLog('D003', 2), unit: 'Main unit' })
    const resolution = { rev: rev(2, '0'), ancestors: [local!.rev, other.rev].sort().reverse(), deleted: false }
    expect((await send(token, 'D003', resolution, merged)).body).toEqual({ outcome: 'winner' })
    expect(await leavesOf(token, 'D003')).toEqual([resolution])
    expect((await getAsSent('/log/D003', token)).text).toBe(merged)
  })

  it('takes a deletion that replaces the log, and keeps a live version over a concurrent deletion', async () => {
    const { token } = await withProject()
    const text = JSON.stringify(makeLog('D004', 1))
    const first = { rev: rev(1, '1'), ancestors: [], deleted: false }
    expect((await send(token, 'D004', first, text)).body).toEqual({ outcome: 'winner' })
    expect((await send(token, 'D004', { rev: rev(2, '2'), ancestors: [first.rev], deleted: true })).body).toEqual({
      outcome: 'winner',
    })
    expect((await call('GET', '/log/D004', { token })).status).toBe(404)
    // Another unit edited the day meanwhile: its edit stays, the deletion beside it as a conflict.
    const edit = { rev: rev(2, '3'), ancestors: [first.rev], deleted: false }
    expect((await send(token, 'D004', edit, text)).body).toEqual({ outcome: 'winner' })
    expect((await getAsSent('/log/D004', token)).text).toBe(text)
    expect((await leavesOf(token, 'D004'))!.map((leaf) => [leaf.rev, leaf.deleted])).toEqual([
      [edit.rev, false],
      [rev(2, '2'), true],
    ])
  })

  it('refuses a version that is not a valid log of that id, or a bad revision, and stores nothing', async () => {
    const { token } = await withProject()
    const leaf = { rev: rev(1, 'a'), ancestors: [], deleted: false }
    expect(await send(token, 'D005', leaf, JSON.stringify(makeLog('D006', 1)))).toMatchObject({
      status: 400,
      body: { error: 'Validation Error', details: [{ prop: 'id', message: 'must be the id the version is sent for' }] },
    })
    expect((await send(token, 'D005', leaf, '{"id":"D005"}')).status).toBe(400)
    expect((await send(token, 'D005', leaf, '{"id":')).status).toBe(400)
    expect((await send(token, 'D005', { ...leaf, rev: '1-xyz' }, JSON.stringify(makeLog('D005', 1)))).status).toBe(400)
    expect((await send(token, 'D005', { ...leaf, deleted: true }, JSON.stringify(makeLog('D005', 1)))).status).toBe(400)
    expect((await call('GET', '/sync/changes?limit=0', { token })).status).toBe(400)
    expect(
      (await call('POST', '/sync/missing', { token, body: { logs: [{ id: 'D005', revs: ['nope'] }] } })).status,
    ).toBe(400)
    expect((await call('POST', '/sync/missing', { token, body: { logs: { D005: [] } } })).status).toBe(400)
    expect((await send('not-a-token', 'D005', leaf, JSON.stringify(makeLog('D005', 1)))).status).toBe(401)
    // A generation that leaps to win every conflict (and wedge the next write) is refused.
    expect(
      await send(token, 'D005', { ...leaf, rev: rev(999_999_999, 'a') }, JSON.stringify(makeLog('D005', 1))),
    ).toMatchObject({
      status: 400,
      body: {
        error: 'Validation Error',
        details: [{ prop: 'rev', message: "must be at most 1,000,000 generations past the log's newest known" }],
      },
    })
    expect(await feed(token)).toEqual({ changes: [], last: 0 })
    expect((await call('GET', `/sync/logs/D005?rev=${leaf.rev}`, { token })).status).toBe(404)
  })

  it('refuses a version of 200,000 bad clips naming 1,000 problems and counting the rest', async () => {
    const { token } = await withProject()
    const log = { ...makeLog('D005', 0), ocf: { clips: Array.from({ length: 200_000 }, () => ({ clip: 1 })) } }
    const answer = await send(token, 'D005', { rev: rev(1, 'a'), ancestors: [], deleted: false }, JSON.stringify(log))
    expect(answer.status).toBe(400)
    expect(answer.body.details).toHaveLength(1001)
    expect(answer.body.details[0]).toEqual({ prop: 'ocf.clips.0.clip', message: 'must be a string' })
    expect(answer.body.details[1000]).toEqual({ prop: '', message: 'and 599,000 more problems like these' })
    expect(await feed(token)).toEqual({ changes: [], last: 0 })
  })
})

describe('a day over 8 MiB', () => {
  it(
    'keeps both versions of a day checked a clip at a time, each byte for byte, and serves the one kept',
    { tags: 'slow' },
    async () => {
      const { token } = await withProject()
      // Past PIECEWISE_BYTES (8 MiB): checked a clip at a time, stored in pieces of 512 KiB.
      const big = (unit: string) => JSON.stringify(makeLog('D008', 25_000, { unit }))
      const ours = big('Main')
      const theirs = big('Splinter')
      expect(ours.length).toBeGreaterThan(8 * 1024 * 1024)
      expect((await call('POST', '/log', { token, raw: ours })).status).toBe(201)
      const [local] = (await leavesOf(token, 'D008'))!
      const other = { rev: rev(1, 'f'), ancestors: [], deleted: false }
      expect((await send(token, 'D008', other, theirs)).body).toEqual({ outcome: 'winner' })
      expect((await getAsSent('/log/D008', token)).text).toBe(theirs)
      expect((await getAsSent(`/sync/logs/D008?rev=${local!.rev}`, token)).text).toBe(ours)
      const asOperator = { 'x-operator-key': OPERATOR_KEY }
      const kept = await call('POST', '/approve/conflicts/D008', { headers: asOperator, body: { keep: local!.rev } })
      expect(kept.status).toBe(200)
      expect((await getAsSent('/log/D008', token)).text).toBe(ours)
      expect(await leavesOf(token, 'D008')).toEqual([
        { rev: kept.body.rev, ancestors: [other.rev, local!.rev], deleted: false },
      ])
    },
  )
})

describe('resolving a conflict', () => {
  it('keeps the version the operator chose, as a revision replacing both', async () => {
    const { token } = await withProject()
    const ours = JSON.stringify(makeLog('D007', 1))
    const theirs = JSON.stringify({ ...makeLog('D007', 1), unit: 'Splinter' })
    expect((await call('POST', '/log', { token, raw: ours })).status).toBe(201)
    const [local] = (await leavesOf(token, 'D007'))!
    const other = { rev: rev(1, 'f'), ancestors: [], deleted: false }
    expect((await send(token, 'D007', other, theirs)).body).toEqual({ outcome: 'winner' })
    const asOperator = { 'x-operator-key': OPERATOR_KEY }
    // Ours lost; the operator keeps it.
    const resolved = await call('POST', '/approve/conflicts/D007', { headers: asOperator, body: { keep: local!.rev } })
    expect(resolved).toMatchObject({ status: 200, body: { success: true, rev: expect.stringMatching(/^2-/) } })
    expect((await getAsSent('/log/D007', token)).text).toBe(ours)
    expect(await leavesOf(token, 'D007')).toEqual([
      { rev: resolved.body.rev, ancestors: [other.rev, local!.rev], deleted: false },
    ])
    expect((await call('GET', '/approve/conflicts', { headers: asOperator })).body).toEqual({ conflicts: [] })
    const checks = await call('GET', '/log/D007/checks', { token })
    expect(checks.body.summary.kinds['versions-in-conflict']).toBeUndefined()
    // Nothing left to resolve, or nothing of that revision: refused, nothing changed.
    const again = await call('POST', '/approve/conflicts/D007', {
      headers: asOperator,
      body: { keep: resolved.body.rev },
    })
    expect(again).toMatchObject({ status: 409, body: { error: 'Log has no versions in conflict' } })
    const unknown = await call('POST', '/approve/conflicts/D007', { headers: asOperator, body: { keep: rev(9, 'e') } })
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Revision not found' } })
    expect((await call('POST', '/approve/conflicts/D007', { headers: asOperator, body: { keep: 'x' } })).status).toBe(
      400,
    )
    // The log can be deleted again.
    expect((await call('DELETE', '/log/D007', { token })).status).toBe(200)
  })
})

describe('comparing versions in conflict', () => {
  it('sets aside its only version of a day when a resolution made elsewhere kept another it never held', async () => {
    const { token } = await withProject()
    const ours = makeLog('D009', 2)
    expect((await call('POST', '/log', { token, body: ours })).status).toBe(201)
    const [local] = (await leavesOf(token, 'D009'))!
    // The production's operator kept another unit's version of the day over ours: its revision
    // replaces both, and this service only ever held ours.
    const theirs = makeLog('D009', 3, { unit: 'Splinter' })
    const other = rev(1, 'f')
    const chosen = { rev: rev(2, 'a'), ancestors: [other, local!.rev].sort().reverse(), deleted: false }
    expect((await send(token, 'D009', chosen, JSON.stringify(theirs))).body).toEqual({ outcome: 'winner' })
    expect((await call('GET', '/log/D009', { token })).body).toEqual(theirs)
    expect((await call('GET', '/log/D009/set-aside', { token })).body).toEqual({
      versions: [
        {
          rev: local!.rev,
          owner: null,
          replacedBy: chosen.rev,
          setAsideAt: expect.any(String),
          day: ours.day,
          date: ours.date,
          unit: ours.unit,
          clips: 2,
        },
      ],
    })
    expect((await getAsSent(`/log/D009/set-aside/${local!.rev}`, token)).text).toBe(JSON.stringify(ours))
    // A write on top of the version served is no choice: nothing more is set aside.
    const edit = { rev: rev(3, 'b'), ancestors: [chosen.rev, ...chosen.ancestors], deleted: false }
    expect((await send(token, 'D009', edit, JSON.stringify({ ...theirs, notes: 'wrapped' }))).body).toEqual({
      outcome: 'winner',
    })
    expect((await call('GET', '/log/D009/set-aside', { token })).body.versions).toHaveLength(1)
  })

  it('shows each version against the one served, with its volumes and what its checks find', async () => {
    const { token } = await withProject()
    const asOperator = { 'x-operator-key': OPERATOR_KEY }
    const ours = makeLog('D008', 2)
    // Theirs: clip 1 gone, clip 2 with another checksum on SSD_01, clip 3 new on a shuttle.
    const theirs = {
      ...makeLog('D008', 0, { unit: 'Splinter' }),
      ocf: {
        clips: [
          clip(2, {
            copies: [
              { volume: 'SSD_01', hash: 'xxh64:00000000000000ff' },
              { volume: 'RAID_A', hash: null },
            ],
          }),
          clip(3, { copies: [{ volume: 'SHUTTLE_B', hash: null }] }),
        ],
      },
    }
    expect((await call('POST', '/log', { token, body: ours })).status).toBe(201)
    const [local] = (await leavesOf(token, 'D008'))!
    const other = { rev: rev(1, 'f'), ancestors: [], deleted: false }
    expect((await send(token, 'D008', other, JSON.stringify(theirs))).body).toEqual({ outcome: 'winner' })

    const compared = await call('GET', '/approve/conflicts/D008', { headers: asOperator })
    const described = { deleted: false, owner: null, day: 1, date: '2024-01-01', clips: 2, soundClips: 0 }
    const counts = { errors: expect.any(Number), warnings: expect.any(Number), info: expect.any(Number) }
    expect(compared).toMatchObject({ status: 200 })
    expect(compared.body).toEqual({
      id: 'D008',
      keptHere: true,
      versions: [
        {
          ...described,
          rev: other.rev,
          served: true,
          unit: 'Splinter',
          volumes: ['RAID_A', 'SHUTTLE_B', 'SSD_01'],
          checks: counts,
        },
        {
          ...described,
          rev: local!.rev,
          served: false,
          unit: 'Main Unit',
          volumes: ['RAID_A', 'SSD_01'],
          checks: counts,
          differs: {
            added: { count: 1, listed: [clip(1).clip] },
            removed: { count: 1, listed: [clip(3).clip] },
            changed: { count: 1, listed: [{ clip: clip(2).clip, what: ['checksums'] }] },
            volumes: { added: [], removed: ['SHUTTLE_B'] },
          },
        },
      ],
    })
    // What the comparison says a version's checks find is what the day's checks say once it is kept.
    const kept = await call('POST', '/approve/conflicts/D008', { headers: asOperator, body: { keep: local!.rev } })
    // The version not kept is set aside: listed under the day, and retrievable as it was.
    const listed = {
      versions: [
        {
          rev: other.rev,
          owner: null,
          replacedBy: kept.body.rev,
          setAsideAt: expect.any(String),
          day: 1,
          date: '2024-01-01',
          unit: 'Splinter',
          clips: 2,
        },
      ],
    }
    expect((await call('GET', '/log/D008/set-aside', { token })).body).toEqual(listed)
    expect((await call('GET', '/approve/days/D008/set-aside', { headers: asOperator })).body).toEqual(listed)
    expect((await getAsSent(`/log/D008/set-aside/${other.rev}`, token)).text).toBe(JSON.stringify(theirs))
    const file = await call('GET', `/approve/days/D008/set-aside/${other.rev}`, { headers: asOperator })
    expect(file.body).toEqual(theirs)
    expect(file.headers.get('content-disposition')).toContain(`filename="D008-${other.rev}.json"`)
    expect(await call('GET', `/log/D008/set-aside/${rev(9, 'e')}`, { token })).toMatchObject({
      status: 404,
      body: { error: 'Revision not found' },
    })
    const { errors, warnings, info } = (await call('GET', '/log/D008/checks', { token })).body.summary
    expect(compared.body.versions[1].checks).toEqual({ errors, warnings, info })
    // Deleting the day deletes what it serves, not what a resolution set aside: still listed and retrievable.
    expect((await call('DELETE', '/log/D008', { token })).status).toBe(200)
    expect((await call('GET', '/log/D008', { token })).status).toBe(404)
    expect((await call('GET', '/log/D008/set-aside', { token })).body).toEqual(listed)
    expect((await getAsSent(`/log/D008/set-aside/${other.rev}`, token)).text).toBe(JSON.stringify(theirs))
    // No versions in conflict, or no such log: 404.
    for (const id of ['D008', 'D404'])
      expect(await call('GET', `/approve/conflicts/${id}`, { headers: asOperator })).toMatchObject({
        status: 404,
        body: { error: 'Conflict not found' },
      })
  })
})

describe('a deployment holding productions', () => {
  // Defined, not assigned: an assignment would reach the test bindings through the prototype.
  const asDeployed = Object.create(env, { PRODUCTIONS: { value: 'feature, second-unit-test' } }) as Env
  const deployed = async (path: string, init: RequestInit = {}) => {
    const ctx = createExecutionContext()
    const response = await worker.fetch(new Request(`${BASE}${path}`, init), asDeployed, ctx)
    await waitOnExecutionContext(ctx)
    return { status: response.status, text: await response.text(), headers: response.headers }
  }
  const key = { 'x-operator-key': OPERATOR_KEY }

  /** A link code of production `feature` for `name` (`unit`: a unit's cart), made by its operator. */
  async function linkCode(name: string, unit = false) {
    const made = await deployed('/productions/feature/approve/link-codes', {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: JSON.stringify({ name, unit }),
    })
    expect(made.status).toBe(201)
    return JSON.parse(made.text) as {
      id: string
      code: string
      name: string
      unit: boolean
      createdAt: string
      expiresAt: string
    }
  }

  /** POST /auth on production `feature`, with `code` as its link code if given. */
  const askWith = (code: string | undefined, body: unknown) =>
    deployed('/productions/feature/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(code !== undefined && { 'x-link-code': code }) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })

  /** An application's token in production `feature` (`unit`: a unit's cart's), with a link code. */
  async function productionToken(appName: string, unit = false) {
    const { code } = await linkCode(appName, unit)
    const asked = await askWith(code, { appName, ...(unit && { unit }) })
    expect(asked.status).toBe(200)
    return JSON.parse(asked.text).token as string
  }

  it('admits an application only with a link code its operator made for it, once, and queues nothing without', async () => {
    const refused = {
      status: 403,
      text: JSON.stringify({
        error: "This production admits an application with a link code from its operator's console (X-Link-Code)",
      }),
    }
    const cards = async () =>
      JSON.parse((await deployed('/productions/feature/approve/requests', { headers: key })).text).requests
    const apps = async () =>
      JSON.parse((await deployed('/productions/feature/approve/tokens', { headers: key })).text).tokens.map(
        (t: { appName: string }) => t.appName,
      )
    const before = await apps()
    // Nobody without a code is held, queued or counted, and its body is not even read.
    expect(await askWith(undefined, { appName: 'Stranger' })).toMatchObject(refused)
    expect(await askWith('AAAA-BBBB-CCCC-DDDD', { appName: 'Stranger' })).toMatchObject(refused)
    expect(await askWith(undefined, `{${'x'.repeat(2 * 1024 * 1024)}`)).toMatchObject(refused)
    for (let i = 0; i < 25; i++) expect((await askWith(undefined, { appName: `Stranger ${i}` })).status).toBe(403)
    expect(await cards()).toEqual([])

    // A code for Second unit's cart: listed without the code, stored as a digest.
    const made = await linkCode('Second unit', true)
    expect(made).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      code: expect.stringMatching(/^([0-9A-HJKMNP-TV-Z]{4}-){3}[0-9A-HJKMNP-TV-Z]{4}$/),
      name: 'Second unit',
      unit: true,
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    })
    expect(Date.parse(made.expiresAt) - Date.parse(made.createdAt)).toBe(24 * 3_600_000)
    const listed = JSON.parse((await deployed('/productions/feature/approve/link-codes', { headers: key })).text)
    const { code, ...listing } = made
    expect(listed).toEqual({ codes: [listing] })
    expect(
      await runInDurableObject(env.WORKSPACE.get(env.WORKSPACE.idFromName('production:feature')), (_, state) =>
        state.storage.sql
          .exec<{ digest: string }>('SELECT digest FROM link_codes')
          .toArray()
          .map((row) => row.digest),
      ),
    ).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)])

    // Asked as another name, or as an office application, it admits nothing and stays.
    const wrongName = await askWith(code, { appName: 'Main unit', unit: true })
    expect(wrongName).toMatchObject({
      status: 403,
      text: JSON.stringify({ error: "This link code is for Second unit, a unit's cart: ask as that" }),
    })
    expect((await askWith(code, { appName: 'Second unit' })).status).toBe(403)
    // As typed by a person: lower case, without its dashes.
    const admitted = await askWith(code.toLowerCase().replaceAll('-', ' '), { appName: 'Second unit', unit: true })
    expect(admitted.status).toBe(200)
    expect(JSON.parse(admitted.text).token).toMatch(/^mls_/)
    expect(await apps()).toEqual([...before, 'Second unit'])
    // Once.
    expect(await askWith(code, { appName: 'Second unit', unit: true })).toMatchObject(refused)
    expect(JSON.parse((await deployed('/productions/feature/approve/link-codes', { headers: key })).text)).toEqual({
      codes: [],
    })

    // Withdrawn before use, or out of its day, it admits nothing.
    const withdrawn = await linkCode('Office laptop')
    expect(
      (await deployed(`/productions/feature/approve/link-codes/${withdrawn.id}`, { method: 'DELETE', headers: key }))
        .status,
    ).toBe(200)
    expect(await askWith(withdrawn.code, { appName: 'Office laptop' })).toMatchObject(refused)
    const late = await linkCode('Office laptop')
    await runInDurableObject(env.WORKSPACE.get(env.WORKSPACE.idFromName('production:feature')), (_, state) => {
      state.storage.sql.exec("UPDATE link_codes SET expires_at = '2026-01-01T00:00:00.000Z' WHERE id = ?", late.id)
    })
    expect(await askWith(late.code, { appName: 'Office laptop' })).toMatchObject(refused)
    expect(await apps()).toEqual([...before, 'Second unit'])
    expect(await cards()).toEqual([])
    // The laptop's service has no link codes: its applications ask in its console.
    expect(
      await call('POST', '/approve/link-codes', { headers: key, body: { name: 'Second unit', unit: true } }),
    ).toMatchObject({ status: 409 })
  })

  it('merges a unit’s new clips with the production office’s edit of the same day', async () => {
    const token = await productionToken('Production office')
    const as = (method: string, path: string, body?: string) =>
      deployed(`/productions/feature${path}`, {
        method,
        headers: { 'x-api-token': token, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body,
      })
    expect((await as('POST', '/project/create', JSON.stringify({ project_name: 'Feature' }))).status).toBe(201)
    const day = makeLog('D010', 2)
    expect((await as('POST', '/log', JSON.stringify(day))).status).toBe(201)
    const feed = async () => JSON.parse((await as('GET', '/sync/changes')).text) as Feed
    const [base] = (await feed()).changes[0]!.leaves
    // The office writes a note; the unit, from the same version, adds a clip.
    expect((await as('PATCH', '/log/D010', JSON.stringify({ notes: 'Lens swap at lunch' }))).status).toBe(200)
    const unitVersion = { ...day, ocf: { ...day.ocf, clips: [...day.ocf.clips, makeLog('X', 3).ocf.clips[2]!] } }
    const sent = await as(
      'POST',
      `/sync/logs/D010?rev=${rev(2, 'a')}&ancestors=${base!.rev}`,
      JSON.stringify(unitVersion),
    )
    expect(sent.status).toBe(200)
    const [merged, ...others] = (await feed()).changes[0]!.leaves
    expect(others).toEqual([])
    expect(merged!.rev).toMatch(/^3-/)
    expect(merged!.ancestors).toEqual(expect.arrayContaining([rev(2, 'a'), base!.rev]))
    expect(JSON.parse((await as('GET', '/log/D010')).text)).toEqual({ ...unitVersion, notes: 'Lens swap at lunch' })
    // The unit writes again from its own version before it heard of the merge: merged against an
    // older version its removal of the clip would be undone; it stays a conflict instead.
    const again = await as(
      'POST',
      `/sync/logs/D010?rev=${rev(3, 'e')}&ancestors=${rev(2, 'a')},${base!.rev}`,
      JSON.stringify(day),
    )
    expect(again.status).toBe(200)
    expect((await feed()).changes[0]!.leaves).toHaveLength(2)
    const asOperator = { ...key, 'content-type': 'application/json' }
    const kept = await deployed('/productions/feature/approve/conflicts/D010', {
      method: 'POST',
      headers: asOperator,
      body: JSON.stringify({ keep: merged!.rev }),
    })
    expect(kept.status).toBe(200)

    // Both change the same clip: no merge, both versions kept.
    const clipped = (size: number) => ({ ...day, ocf: { ...day.ocf, clips: [{ ...day.ocf.clips[0]!, size }] } })
    expect((await as('PATCH', '/log/D010', JSON.stringify({ ocf: clipped(1).ocf }))).status).toBe(200)
    const [now] = (await feed()).changes[0]!.leaves
    const official = JSON.parse((await as('GET', '/log/D010')).text)
    expect((await as('PATCH', '/log/D010', JSON.stringify({ ocf: clipped(2).ocf }))).status).toBe(200)
    const theirs = { ...official, ocf: clipped(3).ocf }
    expect(
      (await as('POST', `/sync/logs/D010?rev=${rev(9, 'b')}&ancestors=${now!.rev}`, JSON.stringify(theirs))).status,
    ).toBe(200)
    expect((await feed()).changes[0]!.leaves).toHaveLength(2)
  })

  it('takes from each cart its own unit’s days and new versions beside others’, never over them', async () => {
    const [main, second] = [await productionToken('Main unit', true), await productionToken('Second unit', true)]
    const office = await productionToken('Production office')
    const as = (token: string, path: string, body?: string) =>
      deployed(`/productions/feature${path}`, {
        method: 'POST',
        headers: { 'x-api-token': token, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body,
      })
    const feed = async () =>
      JSON.parse(
        (await deployed('/productions/feature/sync/changes', { headers: { 'x-api-token': main } })).text,
      ) as Feed
    // A unit's cart gives the production its project when it has none, and does nothing else but sync.
    const created = JSON.stringify({ project_name: 'Feature' })
    expect((await as(main, '/project/create', created)).status).toBe(201)
    expect(await as(second, '/project/create', created)).toMatchObject({
      status: 409,
      text: JSON.stringify({ error: 'This production has its project: carts link to it' }),
    })
    const onlySyncs = {
      status: 403,
      text: JSON.stringify({ error: "Main unit is a unit's cart: here it syncs, and does nothing else" }),
    }
    expect(await as(main, '/log', JSON.stringify(makeLog('D019', 1)))).toMatchObject(onlySyncs)
    const asMain = { headers: { 'x-api-token': main } }
    expect(await deployed('/productions/feature/logs', asMain)).toMatchObject(onlySyncs)
    // Which project it syncs, and nothing of the production's settings (its recipients).
    const project = await deployed('/productions/feature/project', asMain)
    expect(project.status).toBe(200)
    expect(Object.keys(JSON.parse(project.text)).sort()).toEqual([
      'activeLog',
      'created_at',
      'id',
      'path',
      'project_name',
    ])
    expect(await deployed('/productions/feature/project/config', asMain)).toMatchObject(onlySyncs)
    // Refused before a large body is read: 2 MiB that are no JSON would be a 400 once read.
    const unread = `{${'x'.repeat(2 * 1024 * 1024)}`
    expect(await as(main, '/log/D019/import', unread)).toMatchObject(onlySyncs)
    expect(await as(main, '/log', unread)).toMatchObject(onlySyncs)
    expect(await as(main, '/log/D019/read-back', unread)).toMatchObject(onlySyncs)
    const listed = JSON.parse((await deployed('/productions/feature/approve/tokens', { headers: key })).text)
    expect(listed.tokens.map((t: { appName: string; unit?: true }) => [t.appName, t.unit])).toEqual([
      ['Main unit', true],
      ['Second unit', true],
      ['Production office', undefined],
    ])
    const text = JSON.stringify(makeLog('D020', 2))
    const first = `/sync/logs/D020?rev=${rev(1, 'a')}&ancestors=&owner=Main%20unit`
    expect(await as(main, first, text)).toMatchObject({ status: 200, text: '{"outcome":"winner"}' })
    const before = await feed()

    // Second unit's cart writes over Main unit's day, or names Main unit as its owner: refused.
    const over = (owner: string, deleted = false) =>
      as(
        second,
        `/sync/logs/D020?rev=${rev(2, 'b')}&ancestors=${rev(1, 'a')}&owner=${encodeURIComponent(owner)}` +
          (deleted ? '&deleted=true' : ''),
        deleted ? undefined : text,
      )
    expect(await over('Second unit')).toMatchObject({
      status: 403,
      text: JSON.stringify({ error: "Log belongs to Main unit: it is written on that unit's cart" }),
    })
    expect((await over('Second unit', true)).status).toBe(403)
    expect(await over('Main unit')).toMatchObject({
      status: 403,
      text: JSON.stringify({ error: "Approved as Second unit: it sends versions of its own days, not Main unit's" }),
    })
    const claimed = await as(
      second,
      `/sync/logs/D021?rev=${rev(1, 'c')}&ancestors=&owner=Main%20unit`,
      JSON.stringify(makeLog('D021', 1)),
    )
    expect(claimed.status).toBe(403)
    expect(await feed()).toEqual(before)
    const served = async (id: string) =>
      (await deployed(`/productions/feature/log/${id}`, { headers: { 'x-api-token': office } })).text
    expect(await served('D020')).toBe(text)

    // Main unit writes over its own day; beside it, Second unit's cart sends only versions of its own.
    const edited = JSON.stringify({ ...makeLog('D020', 2), notes: 'Main unit, reshoot' })
    const mainEdit = `/sync/logs/D020?rev=${rev(2, 'e')}&ancestors=${rev(1, 'a')}&owner=Main%20unit`
    expect(await as(main, mainEdit, edited)).toMatchObject({ status: 200, text: '{"outcome":"winner"}' })
    expect(await served('D020')).toBe(edited)

    // Its own version, even one written from Main's first (the version the production merged
    // Main's edit against), is kept beside as a conflict, and never merged into Main's day.
    const theirs = JSON.stringify({ ...makeLog('D020', 2), unit: 'Second' })
    const beside = await as(
      second,
      `/sync/logs/D020?rev=${rev(3, 'f')}&ancestors=${rev(1, 'a')}&owner=Second%20unit`,
      theirs,
    )
    expect(beside).toMatchObject({ status: 200, text: '{"outcome":"winner"}' })
    const conflicts = async () =>
      JSON.parse((await deployed('/productions/feature/approve/conflicts', { headers: key })).text).conflicts
    expect(await conflicts()).toMatchObject([
      {
        id: 'D020',
        keptHere: true,
        versions: [
          { rev: rev(3, 'f'), served: true, owner: 'Second unit' },
          { rev: rev(2, 'e'), served: false, owner: 'Main unit' },
        ],
      },
    ])
    expect(await served('D020')).toBe(theirs)

    // The production's operator keeps Main's; Second's cart, which had gone on writing its own
    // version meanwhile, sends that: a conflict again for the operator, not a refusal.
    const kept = await deployed('/productions/feature/approve/conflicts/D020', {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: JSON.stringify({ keep: rev(2, 'e') }),
    })
    expect(kept.status).toBe(200)
    expect(await served('D020')).toBe(edited)
    const later = `/sync/logs/D020?rev=${rev(5, 'a')}&ancestors=${rev(4, 'a')},${rev(3, 'f')},${rev(1, 'a')}&owner=Second%20unit`
    expect(await as(second, later, theirs)).toMatchObject({ status: 200, text: '{"outcome":"winner"}' })
    expect((await conflicts())[0].versions).toHaveLength(2)

    // A unit deletes its own day; another may log one under the id again, as its own, and so may
    // the first unit, unseen: a conflict. A deletion kept beside its unit's live version is not
    // another unit's to replace.
    const day22 = JSON.stringify(makeLog('D022', 1))
    expect((await as(main, `/sync/logs/D022?rev=${rev(1, 'b')}&ancestors=&owner=Main%20unit`, day22)).status).toBe(200)
    const deleted = `/sync/logs/D022?rev=${rev(2, 'b')}&ancestors=${rev(1, 'b')}&deleted=true&owner=Main%20unit`
    expect(await as(main, deleted)).toMatchObject({ status: 200, text: '{"outcome":"winner"}' })
    const again = (digit: string, owner: string) =>
      `/sync/logs/D022?rev=${rev(3, digit)}&ancestors=${rev(2, 'b')},${rev(1, 'b')}&owner=${encodeURIComponent(owner)}`
    expect(await as(second, again('c', 'Second unit'), day22)).toMatchObject({
      status: 200,
      text: '{"outcome":"winner"}',
    })
    expect(await as(main, again('d', 'Main unit'), day22)).toMatchObject({ status: 200 })
    expect(await served('D022')).toBe(day22)
    const day23 = JSON.stringify(makeLog('D023', 1))
    expect((await as(main, `/sync/logs/D023?rev=${rev(1, 'c')}&ancestors=&owner=Main%20unit`, day23)).status).toBe(200)
    const gone = `/sync/logs/D023?rev=${rev(2, 'c')}&ancestors=${rev(1, 'c')}&deleted=true&owner=Main%20unit`
    const alsoEdited = `/sync/logs/D023?rev=${rev(2, 'd')}&ancestors=${rev(1, 'c')}&owner=Main%20unit`
    expect((await as(main, alsoEdited, day23)).status).toBe(200)
    expect(await as(main, gone)).toMatchObject({ status: 200, text: '{"outcome":"conflict"}' })
    const overDeletion = `/sync/logs/D023?rev=${rev(3, 'e')}&ancestors=${rev(2, 'c')},${rev(1, 'c')}&owner=Second%20unit`
    expect(await as(second, overDeletion, day23)).toMatchObject({
      status: 403,
      text: JSON.stringify({ error: "Log belongs to Main unit: it is written on that unit's cart" }),
    })

    // A day the production office logged is no unit's: a cart edits it as it is.
    const day24 = makeLog('D024', 1)
    expect((await as(office, '/log', JSON.stringify(day24))).status).toBe(201)
    const [officeLeaf] = (await feed()).changes.find((change) => change.id === 'D024')!.leaves
    const edit24 = () => `/sync/logs/D024?rev=${rev(2, 'f')}&ancestors=${officeLeaf!.rev}`
    const notes = JSON.stringify({ ...day24, notes: 'Main unit was here' })
    expect(await as(main, edit24(), notes)).toMatchObject({ status: 200, text: '{"outcome":"winner"}' })
    expect(await served('D024')).toBe(notes)
  })

  it('shows each day under the unit whose cart wrote it, never relabelled by the project’s unit', async () => {
    const [main, second] = [await productionToken('Main unit', true), await productionToken('Second unit', true)]
    const office = await productionToken('Production office')
    const send = (token: string, path: string, body: string, type = 'application/json') =>
      deployed(`/productions/feature${path}`, {
        method: path === '/project/config' ? 'PATCH' : 'POST',
        headers: { 'x-api-token': token, 'content-type': type },
        body,
      })
    expect((await send(main, '/project/create', JSON.stringify({ project_name: 'Feature' }))).status).toBe(201)
    // Days as a cart's application sent them, naming no unit of their own.
    const unnamed = (id: string, day: number) => {
      const { unit: _, ...log } = makeLog(id, day)
      return log
    }
    const sent = [
      [main, 'Main unit', unnamed('D030', 30)],
      [second, 'Second unit', unnamed('D031', 31)],
      // A log naming its unit keeps it, whoever sent it.
      [second, 'Second unit', { ...unnamed('D033', 33), unit: 'Splinter' }],
    ] as const
    for (const [token, owner, log] of sent) {
      const path = `/sync/logs/${log.id}?rev=${rev(1, 'a')}&ancestors=&owner=${encodeURIComponent(owner)}`
      expect((await send(token, path, JSON.stringify(log))).status).toBe(200)
    }
    // The office's own day, and the project named after the main unit, as an office might set it.
    expect((await send(office, '/log', JSON.stringify(unnamed('D032', 32)))).status).toBe(201)
    expect((await send(office, '/project/config', JSON.stringify({ unit: 'Main unit' }))).status).toBe(200)
    const days = JSON.parse((await deployed('/productions/feature/approve/days', { headers: key })).text) as {
      days: Array<{ id: string; unit: string }>
    }
    expect(days.days.map(({ id, unit }) => [id, unit])).toEqual([
      ['D030', 'Main unit'],
      ['D031', 'Second unit'],
      ['D032', 'Main unit'],
      ['D033', 'Splinter'],
    ])
    // The logs stay as their applications sent them: no unit written into them.
    const served = await deployed('/productions/feature/log/D031', { headers: { 'x-api-token': office } })
    expect(served.text).toBe(JSON.stringify(unnamed('D031', 31)))
  })

  it('serves each production under its path with its own workspace, and nothing else', async () => {
    // Outside the productions, /ping answers without making a workspace nobody set up.
    const before = (await listDurableObjectIds(env.WORKSPACE)).map(String)
    expect(await deployed('/ping')).toMatchObject({ status: 200, text: '{"status":"ok","active":false}' })
    expect((await listDurableObjectIds(env.WORKSPACE)).map(String)).toEqual(before)
    expect(await deployed('/logs')).toMatchObject({ status: 404 })
    expect(await deployed('/productions/other/ping')).toMatchObject({
      status: 404,
      text: '{"error":"Production not found"}',
    })
    expect((await deployed('/productions/feature/approve/tokens', { headers: key })).text).toBe('{"tokens":[]}')
    // The console's page says where its paths start.
    const page = await deployed('/productions/feature/approve?key=' + OPERATOR_KEY)
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toMatch(/^\/productions\/feature\/approve#session=/)
    const signIn = await deployed('/productions/feature/approve')
    expect(signIn.text).toContain('<html lang="en" data-base="/productions/feature">')
    expect(signIn.text).toContain('action="/productions/feature/approve/session"')
    // A production links to nothing.
    const linked = await deployed('/productions/feature/approve/link', {
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: 'https://media-log.example.com/productions/other',
        unit: 'Main unit',
        linkCode: '7KQM-2XPD-R4TW-9HNC',
      }),
    })
    expect(linked).toMatchObject({ status: 409, text: '{"error":"This is a production: carts link to it"}' })
    // An application approved in one production is unknown in another and on the laptop's workspace.
    const { token } = await withProject()
    expect((await deployed('/productions/feature/logs', { headers: { 'x-api-token': token } })).status).toBe(401)
    expect((await call('GET', '/logs', { token })).status).toBe(200)
  })
})

describe('linking', () => {
  it('refuses a production URL that is not https or this machine, before asking it anything', async () => {
    const { token } = await withProject()
    const link = (url: string) =>
      call('POST', '/approve/link', {
        body: { url, unit: 'Second unit', linkCode: '7KQM-2XPD-R4TW-9HNC' },
        headers: { 'x-operator-key': OPERATOR_KEY },
      })
    expect(await link('http://example.com/productions/feature')).toMatchObject({
      status: 400,
      body: { details: [{ prop: 'url', message: 'must be https:// (plain http:// only to this machine)' }] },
    })
    expect((await link('https://user:pw@example.com/')).status).toBe(400)
    expect((await link('not a url')).status).toBe(400)
    // An application's token never links: it is the operator's decision.
    expect(
      (await call('POST', '/approve/link', { token, body: { url: 'https://example.com', unit: 'X', linkCode: 'X' } }))
        .status,
    ).toBe(401)
    expect((await call('DELETE', '/approve/link', { headers: { 'x-operator-key': OPERATOR_KEY } })).status).toBe(404)
  })
})

describe('a round, against a production that refuses or waits', () => {
  /**
   * A store and a link of their own, in a Durable Object of its own, and a production that holds
   * what it is sent: what `refuse` names it answers 400, and `hold` keeps a send waiting.
   */
  const roundIn = (name: string, test: (setup: RoundSetup) => Promise<void>) =>
    runInDurableObject(env.WORKSPACE.get(env.WORKSPACE.idFromName(name)), async (_: Workspace, state) => {
      const store = new Store(state.storage.sql)
      const units = new UnitLink(state.storage.sql, store)
      store.insertProject({ id: 'p1', path: '/p1', created_at: '2026-11-26T00:00:00Z', settings: '{}' })
      const held = new Map<string, string>()
      const production = {
        refuse: new Set<string>(),
        unasked: new Set<string>(),
        busy: false,
        feed: [] as Array<{ id: string; leaves: Leaf[] }>,
        hold: undefined as Promise<void> | undefined,
        holds: (id: string, rev: string) => held.set(id, rev),
        sent: [] as string[],
        changes: (since: number) =>
          Promise.resolve({ changes: production.feed.slice(since), last: production.feed.length }),
        async missing(logs: Map<string, string[]>) {
          if (production.busy) throw new ProductionError('answered 503: Service busy: try again', 503)
          if ([...logs.keys()].some((id) => production.unasked.has(id)))
            throw new ProductionError('answered 400: Validation Error (logs.0.revs must name at most 100)', 400)
          return new Map([...logs].map(([id, revs]) => [id, revs.filter((rev) => held.get(id) !== rev)]))
        },
        leaf: (id: string) => Promise.resolve(utf8(JSON.stringify(makeLog(id, 1)))),
        live: () => Promise.reject(new ProductionError('no socket here')),
        async send(id: string, leaf: { rev: string }) {
          await production.hold
          if (production.refuse.has(id)) throw new ProductionError('answered 400: Validation Error', 400)
          held.set(id, leaf.rev)
          production.sent.push(id)
        },
      }
      const log = (id: string) => {
        const keys = { id, day: 1, date: '2026-03-01' }
        store.insertLog('p1', keys, utf8(JSON.stringify(makeLog(id, 1))), '{}')
      }
      await test({ store, units, production, log, sql: state.storage.sql })
    })
  type RoundSetup = {
    store: Store
    units: UnitLink
    production: Production & {
      refuse: Set<string>
      unasked: Set<string>
      busy: boolean
      feed: Array<{ id: string; leaves: Leaf[] }>
      hold: Promise<void> | undefined
      holds: (id: string, rev: string) => void
      sent: string[]
    }
    log: (id: string) => void
    sql: SqlStorage
  }
  const receive = () => {
    throw new Error('nothing to receive')
  }

  it('sets a refused version aside, names it, and sends the others', async () => {
    await roundIn('round-refused', async ({ units, production, log }) => {
      units.link('p1', 'https://production.example', 'pp', 'Main unit', 'token-1')
      log('D001')
      log('D002')
      production.refuse.add('D001')
      expect(await units.round(production, receive)).toBe(true)
      expect(production.sent).toEqual(['D002'])
      const status = units.status('p1')
      expect(status).toMatchObject({
        linked: true,
        pending: 0,
        error: null,
        refused: [{ id: 'D001', way: 'push', error: 'answered 400: Validation Error' }],
      })
      // Refused no longer, the day goes once it is written again.
      production.refuse.clear()
      log('D003')
      expect(await units.round(production, receive)).toBe(true)
      expect(units.status('p1')).toMatchObject({ refused: [{ id: 'D001' }] })
      // The production holds it by now (say, its own unit sent it): set aside no longer.
      production.holds('D001', (units.status('p1') as { refused: Array<{ rev: string }> }).refused[0]!.rev)
      expect(await units.round(production, receive)).toBe(true)
      expect(units.status('p1')).toMatchObject({ refused: [], error: null })
    })
  })

  it('sets aside a log the production will not be asked about, sends the others, and still takes theirs', async () => {
    await roundIn('round-unasked', async ({ units, production, log }) => {
      units.link('p1', 'https://production.example', 'pp', 'Main unit', 'token-1')
      log('D001')
      log('D002')
      production.unasked.add('D001')
      const taken: string[] = []
      const take = (id: string, _: Leaf, body?: Uint8Array) => void taken.push(`${id} ${body?.length ?? 0}`)
      const theirs = (id: string) => ({ id, leaves: [{ rev: rev(1, 'c'), ancestors: [], deleted: false }] })
      production.feed.push(theirs('D050'))
      expect(await units.round(production, take)).toBe(true)
      expect(production.sent).toEqual(['D002'])
      expect(taken).toEqual([`D050 ${JSON.stringify(makeLog('D050', 1)).length}`])
      expect(units.status('p1')).toMatchObject({
        pending: 0,
        error: null,
        refused: [
          {
            id: 'D001',
            way: 'push',
            error: 'answered 400: Validation Error (logs.0.revs must name at most 100)',
          },
        ],
      })
      // A production that takes nothing this cart sends still hands over what the others wrote.
      production.busy = true
      log('D003')
      production.feed.push(theirs('D051'))
      expect(await units.round(production, take)).toBe(false)
      expect(taken.map((entry) => entry.split(' ')[0])).toEqual(['D050', 'D051'])
      expect(units.status('p1')).toMatchObject({ pending: 1, error: 'answered 503: Service busy: try again' })
      production.busy = false
      production.unasked.clear()
      expect(await units.round(production, take)).toBe(true)
      expect(production.sent).toEqual(['D002', 'D003'])
      expect(units.status('p1')).toMatchObject({ pending: 0, error: null })
    })
  })

  it('keeps at most 16 versions of a log, and a new one costs the rows of one', async () => {
    await roundIn('round-versions', async ({ store, sql }) => {
      const keys = { id: 'D030', day: 30, date: '2026-03-30' }
      const body = (n: number) => ({ keys, json: utf8(JSON.stringify(makeLog('D030', n))), summary: '{}' })
      store.insertLog('p1', keys, body(1).json, '{}')
      const digits = '123456789abcdef'
      for (const digit of digits)
        store.revisions.receive('p1', 'D030', { rev: rev(1, digit), ancestors: [], deleted: false }, body(2), {})
      const positions = () =>
        sql
          .exec<{ rev: string; seq: number }>('SELECT rev, seq FROM log_leaves WHERE id = ? ORDER BY rev', 'D030')
          .toArray()
      const held = positions()
      expect(held).toHaveLength(16)
      // Each version kept its place in the feed when the next came: none was written again.
      expect(new Set(held.map((row) => row.seq)).size).toBe(16)
      expect(() =>
        store.revisions.receive('p1', 'D030', { rev: rev(1, '0'), ancestors: [], deleted: false }, body(3), {}),
      ).toThrow('{"prop":"rev","message":"the log holds 16 versions already: its operator keeps one first"}')
      expect(positions()).toEqual(held)
      // The operator keeps one: the log has room again.
      store.revisions.resolve('p1', 'D030', rev(1, 'f'))
      expect(
        store.revisions.receive('p1', 'D030', { rev: rev(1, '0'), ancestors: [], deleted: false }, body(3), {}),
      ).toBe('conflict')
      expect(positions()).toHaveLength(2)
    })
  })

  it('lets a cart keep a version of its own unit’s day, not choose over another unit’s', async () => {
    await roundIn('round-resolves', async ({ store, log }) => {
      store.revisions.linkAs({ projectId: 'p1', unit: 'Main unit' })
      log('D001')
      log('D002')
      const keys = (id: string) => ({ id, day: 1, date: '2026-03-01' })
      const body = (id: string) => ({ keys: keys(id), json: utf8(JSON.stringify(makeLog(id, 2))), summary: '{}' })
      // Second unit logged D001 too, unseen; so did the production office D002 (no unit owns its version).
      const theirs = { rev: rev(1, 'f'), ancestors: [], deleted: false, owner: 'Second unit' }
      const office = { rev: rev(1, 'e'), ancestors: [], deleted: false }
      expect(store.revisions.receive('p1', 'D001', theirs, body('D001'))).not.toBe('known')
      expect(store.revisions.receive('p1', 'D002', office, body('D002'))).not.toBe('known')
      const owners = (id: string) =>
        store.revisions
          .versions('p1', id)
          .versions.map((version) => version.owner)
          .sort()
      expect([owners('D001'), store.revisions.versions('p1', 'D001').keptHere]).toEqual([
        ['Main unit', 'Second unit'],
        false,
      ])
      expect([owners('D002'), store.revisions.versions('p1', 'D002').keptHere]).toEqual([['Main unit', null], true])
      expect(() => store.revisions.resolve('p1', 'D001', theirs.rev)).toThrow(
        "A version of this log belongs to Second unit: the production's operator keeps one",
      )
      expect(store.revisions.versions('p1', 'D001').versions).toHaveLength(2)
      expect(store.revisions.resolve('p1', 'D002', office.rev)).toMatchObject({ rev: expect.stringMatching(/^2-/) })
      // Second unit deleted a day this cart logged too: keeping the deletion is this cart's act.
      log('D009')
      const deletion = { rev: rev(1, 'e'), ancestors: [], deleted: true, owner: 'Second unit' }
      expect(store.revisions.receive('p1', 'D009', deletion)).toBe('conflict')
      expect(store.revisions.resolve('p1', 'D009', deletion.rev)).toMatchObject({ deleted: true, owner: 'Main unit' })
      expect(store.revisions.versions('p1', 'D002').versions).toEqual([
        expect.objectContaining({ served: true, owner: null }),
      ])
    })
  })

  it('makes the days a cart holds its unit’s when it links, not the office’s it pulled on a restart', async () => {
    await roundIn('round-claims', async ({ store, log }) => {
      const ownerOf = (id: string) => store.revisions.versions('p1', id).versions[0]!.owner
      log('D001')
      store.revisions.linkAs({ projectId: 'p1', unit: 'Main unit' }, { claim: true })
      expect(ownerOf('D001')).toBe('Main unit')
      const office = { rev: rev(1, 'e'), ancestors: [], deleted: false }
      const keys = { id: 'D002', day: 2, date: '2026-03-02' }
      store.revisions.receive('p1', 'D002', office, {
        keys,
        json: utf8(JSON.stringify(makeLog('D002', 1))),
        summary: '{}',
      })
      // The object starts again: linked as before, and the office's day stays no unit's; so it
      // does when the cart unlinks and links again.
      store.revisions.linkAs({ projectId: 'p1', unit: 'Main unit' })
      expect([ownerOf('D001'), ownerOf('D002')]).toEqual(['Main unit', null])
      store.revisions.linkAs(undefined)
      store.revisions.linkAs({ projectId: 'p1', unit: 'Main unit' }, { claim: true })
      expect([ownerOf('D001'), ownerOf('D002')]).toEqual(['Main unit', null])

      // Second unit's day: not this cart's to write, linked or not (its production would refuse
      // what an unlinked cart wrote of it, and the cart would stay apart from the others).
      const json = utf8(JSON.stringify(makeLog('D003', 1)))
      const d003 = { keys: { id: 'D003', day: 3, date: '2026-03-03' }, json, summary: '{}' }
      store.revisions.receive(
        'p1',
        'D003',
        { rev: rev(1, 'a'), ancestors: [], deleted: false, owner: 'Second unit' },
        d003,
      )
      const refused = "Log belongs to Second unit: it is written on that unit's cart"
      expect(() => store.putLog('p1', d003.keys, json, '{}')).toThrow(refused)
      // Nor by POST /sync/logs from one of the cart's applications: a version over Second unit's
      // is refused, and the log stays as it was.
      const over = { rev: rev(2, 'b'), ancestors: [rev(1, 'a')], deleted: false }
      expect(() => store.revisions.receive('p1', 'D003', over, d003, {})).toThrow(refused)
      expect(store.revisions.versions('p1', 'D003').versions).toEqual([
        expect.objectContaining({ rev: rev(1, 'a'), owner: 'Second unit', served: true }),
      ])
      store.revisions.linkAs(undefined)
      expect(() => store.putLog('p1', d003.keys, json, '{}')).toThrow(refused)
      expect(() => store.revisions.receive('p1', 'D003', over, d003, {})).toThrow(refused)
      log('D004')
      expect(ownerOf('D004')).toBe('Main unit')
      // Linked again under another name, it writes as that one, linked or not.
      store.revisions.linkAs({ projectId: 'p1', unit: 'Main' }, { claim: true })
      store.revisions.linkAs(undefined)
      log('D005')
      expect([ownerOf('D004'), ownerOf('D005')]).toEqual(['Main unit', 'Main'])
    })
  })

  it('moves no place of a link made while a round of the one before waited', async () => {
    await roundIn('round-relinked', async ({ units, production, log }) => {
      units.link('p1', 'https://one.example', 'pp', 'Main unit', 'token-1')
      log('D001')
      let release = () => {}
      production.hold = new Promise((resolve) => (release = resolve))
      const round = units.round(production, receive)
      await new Promise((r) => setTimeout(r, 10))
      units.unlink()
      units.link('p1', 'https://two.example', 'pp2', 'Main unit', 'token-2')
      release()
      await round
      // The new link starts from the beginning: the day is still waiting to go to production two.
      expect(units.status('p1')).toMatchObject({ production: 'https://two.example', pending: 1, error: null })
    })
  })
})

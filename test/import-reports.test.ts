// POST /log/{id}/import of what DITs hand over besides MHL: the camera's own clip list (an ALE
// imported before or after the copies, kept in `ocf.recorded` and checked against the volumes),
// sequences named as editors and offload tools name them, hash-bearing ALE and CSV transfer
// reports read as copies, and files that are none of these named for what they look like.
import { describe, expect, it } from 'vitest'
import { clipKeys, sequenceOf } from '../src/shared/clip-names'
import { c4Of } from '../src/import/read'
import { call, withProject } from './helpers'
import { CARD, ale, base64, cardOffload, type OffloadFile } from './offload-fixtures'

const asSent = (files: OffloadFile[]) =>
  files.map((f) => ({ name: f.path, content: base64(f.bytes), encoding: 'base64' }))
const importInto = (token: string, id: string, body: Record<string, unknown>) =>
  call('POST', `/log/${encodeURIComponent(id)}/import`, { token, body })

/** The camera's ALE of the card: its three clips, the sequence as Resolve names it, and a fifth clip. */
const UNCOPIED = 'A002C005_250614_R1AB'
const cameraAle = (sequenceName = `${CARD.sequence}.[0000001-0000003].ari`) =>
  ale({
    columns: ['Name', 'Start', 'End', 'Tape', 'Camera_Model', 'Lens_Type'],
    rows: [...CARD.clips, sequenceName, UNCOPIED].map((name, i) => [
      name,
      `14:0${i}:00:00`,
      `14:0${i}:30:00`,
      'A002',
      'ALEXA 35',
      `Signature Prime ${40 + i}mm`,
    ]),
  })

const copies = async () => (await cardOffload(c4Of)).filter((f) => !f.path.endsWith('.ale'))

describe('sequence names', () => {
  it('finds the sequence clip NAME by its range, a frame and the bare name', () => {
    const name = 'B001C001_220507_R6VL'
    for (const form of [`${name}.[0059556-0059713].arx`, `${name}.0059556.arx`, `${name}_0059556.arx`])
      expect([form, sequenceOf(form), clipKeys(form).at(-1)]).toEqual([form, name, name.toUpperCase()])
    expect(clipKeys(name)).toEqual([name.toUpperCase()])
    // A clip whose name ends in digits, with a movie's extension, is no frame of a sequence.
    expect(sequenceOf('A001C001_001.mov')).toBeUndefined()
    expect(clipKeys('A001C001.mov')).toEqual(['A001C001'])
  })
})

describe('the camera’s clip list', () => {
  it('gives the same log and checks whether its ALE comes before the copies or after', async () => {
    const { token } = await withProject()
    const list = { name: '/Volumes/SHUTTLE_A/D012/A002.ale', content: cameraAle() }

    const first = await importInto(token, 'D012', { files: [list], date: '2025-06-14' })
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({ created: true, added: [], changed: [], unreadable: [] })
    const held = (await call('GET', '/log/D012', { token })).body
    // Nothing on a volume yet: no clip in the clip list, every clip the camera recorded held apart.
    expect(held.ocf).toEqual({
      recorded: [...CARD.clips, CARD.sequence, UNCOPIED].map((clip, i) => ({
        clip,
        list: 'A002.ale',
        reel: 'A002',
        metadata: {
          tc_start: `14:0${i}:00:00`,
          tc_end: `14:0${i}:30:00`,
          reel: 'A002',
          camera_model: 'ALEXA 35',
          lens: `Signature Prime ${40 + i}mm`,
          fps: 25,
        },
      })),
    })
    const before = await importInto(token, 'D012', { files: asSent(await copies()) })
    expect(before.status).toBe(200)

    // The same day under another id, the copies first.
    expect((await importInto(token, 'D12', { files: asSent(await copies()) })).status).toBe(201)
    const after = await importInto(token, 'D12', { files: [list] })
    expect(after.status).toBe(200)

    const logBefore = (await call('GET', '/log/D012', { token })).body
    const logAfter = (await call('GET', '/log/D12', { token })).body
    expect({ ...logAfter, id: 'D012' }).toEqual(logBefore)
    // The sequence, named by its frames' range in the ALE, has the ALE's metadata.
    expect(logAfter.ocf.clips[3]).toMatchObject({ clip: CARD.sequence, lens: 'Signature Prime 43mm', reel: 'A002' })
    // What was copied keeps only what finds it; the clip on no volume keeps its metadata.
    expect(logAfter.ocf.recorded[0]).toEqual({ clip: CARD.clips[0], list: 'A002.ale', reel: 'A002' })
    expect(logAfter.ocf.recorded[4]).toMatchObject({ clip: UNCOPIED, metadata: { lens: 'Signature Prime 44mm' } })

    const checksBefore = (await call('GET', '/log/D012/checks', { token })).body
    const checksAfter = (await call('GET', '/log/D12/checks', { token })).body
    expect(checksAfter).toEqual(checksBefore)
    expect(checksAfter.checks).toContainEqual({
      kind: 'recorded-not-copied',
      severity: 'error',
      part: 'ocf',
      clip: UNCOPIED,
      reel: 'A002',
      message: `${UNCOPIED} was recorded (camera list in A002.ale) but is on no volume`,
    })
    expect(checksAfter.checks.filter((f: { kind: string }) => f.kind === 'not-in-camera-list')).toEqual([])

    // The same list again changes nothing.
    const again = await importInto(token, 'D12', { files: [list] })
    expect(again.body).toMatchObject({ added: [], changed: [] })
    expect((await call('GET', '/log/D12', { token })).body).toEqual(logAfter)
  })

  it.each([
    ['its frames’ range', `${CARD.sequence}.[0000001-0000003].ari`],
    ['its first frame', `${CARD.sequence}.0000001.ari`],
    ['its first frame after _', `${CARD.sequence}_0000001.ari`],
    ['the bare name', CARD.sequence],
  ])('gives a sequence named by %s the ALE’s metadata', async (_, name) => {
    const { token } = await withProject()
    expect((await importInto(token, 'D012', { files: asSent(await copies()) })).status).toBe(201)
    const answer = await importInto(token, 'D012', { files: [{ name: 'A002.ale', content: cameraAle(name) }] })
    expect(answer.status).toBe(200)
    expect(answer.body.changed).toContainEqual({
      part: 'ocf',
      clip: CARD.sequence,
      fields: ['tc_start', 'tc_end', 'reel', 'camera_model', 'lens', 'fps'],
    })
    const log = (await call('GET', '/log/D012', { token })).body
    expect(log.ocf.clips[3]).toMatchObject({ clip: CARD.sequence, lens: 'Signature Prime 43mm' })
  })

  it('warns of a clip on a volume that its reel’s camera list does not name, and only then', async () => {
    const { token } = await withProject()
    expect((await importInto(token, 'D012', { files: asSent(await copies()) })).status).toBe(201)
    const checksOf = async () =>
      ((await call('GET', '/log/D012/checks', { token })).body.checks as Array<{ kind: string }>).filter(
        (f) => f.kind === 'not-in-camera-list' || f.kind === 'recorded-not-copied',
      )
    // No list of the reel: nothing to hold the clips to.
    const otherReel = ale({ columns: ['Name', 'Tape'], rows: [['B001C001_250614_R2CD', 'B001']] })
    await importInto(token, 'D012', { files: [{ name: 'B001.ale', content: otherReel }] })
    expect(await checksOf()).toEqual([
      {
        kind: 'recorded-not-copied',
        severity: 'error',
        part: 'ocf',
        clip: 'B001C001_250614_R2CD',
        reel: 'B001',
        message: 'B001C001_250614_R2CD was recorded (camera list in B001.ale) but is on no volume',
      },
    ])
    const partial = ale({ columns: ['Name', 'Tape'], rows: CARD.clips.map((clip) => [clip, 'A002R1AB']) })
    await importInto(token, 'D012', { files: [{ name: 'A002.ale', content: partial }] })
    expect(await checksOf()).toContainEqual({
      kind: 'not-in-camera-list',
      severity: 'warning',
      part: 'ocf',
      clip: CARD.sequence,
      reel: 'A002',
      message: `${CARD.sequence} is on SHUTTLE_A, SHUTTLE_B but in no camera list of reel A002`,
    })
  })
})

import { describe, expect, it } from 'vitest'
import { fillTags } from '../src/shared/tags'

const day = (id: string, n: number, date: string, unit?: string) => ({ id, day: n, date, unit })
const one = { projectName: 'Feature Film', unit: 'Main Unit', logs: [day('D007', 7, '2024-03-05')] }

describe('fillTags', () => {
  it.each([
    ['<project>', 'Feature Film'],
    ['<unit>', 'Main Unit'],
    ['<log>', 'D007'],
    ['<d>', '7'],
    ['<dd>', '07'],
    ['<ddd>', '007'],
    ['<yyyymmdd>', '20240305'],
    ['<yymmdd>', '240305'],
    ['<ddmmyyyy>', '05032024'],
    ['<ddmmyy>', '050324'],
    ['<mmddyyyy>', '03052024'],
    ['<mmddyy>', '030524'],
    ['<yyyy-mm-dd>', '2024-03-05'],
    ['<yy-mm-dd>', '24-03-05'],
    ['<dd-mm-yyyy>', '05-03-2024'],
    ['<dd/mm/yy>', '05/03/24'],
    ['<mm/dd/yyyy>', '03/05/2024'],
    ['<yyyy/mm/dd>', '2024/03/05'],
    ['<e>', 'T'],
    ['<ee>', 'Tu'],
    ['<eee>', 'Tue'],
    ['<eeee>', 'Tuesday'],
    ['<w>', '10'],
    ['<ww>', '10'],
  ])('replaces %s', (tag, value) => {
    expect(fillTags(`x_${tag}_x`, one)).toBe(`x_${value}_x`)
  })

  it('keeps unknown tags and text outside tags as written', () => {
    expect(fillTags('<project>_<nope>_<yyyy-mm/dd>_<DD>_<>.pdf', one)).toBe(
      'Feature Film_<nope>_<yyyy-mm/dd>_<DD>_<>.pdf',
    )
  })

  it('prints first-last over several logs, in day order whatever order they come in', () => {
    const logs = [day('D003', 3, '2024-01-03'), day('D001', 1, '2024-01-01'), day('D002', 2, '2024-01-02')]
    const context = { projectName: 'P', logs }
    expect(fillTags('<log>|<d>|<ddd>|<yyyymmdd>|<dd/mm/yy>|<eee>', context)).toBe(
      'D001-D003|1-3|001-003|20240101-20240103|01/01/24-03/01/24|Mon-Wed',
    )
  })

  it('prints one value where the first and last log agree', () => {
    const logs = [day('A', 4, '2024-01-08', 'Splinter'), day('B', 5, '2024-01-09', 'Splinter')]
    expect(fillTags('<unit>_<w>_<d>', { projectName: 'P', unit: 'Main Unit', logs })).toBe('Splinter_2_4-5')
  })

  it("takes a log's own unit before the project's, and leaves <unit> empty when neither has one", () => {
    expect(fillTags('<unit>', { projectName: 'P', unit: 'Main', logs: [day('A', 1, '2024-01-01', '2nd Unit')] })).toBe(
      '2nd Unit',
    )
    expect(fillTags('[<unit>]', { projectName: 'P', logs: [day('A', 1, '2024-01-01')] })).toBe('[]')
  })

  it('numbers ISO weeks across year ends', () => {
    const week = (date: string) => fillTags('<ww>', { projectName: 'P', logs: [day('A', 1, date)] })
    expect(week('2021-01-03')).toBe('53')
    expect(week('2021-01-04')).toBe('01')
    expect(week('2024-12-30')).toBe('01')
    expect(week('2026-12-31')).toBe('53')
  })

  it('replaces <project> even without logs, and leaves log tags for later', () => {
    expect(fillTags('<project>_<log>', { projectName: 'P', logs: [] })).toBe('P_<log>')
  })
})

import { checkDay } from '../checks/day'
import { unlistedOf, withConflict, type Checked } from '../checks/findings'
import { groupsOf } from '../checks/groups'
import { chipOf } from '../copies/words'
import { checkRange } from '../checks/range'
import type { Handler } from '../api/call'
import { total, type LogSummary, type VolumeCount } from '../summary/summary'
import { logReader, workspace } from '../workspace/client'

/** The checks of one day: run here in the worker, its log read like a report reads it. */
export const logChecks: Handler<'logChecks'> = async ({ env, token, params }) => {
  const id = params.id!
  const ws = workspace(env)
  const { projectId, matchSound, summaries, versions, etag } = await ws.checkPlan(token, { logIds: [id] })
  return {
    etag,
    answer: async () => {
      const checked = withConflict(await checkDay(await logReader(ws, projectId)(id), { matchSound }), versions[0]!)
      const { findings, summary } = checked
      return withUnlisted({ checks: findings, summary, groups: groupLines(checked), copies: copyLines(summaries[0]!) })
    },
  }
}

/** The checks of a range of days, and what shows only across them (reel gaps, clips on two days). */
export const rangeChecks: Handler<'rangeChecks'> = async ({ env, token, query: { from, to } }) => {
  const ws = workspace(env)
  const { projectId, matchSound, summaries, versions, etag } = await ws.checkPlan(token, {
    ...(from !== undefined && { from }),
    ...(to !== undefined && { to }),
  })
  return {
    etag,
    answer: async () => {
      const read = logReader(ws, projectId)
      const { checks, summary, volumes, days } = await checkRange(
        summaries.map((summary, i) => ({ summary, log: () => read(summary.id), versions: versions[i]! })),
        { matchSound },
      )
      return withUnlisted({
        checks,
        summary,
        groups: groupLines({ findings: checks, summary, volumes }),
        copies: copyLines(total(summaries)),
        days: days.map(({ log, day, date, summary }) => ({ log, day, date, summary })),
      })
    },
  }
}

/**
 * The copies of a day or a range, a line per part and volume, in the one account's states and
 * words: from the stored summaries, which count them as the logs are written.
 */
function copyLines({ copies, soundCopies }: Pick<LogSummary, 'copies' | 'soundCopies'>) {
  const line = (part: 'ocf' | 'sound') => (count: VolumeCount) => {
    const { held, verdict, mark, words } = chipOf(count)
    return {
      part,
      volume: count.volume,
      clips: count.clips,
      held,
      states: count.states,
      ...(count.otherFailed && { otherFailed: count.otherFailed }),
      ...(count.days !== undefined && { days: count.days }),
      verdict,
      mark,
      words,
    }
  }
  return [...copies.map(line('ocf')), ...soundCopies.map(line('sound'))]
}

/** The findings as lines, without the findings each keeps (the answer lists them all under `checks`). */
const groupLines = (checked: Pick<Checked, 'findings' | 'summary' | 'volumes'>) =>
  groupsOf(checked).map(({ findings: _, ...group }) => group)

/**
 * An answer's findings are listed to a limit per kind (LISTED_PER_KIND); where one kind has more,
 * `unlisted` says how many were left out, so a client never takes the list for the whole.
 */
function withUnlisted<T extends Pick<Checked, 'summary'> & { checks: Checked['findings'] }>(answer: T) {
  const unlisted = unlistedOf({ findings: answer.checks, summary: answer.summary })
  return Object.keys(unlisted).length ? { ...answer, unlisted } : answer
}

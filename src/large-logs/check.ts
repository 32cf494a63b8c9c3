/**
 * A log too large to parse whole, checked a clip at a time (scan.ts): the skeleton as a whole log
 * with empty clip lists, then each clip as that list's schema checks it, its summary made as the
 * clips go by. Only one clip's objects are alive at a time, so V8's heap holds a clip, not a log.
 *
 * The answer is what the whole-log check gives: the same refusals with the same paths, save that
 * the skeleton's issues come before the clips'. The project's custom entries are left to the
 * workspace, which knows its schemas; checkLog of the skeleton there costs nothing.
 */
import { bodyText, parseJsonAt, parseObject } from '../schemas/json'
import { append } from '../shared/lists'
import { checkClip, checkLog, type LogOutput } from '../schemas/log'
import { CustomSchemas } from '../schemas/custom'
import { certainlyValidClip } from '../schemas/plain-log'
import { LISTED_DETAILS, type IssueDetail } from '../shared/problem'
import { Summing, type LogSummary } from '../summary/summary'
import { scanLog } from './scan'

/** Above this a POST body is checked a clip at a time. */
export const PIECEWISE_BYTES = 8 * 1024 * 1024

/** `custom`: where the log's custom entries are in its bytes, should the workspace drop some. */
export type PiecewiseCheck = {
  /** The log without its clips, as text and parsed. */
  skeleton: string
  log: Record<string, unknown>
  summary: LogSummary
  details: IssueDetail[]
  /** Failing properties past what an answer lists, counted, not collected. */
  unlisted: number
  custom?: [number, number]
}

// Custom entries are the workspace's to check: here none is known, and none refused.
export const NO_SCHEMAS = new CustomSchemas({})

/** Checks a log a clip at a time, in one piece: for the workspace, whose work cannot wait. */
export function checkPiecewise(bytes: Uint8Array): PiecewiseCheck {
  const steps = piecewise(bytes)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * As checkPiecewise, giving other requests a turn after every TURN_BYTES of clips: a 60 MiB log
 * checked in one piece held the service 3 s.
 */
export async function checkPiecewiseInTurns(bytes: Uint8Array): Promise<PiecewiseCheck> {
  const steps = piecewise(bytes)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

const TURN_BYTES = 4 * 1024 * 1024

function* piecewise(bytes: Uint8Array): Generator<void, PiecewiseCheck> {
  const { skeleton, lists, custom } = scanLog(bytes)
  const skeletonText = bodyText(skeleton)
  const log = parseObject(skeletonText)
  const { details } = checkLog(log, NO_SCHEMAS)
  const summing = new Summing()
  let unlisted = 0
  let sinceTurn = 0
  for (const { part, starts, ends } of lists) {
    for (let i = 0; i < starts.length; i++) {
      sinceTurn += ends[i]! - starts[i]!
      if (sinceTurn > TURN_BYTES) {
        sinceTurn = 0
        yield
      }
      const path = `${part}.clips.${i}`
      const clip = parseJsonAt(bodyText(bytes.subarray(starts[i], ends[i])), path)
      const problems = certainlyValidClip(part, clip) ? [] : checkClip(part, clip, path)
      if (!problems.length) summing.addClip(part, clip as Record<string, unknown>)
      else if (details.length < LISTED_DETAILS) append(details, problems)
      else unlisted += problems.length
    }
  }
  return {
    skeleton: skeletonText,
    log,
    summary: summing.of(log as LogOutput),
    details,
    unlisted,
    ...(custom && { custom }),
  }
}

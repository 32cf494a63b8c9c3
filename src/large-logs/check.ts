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

export function checkPiecewise(bytes: Uint8Array): PiecewiseCheck {
  const { skeleton, lists, custom } = scanLog(bytes)
  const skeletonText = bodyText(skeleton)
  const log = parseObject(skeletonText)
  const { details } = checkLog(log, NO_SCHEMAS)
  const summing = new Summing()
  let unlisted = 0
  for (const { part, starts, ends } of lists) {
    for (let i = 0; i < starts.length; i++) {
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

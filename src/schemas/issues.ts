import * as v from 'valibot'
import { append } from '../shared/lists'
import type { IssueDetail } from '../shared/problem'

const OBJECT_TYPES = new Set(['object', 'loose_object', 'strict_object'])

/** The one place valibot issues become the seed's `{prop, message}` list, with dotted paths. */
export function toDetails(issues: readonly v.BaseIssue<unknown>[], prefix = ''): IssueDetail[] {
  const details: IssueDetail[] = []
  for (const issue of issues) {
    const path = join(prefix, v.getDotPath(issue) ?? '')
    if (issue.type === 'union' && issue.issues?.length) {
      // A union reports why each branch failed, with paths relative to the union. Where a branch
      // got inside the value, its issues name the property better; else the union's message says it.
      const inside = issue.issues.filter((i) => (i.path?.length ?? 0) > 0)
      if (inside.length) {
        append(details, toDetails(inside, path))
        continue
      }
    }
    details.push({ prop: path, message: messageOf(issue) })
  }
  return dedupe(details)
}

/** Object schemas report a missing or an unexpected key with the object's own message. */
function messageOf(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema' && OBJECT_TYPES.has(issue.type) && issue.path?.length) {
    if (issue.input === undefined && issue.expected !== 'never') return 'is required'
    if (issue.expected === 'never') return 'is not allowed here'
  }
  return issue.message
}

const join = (prefix: string, path: string) => (prefix && path ? `${prefix}.${path}` : prefix || path)

function dedupe(details: IssueDetail[]) {
  const seen = new Set<string>()
  return details.filter((d) => {
    const key = `${d.prop}\u0000${d.message}`
    return seen.has(key) ? false : (seen.add(key), true)
  })
}

import * as v from 'valibot'
import type { IssueDetail } from '../http/errors'

/** The one place valibot issues become the seed's `{prop, message}` list, with dotted paths. */
export function toDetails(issues: readonly v.BaseIssue<unknown>[], prefix = ''): IssueDetail[] {
  const details: IssueDetail[] = []
  for (const issue of issues) {
    // A union reports why each branch failed; the branch issues name the property better.
    if (issue.type === 'union' && issue.issues?.length) {
      details.push(...toDetails(firstBranch(issue.issues), prefix))
      continue
    }
    const path = v.getDotPath(issue) ?? ''
    details.push({ prop: prefix && path ? `${prefix}.${path}` : prefix || path, message: issue.message })
  }
  return dedupe(details)
}

// Branch issues come in branch order; keeping those of the deepest-reaching branch avoids noise.
function firstBranch(issues: readonly v.BaseIssue<unknown>[]) {
  const depth = (i: v.BaseIssue<unknown>) => i.path?.length ?? 0
  const deepest = Math.max(...issues.map(depth))
  return deepest > 0 ? issues.filter((i) => depth(i) === deepest) : issues.slice(0, 1)
}

function dedupe(details: IssueDetail[]) {
  const seen = new Set<string>()
  return details.filter((d) => {
    const key = `${d.prop}\u0000${d.message}`
    return seen.has(key) ? false : (seen.add(key), true)
  })
}

export function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

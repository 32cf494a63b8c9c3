/**
 * `items` added to the end of `list`. Never `list.push(...items)` where items may be many: a call's
 * arguments live on the stack, and some 125,000 of them overflow it (a day's findings did).
 */
export function append<T>(list: T[], items: Iterable<T>): T[] {
  for (const item of items) list.push(item)
  return list
}

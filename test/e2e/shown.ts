/** A line a page of docs/ shows as a pattern: `…` stands for anything (ids, keys, times, paths). */
export const pattern = (line: string) =>
  new RegExp(
    `^${line
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  )

// Every link in the README and docs/ leads somewhere in this repository: the file exists, its
// heading exists when the link names one, and no relative link climbs out of the repository (a
// clone has nothing there). Run by `npm run lint`; prints each broken link and exits 1.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...(existsSync(join(ROOT, 'bench/README.md')) ? ['bench/README.md'] : []),
]

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading) =>
  heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')

/** The page's text outside code blocks and inline code, where a link is a link. */
const prose = (text) => text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')

const anchors = new Map()
function anchorsOf(file) {
  if (!anchors.has(file)) {
    const headings = prose(readFileSync(file, 'utf8'))
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => slug(line.replace(/^#+ /, '').trim()))
    anchors.set(file, new Set(headings))
  }
  return anchors.get(file)
}

const broken = []
for (const page of pages) {
  const file = join(ROOT, page)
  const text = prose(readFileSync(file, 'utf8'))
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?|mailto):/.test(target)) continue
    const [path, anchor] = target.split('#')
    const to = path ? resolve(dirname(file), decodeURI(path)) : file
    if (relative(ROOT, to).startsWith('..')) broken.push(`${page}: ${target} leaves the repository`)
    else if (!existsSync(to)) broken.push(`${page}: ${target} does not exist`)
    else if (anchor !== undefined && !anchorsOf(to).has(anchor))
      broken.push(`${page}: ${target} names no heading of ${relative(ROOT, to)}`)
  }
  // A section named in words instead of linked, from before the pages were split.
  for (const [phrase] of text.matchAll(/this README|[Ss]ee "[^"]+"/g))
    broken.push(`${page}: "${phrase}": link the page instead`)
}

if (broken.length) {
  console.error(broken.join('\n'))
  process.exit(1)
}
console.log(`links: ${pages.length} pages, every link leads somewhere`)

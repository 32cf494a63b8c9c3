// @ts-check
/**
 * Page script: one day's detail in the Days view: its findings as the service words them, its
 * copies by reel and volume, its volumes (renamed or taken off), and the versions of it a
 * resolution set aside (docs/units.md), each to download as it was.
 */
import { el, api, askFirst, download, notify, problemText } from './core.browser.js'
/** @import { Answer, DayDetail, DayRow, ReelCell, SetAsideVersion } from './state.js' */

const countFormat = new Intl.NumberFormat()

/** A chip's or a cell's colour by the verdict the service gave. */
export const STATE = { ok: 'ok', warning: 'warn', error: 'bad' }

/**
 * A day's detail: its findings as the service words them, a line per kind and volume (the first
 * clips named), each opening on the findings it lists; then copies by reel and volume.
 * @param {DayDetail} detail
 */
export function detailNodes(detail) {
  /** @type {Node[]} */
  const nodes = []
  nodes.push(el('h4', { class: 'detail-title', text: 'Findings' }))
  if (!detail.checks.length) nodes.push(el('p', { class: 'day-clear', text: 'Every check passed.' }))
  for (const group of detail.checks) {
    const more = group.count - group.findings.length
    nodes.push(
      el(
        'section',
        { class: 'finding-group', 'data-severity': group.severity, 'aria-label': group.title },
        el(
          'p',
          { class: 'finding-title' },
          el('span', { class: 'severity', text: group.severity === 'info' ? 'note' : group.severity }),
          ' ',
          el('span', { class: 'finding-words', text: group.words }),
        ),
        group.findings.length > 1 || (group.findings.length === 1 && more > 0)
          ? el(
              'details',
              { class: 'finding-list' },
              el('summary', { text: 'Each of them' }),
              el(
                'ul',
                { class: 'findings' },
                group.findings.map((f) =>
                  el(
                    'li',
                    null,
                    f.clip ? el('code', { class: 'clip', text: f.clip }) : null,
                    f.clip ? ' ' : null,
                    el('span', { class: 'finding-message', text: f.clip ? withoutClip(f.message, f.clip) : f.message }),
                  ),
                ),
                more > 0 ? el('li', { class: 'more', text: 'and ' + countFormat.format(more) + ' more' }) : null,
              ),
            )
          : null,
      ),
    )
  }
  if (detail.copies.length) {
    nodes.push(el('h4', { class: 'detail-title', text: 'Copies by reel' }))
    nodes.push(copiesTable(detail))
  }
  if (detail.day.copies.length) {
    nodes.push(el('h4', { class: 'detail-title', text: 'Volumes of this day' }))
    nodes.push(volumeTools(detail.day))
  }
  nodes.push(setAside(detail.day.id))
  return nodes
}

/**
 * The versions of the day a resolution did not keep (docs/units.md), each to download as it was;
 * nothing shown while there are none.
 * @param {string} id
 */
function setAside(id) {
  const box = el('section', { class: 'set-aside', 'aria-label': 'Versions set aside', hidden: true })
  const path = '/approve/days/' + encodeURIComponent(id) + '/set-aside'
  void (async () => {
    const answer = /** @type {Answer<{versions: SetAsideVersion[]}>} */ (await api('GET', path))
    if (answer.status !== 200 || !answer.body.versions.length) return
    const items = answer.body.versions.map((version) => {
      const said =
        (version.owner ? version.owner + "'s · " : '') +
        [version.unit || 'no unit', 'day ' + version.day, version.date, version.clips + ' clips'].join(' · ') +
        ' · set aside ' +
        new Date(version.setAsideAt).toLocaleString()
      const button = el('button', { type: 'button', class: 'quiet', text: 'Download' })
      button.addEventListener('click', async () => {
        const answer = await download(path + '/' + encodeURIComponent(version.rev), id + '-' + version.rev + '.json')
        if (answer.status !== 200) notify(id + ': ' + problemText(answer), 'error')
      })
      return el('li', { class: 'version' }, el('span', { text: said }), button)
    })
    box.append(
      el('h4', { class: 'detail-title', text: 'Versions set aside' }),
      el('p', { class: 'meta', text: 'Not kept when a conflict was resolved: kept here as they were.' }),
      el('ul', { class: 'versions' }, items),
    )
    box.hidden = false
  })()
  return box
}

/**
 * Each volume of a day in the service's words (camera files, sound), renamed or taken off it: for
 * a volume a report named wrong (the folder it lay in). Taking one off is asked twice. The day is
 * drawn again by the write itself.
 * @param {DayRow} day
 */
function volumeTools(day) {
  const volumes = Array.from(new Set(day.copies.map((c) => c.volume)))
  const path = (/** @type {string} */ volume) =>
    '/approve/days/' + encodeURIComponent(day.id) + '/volumes/' + encodeURIComponent(volume)
  return el(
    'ul',
    { class: 'day-volumes' },
    volumes.map((volume) => {
      const input = el('input', {
        type: 'text',
        class: 'volume-name',
        value: volume,
        maxlength: '200',
        'aria-label': 'New name of ' + volume,
      })
      const rename = el('button', { type: 'submit', class: 'quiet', text: 'Rename' })
      const form = el('form', { class: 'volume-rename' }, input, rename)
      form.addEventListener('submit', async (event) => {
        event.preventDefault()
        const name = input.value.trim()
        if (!name || name === volume) return
        const answer = await api('PATCH', path(volume), { name })
        if (answer.status === 200) notify(volume + ' is ' + name + ' now on day ' + day.day + '.', 'ok')
        else notify(problemText(answer), 'error')
      })
      const remove = el('button', { type: 'button', class: 'danger', text: 'Take off the day' })
      const confirm = el('button', { type: 'button', class: 'danger-solid', text: 'Yes, take it off' })
      const keep = el('button', { type: 'button', class: 'quiet keep', text: 'Keep' })
      const question = el(
        'div',
        { class: 'confirm', role: 'group', 'aria-label': 'Confirm taking ' + volume + ' off the day', hidden: true },
        el('p', {
          text:
            'Take ' +
            volume +
            ' off day ' +
            day.day +
            '? Its copies go from the day’s log; the checks, reports and e-mail follow.',
        }),
        el('div', { class: 'actions' }, confirm, keep),
      )
      remove.addEventListener('click', askFirst(remove, question, confirm, keep))
      confirm.addEventListener('click', async () => {
        const answer = await api('DELETE', path(volume))
        if (answer.status === 200) notify(volume + ' is off day ' + day.day + '.', 'ok')
        else notify(problemText(answer), 'error')
      })
      const said = day.copies
        .filter((c) => c.volume === volume)
        .map((c) =>
          el(
            'span',
            { class: 'volume-words', 'data-state': STATE[c.verdict] },
            (c.part === 'sound' ? '♪ ' : '') + c.mark + ' ' + c.words,
          ),
        )
      return el(
        'li',
        { class: 'day-volume' },
        el('span', { class: 'volume', text: volume }),
        el('span', { class: 'volume-said' }, said),
        form,
        remove,
        question,
      )
    }),
  )
}

/** A finding's message with its clip's name (shown before it) taken from its start. @param {string} message @param {string} clip */
const withoutClip = (message, clip) =>
  message.startsWith(clip) ? message.slice(clip.length).replace(/^[\s:]+/, '') : message

/** One table over both parts: a line per reel, a column per volume. @param {DayDetail} detail */
function copiesTable(detail) {
  /** @type {Map<string, null>} */
  const volumes = new Map()
  for (const line of detail.copies) for (const cell of line.volumes) volumes.set(cell.volume, null)
  const columns = Array.from(volumes.keys())
  return el(
    'div',
    { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Copies by reel and volume' },
    el(
      'table',
      { class: 'copies' },
      el(
        'thead',
        null,
        el(
          'tr',
          null,
          el('th', { scope: 'col', text: 'Reel' }),
          el('th', { scope: 'col', class: 'num', text: 'Clips' }),
          columns.map((v) => el('th', { scope: 'col', text: v })),
        ),
      ),
      el(
        'tbody',
        null,
        detail.copies.map((line) => {
          const byVolume = new Map(line.volumes.map((c) => [c.volume, c]))
          return el(
            'tr',
            { 'data-part': line.part },
            el('th', { scope: 'row', text: reelName(line.part, line.reel) }),
            el('td', { class: 'num', text: countFormat.format(line.clips) }),
            columns.map((v) => cellOf(byVolume.get(v))),
          )
        }),
      ),
    ),
  )
}

/** A line's name: its reel (♪ before a sound reel), or what its clips are without one. @param {'ocf' | 'sound'} part @param {string} reel */
const reelName = (part, reel) => (part === 'sound' ? '♪ ' + (reel || 'Sound') : reel || 'No reel')

/** `12/12 ✓`, `10/12 ✕` and the service's words where something is wrong; "—" where the volume holds none of this part. @param {ReelCell | undefined} c */
function cellOf(c) {
  if (!c || !c.clips) return el('td', { class: 'cell', 'data-state': 'none', text: '—' })
  return el(
    'td',
    { class: 'cell', 'data-state': STATE[c.verdict], title: c.words },
    el('span', { class: 'cell-count', text: c.held + '/' + c.clips + ' ' + c.mark }),
    c.verdict !== 'ok' ? el('span', { class: 'cell-notes', text: c.words }) : null,
  )
}

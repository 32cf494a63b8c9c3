// @ts-check
/**
 * Page script: the Days view. One card per log of the active project, in log order (a date several
 * units logged under one heading with its reports across them): its parts,
 * each volume's copies as a chip, its check counts. A card opens the day's findings (naming the
 * clips), its copies by reel and volume, and its actions: a PDF of each report preset, its e-mail.
 * Above the cards, a range of days for a wrap report and its e-mail. Drawn again whenever the live
 * state's version moves, which every log write does (GET /approve/days, and each open day's
 * GET /approve/days/{id}).
 */
import { $, el, api, download, notify, problemText, keyedList, showCount } from './core.browser.js'
import { card } from './card.browser.js'
import { revealWindow } from './windows.browser.js'
import { STATE, detailNodes } from './day-detail.browser.js'
/** @import { Answer, DayList, DayRow, DayDetail, VolumeChip, CheckCounts, SendWindow } from './state.js' */

/**
 * A day's card, the day as last shown, and its detail when open: its actions, then its content.
 * `detailWritten`: the write of the log the detail shows (DayRow `written`), null before it came;
 * `actionsFor`: the presets its actions were drawn from.
 * @typedef {{node: HTMLLIElement, row: DayRow, toggle: HTMLButtonElement, detail: HTMLElement, actions: HTMLElement, content: HTMLElement, open: boolean, detailWritten: string | null, actionsFor: string}} DayCard
 */

/**
 * The heading of a date several units logged, and the key its actions were drawn for.
 * @typedef {{node: HTMLLIElement, title: HTMLElement, actions: HTMLElement, actionsFor: string}} DateHeading
 */

/** @typedef {{date: string, days: DayRow[]}} DateGroup */
/** @typedef {{row: DayRow, grouped: boolean} | DateGroup} ListItem */

/** @typedef {DayList['presets']} Presets */

/**
 * What the list shows: the days in log order, but a date that more than one unit logged gathered
 * where its first day stands, under a heading, its days below it in log order. A unit numbers its
 * days its own way (the second unit's day 3 is the main unit's day 7), so its date is what one
 * shooting day has in common. @param {DayRow[]} days @returns {ListItem[]}
 */
function listed(days) {
  /** @type {Map<string, DayRow[]>} */
  const byDate = new Map()
  for (const d of days) {
    const same = byDate.get(d.date)
    if (same) same.push(d)
    else byDate.set(d.date, [d])
  }
  /** @type {ListItem[]} */
  const items = []
  const headed = new Set()
  for (const d of days) {
    const same = byDate.get(d.date) ?? [d]
    if (new Set(same.map((x) => x.unit)).size < 2) items.push({ row: d, grouped: false })
    else if (!headed.has(d.date)) {
      headed.add(d.date)
      items.push({ date: d.date, days: same }, ...same.map((row) => ({ row, grouped: true })))
    }
  }
  return items
}

/**
 * `Day 3`, `Days 1–5`, `2026-03-08 across 2 units`: what a set of days is called in a notice (units
 * number their days each their own way: one date's days are named by it). @param {DayRow[]} days
 */
function daysName(days) {
  const units = new Set(days.map((d) => d.unit)).size
  if (units > 1 && days.every((d) => d.date === days[0]?.date)) return days[0]?.date + ' across ' + units + ' units'
  const numbers = days.map((d) => d.day)
  const first = Math.min(...numbers)
  const last = Math.max(...numbers)
  return first === last ? 'Day ' + first : 'Days ' + first + '–' + last
}

/**
 * The actions on some days: a download per enabled PDF preset, an e-mail per enabled e-mail
 * preset (or one without a preset when the project has none). A button is inert while its call
 * runs; what went wrong is said in a notice.
 * @param {Presets} presets
 * @param {() => DayRow[]} chosen the days, read at the click
 * @param {(presetId: string) => string} pdfPath
 */
function actionNodes(presets, chosen, pdfPath) {
  /** @param {HTMLButtonElement} button @param {() => Promise<void>} work */
  const busyWhile = async (button, work) => {
    if (button.getAttribute('aria-disabled') === 'true') return
    button.setAttribute('aria-disabled', 'true')
    try {
      await work()
    } catch (_) {
      // A download cut off midway (the service stopped): said, not left in the browser's console.
      notify('That did not finish. Is the service still running? Try again.', 'error')
    } finally {
      button.removeAttribute('aria-disabled')
    }
  }
  const pdfs = presets.pdfs.filter((p) => p.enabled)
  const emails = presets.emails.filter((p) => p.enabled)
  /** @type {HTMLButtonElement[]} */
  const buttons = pdfs.map((preset) => {
    const button = el('button', { type: 'button', class: 'quiet action-pdf', text: '⤓ ' + preset.label + ' (PDF)' })
    button.addEventListener('click', () =>
      busyWhile(button, async () => {
        const days = chosen()
        if (!days.length) return
        const answer = await download(pdfPath(preset.id), preset.id + '.pdf')
        if (answer.status !== 200) notify(problemText(answer), 'error')
      }),
    )
    return button
  })
  const mails = emails.length ? emails : [null]
  for (const preset of mails) {
    const label = preset && mails.length > 1 ? '✉ E-mail: ' + preset.label : '✉ Prepare e-mail'
    const button = el('button', { type: 'button', class: 'quiet action-mail', text: label })
    button.addEventListener('click', () =>
      busyWhile(button, async () => {
        const days = chosen()
        if (!days.length) return
        const body = { logId: days.map((d) => d.id), ...(preset && { presetId: preset.id }) }
        const answer = /** @type {Answer<{window: SendWindow}>} */ (await api('POST', '/approve/windows', body))
        if (answer.status !== 201) {
          notify(problemText(answer), 'error')
          return
        }
        notify('The e-mail of ' + daysName(days) + ' is ready under “E-mail to send”: check it, then send it.', 'ok')
        revealWindow(answer.body.window.id)
      }),
    )
    buttons.push(button)
  }
  return buttons
}

const sizeFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 })
const countFormat = new Intl.NumberFormat()

/** 1.2 TB, 640 GB, 12 MB: decimal units, as drives are sold. @param {number} bytes */
function size(bytes) {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB']
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return sizeFormat.format(value) + ' ' + units[unit]
}

/** @param {number} n @param {string} one @param {string} many */
const plural = (n, one, many) => countFormat.format(n) + ' ' + (n === 1 ? one : many)

/** `RAID 412/412 ✓`, `SHUTTLE 409/412 ✕`; a sound volume marked ♪; the service's words as its title. @param {VolumeChip} c */
function chip(c) {
  const words = (c.part === 'sound' ? 'Sound copies on ' : 'Copies on ') + c.volume + ': ' + c.words
  return el(
    'li',
    { class: 'chip', 'data-state': STATE[c.verdict], title: words, 'aria-label': words },
    c.part === 'sound' ? el('span', { class: 'chip-part', 'aria-hidden': 'true', text: '♪' }) : null,
    el('span', { class: 'chip-volume', text: c.volume }),
    ' ',
    el('span', { class: 'chip-count', text: c.held + '/' + c.clips }),
    ' ',
    el('span', { class: 'chip-mark', 'aria-hidden': 'true', text: c.mark }),
  )
}

/** errors, else warnings, else clear. @param {CheckCounts} counts */
const checkState = (counts) => (counts.errors ? 'errors' : counts.warnings ? 'warnings' : 'clear')

/** "2 errors · 1 warning", "Checks clear". @param {CheckCounts} counts */
function checkWords(counts) {
  const parts = []
  if (counts.errors) parts.push(plural(counts.errors, 'error', 'errors'))
  if (counts.warnings) parts.push(plural(counts.warnings, 'warning', 'warnings'))
  if (counts.info) parts.push(plural(counts.info, 'note', 'notes'))
  return parts.length ? parts.join(' · ') : 'Checks clear'
}

/** A part's size, and the clips of unknown size as the service words them. @param {NonNullable<import('./state.js').PartMedia>} m */
const sizeOf = (m) => (m.unknown ? (m.size === 0 ? m.unknown : size(m.size) + ' + ' + m.unknown) : size(m.size))

/** The parts of a day in a line: "412 clips · OCF 1.2 TB · Sound 96 files, 4 GB · Proxy 38 GB". @param {DayRow} row */
function partsLine(row) {
  /** @type {string[]} */
  const parts = [plural(row.clips, 'clip', 'clips')]
  if (row.ocf) parts.push('OCF ' + sizeOf(row.ocf))
  if (row.sound) parts.push('Sound ' + plural(row.sound.files, 'file', 'files') + ', ' + sizeOf(row.sound))
  if (row.proxy) parts.push('Proxy ' + plural(row.proxy.files, 'file', 'files') + ', ' + sizeOf(row.proxy))
  return parts
}

/**
 * The day button's name for a screen reader: its visible word first (what voice control says to
 * press), then which day. @param {boolean} open @param {number} day
 */
const toggleLabel = (open, day) => (open ? 'Hide' : 'Details') + ': findings and copies of day ' + day

/** @returns {import('./live.browser.js').Section} */
export function daysSection() {
  /** @type {number | null} */
  let shownVersion = null
  /** Days whose versions are in conflict (docs/units.md), and how many versions each has. */
  /** @type {Map<string, number>} */
  let conflicted = new Map()
  let loading = false
  let again = false
  /** Each open day's detail, by log id: asked again whenever the view is. */
  const opened = new Set()
  /** @type {Presets} */
  let presets = { pdfs: [], emails: [] }
  /** Every day as last listed: a day's card finds the same shooting day of other units there. */
  /** @type {DayRow[]} */
  let allDays = []
  /** The presets as a key: the actions are drawn again only when it changes. */
  let presetsKey = ''
  const range = rangeBar()

  /** @param {DayRow} row @returns {DayCard} */
  function create(row) {
    const detailId = 'day-detail-' + row.id.replace(/[^A-Za-z0-9_-]/g, '_')
    const toggle = el('button', {
      type: 'button',
      class: 'quiet day-toggle',
      'aria-expanded': 'false',
      'aria-controls': detailId,
      text: 'Details',
    })
    const actions = el('div', { class: 'day-actions', role: 'group', 'aria-label': 'Reports and e-mail of this day' })
    const content = el('div', { class: 'day-content' })
    const detail = el('div', { class: 'day-detail', id: detailId, hidden: true }, actions, content)
    const node = card({
      kind: 'day',
      heading: el('h3', { class: 'day-title' }),
      meta: [[el('span', { class: 'day-parts' })]],
      below: [el('ul', { class: 'chips', 'aria-label': 'Copies per volume' })],
      aside: el('p', { class: 'day-status' }),
      actions: [toggle],
      extra: detail,
    })
    /** @type {DayCard} */
    const entry = { node, row, toggle, detail, actions, content, open: false, detailWritten: null, actionsFor: '' }
    toggle.addEventListener('click', () => setOpen(entry, !entry.open))
    // The whole card opens the day; the button is what the keyboard reaches.
    node.addEventListener('click', (event) => {
      const target = /** @type {Element} */ (event.target)
      if (detail.contains(target) || target.closest('button, a')) return
      if (getSelection()?.toString()) return
      setOpen(entry, !entry.open)
    })
    return entry
  }

  /** @param {DayCard} entry @param {DayRow} row @param {boolean} grouped under a date's heading */
  function update(entry, row, grouped) {
    entry.row = row
    const { node } = entry
    const title = $('.day-title', node)
    title.replaceChildren(
      el('span', { class: 'day-number', text: 'Day ' + row.day }),
      ' ',
      el('span', { class: 'day-date', text: row.date }),
    )
    if (row.unit) title.append(' ', el('span', { class: 'day-unit', text: row.unit }))
    const versions = conflicted.get(row.id)
    if (versions)
      title.append(
        ' ',
        el('a', { class: 'day-conflict', href: '#units', text: versions + ' versions: see Production' }),
      )
    $('.day-parts', node).textContent = partsLine(row).join(' · ')
    const chips = $('.chips', node)
    chips.replaceChildren(...row.copies.map(chip))
    chips.hidden = row.copies.length === 0
    const status = $('.day-status', node)
    status.dataset.state = checkState(row.checks)
    status.textContent = checkWords(row.checks)
    entry.toggle.setAttribute('aria-label', toggleLabel(entry.open, row.day))
    node.toggleAttribute('data-grouped', grouped)
    // Drawn again only when the presets change: a button in use keeps its focus across updates.
    if (entry.actionsFor !== presetsKey) {
      entry.actionsFor = presetsKey
      const id = row.id
      entry.actions.replaceChildren(
        ...actionNodes(
          presets,
          () => [entry.row],
          (presetId) => '/approve/days/' + encodeURIComponent(id) + '/pdf/' + encodeURIComponent(presetId),
        ),
      )
    }
  }

  /**
   * The heading of one shooting date several units logged (each numbers its days its own way): the
   * units' days of it, then its clips and data reports and its e-mail across them, as a range of
   * that one date takes them. @param {DateGroup} group @returns {DateHeading}
   */
  function createHeading(group) {
    const title = el('h3', { class: 'date-title' })
    const actions = el('div', {
      class: 'day-actions date-actions',
      role: 'group',
      'aria-label': 'Reports and e-mail of ' + group.date + ' across units',
    })
    const node = el('li', { class: 'date-group' }, title, actions)
    return { node, title, actions, actionsFor: '' }
  }

  /** @param {DateHeading} heading @param {DateGroup} group */
  function updateHeading(heading, { date, days }) {
    const units = new Set(days.map((d) => d.unit)).size
    heading.title.replaceChildren(
      el('span', { class: 'day-date', text: date }),
      ' ',
      el('span', { class: 'date-units', text: units + ' units' }),
      ' ',
      el('span', { class: 'meta', text: days.map((d) => (d.unit || 'no unit') + ': day ' + d.day).join(' · ') }),
    )
    const key = presetsKey + days.map((d) => d.id).join('\u0000')
    if (heading.actionsFor === key) return
    heading.actionsFor = key
    heading.actions.replaceChildren(
      ...actionNodes(
        presets,
        () => allDays.filter((d) => d.date === date),
        (presetId) =>
          '/approve/days/pdf/' +
          encodeURIComponent(presetId) +
          '?from=' +
          encodeURIComponent(date) +
          '&to=' +
          encodeURIComponent(date),
      ),
    )
  }

  const cards = keyedList(
    $('#days-list'),
    (/** @type {ListItem} */ item) => ('row' in item ? item.row.id : '\u0000' + item.date),
    (/** @type {ListItem} */ item) => ('row' in item ? create(item.row) : createHeading(item)),
    (/** @type {DayCard | DateHeading} */ entry, /** @type {ListItem} */ item) => {
      if ('row' in item) update(/** @type {DayCard} */ (entry), item.row, item.grouped)
      else updateHeading(/** @type {DateHeading} */ (entry), item)
    },
  )

  /** @param {DayCard} entry @param {boolean} open */
  function setOpen(entry, open) {
    entry.open = open
    entry.node.dataset.open = String(open)
    entry.toggle.setAttribute('aria-expanded', String(open))
    entry.toggle.textContent = open ? 'Hide' : 'Details'
    entry.toggle.setAttribute('aria-label', toggleLabel(open, entry.row.day))
    entry.detail.hidden = !open
    if (open) {
      opened.add(entry.row.id)
      if (!entry.content.firstChild) entry.content.append(el('p', { class: 'day-loading', text: 'Reading the day…' }))
      loadDetail(entry)
    } else opened.delete(entry.row.id)
  }

  /** @param {DayCard} entry */
  async function loadDetail(entry) {
    const id = entry.row.id
    const answer = /** @type {Answer<DayDetail>} */ (await api('GET', '/approve/days/' + encodeURIComponent(id)))
    if (!entry.open || entry.row.id !== id) return
    if (answer.status === 200) {
      entry.detailWritten = answer.body.day.written
      entry.content.replaceChildren(...detailNodes(answer.body))
    } else entry.content.replaceChildren(el('p', { class: 'day-problem', role: 'alert', text: problemText(answer) }))
  }

  async function refresh() {
    if (loading) {
      again = true
      return
    }
    loading = true
    try {
      do {
        again = false
        const answer = /** @type {Answer<DayList>} */ (await api('GET', '/approve/days'))
        if (answer.status !== 200) {
          // The live poll reports an unreachable service or a lost session itself.
          continue
        }
        const { days } = answer.body
        presets = answer.body.presets
        presetsKey = JSON.stringify(presets)
        allDays = days
        cards.sync(listed(days))
        range.sync(days, presets, presetsKey)
        showCount('days', days.length, ['day', 'days'])
        for (const id of Array.from(opened)) if (!days.some((d) => d.id === id)) opened.delete(id)
        // An open day is read again once its log was written: a 20,000-clip day's checks take a while.
        for (const entry of cards.entries())
          if ('row' in entry && entry.open && entry.detailWritten !== entry.row.written) loadDetail(entry)
      } while (again)
    } finally {
      loading = false
    }
  }

  return {
    id: 'days',
    render(state) {
      if (state.version === shownVersion) return
      shownVersion = state.version
      conflicted = new Map(state.sync.conflicts.map(({ id, leaves }) => [id, leaves]))
      refresh()
    },
  }
}

/**
 * The range above the cards: from one day number to another, both included (as GET /pdf takes a
 * range), with a day's actions for all of them: the wrap report, the e-mail of the week. Shown
 * once the project has two days. A bound the operator has not moved follows the first and last
 * day as days arrive.
 */
function rangeBar() {
  const tools = $('#days-tools')
  const from = el('select', { id: 'range-from' })
  const to = el('select', { id: 'range-to' })
  const summary = el('span', { class: 'range-summary', 'aria-live': 'polite' })
  const actions = el('div', { class: 'range-actions', role: 'group', 'aria-label': 'Reports and e-mail of these days' })
  tools.append(
    el(
      'div',
      { class: 'range' },
      el('h3', { class: 'range-title', text: 'Several days' }),
      el('label', { class: 'range-field' }, 'From ', from),
      el('label', { class: 'range-field' }, 'to ', to),
      summary,
    ),
    actions,
  )
  /** @type {DayRow[]} */
  let days = []
  let numbers = ''
  let actionsFor = ''
  const moved = { from: false, to: false }

  const bounds = () => {
    const a = Number(from.value)
    const b = Number(to.value)
    return [Math.min(a, b), Math.max(a, b)]
  }
  const chosen = () => {
    const [first, last] = bounds()
    return days.filter((d) => d.day >= first && d.day <= last)
  }
  const showSummary = () => {
    const picked = chosen()
    const clips = picked.reduce((n, d) => n + d.clips, 0)
    summary.textContent = plural(picked.length, 'log', 'logs') + ' · ' + plural(clips, 'clip', 'clips')
  }
  // A bound moved to the first or last day follows it again; the other keeps the range in order.
  from.addEventListener('change', () => {
    moved.from = from.selectedIndex > 0
    if (Number(from.value) > Number(to.value)) to.value = from.value
    showSummary()
  })
  to.addEventListener('change', () => {
    moved.to = to.selectedIndex < to.options.length - 1
    if (Number(to.value) < Number(from.value)) from.value = to.value
    showSummary()
  })

  return {
    /** @param {DayRow[]} list @param {Presets} presets @param {string} presetsKey */
    sync(list, presets, presetsKey) {
      days = list
      // A day number's label: its date, or how many logs it has when its units logged other dates.
      /** @type {Map<number, Set<string>>} */
      const dates = new Map()
      for (const d of list) dates.set(d.day, (dates.get(d.day) ?? new Set()).add(d.date))
      const ordered = Array.from(dates.keys()).sort((a, b) => a - b)
      tools.hidden = ordered.length < 2
      /** @param {number} n */
      const label = (n) => {
        const on = /** @type {Set<string>} */ (dates.get(n))
        return 'Day ' + n + ' · ' + (on.size === 1 ? Array.from(on)[0] : on.size + ' dates')
      }
      const key = ordered.map(label).join(',')
      if (key !== numbers) {
        numbers = key
        for (const [select, which] of /** @type {const} */ ([
          [from, 'from'],
          [to, 'to'],
        ])) {
          const kept = moved[which] && ordered.includes(Number(select.value)) ? select.value : null
          select.replaceChildren(...ordered.map((n) => el('option', { value: String(n), text: label(n) })))
          select.value = kept ?? String(which === 'from' ? ordered[0] : ordered[ordered.length - 1])
          if (kept === null) moved[which] = false
        }
      }
      showSummary()
      if (presetsKey !== actionsFor) {
        actionsFor = presetsKey
        actions.replaceChildren(
          ...actionNodes(presets, chosen, (presetId) => {
            const [first, last] = bounds()
            return '/approve/days/pdf/' + encodeURIComponent(presetId) + '?from=' + first + '&to=' + last
          }),
        )
      }
    },
  }
}

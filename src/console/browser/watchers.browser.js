// @ts-check
/**
 * Page script: the `media-log watch` commands reporting to this service (docs/watch.md), each with
 * its folders, the last report it took and its problems, and a warning for one that stopped or
 * went quiet: reports written there since are not taken until it runs again.
 */
import { $, el, api, problemText, notify, ago, shortTime, keyedList, setBusy } from './core.browser.js'
/** @import { Watcher } from './state.js' */

/**
 * A watcher's card, the watcher as last shown, and how far this browser's clock is behind the service's.
 * @typedef {{node: HTMLLIElement, watcher: Watcher, busy: boolean}} WatcherCard
 */

const countFormat = new Intl.NumberFormat()
/** @param {number} n @param {string} one @param {string} many */
const plural = (n, one, many) => countFormat.format(n) + ' ' + (n === 1 ? one : many)
/** The last part of a path, as a DIT knows a report by it. @param {string} path */
const fileName = (path) => path.split(/[\\/]/).filter(Boolean).pop() ?? path

/** @returns {import('./live.browser.js').Section} */
export function watchersSection() {
  /** The service's clock less this browser's, when the state came. */
  let skew = 0
  /** @type {Watcher[]} */
  let watchers = []
  /** @type {Set<string>} */
  const dismissed = new Set()

  /** 'watching', 'quiet' (past the service's `quietAt`) or 'stopped'. @param {Watcher} w @param {number} now */
  const stateOf = (w, now) => (w.stoppedAt ? 'stopped' : now + skew > Date.parse(w.quietAt) ? 'quiet' : 'watching')

  /** @param {Watcher} watcher @returns {WatcherCard} */
  function create(watcher) {
    const dismiss = el('button', { type: 'button', class: 'quiet dismiss', text: 'Dismiss' })
    const node = el(
      'li',
      { class: 'card watcher' },
      el(
        'div',
        { class: 'who' },
        el('h3', { class: 'watch-folders' }),
        el('p', { class: 'meta watch-into' }),
        el('p', { class: 'meta watch-last' }),
        el('p', { class: 'watch-warning', role: 'status' }),
        el('p', { class: 'meta watch-walked' }),
        el('ul', { class: 'watch-problems', 'aria-label': 'Last problems' }),
      ),
      el('span', { class: 'badge watch-state' }),
      el('div', { class: 'actions' }, dismiss),
    )
    /** @type {WatcherCard} */
    const card = { node: /** @type {HTMLLIElement} */ (node), watcher, busy: false }
    dismiss.addEventListener('click', () => dismissWatcher(card))
    return card
  }

  /** @param {WatcherCard} card @param {Watcher} watcher */
  function update(card, watcher) {
    card.watcher = watcher
    const { node } = card
    const folders = $('.watch-folders', node)
    const names = watcher.folders.join(' · ')
    if (folders.textContent !== names) folders.textContent = names
    $('.watch-into', node).textContent =
      (watcher.log === undefined ? 'Into the day each report’s dates name' : 'Into ' + watcher.log) +
      (watcher.volume === undefined ? '' : ' · volume ' + watcher.volume) +
      // The command asks as media-log; another application that reports a watcher is named.
      (watcher.appName === 'media-log' ? '' : ' · reported by ' + watcher.appName)
    $('.watch-walked', node).textContent = watcher.walkedOnly.length
      ? 'Walked every 30 s, no longer told of changes: ' + watcher.walkedOnly.join(' · ')
      : ''
    $('.watch-walked', node).hidden = !watcher.walkedOnly.length
    const problems = $('.watch-problems', node)
    problems.replaceChildren(
      ...watcher.problems
        .slice()
        .reverse()
        .map((p) => el('li', {}, el('time', { datetime: p.at, text: shortTime(p.at) }), ' ' + p.message)),
    )
    problems.hidden = !watcher.problems.length
    tickCard(card, Date.now())
  }

  /** The parts that age: the last report's time, and whether it went quiet. @param {WatcherCard} card @param {number} now */
  function tickCard({ node, watcher }, now) {
    const state = stateOf(watcher, now)
    node.dataset.state = state
    const badge = $('.watch-state', node)
    badge.dataset.status = state === 'watching' ? 'sent' : 'failed'
    badge.textContent = state === 'watching' ? 'Watching' : state === 'quiet' ? 'Not heard from' : 'Stopped'
    const last = watcher.last
    $('.watch-last', node).textContent =
      (watcher.taken ? plural(watcher.taken, 'report', 'reports') + ' taken since ' : 'No report taken yet; started ') +
      shortTime(watcher.startedAt) +
      (last
        ? ' · last ' +
          fileName(last.report) +
          ' into ' +
          last.log +
          (last.created ? ' (new day)' : '') +
          ': ' +
          plural(last.added, 'clip', 'clips') +
          ' added' +
          (last.changed ? ', ' + countFormat.format(last.changed) + ' changed' : '') +
          ', ' +
          ago(last.at, now + skew)
        : '')
    const warning = $('.watch-warning', node)
    // A live region: written only when it says something else, never every second.
    const said =
      state === 'stopped'
        ? 'Stopped at ' +
          shortTime(/** @type {string} */ (watcher.stoppedAt)) +
          '. Reports written since wait until media-log watch runs again.'
        : state === 'quiet'
          ? 'Not heard from since ' +
            shortTime(watcher.heardAt) +
            ': its terminal may have closed, or this laptop slept. Reports written since wait until it runs again.'
          : ''
    if (warning.textContent !== said) warning.textContent = said
    warning.hidden = state === 'watching'
    $('.dismiss', node).hidden = state === 'watching'
    $('.dismiss', node).setAttribute('aria-label', 'Dismiss the watcher of ' + watcher.folders.join(', '))
  }

  const cards = keyedList($('#watchers-list'), (/** @type {Watcher} */ w) => w.id, create, update)

  const shownNow = () => watchers.filter((w) => !dismissed.has(w.id))

  function render() {
    const shown = shownNow()
    cards.sync(shown)
    showCounts(shown, Date.now())
  }

  /** How many watch and how many do not, in the heading. @param {Watcher[]} shown @param {number} now */
  function showCounts(shown, now) {
    const watching = shown.filter((w) => stateOf(w, now) === 'watching').length
    const stopped = shown.length - watching
    $('#watchers-empty').hidden = shown.length > 0
    const count = $('#watchers-count')
    count.textContent = [watching ? watching + ' watching' : '', stopped ? stopped + ' stopped or quiet' : '']
      .filter(Boolean)
      .join(' · ')
    count.dataset.state = stopped ? 'warning' : ''
  }

  /** @param {WatcherCard} card */
  async function dismissWatcher(card) {
    if (card.busy) return
    setBusy(card, true)
    const answer = await api('DELETE', '/approve/watchers/' + encodeURIComponent(card.watcher.id))
    setBusy(card, false)
    if (answer.status === 200 || answer.status === 404) {
      dismissed.add(card.watcher.id)
      render()
      return
    }
    notify('The watcher of ' + card.watcher.folders.join(', ') + ': ' + problemText(answer), 'error')
  }

  return {
    id: 'watchers',
    render(state, now) {
      skew = Date.parse(state.now) - now
      watchers = state.watchers
      for (const id of Array.from(dismissed)) if (!watchers.some((w) => w.id === id)) dismissed.delete(id)
      render()
    },
    tick(now) {
      for (const card of cards.entries()) tickCard(card, now)
      showCounts(shownNow(), now)
    },
  }
}

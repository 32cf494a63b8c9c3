// @ts-check
/** Page script: the approved applications, with Revoke behind a confirmation. */
import {
  $,
  el,
  plainName,
  api,
  problemText,
  notify,
  dayAndTime,
  ago,
  keyedList,
  setBusy,
  showCount,
  askFirst,
} from './core.browser.js'
import { applicationCard } from './card.browser.js'
/** @import { ApprovedApp } from './state.js' */

/**
 * An approved application's card, and the application as last shown.
 * @typedef {{node: HTMLLIElement, token: ApprovedApp, busy: boolean}} AppCard
 */

/** @returns {import('./live.browser.js').Section} */
export function appsSection() {
  /** @type {Set<string>} */
  const revoked = new Set()
  /** @type {ApprovedApp[]} */
  let tokens = []

  /** @param {ApprovedApp} token @returns {AppCard} */
  function create(token) {
    const name = plainName(token.appName)
    const revoke = el('button', {
      type: 'button',
      class: 'danger revoke',
      'aria-label': 'Revoke ' + name,
      text: 'Revoke',
    })
    const confirm = el('button', {
      type: 'button',
      class: 'danger-solid confirm-revoke',
      'aria-label': 'Yes, revoke ' + name,
      text: 'Yes, revoke',
    })
    const keep = el('button', {
      type: 'button',
      class: 'quiet keep',
      'aria-label': 'Keep ' + name + ' connected',
      text: 'Keep',
    })
    const question = el(
      'div',
      { class: 'confirm', role: 'group', 'aria-label': 'Confirm revoking ' + name, hidden: true },
      el('p', { text: 'Revoke “' + name + '”? It stops working at once and has to ask again to reconnect.' }),
      el('div', { class: 'actions' }, confirm, keep),
    )
    const node = applicationCard({
      kind: 'app',
      app: token,
      meta: [
        ['Approved ', el('time', { class: 'approved', datetime: token.createdAt })],
        [el('span', { class: 'used' })],
      ],
      actions: [revoke],
      actionsClass: 'main-actions',
      question,
    })
    /** @type {AppCard} */
    const card = { node, token, busy: false }
    revoke.addEventListener('click', askFirst(revoke, question, confirm, keep))
    confirm.addEventListener('click', () => revokeToken(card))
    return card
  }

  /** @param {AppCard} card @param {ApprovedApp} token */
  function update(card, token) {
    card.token = token
    tickCard(card, Date.now())
  }

  /** @param {AppCard} card @param {number} now */
  function tickCard({ node, token }, now) {
    $('.approved', node).textContent = dayAndTime(token.createdAt, now)
    $('.used', node).textContent = token.lastUsedAt ? 'last used ' + ago(token.lastUsedAt, now) : 'not used yet'
  }

  const cards = keyedList($('#apps-list'), (/** @type {ApprovedApp} */ t) => t.id, create, update)

  function render() {
    const shown = tokens.filter((t) => !revoked.has(t.id))
    cards.sync(shown)
    showCount('apps', shown.length, ['connected', 'connected'])
  }

  /** @param {AppCard} card */
  async function revokeToken(card) {
    if (card.busy) return
    const { token } = card
    const name = '“' + plainName(token.appName) + '”'
    setBusy(card, true)
    const answer = await api('DELETE', '/approve/tokens/' + encodeURIComponent(token.id))
    if (answer.status === 200 || answer.status === 404) {
      revoked.add(token.id)
      notify(name + ' is revoked. It has to ask again to reconnect.', 'ok')
      render()
      return
    }
    notify(name + ': ' + problemText(answer), 'error')
    setBusy(card, false)
  }

  return {
    id: 'apps',
    render(state) {
      tokens = state.tokens
      for (const id of Array.from(revoked)) if (!tokens.some((t) => t.id === id)) revoked.delete(id)
      render()
    },
    tick(now) {
      for (const card of cards.entries()) tickCard(card, now)
    },
  }
}

// @ts-check
/** Page script: the pending connection requests, with Approve and Deny. */
import {
  $,
  el,
  plainName,
  api,
  problemText,
  notify,
  clockTime,
  ago,
  countdown,
  keyedList,
  setBusy,
  showCount,
} from './core.browser.js'
import { applicationCard } from './card.browser.js'
/** @import { ConnectionRequest } from './state.js' */

/**
 * A waiting request's card, and the request as last shown.
 * @typedef {{node: HTMLLIElement, request: ConnectionRequest, busy: boolean}} RequestCard
 */

/** @returns {import('./live.browser.js').Section} */
export function requestsSection() {
  // Decided here but maybe still in a state answer that was already on its way.
  /** @type {Set<string>} */
  const decided = new Set()
  /** @type {ConnectionRequest[]} */
  let requests = []

  /** @param {ConnectionRequest} request @returns {RequestCard} */
  function create(request) {
    const name = plainName(request.appName)
    const approve = el('button', {
      type: 'button',
      class: 'primary approve',
      'aria-label': 'Approve ' + name,
      text: 'Approve',
    })
    const deny = el('button', { type: 'button', class: 'danger deny', 'aria-label': 'Deny ' + name, text: 'Deny' })
    const node = applicationCard({
      kind: 'request',
      app: request,
      above: [
        request.code
          ? el(
              'p',
              { class: 'code-line' },
              'Code ',
              el('strong', { class: 'code', text: request.code }),
              el('span', { class: 'hint', text: ' — approve only if the application shows the same code' }),
            )
          : el('p', { class: 'code-line none', text: 'No code: this application does not show one' }),
      ],
      meta: [
        [
          'First asked at ',
          el('time', { class: 'asked', datetime: request.createdAt, text: clockTime(request.createdAt) }),
        ],
        [el('span', { class: 'ago' }), el('span', { class: 'attempts' })],
      ],
      below: [el('p', { class: 'says' }), el('p', { class: 'same-name', hidden: true })],
      aside: el(
        'div',
        { class: 'expiry' },
        el('p', { class: 'countdown' }),
        el('div', { class: 'bar', 'aria-hidden': 'true' }, el('div', { class: 'fill' })),
      ),
      actions: [approve, deny],
    })
    /** @type {RequestCard} */
    const card = { node, request, busy: false }
    approve.addEventListener('click', () => decide(card, 'approve'))
    deny.addEventListener('click', () => decide(card, 'deny'))
    return card
  }

  /** @param {RequestCard} card @param {ConnectionRequest} request */
  function update(card, request) {
    card.request = request
    const { node } = card
    $('.attempts', node).textContent = request.attempts > 1 ? ' · asked ' + request.attempts + ' times' : ''
    const agent = $('.says', node)
    agent.textContent = request.userAgent ? 'Says it is: ' + request.userAgent : ''
    agent.hidden = !request.userAgent
    // Anything can ask under any name: when two do, the code (or the time) tells them apart.
    const namesakes = requests.filter((r) => r.appName === request.appName && !decided.has(r.id)).length
    const sameName = $('.same-name', node)
    sameName.hidden = namesakes < 2
    sameName.textContent =
      namesakes < 2
        ? ''
        : namesakes +
          ' requests use this name. ' +
          (request.code
            ? 'Approve the one whose code the application shows.'
            : 'Approve only the one you know you started, by the time it first asked.')
    tickCard(card, Date.now())
  }

  /** @param {RequestCard} card @param {number} now */
  function tickCard({ node, request }, now) {
    const total = Date.parse(request.expiresAt) - Date.parse(request.createdAt)
    const left = Date.parse(request.expiresAt) - now
    $('.ago', node).textContent = ago(request.createdAt, now)
    $('.countdown', node).textContent = left > 0 ? 'Expires in ' + countdown(left) : 'Time is up'
    $('.fill', node).style.width = Math.max(0, Math.min(100, (left / total) * 100)) + '%'
    node.classList.toggle('urgent', left < 10000)
  }

  const cards = keyedList($('#requests-list'), (/** @type {ConnectionRequest} */ r) => r.id, create, update)

  function render() {
    const shown = requests.filter((r) => !decided.has(r.id))
    cards.sync(shown)
    showCount('requests', shown.length, ['waiting', 'waiting'])
    document.title = (shown.length ? '(' + shown.length + ') ' : '') + 'Operator console — Media Log'
  }

  /** @param {RequestCard} card @param {'approve' | 'deny'} decision */
  async function decide(card, decision) {
    if (card.busy) return
    const { request } = card
    const name = '“' + plainName(request.appName) + '”'
    setBusy(card, true)
    const answer = await api('POST', '/approve/requests/' + encodeURIComponent(request.id), { decision })
    if (answer.status === 200) {
      decided.add(request.id)
      notify(decision === 'approve' ? name + ' is approved and connected.' : name + ' was denied.', 'ok')
    } else if (answer.status === 404) {
      decided.add(request.id)
      notify(name + ': this request already expired or the application gave up. It can ask again.', 'warn')
    } else if (answer.status === 409) {
      decided.add(request.id)
      const earlier = /denied/.test(answer.body.error || '') ? 'denied' : 'approved'
      notify(name + ': this request was already ' + earlier + ' (in another tab or by a script).', 'warn')
    } else {
      notify(name + ': ' + problemText(answer), 'error')
      setBusy(card, false)
      return
    }
    render()
  }

  return {
    id: 'requests',
    render(state) {
      requests = state.requests
      // Forget decisions the service no longer lists.
      for (const id of Array.from(decided)) if (!requests.some((r) => r.id === id)) decided.delete(id)
      render()
    },
    tick(now) {
      for (const card of cards.entries()) tickCard(card, now)
    },
  }
}

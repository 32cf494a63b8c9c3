// @ts-check
/** Page script: the pending connection requests, with Approve and Deny. */
import {
  $,
  el,
  plainName,
  nameNodes,
  mixedScriptsMark,
  api,
  problemText,
  notify,
  clockTime,
  ago,
  countdown,
  syncList,
  setBusy,
  showCount,
} from './core.browser.js'

/** @returns {import('./live.browser.js').Section} */
export function requestsSection() {
  // Decided here but maybe still in a state answer that was already on its way.
  const decided = new Set()
  let requests = []

  function create(request) {
    const name = plainName(request.appName)
    const approve = el('button', {
      type: 'button',
      class: 'primary approve',
      'aria-label': 'Approve ' + name,
      text: 'Approve',
    })
    const deny = el('button', { type: 'button', class: 'danger deny', 'aria-label': 'Deny ' + name, text: 'Deny' })
    const item = el(
      'li',
      { class: 'card request' },
      el(
        'div',
        { class: 'who' },
        el('h3', { class: 'app-name' }, nameNodes(request.appName), mixedScriptsMark(request.mixedScripts)),
        request.code
          ? el(
              'p',
              { class: 'code-line' },
              'Code ',
              el('strong', { class: 'code', text: request.code }),
              el('span', { class: 'hint', text: ' — approve only if the application shows the same code' }),
            )
          : el('p', { class: 'code-line none', text: 'No code: this application does not show one' }),
        el(
          'p',
          { class: 'meta' },
          'First asked at ',
          el('time', { class: 'asked', datetime: request.createdAt, text: clockTime(request.createdAt) }),
          ' · ',
          el('span', { class: 'ago' }),
          el('span', { class: 'attempts' }),
        ),
        el('p', { class: 'says' }),
        el('p', { class: 'same-name', hidden: true }),
      ),
      el(
        'div',
        { class: 'expiry' },
        el('p', { class: 'countdown' }),
        el('div', { class: 'bar', 'aria-hidden': 'true' }, el('div', { class: 'fill' })),
      ),
      el('div', { class: 'actions' }, approve, deny),
    )
    approve.addEventListener('click', () => decide(request, 'approve', item))
    deny.addEventListener('click', () => decide(request, 'deny', item))
    return item
  }

  function update(item, request) {
    item.request = request
    item.querySelector('.attempts').textContent = request.attempts > 1 ? ' · asked ' + request.attempts + ' times' : ''
    const agent = item.querySelector('.says')
    agent.textContent = request.userAgent ? 'Says it is: ' + request.userAgent : ''
    agent.hidden = !request.userAgent
    // Anything can ask under any name: when two do, the code (or the time) tells them apart.
    const namesakes = requests.filter((r) => r.appName === request.appName && !decided.has(r.id)).length
    const sameName = item.querySelector('.same-name')
    sameName.hidden = namesakes < 2
    sameName.textContent =
      namesakes < 2
        ? ''
        : namesakes +
          ' requests use this name. ' +
          (request.code
            ? 'Approve the one whose code the application shows.'
            : 'Approve only the one you know you started, by the time it first asked.')
    tickItem(item, Date.now())
  }

  function tickItem(item, now) {
    const request = item.request
    const total = Date.parse(request.expiresAt) - Date.parse(request.createdAt)
    const left = Date.parse(request.expiresAt) - now
    item.querySelector('.ago').textContent = ago(request.createdAt, now)
    item.querySelector('.countdown').textContent = left > 0 ? 'Expires in ' + countdown(left) : 'Time is up'
    const fill = item.querySelector('.fill')
    fill.style.width = Math.max(0, Math.min(100, (left / total) * 100)) + '%'
    item.classList.toggle('urgent', left < 10000)
  }

  function render() {
    const shown = requests.filter((r) => !decided.has(r.id))
    syncList($('#requests-list'), shown, (r) => r.id, create, update)
    showCount('requests', shown.length, ['waiting', 'waiting'])
    document.title = (shown.length ? '(' + shown.length + ') ' : '') + 'Operator console — Media Log'
  }

  async function decide(request, decision, item) {
    if (item.busy) return
    const name = '“' + plainName(request.appName) + '”'
    setBusy(item, true)
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
      setBusy(item, false)
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
      for (const item of $('#requests-list').children) tickItem(item, now)
    },
  }
}

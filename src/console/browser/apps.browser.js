// @ts-check
/** Page script: the approved applications, with Revoke behind a confirmation. */
import {
  $,
  el,
  plainName,
  nameNodes,
  mixedScriptsMark,
  api,
  problemText,
  notify,
  dayAndTime,
  ago,
  syncList,
  setBusy,
  showCount,
  askFirst,
} from './core.browser.js'

/** @returns {import('./live.browser.js').Section} */
export function appsSection() {
  const revoked = new Set()
  let tokens = []

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
    const item = el(
      'li',
      { class: 'card app' },
      el(
        'div',
        { class: 'who' },
        el('h3', { class: 'app-name' }, nameNodes(token.appName), mixedScriptsMark(token.mixedScripts)),
        el(
          'p',
          { class: 'meta' },
          'Approved ',
          el('time', { class: 'approved', datetime: token.createdAt }),
          ' · ',
          el('span', { class: 'used' }),
        ),
      ),
      el('div', { class: 'actions main-actions' }, revoke),
      question,
    )
    revoke.addEventListener('click', askFirst(revoke, question, confirm, keep))
    confirm.addEventListener('click', () => revokeToken(token, item))
    return item
  }

  function update(item, token) {
    item.token = token
    tickItem(item, Date.now())
  }

  function tickItem(item, now) {
    const token = item.token
    item.querySelector('.approved').textContent = dayAndTime(token.createdAt, now)
    item.querySelector('.used').textContent = token.lastUsedAt
      ? 'last used ' + ago(token.lastUsedAt, now)
      : 'not used yet'
  }

  function render() {
    const shown = tokens.filter((t) => !revoked.has(t.id))
    syncList($('#apps-list'), shown, (t) => t.id, create, update)
    showCount('apps', shown.length, ['connected', 'connected'])
  }

  async function revokeToken(token, item) {
    if (item.busy) return
    const name = '“' + plainName(token.appName) + '”'
    setBusy(item, true)
    const answer = await api('DELETE', '/approve/tokens/' + encodeURIComponent(token.id))
    if (answer.status === 200 || answer.status === 404) {
      revoked.add(token.id)
      notify(name + ' is revoked. It has to ask again to reconnect.', 'ok')
      render()
      return
    }
    notify(name + ': ' + problemText(answer), 'error')
    setBusy(item, false)
  }

  return {
    id: 'apps',
    render(state) {
      tokens = state.tokens
      for (const id of Array.from(revoked)) if (!tokens.some((t) => t.id === id)) revoked.delete(id)
      render()
    },
    tick(now) {
      for (const item of $('#apps-list').children) tickItem(item, now)
    },
  }
}

// @ts-check
/**
 * Page script: this service's link to its production, and the days whose versions are in
 * conflict, each version with a button that keeps it (docs/units.md).
 */
import { $, BASE, el, api, problemText, notify, ago, setBusy, showCount, askFirst } from './core.browser.js'
/** @import { Answer, Conflict, SyncStatus } from './state.js' */

/** `K7QM-2XPD`: shown on the production's card for this cart, to compare before approving. */
function pairingCode() {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
  const chars = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => letters[byte % 32])
  return chars.slice(0, 4).join('') + '-' + chars.slice(4).join('')
}

/** @returns {import('./live.browser.js').Section} */
export function unitsSection() {
  const list = $('#units-list')
  /** @type {SyncStatus | null} */
  let status = null
  let conflictsKey = ''

  // ---- the link: a form while not linked, the link's state and Unlink once linked

  const url = el('input', {
    id: 'link-url',
    type: 'url',
    required: true,
    placeholder: 'the URL the production’s operator gave you',
    autocomplete: 'off',
  })
  const unit = el('input', { id: 'link-unit', required: true, maxlength: '100', placeholder: 'Second unit' })
  const linkButton = el('button', { type: 'submit', class: 'primary', text: 'Link' })
  const form = el(
    'form',
    { class: 'link-form', novalidate: true },
    el('label', { for: 'link-url', text: 'Production URL' }),
    url,
    el('label', { for: 'link-unit', text: 'This cart’s unit' }),
    unit,
    el('div', { class: 'actions' }, linkButton),
  )
  const heading = el('h3', { class: 'link-heading' })
  const meta = el('p', { class: 'meta link-state' })
  const refused = el('ul', { class: 'refused' })
  const unlink = el('button', { type: 'button', class: 'danger', text: 'Unlink' })
  const confirm = el('button', { type: 'button', class: 'danger-solid', text: 'Yes, unlink' })
  const keep = el('button', { type: 'button', class: 'quiet', text: 'Keep syncing' })
  const question = el(
    'div',
    { class: 'confirm', role: 'group', 'aria-label': 'Confirm unlinking', hidden: true },
    el('p', { text: 'Stop syncing with the production? Every day stays on this cart.' }),
    el('div', { class: 'actions' }, confirm, keep),
  )
  unlink.addEventListener('click', askFirst(unlink, question, confirm, keep))
  const linkCard = el(
    'li',
    { class: 'card link' },
    el('div', { class: 'who' }, heading, meta, refused),
    el('div', { class: 'actions' }, unlink),
    question,
    form,
  )
  const linkEntry = { node: linkCard, busy: false }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (linkEntry.busy) return
    setBusy(linkEntry, true)
    const code = pairingCode()
    linkButton.textContent = 'Waiting: approve the card showing ' + code + ' in the production’s console'
    const answer = await api('POST', '/approve/link', { url: url.value.trim(), unit: unit.value.trim(), code })
    setBusy(linkEntry, false)
    linkButton.textContent = 'Link'
    if (answer.status === 200) notify('Linked: this cart’s days now sync with the production.', 'ok')
    else notify('Not linked: ' + problemText(answer), 'error')
  })

  confirm.addEventListener('click', async () => {
    if (linkEntry.busy) return
    setBusy(linkEntry, true)
    const answer = await api('DELETE', '/approve/link')
    setBusy(linkEntry, false)
    question.hidden = true
    unlink.hidden = false
    if (answer.status === 200 || answer.status === 404) notify('Unlinked. Every day stays on this cart.', 'ok')
    else notify(problemText(answer), 'error')
  })

  /** @param {number} now */
  function drawLink(now) {
    if (!status) return
    const linked = status.linked
    form.hidden = linked || BASE !== ''
    unlink.hidden = !linked || !question.hidden
    if (linked) {
      heading.textContent = 'Linked to ' + status.production + ' as ' + status.unit
      const last = status.lastSync ? 'last sync ' + ago(status.lastSync, now) : 'not synced yet'
      const pending = status.pending
        ? status.pending + (status.pending === 1 ? ' day' : ' days') + ' waiting to go · '
        : ''
      meta.textContent = status.error
        ? 'Cannot sync: ' + status.error + ' · ' + pending + last
        : pending
          ? pending + last
          : 'In sync · ' + last
      meta.dataset.state = status.error ? 'error' : 'ok'
      const key = JSON.stringify(status.refused)
      if (refused.dataset.key !== key) {
        refused.dataset.key = key
        refused.replaceChildren(
          ...(status.refused || []).map((r) =>
            el('li', {
              text:
                r.id +
                ' set aside: ' +
                (r.way === 'push' ? 'the production refused it' : 'this cart refused it') +
                ' (' +
                r.error +
                '); it goes again once the day is written again.',
            }),
          ),
        )
      }
    } else {
      refused.replaceChildren()
      delete refused.dataset.key
    }
    if (linked) return
    if (BASE !== '') {
      heading.textContent = 'This is the production'
      meta.textContent =
        'Carts link to ' + location.origin + BASE + ' and appear under Connected applications, named by their unit.'
      delete meta.dataset.state
    } else {
      heading.textContent = 'Not linked to a production'
      meta.textContent = 'Link this cart to share its days with the production and the other units.'
      delete meta.dataset.state
    }
  }

  // ---- days in conflict: each version, and a button that keeps it

  /** @param {Conflict} conflict */
  function conflictCard(conflict) {
    const versions = conflict.versions.map((version) => {
      const said =
        (version.owner ? version.owner + "'s · " : '') +
        (version.deleted
          ? 'deleted'
          : [version.unit || 'no unit', 'day ' + version.day, version.date, version.clips + ' clips'].join(' · '))
      const shown = el('span', { text: said + (version.served ? ' (shown now)' : '') })
      if (!conflict.keptHere) return el('li', { class: 'version' }, shown)
      const button = el('button', {
        type: 'button',
        class: version.served ? 'quiet' : 'primary',
        text: 'Keep this one',
      })
      const entry = { node: button, busy: false }
      button.addEventListener('click', async () => {
        if (entry.busy) return
        setBusy(entry, true)
        const answer = await api('POST', '/approve/conflicts/' + encodeURIComponent(conflict.id), { keep: version.rev })
        setBusy(entry, false)
        if (answer.status === 200) notify(conflict.id + ': the version kept goes to every unit.', 'ok')
        else notify(conflict.id + ': ' + problemText(answer), 'error')
      })
      return el('li', { class: 'version' }, shown, button)
    })
    return el(
      'li',
      { class: 'card conflict', 'data-key': conflict.id },
      el(
        'div',
        { class: 'who' },
        el('h3', { text: conflict.id + ': ' + conflict.versions.length + ' versions' }),
        el('p', {
          class: 'meta',
          text: conflict.keptHere
            ? 'Written without seeing each other. Keep one; the others go on every unit.'
            : "Written without seeing each other; one version is another unit's, so the production's operator keeps one.",
        }),
        el('ul', { class: 'versions' }, versions),
      ),
    )
  }

  async function loadConflicts() {
    const key = conflictsKey
    const answer = /** @type {Answer<{conflicts: Conflict[]}>} */ (await api('GET', '/approve/conflicts'))
    if (answer.status !== 200 || key !== conflictsKey) return
    for (const node of Array.from(list.querySelectorAll('.card.conflict'))) node.remove()
    list.append(...answer.body.conflicts.map(conflictCard))
  }

  list.append(linkCard)
  return {
    id: 'units',
    render(state, now) {
      status = state.sync
      drawLink(now)
      showCount('units', status.conflicts.length, ['in conflict', 'in conflict'])
      $('#units-empty').hidden = true
      const key = JSON.stringify(status.conflicts)
      if (key !== conflictsKey) {
        conflictsKey = key
        if (status.conflicts.length) void loadConflicts()
        else for (const node of Array.from(list.querySelectorAll('.card.conflict'))) node.remove()
      }
    },
    tick(now) {
      drawLink(now)
    },
  }
}

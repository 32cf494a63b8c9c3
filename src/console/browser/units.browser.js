// @ts-check
/**
 * Page script: this service's link to its production, and the days whose versions are in
 * conflict, each version with a button that keeps it (docs/units.md).
 */
import { $, BASE, el, api, problemText, notify, ago, setBusy, showCount, askFirst } from './core.browser.js'
/** @import { Answer, Conflict, ConflictComparison, ConflictVersion, LinkCode, SyncStatus } from './state.js' */

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
  const linkCode = el('input', {
    id: 'link-code',
    required: true,
    maxlength: '40',
    placeholder: '7KQM-2XPD-R4TW-9HNC',
    autocomplete: 'off',
    spellcheck: 'false',
  })
  const linkButton = el('button', { type: 'submit', class: 'primary', text: 'Link' })
  const form = el(
    'form',
    { class: 'link-form', novalidate: true },
    el('label', { for: 'link-url', text: 'Production URL' }),
    url,
    el('label', { for: 'link-unit', text: 'This cart’s unit' }),
    unit,
    el('label', { for: 'link-code', text: 'Link code' }),
    linkCode,
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
    linkButton.textContent = 'Linking…'
    const answer = await api('POST', '/approve/link', {
      url: url.value.trim(),
      unit: unit.value.trim(),
      linkCode: linkCode.value.trim(),
    })
    setBusy(linkEntry, false)
    linkButton.textContent = 'Link'
    if (answer.status === 200) {
      linkCode.value = ''
      notify('Linked: this cart’s days now sync with the production.', 'ok')
    } else notify('Not linked: ' + problemText(answer), 'error')
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
          : (status.live ? 'In sync, live · ' : 'In sync · ') + last
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
        'Carts link to ' +
        location.origin +
        BASE +
        ' with a link code made below, and appear under Connected applications, named by their unit.'
      delete meta.dataset.state
    } else {
      heading.textContent = 'Not linked to a production'
      meta.textContent = 'Link this cart to share its days with the production and the other units.'
      delete meta.dataset.state
    }
  }

  // ---- a production's link codes: each admits one cart or application, named, once

  const codeName = el('input', { id: 'code-name', required: true, maxlength: '100', placeholder: 'Second unit' })
  const codeUnit = el('input', { id: 'code-unit', type: 'checkbox', checked: true })
  const makeButton = el('button', { type: 'submit', class: 'primary', text: 'Make a link code' })
  const codeForm = el(
    'form',
    { class: 'code-form', novalidate: true },
    el('label', { for: 'code-name', text: 'For' }),
    codeName,
    el('label', { class: 'check', for: 'code-unit' }, codeUnit, el('span', { text: 'a unit’s cart' })),
    el('div', { class: 'actions' }, makeButton),
  )
  const made = el('div', { class: 'made-code', role: 'status', hidden: true })
  const codeList = el('ul', { class: 'link-codes' })
  const codesCard = el(
    'li',
    { class: 'card link-codes-card', hidden: true },
    el(
      'div',
      { class: 'who' },
      el('h3', { text: 'Link codes' }),
      el('p', {
        class: 'meta',
        text: 'Carts and applications join this production with a code made here for them by name: it works once, within a day.',
      }),
      made,
      codeList,
    ),
    codeForm,
  )
  const codeEntry = { node: codesCard, busy: false }

  codeForm.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (codeEntry.busy) return
    setBusy(codeEntry, true)
    const name = codeName.value.trim()
    const answer = /** @type {Answer<LinkCode & {code: string}>} */ (
      await api('POST', '/approve/link-codes', { name, unit: codeUnit.checked })
    )
    setBusy(codeEntry, false)
    if (answer.status !== 201) return notify('No code made: ' + problemText(answer), 'error')
    const code = answer.body
    const command = code.unit
      ? 'npx media-log link ' + location.origin + BASE + ' --unit "' + code.name + '" --code ' + code.code
      : 'X-Link-Code: ' + code.code
    made.replaceChildren(
      el('p', { text: 'Link code for ' + code.name + ', shown this once:' }),
      el('p', { class: 'code', text: code.code }),
      el('p', {
        class: 'meta',
        text: code.unit
          ? 'Give it to the cart’s operator, who links in their console or with:'
          : 'The application sends it with its POST /auth:',
      }),
      el('code', { class: 'command', text: command }),
    )
    made.hidden = false
    codeName.value = ''
  })

  /** @param {LinkCode[]} codes @param {number} now */
  function drawCodes(codes, now) {
    const key = JSON.stringify(codes)
    if (codeList.dataset.key === key && codeList.dataset.minute === String(Math.floor(now / 60_000))) return
    codeList.dataset.key = key
    codeList.dataset.minute = String(Math.floor(now / 60_000))
    codeList.replaceChildren(
      ...codes.map((code) => {
        const withdraw = el('button', { type: 'button', class: 'quiet', text: 'Withdraw' })
        const entry = { node: withdraw, busy: false }
        withdraw.addEventListener('click', async () => {
          if (entry.busy) return
          setBusy(entry, true)
          const answer = await api('DELETE', '/approve/link-codes/' + encodeURIComponent(code.id))
          setBusy(entry, false)
          if (answer.status === 200 || answer.status === 404)
            notify('The code for ' + code.name + ' works no more.', 'ok')
          else notify(problemText(answer), 'error')
        })
        const hours = Math.max(0, Math.round((Date.parse(code.expiresAt) - now) / 3_600_000))
        const left =
          hours >= 1
            ? 'works for ' + hours + (hours === 1 ? ' more hour' : ' more hours')
            : 'works for less than an hour'
        return el(
          'li',
          { class: 'link-code' },
          el('span', {
            text: code.name + (code.unit ? ' · a unit’s cart' : ' · an application') + ' · unused, ' + left,
          }),
          withdraw,
        )
      }),
    )
  }

  // ---- days in conflict: each version side by side with the one shown, and a button that keeps it

  /** @param {ConflictVersion} version */
  const labelOf = (version) =>
    (version.owner ? version.owner + "'s · " : '') +
    (version.deleted
      ? 'deleted'
      : [version.unit || 'no unit', 'day ' + version.day, version.date, version.clips + ' clips'].join(' · '))

  /** @param {number} n @param {string} one @param {string} many */
  const counted = (n, one, many) => n + ' ' + (n === 1 ? one : many)

  /** @param {{count: number, listed: string[]}} listed */
  const named = ({ count, listed }) =>
    listed.slice(0, 3).join(', ') + (count > 3 ? ' and ' + counted(count - 3, 'other', 'others') : '')

  /** What a version holds against the one shown, in a line or two. @param {ConflictVersion} version */
  function differenceLines(version) {
    const lines = []
    if (version.volumes)
      lines.push(
        'Volumes: ' +
          (version.volumes.join(', ') || 'none') +
          (version.checks
            ? ' · checks: ' +
              [
                counted(version.checks.errors, 'error', 'errors'),
                counted(version.checks.warnings, 'warning', 'warnings'),
              ].join(', ')
            : ''),
      )
    const differs = version.differs
    if (differs) {
      const parts = []
      if (differs.added.count)
        parts.push(counted(differs.added.count, 'clip', 'clips') + ' more: ' + named(differs.added))
      if (differs.removed.count)
        parts.push(counted(differs.removed.count, 'clip', 'clips') + ' fewer: ' + named(differs.removed))
      if (differs.changed.count)
        parts.push(
          counted(differs.changed.count, 'clip', 'clips') +
            ' otherwise: ' +
            named({
              count: differs.changed.count,
              listed: differs.changed.listed.map(({ clip, what }) => clip + ' (' + what.join(', ') + ')'),
            }),
        )
      if (differs.volumes.added.length) parts.push('on ' + differs.volumes.added.join(', ') + ' as well')
      if (differs.volumes.removed.length) parts.push('not on ' + differs.volumes.removed.join(', '))
      lines.push('Against the one shown: ' + (parts.join('; ') || 'the same clips, copies and checksums'))
    }
    return lines.map((text) => el('p', { class: 'meta', text }))
  }

  /** @param {ConflictComparison} conflict */
  function conflictCard(conflict) {
    const versions = conflict.versions.map((version) => {
      const shown = el('span', { text: labelOf(version) + (version.served ? ' (shown now)' : '') })
      // The version's words in one column, its button beside them, the question under both.
      const said = el('div', { class: 'version-said' }, shown, ...differenceLines(version))
      if (!conflict.keptHere) return el('li', { class: 'version' }, said)
      const button = el('button', {
        type: 'button',
        class: version.served ? 'quiet' : 'primary',
        text: 'Keep this one',
      })
      const others = conflict.versions.filter((other) => other !== version).map(labelOf)
      const confirm = el('button', { type: 'button', class: 'danger-solid', text: 'Yes, keep it' })
      const cancel = el('button', { type: 'button', class: 'quiet', text: 'Cancel' })
      const question = el(
        'div',
        { class: 'confirm', role: 'group', 'aria-label': 'Confirm keeping this version', hidden: true },
        el('p', {
          text:
            'Keep ' +
            labelOf(version) +
            '? No longer served, here and on every unit once synced: ' +
            others.join('; ') +
            '.',
        }),
        el('div', { class: 'actions' }, confirm, cancel),
      )
      const entry = { node: confirm, busy: false }
      button.addEventListener('click', askFirst(button, question, confirm, cancel))
      confirm.addEventListener('click', async () => {
        if (entry.busy) return
        setBusy(entry, true)
        const answer = await api('POST', '/approve/conflicts/' + encodeURIComponent(conflict.id), { keep: version.rev })
        setBusy(entry, false)
        if (answer.status === 200) notify(conflict.id + ': the version kept goes to every unit.', 'ok')
        else notify(conflict.id + ': ' + problemText(answer), 'error')
      })
      return el('li', { class: 'version' }, said, button, question)
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
            ? 'Written without seeing each other. Compare them and keep one; the others go on every unit.'
            : "Written without seeing each other; one version is another unit's, so the production's operator keeps one.",
        }),
        el('ul', { class: 'versions' }, versions),
      ),
    )
  }

  /** The days in conflict, each compared version by version (GET /approve/conflicts/{id}). */
  async function loadConflicts() {
    const key = conflictsKey
    const answer = /** @type {Answer<{conflicts: Conflict[]}>} */ (await api('GET', '/approve/conflicts'))
    if (answer.status !== 200 || key !== conflictsKey) return
    const cards = []
    for (const conflict of answer.body.conflicts) {
      const compared = /** @type {Answer<ConflictComparison>} */ (
        await api('GET', '/approve/conflicts/' + encodeURIComponent(conflict.id))
      )
      if (key !== conflictsKey) return
      // Without its comparison a conflict still shows, and can still be resolved.
      cards.push(conflictCard(compared.status === 200 ? compared.body : conflict))
    }
    for (const node of Array.from(list.querySelectorAll('.card.conflict'))) node.remove()
    list.append(...cards)
  }

  list.append(linkCard, codesCard)
  /** @type {LinkCode[] | undefined} */
  let codes
  return {
    id: 'units',
    render(state, now) {
      status = state.sync
      codes = state.linkCodes
      codesCard.hidden = codes === undefined
      if (codes) drawCodes(codes, now)
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
      if (codes) drawCodes(codes, now)
    },
  }
}

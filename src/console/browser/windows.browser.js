// @ts-check
/**
 * Page script: the e-mail send windows (SPEC §9). Each is a draft the operator edits (saved as
 * they type), checks in the preview, then sends, downloads as .eml, opens in the mail app or
 * discards. A field being typed in is never overwritten by the live state.
 *
 * A window follows its days' logs (SPEC §11): the live state brings it again whenever they are
 * written, and it says what changed since the operator last looked. Send names the message shown
 * (its fingerprint); when the service finds it changed meanwhile it sends nothing and answers with
 * the window as it is now, which is shown and asked about again.
 *
 * This module lays a window's card out and keeps the list; its parts are their own modules:
 * the fields (window-fields), the attachments (window-attachments), the preview with the checks
 * (window-preview) and the actions (window-actions).
 */
import { $, el, dayAndTime, shortTime, keyedList } from './core.browser.js'
import { failureText } from './window-card.browser.js'
import { windowActions } from './window-actions.browser.js'
import { windowAttachments } from './window-attachments.browser.js'
import { windowFields } from './window-fields.browser.js'
import { windowPreview } from './window-preview.browser.js'
/** @import { SendWindow } from './state.js' */
/** @import { WindowCard } from './window-card.browser.js' */

/** @param {SendWindow} w */
function daysOf(w) {
  return w.days && w.days.length ? w.days.join(', ') : 'Log ' + w.logIds.join(', ')
}

/** A window whose logs were deleted or renamed cannot be sent. @param {string[]} ids */
function missingText(ids) {
  return (
    (ids.length === 1 ? 'Log ' + ids[0] + ' no longer exists' : 'Logs ' + ids.join(', ') + ' no longer exist') +
    ' (deleted or renamed): this e-mail cannot be sent. Discard it and open a new one.'
  )
}

/** @param {SendWindow} w */
function statusText(w) {
  if (w.status === 'sent') return 'Sent ' + (w.sentAt ? shortTime(w.sentAt) : '')
  if (w.status === 'sending') return 'Sending…'
  if (w.status === 'failed') return 'Not sent'
  return 'Draft'
}

/**
 * A window just opened from the console, to bring into view once the live state lists it; given
 * up after a few seconds, so that a window that never came cannot take the page from the operator
 * later. @type {{id: string, until: number} | null}
 */
let toReveal = null

/**
 * Brings the window into view and puts the keyboard on its recipients, now or when it arrives
 * (the live state that lists it may come a moment after the answer that opened it).
 * @param {string} id
 */
export function revealWindow(id) {
  toReveal = { id, until: Date.now() + 5000 }
  reveal()
}

function reveal() {
  if (toReveal === null) return
  if (Date.now() > toReveal.until) {
    toReveal = null
    return
  }
  const node = document.querySelector('#windows-list > li[data-key="' + CSS.escape(toReveal.id) + '"]')
  if (!(node instanceof HTMLElement)) return
  const recipients = document.getElementById('window-' + toReveal.id + '-recipients')
  toReveal = null
  node.scrollIntoView({
    block: 'start',
    behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
  })
  if (recipients) recipients.focus({ preventScroll: true })
}

/** @returns {import('./live.browser.js').Section} */
export function windowsSection() {
  /** Discarded here but maybe still in a state answer that was already on its way. @type {Set<string>} */
  const discarded = new Set()
  /** @type {SendWindow[]} */
  let windows = []

  /** @param {SendWindow} w @returns {WindowCard} */
  function create(w) {
    const base = 'window-' + w.id
    const title = el('h3', { class: 'window-title', id: base + '-title' })
    const meta = el('p', { class: 'meta' })
    const badge = el('span', { class: 'badge status' })
    const problem = el('p', { class: 'window-problem', role: 'alert', hidden: true })
    const node = el('li', { class: 'card window', 'aria-labelledby': base + '-title' })

    /** @type {WindowCard} */
    const card = {
      node,
      base,
      window: w,
      busy: false,
      show,
      gone: () => discarded.has(card.window.id),
    }
    const fields = windowFields(card)
    const attachments = windowAttachments(card)
    const preview = windowPreview(card)
    const actions = windowActions(card, fields, () => {
      discarded.add(card.window.id)
      render()
    })

    node.append(
      el('div', { class: 'window-head' }, el('div', { class: 'who' }, title, meta), badge),
      problem,
      preview.updated,
      el(
        'div',
        { class: 'window-body' },
        el('div', { class: 'fields' }, fields.nodes, attachments.node),
        preview.preview,
      ),
      preview.checks,
      el('div', { class: 'window-foot' }, actions.delivery, fields.saveState, actions.buttons),
      actions.sendQuestion,
      actions.discardQuestion,
    )

    /** @param {SendWindow} w */
    function show(w) {
      card.window = w
      title.textContent = w.project + ' — ' + daysOf(w)
      meta.textContent =
        (w.presetLabel ? 'E-mail preset “' + w.presetLabel + '”' : 'No e-mail preset') +
        ' · opened ' +
        dayAndTime(w.createdAt, Date.now())
      node.dataset.status = w.status
      badge.textContent = statusText(w)
      badge.dataset.status = w.status
      const missing = w.missingLogs.length ? missingText(w.missingLogs) : ''
      problem.hidden = !missing && (w.status !== 'failed' || !w.error)
      problem.textContent = missing || (w.error ? failureText(w.error) : '')
      actions.update(w)
      fields.update(w)
      preview.update(w)
      attachments.update(w)
    }
    return card
  }

  const cards = keyedList(
    $('#windows-list'),
    (/** @type {SendWindow} */ w) => w.id,
    create,
    (card, w) => card.show(w),
  )

  function render() {
    const shown = windows.filter((w) => !discarded.has(w.id))
    cards.sync(shown)
    const waiting = shown.filter((w) => w.status !== 'sent').length
    $('#windows-empty').hidden = shown.length > 0
    $('#windows-count').textContent = waiting ? waiting + ' to send' : ''
    reveal()
  }

  return {
    id: 'windows',
    render(state) {
      windows = state.windows
      for (const id of Array.from(discarded)) if (!windows.some((w) => w.id === id)) discarded.delete(id)
      render()
    },
  }
}

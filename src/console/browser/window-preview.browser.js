// @ts-check
/**
 * Page script: what a send window shows the operator before they send. The message as
 * recipients will see it (a sandboxed frame), the days' checks, and what changed in its logs since
 * the operator last looked, until they say "Got it".
 */
import { $, el, notify, setBusy } from './core.browser.js'
import { countOf, pathOf, windowCall, windowProblem, withDays } from './window-card.browser.js'
/** @import { SendWindow, WindowChecks } from './state.js' */
/** @import { WindowCard } from './window-card.browser.js' */

/**
 * The preview, the checks and the "updated" notice of one window's card.
 * @param {WindowCard} card
 */
export function windowPreview(card) {
  const { base } = card
  const seen = el('button', { type: 'button', class: 'quiet seen', text: 'Got it' })
  const updatedText = el('p', { class: 'window-updated-text' })
  const updated = el('div', { class: 'window-updated', role: 'status', hidden: true }, updatedText, seen)
  const bodyNote = el('p', { class: 'field-hint body-note', hidden: true })
  const frame = el('iframe', {
    class: 'preview-frame',
    sandbox: true,
    referrerpolicy: 'no-referrer',
    title: 'Preview of the e-mail as recipients see it',
  })
  const preview = el('div', { class: 'preview' }, el('p', { class: 'label', text: 'Preview' }), bodyNote, frame)
  const checksTitle = el('h4', { class: 'checks-title', id: base + '-checks' })
  const checksDays = el('ul', { class: 'checks-days' })
  const checks = el(
    'section',
    { class: 'window-checks', 'aria-labelledby': base + '-checks', hidden: true },
    checksTitle,
    checksDays,
  )
  /** The HTML the frame shows: set again only when it changed, so the frame does not reload. @type {string | null} */
  let previewHtml = null

  /** The days' checks above Send: a green line when nothing was found, else each day's lines. @param {WindowChecks | null} found */
  function showChecks(found) {
    checks.hidden = !found
    if (!found) return
    const counts = [
      found.errors && countOf(found.errors, 'error'),
      found.warnings && countOf(found.warnings, 'warning'),
      found.info && countOf(found.info, 'note'),
    ].filter(Boolean)
    checks.dataset.state = found.errors ? 'errors' : found.warnings ? 'warnings' : 'clear'
    checksTitle.textContent = counts.length ? 'Checks: ' + counts.join(' · ') : 'Checks: nothing found'
    checksDays.replaceChildren(
      ...found.days.map((day) =>
        el(
          'li',
          { class: 'checks-day' },
          el('span', { class: 'checks-day-title', text: day.title }),
          el('ul', { class: 'checks-lines' }, ...day.lines.map((line) => el('li', { text: line }))),
        ),
      ),
    )
  }

  /** "Got it": the operator has looked at the window as shown; it no longer says it was updated. */
  async function markSeen() {
    if (card.busy) return
    setBusy(card, true)
    const answer = await windowCall('PATCH', pathOf(card.window), { seen: card.window.fingerprint })
    setBusy(card, false)
    // 409: it changed again meanwhile; the answer shows it, still marked as updated.
    if (answer.status === 200 || (answer.status === 409 && answer.body.window))
      card.show(withDays(card, answer.body.window))
    else notify(windowProblem(answer), 'error')
    // "Got it" is gone now: the keyboard goes on to the window's main action.
    if (answer.status === 200) {
      const send = $('button.send', card.node)
      ;(send.disabled || send.hidden ? $('.eml', card.node) : send).focus()
    }
  }
  seen.addEventListener('click', markSeen)

  return {
    updated,
    preview,
    checks,
    /** @param {SendWindow} w */
    update(w) {
      updated.hidden = !w.updated
      updatedText.textContent = w.updated ? w.updated.text : ''
      if (previewHtml !== w.preview.html) {
        previewHtml = w.preview.html
        frame.srcdoc = w.preview.html
      }
      bodyNote.hidden = !w.bodyNote
      bodyNote.textContent = w.bodyNote || ''
      showChecks(w.checks)
    },
  }
}

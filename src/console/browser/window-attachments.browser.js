// @ts-check
/**
 * Page script: a send window's PDF attachments. Each can be downloaded as it would be sent, or
 * removed; the picker attaches another of the project's PDF presets.
 */
import { $, el, download, problemText, notify, keyedList, setBusy } from './core.browser.js'
import { detailsText, locked, pathOf, windowCall, windowProblem, withDays } from './window-card.browser.js'
/** @import { SendWindow, WindowAttachment } from './state.js' */
/** @import { WindowCard } from './window-card.browser.js' */

/** @typedef {{node: HTMLLIElement, attachment: WindowAttachment}} AttachmentEntry */

/**
 * The attachments field of one window's card.
 * @param {WindowCard} card
 */
export function windowAttachments(card) {
  const list = el('ul', { class: 'attachments' })
  const none = el('p', { class: 'no-attachments field-hint', text: 'No PDF report attached.' })
  const picker = el('select', { class: 'add-attachment', 'aria-label': 'Attach a PDF report' })
  const error = el('p', {
    class: 'field-error attachments-error',
    id: card.base + '-attachments-error',
    role: 'alert',
    hidden: true,
  })
  const node = el(
    'div',
    { class: 'field' },
    el('p', { class: 'label', text: 'Attachments' }),
    list,
    none,
    picker,
    error,
  )

  const attachments = keyedList(
    list,
    (/** @type {WindowAttachment} */ a) => a.presetId,
    create,
    (entry, a) => {
      entry.attachment = a
      $('.attachment-name', entry.node).textContent = a.filename
      $('.attachment-label', entry.node).textContent = a.note ? a.label + ' · ' + a.note : a.label
      $('.remove-attachment', entry.node).hidden = locked(card.window)
      $('.remove-attachment', entry.node).setAttribute('aria-label', 'Remove ' + a.filename)
      $('.attachment-name', entry.node).setAttribute('aria-label', 'Download ' + a.filename)
    },
  )

  /** @param {WindowAttachment} a @returns {AttachmentEntry} */
  function create(a) {
    const name = el('button', { type: 'button', class: 'link attachment-name' })
    const remove = el('button', { type: 'button', class: 'quiet remove-attachment', text: 'Remove' })
    /** @type {AttachmentEntry} */
    const entry = {
      node: el(
        'li',
        { class: 'attachment' },
        el('span', { class: 'file-icon', 'aria-hidden': 'true', text: 'PDF' }),
        el('span', { class: 'attachment-text' }, name, el('span', { class: 'attachment-label' })),
        remove,
      ),
      attachment: a,
    }
    name.addEventListener('click', async () => {
      const answer = await download(entry.attachment.url, entry.attachment.filename)
      if (answer.status !== 200) notify(entry.attachment.filename + ': ' + problemText(answer), 'error')
    })
    remove.addEventListener('click', () =>
      change(card.window.attachments.map((x) => x.presetId).filter((id) => id !== entry.attachment.presetId)),
    )
    return entry
  }

  /** The attachments' problem in words under them; empty text clears it. @param {string} text */
  function showError(text) {
    error.textContent = text
    error.hidden = !text
  }

  /** @param {string[]} presetIds */
  async function change(presetIds) {
    if (card.busy) return
    setBusy(card, true)
    const answer = await windowCall('PATCH', pathOf(card.window), { attachments: presetIds })
    setBusy(card, false)
    if (answer.status === 200) {
      showError('')
      card.show(withDays(card, answer.body.window))
      // The removed attachment had focus: keep it in the attachments, not at the section's top.
      if (!card.node.contains(document.activeElement)) picker.focus()
    } else showError(answer.status === 400 ? detailsText('attachments', answer.body.details) : windowProblem(answer))
  }

  picker.addEventListener('change', () => {
    const presetId = picker.value
    picker.value = ''
    if (presetId) change(card.window.attachments.map((a) => a.presetId).concat([presetId]))
  })

  return {
    node,
    /** @param {SendWindow} w */
    update(w) {
      attachments.sync(w.attachments)
      none.hidden = w.attachments.length > 0
      const attached = new Set(w.attachments.map((a) => a.presetId))
      const offered = w.pdfPresets.filter((p) => !attached.has(p.id))
      const options = [
        el('option', { value: '', text: offered.length ? 'Attach a PDF report…' : 'All PDF reports are attached' }),
      ].concat(offered.map((p) => el('option', { value: p.id, text: p.label })))
      const signature = offered.map((p) => p.id + '=' + p.label).join('|')
      if (picker.dataset.offered !== signature || picker.options.length === 0) {
        picker.replaceChildren(...options)
        picker.dataset.offered = signature
      }
      picker.hidden = locked(w) || w.pdfPresets.length === 0
      picker.disabled = offered.length === 0
    },
  }
}

// @ts-check
/**
 * Page script: a send window's editable fields (recipients, subject, message). Edits are saved
 * as the operator types, one PATCH per field, so a bad address never holds back the subject; each
 * field's problem shows under it and the save state beside Send. A field being typed in is never
 * overwritten by the live state.
 */
import { el } from './core.browser.js'
import { detailsText, locked, pathOf, windowCall, windowProblem, withDays } from './window-card.browser.js'
/** @import { SendWindow } from './state.js' */
/** @import { WindowCard } from './window-card.browser.js' */

// Typing pauses this long before a draft is saved; leaving the field saves at once.
const SAVE_DELAY_MS = 700

/** @typedef {'recipients' | 'subject' | 'message'} FieldName */
/** @type {FieldName[]} */
const FIELDS = ['recipients', 'subject', 'message']

const SAVE_WORDS = {
  unsaved: 'Unsaved changes…',
  saving: 'Saving…',
  saved: 'Draft saved',
  problem: 'Not saved: see the problem above',
  none: '',
}

/** @param {string} text */
const addressesIn = (text) => text.split(/[\s,;]+/).filter(Boolean)
/** @param {FieldName} name @param {string} text */
const valueFor = (name, text) => (name === 'recipients' ? addressesIn(text) : text)
/** @param {FieldName} name @param {SendWindow} w */
const textOf = (name, w) => (name === 'recipients' ? w.recipients.join(', ') : w[name])

/** @typedef {ReturnType<typeof windowFields>} WindowFields */

/**
 * The fields of one window's card.
 * @param {WindowCard} card
 */
export function windowFields(card) {
  const { base } = card
  // A text area, so that a long list of addresses wraps instead of scrolling out of sight.
  const recipients = el('textarea', {
    id: base + '-recipients',
    class: 'recipients',
    rows: 2,
    autocomplete: 'off',
    spellcheck: 'false',
    inputmode: 'email',
    'aria-describedby': base + '-recipients-hint ' + base + '-recipients-error',
  })
  const subject = el('input', {
    id: base + '-subject',
    class: 'subject',
    type: 'text',
    'aria-describedby': base + '-subject-error',
  })
  const message = el('textarea', {
    id: base + '-message',
    class: 'message',
    rows: 7,
    'aria-describedby': base + '-message-error',
  })
  /** @type {Record<FieldName, HTMLInputElement | HTMLTextAreaElement>} */
  const inputs = { recipients, subject, message }
  /** @type {Record<FieldName, HTMLParagraphElement>} */
  const errors = {
    recipients: errorLine('recipients'),
    subject: errorLine('subject'),
    message: errorLine('message'),
  }
  const saveState = el('p', { class: 'save-state', role: 'status' })

  /** Edited and not saved yet. @type {Set<FieldName>} */
  const dirty = new Set()
  /** @type {number | undefined} */
  let timer
  /** The PATCH on its way, if one is. @type {ReturnType<typeof windowCall> | null} */
  let saving = null
  let saveProblem = false

  /** @param {FieldName} name */
  function errorLine(name) {
    return el('p', { class: 'field-error', id: base + '-' + name + '-error', role: 'alert', hidden: true })
  }

  /** @param {FieldName} name @param {string} label @param {string} [hint] */
  const field = (name, label, hint) =>
    el(
      'div',
      { class: 'field' },
      el('label', { for: base + '-' + name, text: label }),
      inputs[name],
      hint ? el('p', { class: 'field-hint', id: base + '-' + name + '-hint', text: hint }) : null,
      errors[name],
    )

  /** @param {keyof typeof SAVE_WORDS} kind */
  function showSaveState(kind) {
    saveState.textContent = SAVE_WORDS[kind]
    saveState.dataset.state = kind
  }

  /** A field's problem in words under it; empty text clears it. @param {FieldName} name @param {string} text */
  function fieldError(name, text) {
    errors[name].textContent = text
    errors[name].hidden = !text
    if (text) inputs[name].setAttribute('aria-invalid', 'true')
    else inputs[name].removeAttribute('aria-invalid')
  }

  /** Saves every edited field, one PATCH each; false when one was refused. */
  async function save() {
    clearTimeout(timer)
    timer = undefined
    while (saving) await saving
    const names = FIELDS.filter((name) => dirty.has(name))
    if (!names.length) return !saveProblem
    let ok = true
    saveProblem = false
    showSaveState('saving')
    for (const name of names) {
      const text = inputs[name].value
      const value = valueFor(name, text)
      saving = windowCall('PATCH', pathOf(card.window), { [name]: value })
      const answer = await saving
      saving = null
      if (answer.status === 200) {
        if (inputs[name].value === text) dirty.delete(name)
        fieldError(name, '')
        if (!card.gone()) card.show(withDays(card, answer.body.window))
      } else {
        ok = false
        fieldError(
          name,
          answer.status === 400
            ? detailsText(name, answer.body.details, Array.isArray(value) ? value : null)
            : windowProblem(answer),
        )
      }
    }
    saveProblem = !ok
    showSaveState(ok ? (dirty.size ? 'unsaved' : 'saved') : 'problem')
    return ok
  }

  for (const name of FIELDS) {
    const input = inputs[name]
    input.addEventListener('input', () => {
      dirty.add(name)
      showSaveState('unsaved')
      clearTimeout(timer)
      // An address half typed is not worth an error: recipients are saved on leaving the field.
      if (name !== 'recipients') timer = setTimeout(save, SAVE_DELAY_MS)
    })
    input.addEventListener('change', save)
  }
  recipients.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault()
      save()
    }
  })

  return {
    nodes: [
      field('recipients', 'To', 'Separate addresses with commas. Enter or leaving the field saves them.'),
      field('subject', 'Subject'),
      field('message', 'Message'),
    ],
    /** The save state, shown beside Send. */
    saveState,
    save,
    /** Edits wait to be saved. */
    edited: () => dirty.size > 0,
    /** The card is going: a save waiting for a pause in typing is dropped. */
    stop: () => clearTimeout(timer),
    /** @param {SendWindow} w */
    update(w) {
      for (const name of FIELDS) {
        const input = inputs[name]
        input.readOnly = locked(w)
        // Never under the operator's fingers: a focused or edited field keeps what they typed.
        if (document.activeElement !== input && !dirty.has(name)) {
          const text = textOf(name, w)
          if (input.value !== text) input.value = text
        }
      }
      if (!dirty.size && !saving && !saveProblem) showSaveState(w.status === 'sent' ? 'none' : 'saved')
    },
  }
}

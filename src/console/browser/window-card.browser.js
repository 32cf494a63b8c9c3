// @ts-check
/**
 * Page script: what the parts of a send window's card share (windows.browser.js puts them
 * together): the card, the window's address on the service, and its problems in words.
 */
import { api, problemText } from './core.browser.js'
/** @import { Answer, Problem, SendWindow } from './state.js' */

/**
 * One send window's card. Its parts (fields, attachments, preview, actions) each keep their own
 * nodes and state; they share the window as last shown, and redraw the whole card through `show`
 * when an answer brings the window as it is now.
 * @typedef {object} WindowCard
 * @property {HTMLLIElement} node
 * @property {string} base The start of its parts' ids: `window-<id>`.
 * @property {SendWindow} window The window as last shown.
 * @property {boolean} busy A call about it is running (see setBusy).
 * @property {(w: SendWindow) => void} show Redraws every part from `w`.
 * @property {() => boolean} gone Discarded here: an answer still on its way no longer redraws it.
 */

/** @typedef {'recipients' | 'subject' | 'message' | 'attachments'} PartName */

/** What names each part of a window in a refused edit's details. @type {Map<string, string>} */
const FIELD_NAMES = new Map([
  ['recipients', 'Recipients'],
  ['subject', 'The subject'],
  ['message', 'The message'],
  ['attachments', 'Attachments'],
])

/** @param {SendWindow} w */
export const pathOf = (w) => '/approve/windows/' + encodeURIComponent(w.id)

/**
 * A call about one window, answered (when it succeeds, and by a refused send or "seen" whose
 * message changed) with the window as it reads now.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
export const windowCall = (method, path, body) =>
  /** @type {Promise<Answer<{window: SendWindow}>>} */ (api(method, path, body))

/** Being sent or sent: nothing of it can change. @param {SendWindow} w */
export const locked = (w) => w.status === 'sending' || w.status === 'sent'

/** Merges an answer's window with what only the live state carries (the days). */
export const withDays = (/** @type {WindowCard} */ card, /** @type {SendWindow} */ w) =>
  Object.assign({}, w, { days: card.window.days })

/** `3 errors`, `1 warning`. @param {number} n @param {string} noun */
export const countOf = (n, noun) => n.toLocaleString('en-US') + ' ' + noun + (n === 1 ? '' : 's')

/** @param {string} text */
export const sentence = (text) => text + (/[.!?]$/.test(text) ? '' : '.')

/** @param {string} error */
export const failureText = (error) =>
  'Not sent: ' + sentence(error) + ' The draft is kept: fix what it says and send again, or download the .eml.'

/** Answers that are not about one field, in words. @param {Answer} answer */
export function windowProblem(answer) {
  if (answer.status === 404) return 'This e-mail is gone: it was discarded in another tab or by a script.'
  return problemText(answer)
}

/**
 * Validation details of a PATCH as sentences: a bad address is quoted back as it was typed.
 * @param {PartName} name the part that was sent
 * @param {Problem['details']} details
 * @param {string[] | null} [sent] the addresses sent, for recipients
 */
export function detailsText(name, details, sent) {
  return (details || [])
    .map((d) => {
      const entry = /^recipients\.(\d+)$/.exec(d.prop)
      if (entry && sent) return '“' + sent[Number(entry[1])] + '” ' + d.message + '.'
      return (FIELD_NAMES.get(d.prop) || FIELD_NAMES.get(name)) + ' ' + d.message + '.'
    })
    .join(' ')
}

// @ts-check
/**
 * Page script: what the operator does with a send window. Send names the message shown (its
 * fingerprint); when the service finds it changed meanwhile, or the days' checks found errors, it
 * is sent only when asked a second time, and the answer sends the message the question was about.
 * Download .eml and Open in mail app take the saved draft; Discard asks first (Close, once sent).
 */
import { $, el, api, download, notify, setBusy, askFirst } from './core.browser.js'
import {
  countOf,
  failureText,
  locked,
  pathOf,
  sentence,
  windowCall,
  windowProblem,
  withDays,
} from './window-card.browser.js'
/** @import { SendWindow, WindowChecks } from './state.js' */
/** @import { WindowCard } from './window-card.browser.js' */
/** @import { WindowFields } from './window-fields.browser.js' */

/**
 * `2 errors: Missing copies (1), Hashes that disagree (1)`: how many, and of which kinds.
 * @param {WindowChecks} checks
 */
function errorsOf(checks) {
  const kinds = (checks.kinds || []).filter((k) => k.severity === 'error')
  return (
    countOf(checks.errors, 'error') +
    (kinds.length ? ': ' + kinds.map((k) => k.title + ' (' + k.count.toLocaleString('en-US') + ')').join(', ') : '')
  )
}

/**
 * The delivery line, the buttons and the questions of one window's card.
 * @param {WindowCard} card
 * @param {WindowFields} fields its edits, saved before anything leaves
 * @param {() => void} discarded the window is gone: the section drops its card
 */
export function windowActions(card, fields, discarded) {
  const send = el('button', {
    type: 'button',
    class: 'primary send',
    text: 'Send',
    'aria-describedby': card.base + '-delivery',
  })
  const eml = el('button', { type: 'button', class: 'eml', text: 'Download .eml' })
  const mailApp = el('a', {
    class: 'button mail-app',
    href: card.window.mailto,
    text: 'Open in mail app',
    title: 'Opens your mail app with recipients, subject and text. Attach the PDFs there yourself.',
  })
  const discard = el('button', { type: 'button', class: 'danger discard', text: 'Discard' })
  const confirm = el('button', { type: 'button', class: 'danger-solid confirm-discard', text: 'Yes, discard' })
  const keep = el('button', { type: 'button', class: 'quiet keep', text: 'Keep it' })
  const sendAnyway = el('button', { type: 'button', class: 'primary send-anyway', text: 'Send anyway' })
  const notYet = el('button', { type: 'button', class: 'quiet not-yet', text: 'Not yet' })
  const sendQuestionText = el('p', { class: 'confirm-send-text' })
  const sendQuestion = el(
    'div',
    { class: 'confirm confirm-send', role: 'group', 'aria-label': 'Confirm sending despite errors', hidden: true },
    sendQuestionText,
    el('div', { class: 'actions' }, sendAnyway, notYet),
  )
  const discardQuestion = el(
    'div',
    { class: 'confirm', role: 'group', 'aria-label': 'Confirm discarding this e-mail', hidden: true },
    el('p', { text: 'Discard this e-mail? The draft and your edits are deleted; the logs and reports stay.' }),
    el('div', { class: 'actions' }, confirm, keep),
  )
  const delivery = el('p', { class: 'delivery', id: card.base + '-delivery' })

  /** The fingerprint of the message the send question is about. */
  let asked = ''
  const askSend = askFirst(send, sendQuestion, sendAnyway, notYet)
  const askDiscard = askFirst(discard, discardQuestion, confirm, keep)

  /**
   * Asks before sending: `changed` when the message differs from what was shown (nothing was sent),
   * `errors` when the days' checks found errors, named by count and kind. The answer sends the
   * message asked about, by its fingerprint.
   * @param {'changed' | 'errors'} why
   */
  function ask(why) {
    const w = card.window
    const errors = w.checks && w.checks.errors ? errorsOf(w.checks) : ''
    sendQuestion.setAttribute(
      'aria-label',
      why === 'changed' ? 'Confirm sending the changed e-mail' : 'Confirm sending despite errors',
    )
    sendQuestionText.textContent =
      why === 'changed'
        ? 'This e-mail changed since you looked at it, so nothing was sent. ' +
          (errors
            ? 'The checks now find ' + errors + '. Send this version anyway?'
            : 'Look it over above, then send this version?')
        : 'The checks of these days found ' + errors + '. Send this e-mail anyway?'
    sendAnyway.textContent = errors ? 'Send anyway' : 'Send this version'
    asked = w.fingerprint
    askSend()
  }

  /** Send: the edits saved first; asks when the day moved meanwhile or the checks found errors. */
  async function trySend() {
    if (card.busy) return
    const shown = card.window.version
    if (!(await fields.save())) {
      notify('Not sent: fix the problem shown in the e-mail first.', 'error')
      return
    }
    // Saving answered with the window as it is now: a day written meanwhile was never looked at.
    if (card.window.version !== shown) ask('changed')
    else if (card.window.checks?.errors) ask('errors')
    else sendWindow(card.window.fingerprint)
  }

  /** @param {string} fingerprint the message to send, as it was shown */
  async function sendWindow(fingerprint) {
    if (card.busy) return
    setBusy(card, true)
    if (!(await fields.save())) {
      setBusy(card, false)
      notify('Not sent: fix the problem shown in the e-mail first.', 'error')
      return
    }
    const before = card.window
    card.show(Object.assign({}, before, { status: /** @type {const} */ ('sending'), error: null }))
    const answer = await windowCall('POST', pathOf(before) + '/send', { fingerprint })
    setBusy(card, false)
    if (answer.status === 200) {
      card.show(withDays(card, answer.body.window))
      notify('The e-mail “' + answer.body.window.subject + '” is sent.', 'ok')
      return
    }
    // The message changed since it was shown: the service sent nothing; show it as it is, ask again.
    if (answer.status === 409 && answer.body.window) {
      card.show(withDays(card, answer.body.window))
      ask('changed')
      return
    }
    // The service keeps the draft with the reason (the live state brings it too); say it now.
    const reason = windowProblem(answer)
    if (card.window.status === 'sending') card.show(before)
    const problem = $('.window-problem', card.node)
    problem.textContent = failureText(reason)
    problem.hidden = false
    notify('Not sent: ' + sentence(reason), 'error')
  }

  async function downloadEml() {
    if (card.busy) return
    if (!(await fields.save())) {
      notify('Fix the problem shown in the e-mail first: the .eml holds what is saved.', 'error')
      return
    }
    const answer = await download(card.window.emlUrl, 'message.eml')
    if (answer.status !== 200) notify('The .eml could not be made: ' + windowProblem(answer), 'error')
  }

  async function discardWindow() {
    if (card.busy) return
    const sent = card.window.status === 'sent'
    setBusy(card, true)
    fields.stop()
    const answer = await api('DELETE', pathOf(card.window))
    if (answer.status === 200 || answer.status === 404) {
      if (!sent) notify('The e-mail “' + card.window.subject + '” was discarded.', 'ok')
      discarded()
      return
    }
    setBusy(card, false)
    notify(windowProblem(answer), 'error')
  }

  send.addEventListener('click', trySend)
  sendAnyway.addEventListener('click', () => {
    sendQuestion.hidden = true
    send.hidden = false
    sendWindow(asked)
  })
  eml.addEventListener('click', downloadEml)
  mailApp.addEventListener('click', (event) => {
    if (!fields.edited()) return
    // The link carries what the service last saved: save the edits first, then follow it.
    event.preventDefault()
    fields.save().then((ok) => {
      if (ok) location.href = card.window.mailto
    })
  })
  // A sent message's window goes at once: nothing unsent is lost.
  discard.addEventListener('click', () => (card.window.status === 'sent' ? discardWindow() : askDiscard()))
  confirm.addEventListener('click', discardWindow)

  return {
    delivery,
    buttons: el('div', { class: 'actions' }, send, eml, mailApp, discard),
    sendQuestion,
    discardQuestion,
    /** @param {SendWindow} w */
    update(w) {
      // A question is about the message as it was asked: once that changed, Send asks anew.
      if (!sendQuestion.hidden && w.fingerprint !== asked && w.status !== 'sending') {
        sendQuestion.hidden = true
        send.hidden = false
      }
      const canSend = w.delivery.configured && !locked(w) && !w.missingLogs.length
      send.disabled = !canSend
      send.textContent = w.status === 'failed' ? 'Send again' : 'Send'
      // While "Send anyway?" is open, the question stands in for the button.
      send.hidden = w.status === 'sent' || !sendQuestion.hidden
      delivery.classList.toggle('off', !w.delivery.configured)
      delivery.textContent =
        w.status === 'sent'
          ? 'Sent to ' + w.recipients.join(', ') + '.'
          : !w.delivery.configured
            ? 'Send is off: ' +
              (w.delivery.problem
                ? w.delivery.problem + '.'
                : 'no e-mail provider is set up (EMAIL_PROVIDER in .dev.vars).') +
              ' Download the .eml and open it in your mail app instead.'
            : 'Sends as ' + (w.delivery.from || 'the configured sender') + '.'
      // Without a provider the .eml is the way to send: it becomes the main button.
      eml.classList.toggle('primary', !w.delivery.configured && w.status !== 'sent')
      mailApp.href = w.mailto
      mailApp.hidden = w.status === 'sent'
      discard.textContent = w.status === 'sent' ? 'Close' : 'Discard'
      discard.hidden = w.status === 'sending' || !discardQuestion.hidden
    },
  }
}

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
 */
import {
  $,
  el,
  api,
  download,
  problemText,
  notify,
  dayAndTime,
  shortTime,
  syncList,
  setBusy,
  askFirst,
} from './core.browser.js'

/** `3 errors`, `1 warning`. @param {number} n @param {string} noun */
const countOf = (n, noun) => n.toLocaleString('en-US') + ' ' + noun + (n === 1 ? '' : 's')

/** `2 errors: Missing copies (1), Hashes that disagree (1)`: how many, and of which kinds. */
function errorsOf(checks) {
  const kinds = (checks.kinds || []).filter((k) => k.severity === 'error')
  return (
    countOf(checks.errors, 'error') +
    (kinds.length ? ': ' + kinds.map((k) => k.title + ' (' + k.count.toLocaleString('en-US') + ')').join(', ') : '')
  )
}

/** @returns {import('./live.browser.js').Section} */
export function windowsSection() {
  // Typing pauses this long before a draft is saved; leaving the field saves at once.
  const SAVE_DELAY_MS = 700
  const FIELDS = ['recipients', 'subject', 'message']
  const FIELD_NAMES = {
    recipients: 'Recipients',
    subject: 'The subject',
    message: 'The message',
    attachments: 'Attachments',
  }
  const discarded = new Set()
  let windows = []

  const pathOf = (w) => '/approve/windows/' + encodeURIComponent(w.id)
  const addressesIn = (text) => text.split(/[\s,;]+/).filter(Boolean)
  const valueFor = (name, text) => (name === 'recipients' ? addressesIn(text) : text)
  const textOf = (name, w) => (name === 'recipients' ? w.recipients.join(', ') : w[name])
  const locked = (w) => w.status === 'sending' || w.status === 'sent'
  const sentence = (text) => text + (/[.!?]$/.test(text) ? '' : '.')
  const failureText = (error) =>
    'Not sent: ' + sentence(error) + ' The draft is kept: fix what it says and send again, or download the .eml.'

  function daysOf(w) {
    return w.days && w.days.length ? w.days.join(', ') : 'Log ' + w.logIds.join(', ')
  }

  function create(w) {
    const base = 'window-' + w.id
    const field = (name, label, control, hint) =>
      el(
        'div',
        { class: 'field' },
        el('label', { for: base + '-' + name, text: label }),
        control,
        hint ? el('p', { class: 'field-hint', id: base + '-' + name + '-hint', text: hint }) : null,
        el('p', { class: 'field-error', id: base + '-' + name + '-error', role: 'alert', hidden: true }),
      )
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
    const picker = el('select', { class: 'add-attachment', 'aria-label': 'Attach a PDF report' })
    const frame = el('iframe', {
      class: 'preview-frame',
      sandbox: true,
      referrerpolicy: 'no-referrer',
      title: 'Preview of the e-mail as recipients see it',
    })

    const send = el('button', {
      type: 'button',
      class: 'primary send',
      text: 'Send',
      'aria-describedby': base + '-delivery',
    })
    const eml = el('button', { type: 'button', class: 'eml', text: 'Download .eml' })
    const mailApp = el('a', {
      class: 'button mail-app',
      href: w.mailto,
      text: 'Open in mail app',
      title: 'Opens your mail app with recipients, subject and text. Attach the PDFs there yourself.',
    })
    const discard = el('button', { type: 'button', class: 'danger discard', text: 'Discard' })
    const confirm = el('button', { type: 'button', class: 'danger-solid confirm-discard', text: 'Yes, discard' })
    const keep = el('button', { type: 'button', class: 'quiet keep', text: 'Keep it' })
    const sendAnyway = el('button', { type: 'button', class: 'primary send-anyway', text: 'Send anyway' })
    const notYet = el('button', { type: 'button', class: 'quiet not-yet', text: 'Not yet' })
    const sendQuestion = el(
      'div',
      { class: 'confirm confirm-send', role: 'group', 'aria-label': 'Confirm sending despite errors', hidden: true },
      el('p', { class: 'confirm-send-text' }),
      el('div', { class: 'actions' }, sendAnyway, notYet),
    )
    const seen = el('button', { type: 'button', class: 'quiet seen', text: 'Got it' })
    const question = el(
      'div',
      { class: 'confirm', role: 'group', 'aria-label': 'Confirm discarding this e-mail', hidden: true },
      el('p', { text: 'Discard this e-mail? The draft and your edits are deleted; the logs and reports stay.' }),
      el('div', { class: 'actions' }, confirm, keep),
    )

    const item = el(
      'li',
      { class: 'card window', 'aria-labelledby': base + '-title' },
      el(
        'div',
        { class: 'window-head' },
        el(
          'div',
          { class: 'who' },
          el('h3', { class: 'window-title', id: base + '-title' }),
          el('p', { class: 'meta' }),
        ),
        el('span', { class: 'badge status' }),
      ),
      el('p', { class: 'window-problem', role: 'alert', hidden: true }),
      el(
        'div',
        { class: 'window-updated', role: 'status', hidden: true },
        el('p', { class: 'window-updated-text' }),
        seen,
      ),
      el(
        'div',
        { class: 'window-body' },
        el(
          'div',
          { class: 'fields' },
          field(
            'recipients',
            'To',
            recipients,
            'Separate addresses with commas. Enter or leaving the field saves them.',
          ),
          field('subject', 'Subject', subject),
          field('message', 'Message', message),
          el(
            'div',
            { class: 'field' },
            el('p', { class: 'label', text: 'Attachments' }),
            el('ul', { class: 'attachments' }),
            el('p', { class: 'no-attachments field-hint', text: 'No PDF report attached.' }),
            picker,
            el('p', {
              class: 'field-error attachments-error',
              id: base + '-attachments-error',
              role: 'alert',
              hidden: true,
            }),
          ),
        ),
        el(
          'div',
          { class: 'preview' },
          el('p', { class: 'label', text: 'Preview' }),
          el('p', { class: 'field-hint body-note', hidden: true }),
          frame,
        ),
      ),
      el(
        'section',
        { class: 'window-checks', 'aria-labelledby': base + '-checks', hidden: true },
        el('h4', { class: 'checks-title', id: base + '-checks' }),
        el('ul', { class: 'checks-days' }),
      ),
      el(
        'div',
        { class: 'window-foot' },
        el('p', { class: 'delivery', id: base + '-delivery' }),
        el('p', { class: 'save-state', role: 'status' }),
        el('div', { class: 'actions' }, send, eml, mailApp, discard),
      ),
      sendQuestion,
      question,
    )

    item.fields = { recipients, subject, message }
    item.dirty = new Set()
    item.timer = null
    item.saving = null
    item.previewHtml = null
    for (const name of FIELDS) {
      const input = item.fields[name]
      input.addEventListener('input', () => {
        item.dirty.add(name)
        showSaveState(item, 'unsaved')
        clearTimeout(item.timer)
        // An address half typed is not worth an error: recipients are saved on leaving the field.
        if (name !== 'recipients') item.timer = setTimeout(() => save(item), SAVE_DELAY_MS)
      })
      input.addEventListener('change', () => save(item))
    }
    recipients.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault()
        save(item)
      }
    })
    picker.addEventListener('change', () => {
      const presetId = picker.value
      picker.value = ''
      if (presetId) changeAttachments(item, item.window.attachments.map((a) => a.presetId).concat([presetId]))
    })
    // A message whose days' checks found errors, or that changed since it was shown, is sent only
    // when asked a second time; the answer sends the message the question was about.
    item.askSend = askFirst(send, sendQuestion, sendAnyway, notYet)
    send.addEventListener('click', () => trySend(item))
    sendAnyway.addEventListener('click', () => {
      sendQuestion.hidden = true
      send.hidden = false
      sendWindow(item, item.asked)
    })
    seen.addEventListener('click', () => markSeen(item))
    eml.addEventListener('click', () => downloadEml(item))
    mailApp.addEventListener('click', (event) => {
      if (!item.dirty.size) return
      // The link carries what the service last saved: save the edits first, then follow it.
      event.preventDefault()
      save(item).then((ok) => {
        if (ok) location.href = item.window.mailto
      })
    })
    const ask = askFirst(discard, question, confirm, keep)
    // A sent message's window goes at once: nothing unsent is lost.
    discard.addEventListener('click', () => (item.window.status === 'sent' ? discardWindow(item) : ask()))
    confirm.addEventListener('click', () => discardWindow(item))
    return item
  }

  function update(item, w) {
    item.window = w
    const $in = (selector) => item.querySelector(selector)
    $in('.window-title').textContent = w.project + ' — ' + daysOf(w)
    $in('.meta').textContent =
      (w.presetLabel ? 'E-mail preset “' + w.presetLabel + '”' : 'No e-mail preset') +
      ' · opened ' +
      dayAndTime(w.createdAt, Date.now())
    item.dataset.status = w.status

    const badge = $in('.status')
    badge.textContent =
      w.status === 'sent'
        ? 'Sent ' + (w.sentAt ? shortTime.format(new Date(w.sentAt)) : '')
        : w.status === 'sending'
          ? 'Sending…'
          : w.status === 'failed'
            ? 'Not sent'
            : 'Draft'
    badge.dataset.status = w.status
    const problem = $in('.window-problem')
    const missing = w.missingLogs && w.missingLogs.length ? missingText(w.missingLogs) : ''
    problem.hidden = !missing && (w.status !== 'failed' || !w.error)
    problem.textContent = missing || (w.error ? failureText(w.error) : '')
    const updated = $in('.window-updated')
    updated.hidden = !w.updated
    $in('.window-updated-text').textContent = w.updated ? w.updated.text : ''
    // A question is about the message as it was asked: once that changed, Send asks anew.
    if (!$in('.confirm-send').hidden && w.fingerprint !== item.asked && w.status !== 'sending') {
      $in('.confirm-send').hidden = true
      $in('.send').hidden = false
    }

    for (const name of FIELDS) {
      const input = item.fields[name]
      input.readOnly = locked(w)
      // Never under the operator's fingers: a focused or edited field keeps what they typed.
      if (document.activeElement !== input && !item.dirty.has(name)) {
        const text = textOf(name, w)
        if (input.value !== text) input.value = text
      }
    }

    if (item.previewHtml !== w.preview.html) {
      item.previewHtml = w.preview.html
      $in('.preview-frame').srcdoc = w.preview.html
    }

    syncList(
      $in('.attachments'),
      w.attachments,
      (a) => a.presetId,
      (a) => createAttachment(item, a),
      (node, a) => {
        node.attachment = a
        node.querySelector('.attachment-name').textContent = a.filename
        node.querySelector('.attachment-label').textContent = a.note ? a.label + ' · ' + a.note : a.label
        node.querySelector('.remove-attachment').hidden = locked(w)
        node.querySelector('.remove-attachment').setAttribute('aria-label', 'Remove ' + a.filename)
        node.querySelector('.attachment-name').setAttribute('aria-label', 'Download ' + a.filename)
      },
    )
    $in('.no-attachments').hidden = w.attachments.length > 0
    $in('.body-note').hidden = !w.bodyNote
    $in('.body-note').textContent = w.bodyNote || ''
    const picker = $in('.add-attachment')
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

    showChecks($in('.window-checks'), w.checks)

    const send = $in('.send')
    const canSend = w.delivery.configured && !locked(w) && !missing
    send.disabled = !canSend
    send.textContent = w.status === 'failed' ? 'Send again' : 'Send'
    send.hidden = w.status === 'sent'
    const delivery = $in('.delivery')
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
    $in('.eml').classList.toggle('primary', !w.delivery.configured && w.status !== 'sent')
    $in('.mail-app').href = w.mailto
    $in('.mail-app').hidden = w.status === 'sent'
    const discard = $in('.discard')
    discard.textContent = w.status === 'sent' ? 'Close' : 'Discard'
    discard.hidden = w.status === 'sending' || !$in('.confirm').hidden
    if (!item.dirty.size && !item.saving && !item.saveProblem)
      showSaveState(item, w.status === 'sent' ? 'none' : 'saved')
  }

  /** The days' checks above Send: a green line when nothing was found, else each day's lines. */
  function showChecks(section, checks) {
    section.hidden = !checks
    if (!checks) return
    const found = [
      checks.errors && countOf(checks.errors, 'error'),
      checks.warnings && countOf(checks.warnings, 'warning'),
      checks.info && countOf(checks.info, 'note'),
    ].filter(Boolean)
    section.dataset.state = checks.errors ? 'errors' : checks.warnings ? 'warnings' : 'clear'
    section.querySelector('.checks-title').textContent = found.length
      ? 'Checks: ' + found.join(' · ')
      : 'Checks: nothing found'
    section
      .querySelector('.checks-days')
      .replaceChildren(
        ...checks.days.map((day) =>
          el(
            'li',
            { class: 'checks-day' },
            el('span', { class: 'checks-day-title', text: day.title }),
            el('ul', { class: 'checks-lines' }, ...day.lines.map((line) => el('li', { text: line }))),
          ),
        ),
      )
  }

  function createAttachment(item, a) {
    const name = el('button', { type: 'button', class: 'link attachment-name' })
    const remove = el('button', { type: 'button', class: 'quiet remove-attachment', text: 'Remove' })
    const node = el(
      'li',
      { class: 'attachment' },
      el('span', { class: 'file-icon', 'aria-hidden': 'true', text: 'PDF' }),
      el('span', { class: 'attachment-text' }, name, el('span', { class: 'attachment-label' })),
      remove,
    )
    name.addEventListener('click', async () => {
      const answer = await download(node.attachment.url, node.attachment.filename)
      if (answer.status !== 200) notify(node.attachment.filename + ': ' + problemText(answer), 'error')
    })
    remove.addEventListener('click', () =>
      changeAttachments(
        item,
        item.window.attachments.map((x) => x.presetId).filter((id) => id !== node.attachment.presetId),
      ),
    )
    return node
  }

  function showSaveState(item, kind) {
    const words = {
      unsaved: 'Unsaved changes…',
      saving: 'Saving…',
      saved: 'Draft saved',
      problem: 'Not saved: see the problem above',
      none: '',
    }
    const box = item.querySelector('.save-state')
    box.textContent = words[kind]
    box.dataset.state = kind
  }

  /** A field's problem in words under it; empty text clears it. */
  function fieldError(item, name, text) {
    const box = item.querySelector('#window-' + item.window.id + '-' + name + '-error')
    box.textContent = text
    box.hidden = !text
    const input = item.fields[name]
    if (input && text) input.setAttribute('aria-invalid', 'true')
    else if (input) input.removeAttribute('aria-invalid')
  }

  /** Validation details of a PATCH as sentences: a bad address is quoted back as it was typed. */
  function detailsText(name, details, sent) {
    return (details || [])
      .map((d) => {
        const entry = /^recipients\.(\d+)$/.exec(d.prop)
        if (entry && sent) return '“' + sent[Number(entry[1])] + '” ' + d.message + '.'
        return (FIELD_NAMES[d.prop] || FIELD_NAMES[name]) + ' ' + d.message + '.'
      })
      .join(' ')
  }

  /** A window whose logs were deleted or renamed cannot be sent. */
  function missingText(ids) {
    return (
      (ids.length === 1 ? 'Log ' + ids[0] + ' no longer exists' : 'Logs ' + ids.join(', ') + ' no longer exist') +
      ' (deleted or renamed): this e-mail cannot be sent. Discard it and open a new one.'
    )
  }

  /** Answers that are not about one field, in words. */
  function windowProblem(answer) {
    if (answer.status === 404) return 'This e-mail is gone: it was discarded in another tab or by a script.'
    return problemText(answer)
  }

  /** Merges an answer's window with what only the live state carries (the days). */
  const withDays = (item, w) => Object.assign({}, w, { days: item.window.days })

  /** Saves every edited field, one PATCH each, so a bad address never holds back the subject. */
  async function save(item) {
    clearTimeout(item.timer)
    item.timer = null
    while (item.saving) await item.saving
    const names = FIELDS.filter((name) => item.dirty.has(name))
    if (!names.length) return !item.saveProblem
    let ok = true
    item.saveProblem = false
    showSaveState(item, 'saving')
    for (const name of names) {
      const text = item.fields[name].value
      const value = valueFor(name, text)
      const body = {}
      body[name] = value
      item.saving = api('PATCH', pathOf(item.window), body)
      const answer = await item.saving
      item.saving = null
      if (answer.status === 200) {
        if (item.fields[name].value === text) item.dirty.delete(name)
        fieldError(item, name, '')
        if (!discarded.has(item.window.id)) update(item, withDays(item, answer.body.window))
      } else {
        ok = false
        fieldError(
          item,
          name,
          answer.status === 400
            ? detailsText(name, answer.body.details, Array.isArray(value) ? value : null)
            : windowProblem(answer),
        )
      }
    }
    item.saveProblem = !ok
    showSaveState(item, ok ? (item.dirty.size ? 'unsaved' : 'saved') : 'problem')
    return ok
  }

  async function changeAttachments(item, presetIds) {
    if (item.busy) return
    setBusy(item, true)
    const answer = await api('PATCH', pathOf(item.window), { attachments: presetIds })
    setBusy(item, false)
    if (answer.status === 200) {
      fieldError(item, 'attachments', '')
      update(item, withDays(item, answer.body.window))
      // The removed attachment had focus: keep it in the attachments, not at the section's top.
      if (!item.contains(document.activeElement)) item.querySelector('.add-attachment').focus()
    } else
      fieldError(
        item,
        'attachments',
        answer.status === 400 ? detailsText('attachments', answer.body.details) : windowProblem(answer),
      )
  }

  /**
   * Asks before sending: `changed` when the message differs from what was shown (nothing was sent),
   * `errors` when the days' checks found errors, named by count and kind. The answer sends the
   * message asked about, by its fingerprint.
   */
  function ask(item, why) {
    const w = item.window
    const errors = w.checks && w.checks.errors ? errorsOf(w.checks) : ''
    const question = item.querySelector('.confirm-send')
    question.setAttribute(
      'aria-label',
      why === 'changed' ? 'Confirm sending the changed e-mail' : 'Confirm sending despite errors',
    )
    item.querySelector('.confirm-send-text').textContent =
      why === 'changed'
        ? 'This e-mail changed since you looked at it, so nothing was sent. ' +
          (errors
            ? 'The checks now find ' + errors + '. Send this version anyway?'
            : 'Look it over above, then send this version?')
        : 'The checks of these days found ' + errors + '. Send this e-mail anyway?'
    item.querySelector('.send-anyway').textContent = errors ? 'Send anyway' : 'Send this version'
    item.asked = w.fingerprint
    item.askSend()
  }

  /** Send: the edits saved first; asks when the day moved meanwhile or the checks found errors. */
  async function trySend(item) {
    if (item.busy) return
    const shown = item.window.version
    if (!(await save(item))) {
      notify('Not sent: fix the problem shown in the e-mail first.', 'error')
      return
    }
    // Saving answered with the window as it is now: a day written meanwhile was never looked at.
    if (item.window.version !== shown) ask(item, 'changed')
    else if (item.window.checks?.errors) ask(item, 'errors')
    else sendWindow(item, item.window.fingerprint)
  }

  async function sendWindow(item, fingerprint) {
    if (item.busy) return
    setBusy(item, true)
    if (!(await save(item))) {
      setBusy(item, false)
      notify('Not sent: fix the problem shown in the e-mail first.', 'error')
      return
    }
    const before = item.window
    update(item, Object.assign({}, before, { status: 'sending', error: null }))
    const answer = await api('POST', pathOf(before) + '/send', { fingerprint })
    setBusy(item, false)
    if (answer.status === 200) {
      update(item, withDays(item, answer.body.window))
      notify('The e-mail “' + answer.body.window.subject + '” is sent.', 'ok')
      return
    }
    // The message changed since it was shown: the service sent nothing; show it as it is, ask again.
    if (answer.status === 409 && answer.body.window) {
      update(item, withDays(item, answer.body.window))
      ask(item, 'changed')
      return
    }
    // The service keeps the draft with the reason (the live state brings it too); say it now.
    const reason = windowProblem(answer)
    if (item.window.status === 'sending') update(item, before)
    const problem = item.querySelector('.window-problem')
    problem.textContent = failureText(reason)
    problem.hidden = false
    notify('Not sent: ' + sentence(reason), 'error')
  }

  /** "Got it": the operator has looked at the window as shown; it no longer says it was updated. */
  async function markSeen(item) {
    if (item.busy) return
    setBusy(item, true)
    const answer = await api('PATCH', pathOf(item.window), { seen: item.window.fingerprint })
    setBusy(item, false)
    // 409: it changed again meanwhile; the answer shows it, still marked as updated.
    if (answer.status === 200 || (answer.status === 409 && answer.body.window))
      update(item, withDays(item, answer.body.window))
    else notify(windowProblem(answer), 'error')
    // "Got it" is gone now: the keyboard goes on to the window's main action.
    if (answer.status === 200) {
      const send = item.querySelector('.send')
      ;(send.disabled || send.hidden ? item.querySelector('.eml') : send).focus()
    }
  }

  async function downloadEml(item) {
    if (item.busy) return
    if (!(await save(item))) {
      notify('Fix the problem shown in the e-mail first: the .eml holds what is saved.', 'error')
      return
    }
    const answer = await download(item.window.emlUrl, 'message.eml')
    if (answer.status !== 200) notify('The .eml could not be made: ' + windowProblem(answer), 'error')
  }

  async function discardWindow(item) {
    if (item.busy) return
    const sent = item.window.status === 'sent'
    setBusy(item, true)
    clearTimeout(item.timer)
    const answer = await api('DELETE', pathOf(item.window))
    if (answer.status === 200 || answer.status === 404) {
      discarded.add(item.window.id)
      if (!sent) notify('The e-mail “' + item.window.subject + '” was discarded.', 'ok')
      render()
      return
    }
    setBusy(item, false)
    notify(windowProblem(answer), 'error')
  }

  function render() {
    const shown = windows.filter((w) => !discarded.has(w.id))
    syncList($('#windows-list'), shown, (w) => w.id, create, update)
    const waiting = shown.filter((w) => w.status !== 'sent').length
    $('#windows-empty').hidden = shown.length > 0
    $('#windows-count').textContent = waiting ? waiting + ' to send' : ''
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

// @ts-check
/**
 * Page script: keeps the console current. One long poll (GET /approve/state?since=<version>) that
 * the service answers as soon as anything changes; every section renders from that one state.
 */
import { $, BASE, api, problemText, notify, setTimeZone, storedToken, storeToken, forgetToken } from './core.browser.js'
/** @import { Answer, ConsoleState } from './state.js' */

/**
 * A section of the console: `render` gets the whole state the service sent (GET /approve/state),
 * `tick` runs every second. Its markup (heading, #<id>-list, #<id>-empty, #<id>-count) comes from
 * the page.
 * @typedef {{id: string, render: (state: ConsoleState, now: number) => void, tick?: (now: number) => void}} Section
 */

/** @param {Section[]} sections */
export function startConsole(sections) {
  /** @type {ConsoleState | null} */
  let state = null

  /** @param {ConsoleState} state */
  function renderAll(state) {
    $('#service-version').textContent = state.service.version
    const project = state.project
    const zone = setTimeZone(project ? project.timeZone : undefined)
    const shown = project ? project.name + ' · times in ' + (zone ?? 'this browser’s zone') : 'No project loaded'
    if ($('#project').textContent !== shown) $('#project').textContent = shown
    for (const section of sections) section.render(state, Date.now())
  }

  /** @param {boolean} ok */
  function setLive(ok) {
    const badge = $('#live')
    const text = ok ? 'Live' : 'Reconnecting…'
    if (badge.textContent !== text) badge.textContent = text
    badge.dataset.state = ok ? 'live' : 'offline'
  }

  /** The cookie is there but this browser holds no valid token: the key unlocks it again. */
  function showUnlock() {
    $('#console-main').hidden = true
    $('#live').hidden = true
    $('#sign-out').hidden = true
    $('#unlock').hidden = false
    wireKeyForm()
  }

  // Waiting to ask again after a failure: resolved early when the operator comes back to the page.
  /** @type {(() => void) | null} */
  let wake = null
  const retryNow = () => {
    if (wake) wake()
  }
  window.addEventListener('focus', retryNow)
  window.addEventListener('online', retryNow)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') retryNow()
  })

  /** @type {HTMLElement | null} */
  let offlineNotice = null
  async function poll() {
    let retry = 0
    for (;;) {
      const since = state ? '?since=' + encodeURIComponent(state.version) : ''
      const answer = /** @type {Answer<ConsoleState>} */ (await api('GET', '/approve/state' + since))
      if (answer.status === 200) {
        if (offlineNotice) {
          offlineNotice.remove()
          offlineNotice = null
        }
        const first = !state
        setLive(true)
        retry = 0
        state = answer.body
        renderAll(state)
        if (first) startClock()
        continue
      }
      // Signed out (cookie expired or the key changed): the page asks for the key.
      if (answer.status === 401) {
        location.replace(BASE + '/approve')
        return
      }
      if (answer.status === 403 && /CSRF/.test(answer.body.error || '')) {
        showUnlock()
        return
      }
      setLive(false)
      // A restart of the service takes a second or two, and an application waits 60 s for its
      // approval: asking a local service once a second costs nothing and finds it back at once.
      retry = Math.min(retry ? retry * 2 : 250, 1000)
      if (!offlineNotice || !offlineNotice.isConnected) {
        offlineNotice = notify(
          answer.status === 0 ? 'The service cannot be reached. Is it still running? Retrying…' : problemText(answer),
          'error',
        )
      }
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, retry)
        wake = () => {
          clearTimeout(timer)
          resolve(undefined)
        }
      })
      wake = null
    }
  }

  function startClock() {
    setInterval(() => {
      const now = Date.now()
      for (const section of sections) if (section.tick) section.tick(now)
    }, 1000)
  }

  $('#sign-out').addEventListener('click', async () => {
    const answer = await api('DELETE', '/approve/session')
    if (answer.status === 200 || answer.status === 401) {
      forgetToken()
      location.replace(BASE + '/approve')
    } else if (answer.status === 403 && /CSRF/.test(answer.body.error || '')) showUnlock()
    else notify(problemText(answer), 'error')
  })

  if (!storedToken()) {
    showUnlock()
    return
  }
  poll()
}

/** The operator key form: signs in, keeps the token this origin alone can read, opens the console. */
function wireKeyForm() {
  const form = $('form#sign-in-form')
  const input = $('input#key')
  const problem = $('#sign-in-problem')
  const button = $('button', form)
  input.focus()
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const key = input.value.trim()
    if (!key) {
      problem.textContent = 'Enter the operator key.'
      input.focus()
      return
    }
    button.disabled = true
    problem.textContent = ''
    const answer = /** @type {Answer<{csrf?: string}>} */ (await api('POST', '/approve/session', { key }))
    button.disabled = false
    if (answer.status === 200 && answer.body.csrf) {
      storeToken(answer.body.csrf)
      location.replace(BASE + '/approve')
      return
    }
    problem.textContent =
      answer.status === 401
        ? 'That is not the operator key. Copy it again from the start output or from .dev.vars.'
        : problemText(answer)
    input.select()
  })
}

export function startSignIn() {
  // A wrong key arrived in the address bar: take it out of sight and out of history.
  if (location.search) history.replaceState(null, '', location.pathname)
  // No session any more, so a token left from it unlocks nothing.
  forgetToken()
  wireKeyForm()
}

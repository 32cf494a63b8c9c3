// @ts-check
/**
 * The console page's shared pieces: DOM helpers, the session's CSRF token, calls to the service,
 * notices, clocks, and keeping a list in step with the live state.
 *
 * Every value from the service reaches the page through `el(...)`/textContent, never innerHTML:
 * an application may call itself `<img src=x onerror=…>`.
 */
/** @param {string} selector @returns {any} */
export const $ = (selector) => document.querySelector(selector)

/** el('li', {class: 'card', 'aria-label': name, onclick: fn}, child, 'text', ...) */
/**
 * @param {string} tag
 * @param {Record<string, any> | null} [props]
 * @param {...any} children
 * @returns {any}
 */
export function el(tag, props, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue
    if (name === 'class') node.className = value
    else if (name === 'text') node.textContent = value
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value)
    else node.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) node.append(child)
  }
  return node
}

// ---- application names
//
// A name may carry bidi controls: U+202E (right-to-left override) makes "\u202Eloot.exe Offload
// Tool" read as "Offload Tool exe.tool". Each control is shown as a visible mark instead, and
// names are isolated from the text around them (.app-name), so the DIT sees what was sent.

const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
const controlCode = (c) => 'U+' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')

/**
 * A mark beside a name whose letters mix look-alike scripts (the service lists them): "Dаytalog"
 * with a Cyrillic "а" reads exactly like "Daytalog".
 * @param {string[] | undefined} scripts
 */
export function mixedScriptsMark(scripts) {
  if (!scripts || scripts.length < 2) return null
  return el('span', {
    class: 'mixed-scripts',
    title: 'This name mixes letters from ' + scripts.join(' and ') + ': it can look exactly like another name.',
    text: 'mixed letters: ' + scripts.join(' + '),
  })
}

/** The name for labels and messages: each control as [U+202E]. */
export function plainName(name) {
  return name.replace(BIDI_CONTROL, (c) => '[' + controlCode(c) + ']')
}

/** The name as nodes: text, and each control as a marked box. */
export function nameNodes(name) {
  const nodes = []
  let from = 0
  for (const match of name.matchAll(BIDI_CONTROL)) {
    if (match.index > from) nodes.push(name.slice(from, match.index))
    nodes.push(
      el('span', {
        class: 'control',
        title: 'invisible control character ' + controlCode(match[0]),
        text: controlCode(match[0]),
      }),
    )
    from = match.index + 1
  }
  if (from < name.length) nodes.push(name.slice(from))
  return nodes
}

// ---- the session's CSRF token
//
// The service hands it over once, at sign-in (the key link's redirect fragment, or the key form's
// answer), and never in a page: the cookie reaches every server on this host whatever its port,
// while storage belongs to this origin alone. localStorage lets a new tab of the console in; the
// copy in sessionStorage keeps this tab working where localStorage is unavailable.

const TOKEN_KEY = 'mls-operator-csrf'

export function storedToken() {
  for (const store of ['localStorage', 'sessionStorage']) {
    try {
      const token = window[store].getItem(TOKEN_KEY)
      if (token) return token
    } catch (_) {
      /* storage disabled in this browser */
    }
  }
  return ''
}

export function storeToken(token) {
  for (const store of ['sessionStorage', 'localStorage']) {
    try {
      window[store].setItem(TOKEN_KEY, token)
    } catch (_) {
      /* storage disabled in this browser */
    }
  }
}

export function forgetToken() {
  for (const store of ['sessionStorage', 'localStorage']) {
    try {
      window[store].removeItem(TOKEN_KEY)
    } catch (_) {
      /* storage disabled in this browser */
    }
  }
}

/** fetch with the session's headers; resolves to the Response, or null when the service cannot be reached. */
async function request(method, path, body, options) {
  const headers = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const token = storedToken()
  if (token) headers['x-csrf-token'] = token
  try {
    return await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
      signal: options && options.signal,
    })
  } catch (err) {
    if (err && err.name === 'AbortError') throw err
    return null
  }
}

const unreachable = () => ({ status: 0, body: { error: 'The service cannot be reached' } })

/** An answer as {status, body}: its JSON, or {} when it has none. */
async function answerOf(response) {
  let data = null
  try {
    data = await response.json()
  } catch (_) {
    data = null
  }
  return { status: response.status, body: data || {} }
}

/** One JSON call to the service: {status, body}; status 0 when the service cannot be reached. */
export async function api(method, path, body, options) {
  const response = await request(method, path, body, options)
  return response ? answerOf(response) : unreachable()
}

/** The file name a Content-Disposition header gives, preferring the exact UTF-8 one. */
function filenameOf(disposition, fallback) {
  const exact = /filename\*=UTF-8''([^;]+)/i.exec(disposition || '')
  if (exact) {
    try {
      return decodeURIComponent(exact[1])
    } catch (_) {
      /* fall through to the ASCII name */
    }
  }
  const ascii = /filename="([^"]*)"/i.exec(disposition || '')
  return ascii ? ascii[1] : fallback
}

/**
 * Downloads need the CSRF header like every operator call, so a plain link cannot fetch them:
 * the file is fetched, then saved through a temporary object URL. Answers {status, body}.
 */
export async function download(path, fallbackName) {
  const response = await request('GET', path)
  if (!response) return unreachable()
  if (!response.ok) return answerOf(response)
  const blob = await response.blob()
  const url = URL.createObjectURL(blob)
  const link = el('a', {
    href: url,
    download: filenameOf(response.headers.get('content-disposition'), fallbackName),
    hidden: true,
  })
  document.body.append(link)
  link.click()
  link.remove()
  // The browser has taken the file once the click's task ran; a minute is ample for large PDFs.
  setTimeout(() => URL.revokeObjectURL(url), 60000)
  return { status: 200, body: {} }
}

/** Words for a failed call that no section explains better. */
export function problemText(answer) {
  if (answer.status === 0) return 'The service cannot be reached. Is it still running?'
  if (answer.status === 401) return 'Your session has ended. Sign in again with the operator key.'
  if (answer.status === 403 && /CSRF/.test(answer.body.error || ''))
    return 'This browser is no longer unlocked. Reload the page and enter the operator key.'
  return (answer.body && answer.body.error) || 'The service answered ' + answer.status
}

// ---- notices: at most two short messages over the page's bottom edge, newest first

const NOTICE_SECONDS = { ok: 5, warn: 20 }

export function notify(text, kind) {
  kind = kind || 'info'
  const box = $('#notices')
  // A confirmation replaces the previous one: only problems pile up.
  if (kind === 'ok') for (const old of box.querySelectorAll('.notice.ok')) old.remove()
  const close = el('button', { type: 'button', class: 'notice-close', 'aria-label': 'Dismiss message', text: '×' })
  const notice = el(
    'div',
    { class: 'notice ' + kind, role: kind === 'error' ? 'alert' : 'status' },
    el('p', { text }),
    close,
  )
  close.addEventListener('click', () => notice.remove())
  box.prepend(notice)
  while (box.children.length > 2) box.lastElementChild.remove()
  if (NOTICE_SECONDS[kind]) setTimeout(() => notice.remove(), NOTICE_SECONDS[kind] * 1000)
  return notice
}

// ---- time, in the operator's own clock

const timeFormat = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})
export const shortTime = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' })

export const clockTime = (iso) => timeFormat.format(new Date(iso))

export function dayAndTime(iso, now) {
  const date = new Date(iso)
  const today = new Date(now).toDateString() === date.toDateString()
  return (today ? 'today' : dayFormat.format(date)) + ', ' + shortTime.format(date)
}

export function ago(iso, now) {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000))
  if (seconds < 5) return 'just now'
  if (seconds < 60) return seconds + ' s ago'
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return minutes + ' min ago'
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return hours + ' h ago'
  return Math.floor(hours / 24) + ' days ago'
}

/** 0:42, 12:05 */
export function countdown(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000))
  return Math.floor(seconds / 60) + ':' + String(seconds % 60).padStart(2, '0')
}

// ---- lists

/**
 * Keeps one list item per key, in the order of items: existing nodes are updated in place (so
 * a button being pressed or focused is never replaced), new ones created, missing ones removed.
 */
export function syncList(list, items, keyOf, create, update) {
  const existing = new Map()
  const children = Array.from(list.children)
  for (const node of children) existing.set(node.dataset.key, node)
  const focused = children.findIndex((node) => node.contains(document.activeElement))
  let previous = null
  for (const item of items) {
    const key = keyOf(item)
    let node = existing.get(key)
    if (node) existing.delete(key)
    else {
      node = create(item)
      node.dataset.key = key
    }
    update(node, item)
    const expectedPlace = previous ? previous.nextElementSibling : list.firstElementChild
    if (expectedPlace !== node) list.insertBefore(node, expectedPlace)
    previous = node
  }
  for (const node of existing.values()) node.remove()
  // The item holding keyboard focus went away: focus moves to its neighbour, or to the heading.
  if (focused >= 0 && !list.contains(document.activeElement)) {
    const neighbour = list.children[focused] || list.children[focused - 1]
    const target = neighbour
      ? neighbour.querySelector('button:not([hidden])')
      : list.closest('section').querySelector('h2')
    if (target) target.focus()
  }
}

/**
 * Marks an item's buttons as busy while its call runs. Not "disabled": a disabled button drops
 * keyboard focus, and focus should stay in place until the item leaves the list.
 */
export function setBusy(item, busy) {
  item.busy = busy
  for (const button of item.querySelectorAll('button')) {
    if (busy) button.setAttribute('aria-disabled', 'true')
    else button.removeAttribute('aria-disabled')
  }
}

/** Shows the empty-state sentence and the count for a section's list. */
export function showCount(id, count, words) {
  $('#' + id + '-empty').hidden = count > 0
  $('#' + id + '-count').textContent = count > 0 ? count + ' ' + (count === 1 ? words[0] : words[1]) : ''
}

/**
 * An action asked twice: the returned handler hides `trigger` and shows `question`, focused on
 * `confirm`; `keep` puts the trigger back. Wire `confirm` to the action itself.
 */
export function askFirst(trigger, question, confirm, keep) {
  keep.addEventListener('click', () => {
    question.hidden = true
    trigger.hidden = false
    trigger.focus()
  })
  return () => {
    question.hidden = false
    trigger.hidden = true
    confirm.focus()
  }
}

// @ts-check
/**
 * The console page's shared pieces: DOM helpers, the session's CSRF token, calls to the service,
 * notices, clocks, and keeping a list in step with the live state.
 *
 * Every value from the service reaches the page through `el(...)`/textContent, never innerHTML:
 * an application may call itself `<img src=x onerror=…>`.
 */
/** @import { Answer } from './state.js' */

/**
 * The element type a selector names by the tag of its last compound: `'textarea.message'` is an
 * HTMLTextAreaElement, `'#key'` or `'.card .meta'` an HTMLElement.
 * @template {string} S
 * @typedef {TagElement<Before<Before<Before<Before<Last<S>, ':'>, '['>, '#'>, '.'>>} ElementOf
 */
/**
 * The last compound of a selector: `'.window-foot button.send'` → `'button.send'`.
 * @template {string} S
 * @typedef {S extends `${string} ${infer Rest}` ? Last<Rest> : S} Last
 */
/**
 * What comes before the first `Mark`: `Before<'button.send', '.'>` → `'button'`.
 * @template {string} S
 * @template {string} Mark
 * @typedef {S extends `${infer Head}${Mark}${string}` ? Head : S} Before
 */
/**
 * @template {string} T
 * @typedef {T extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[T] : HTMLElement} TagElement
 */

/**
 * The first element `selector` finds in `root` (the page unless given), typed by the selector's
 * tag. The markup is the page's and the script's own: an element missing is a mistake, said at once.
 * @template {string} S
 * @param {S} selector
 * @param {ParentNode} [root]
 * @returns {ElementOf<S>}
 */
export function $(selector, root = document) {
  const found = root.querySelector(selector)
  if (!found) throw new Error('The console has no ' + selector)
  return /** @type {ElementOf<S>} */ (found)
}

/**
 * What `el` sets on an element: `class`, `text` (its textContent), `on<event>` listeners, and
 * attributes (true as present, false, null and undefined left out).
 * @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Props
 */
/** @typedef {Node | string | null | undefined | false} Child */

/**
 * el('li', {class: 'card', 'aria-label': name, onclick: fn}, child, 'text', ...)
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props | null} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue
    if (typeof value === 'function') node.addEventListener(name.slice(2), value)
    else if (name === 'class') node.className = String(value)
    else if (name === 'text') node.textContent = String(value)
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
/** @param {string} c */
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

/** The name for labels and messages: each control as [U+202E]. @param {string} name */
export function plainName(name) {
  return name.replace(BIDI_CONTROL, (c) => '[' + controlCode(c) + ']')
}

/** The name as nodes: text, and each control as a marked box. @param {string} name */
export function nameNodes(name) {
  /** @type {Array<string | HTMLElement>} */
  const nodes = []
  let from = 0
  for (const match of name.matchAll(BIDI_CONTROL)) {
    if (match.index !== undefined && match.index > from) nodes.push(name.slice(from, match.index))
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
  for (const store of /** @type {const} */ (['localStorage', 'sessionStorage'])) {
    try {
      const token = window[store].getItem(TOKEN_KEY)
      if (token) return token
    } catch (_) {
      /* storage disabled in this browser */
    }
  }
  return ''
}

/** @param {string} token */
export function storeToken(token) {
  for (const store of /** @type {const} */ (['sessionStorage', 'localStorage'])) {
    try {
      window[store].setItem(TOKEN_KEY, token)
    } catch (_) {
      /* storage disabled in this browser */
    }
  }
}

export function forgetToken() {
  for (const store of /** @type {const} */ (['sessionStorage', 'localStorage'])) {
    try {
      window[store].removeItem(TOKEN_KEY)
    } catch (_) {
      /* storage disabled in this browser */
    }
  }
}

/**
 * fetch with the session's headers; resolves to the Response, or null when the service cannot be reached.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body] sent as JSON
 * @param {{signal?: AbortSignal}} [options]
 */
async function request(method, path, body, options) {
  path = BASE + path
  /** @type {Record<string, string>} */
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
      // Always asked again, naming the kept copy's tag where the answer had one: an unchanged day
      // comes back 304, its body from the browser's cache (api/routes.ts, `conditional`).
      cache: 'no-cache',
      signal: options && options.signal,
    })
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    return null
  }
}

/** @returns {Answer} */
const unreachable = () => ({ status: 0, body: { error: 'The service cannot be reached' } })

/**
 * An answer as {status, body}: its JSON, or {} when it has none.
 * @param {Response} response
 * @returns {Promise<Answer>}
 */
async function answerOf(response) {
  let data = null
  try {
    data = await response.json()
  } catch (_) {
    data = null
  }
  return { status: response.status, body: data || {} }
}

/** Where the service's paths start: '' on a laptop, /productions/<name> on a deployment holding productions. */
export const BASE = document.documentElement.dataset.base || ''

/**
 * One JSON call to the service: {status, body}; status 0 when the service cannot be reached.
 * A caller that reads what a success carries names it, as the contract gives it: Answer<ConsoleState>.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body] sent as JSON
 * @param {{signal?: AbortSignal}} [options]
 * @returns {Promise<Answer>}
 */
export async function api(method, path, body, options) {
  const response = await request(method, path, body, options)
  return response ? answerOf(response) : unreachable()
}

/**
 * The file name a Content-Disposition header gives, preferring the exact UTF-8 one.
 * @param {string | null} disposition
 * @param {string} fallback
 */
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
 * @param {string} path
 * @param {string} fallbackName
 * @returns {Promise<Answer>}
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

/** Words for a failed call that no section explains better. @param {Answer} answer */
export function problemText(answer) {
  if (answer.status === 0) return 'The service cannot be reached. Is it still running?'
  if (answer.status === 401) return 'Your session has ended. Sign in again with the operator key.'
  if (answer.status === 403 && /CSRF/.test(answer.body.error || ''))
    return 'This browser is no longer unlocked. Reload the page and enter the operator key.'
  return (answer.body && answer.body.error) || 'The service answered ' + answer.status
}

// ---- notices: at most two short messages over the page's bottom edge, newest first

/** @typedef {'ok' | 'info' | 'warn' | 'error'} NoticeKind */
/** @type {Partial<Record<NoticeKind, number>>} */
const NOTICE_SECONDS = { ok: 5, warn: 20 }

/**
 * @param {string} text
 * @param {NoticeKind} [kind]
 */
export function notify(text, kind = 'info') {
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
  while (box.lastElementChild && box.children.length > 2) box.lastElementChild.remove()
  const seconds = NOTICE_SECONDS[kind]
  if (seconds) setTimeout(() => notice.remove(), seconds * 1000)
  return notice
}

// ---- time, on the project's clocks
//
// Times read in the active project's zone (its `time_zone`, the laptop's by default), as its
// reports and e-mails state them: a console opened from another zone shows the set's clock.

/** The formats times are shown in, on the clocks of `timeZone` (the browser's when undefined). @param {string | undefined} timeZone */
function formatsIn(timeZone) {
  /** @param {Intl.DateTimeFormatOptions} options */
  const format = (options) => new Intl.DateTimeFormat(undefined, { ...options, timeZone })
  return {
    zone: timeZone,
    time: format({ hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }),
    minute: format({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    day: format({ weekday: 'short', day: 'numeric', month: 'short' }),
    date: format({ year: 'numeric', month: '2-digit', day: '2-digit' }),
  }
}

let formats = formatsIn(undefined)

/**
 * Reads times in `timeZone`: the project's, or the browser's with none loaded or when this browser
 * does not know the zone (one older than the service). Answers the zone in effect, undefined for
 * the browser's own.
 * @param {string | undefined} timeZone
 * @returns {string | undefined}
 */
export function setTimeZone(timeZone) {
  if (timeZone !== formats.zone) {
    try {
      formats = formatsIn(timeZone)
    } catch (_) {
      formats = formatsIn(undefined)
    }
  }
  return formats.zone
}

/** @param {string} iso */
export const clockTime = (iso) => formats.time.format(new Date(iso))

/** `18:05`. @param {string} iso */
export const shortTime = (iso) => formats.minute.format(new Date(iso))

/** @param {string} iso @param {number} now */
export function dayAndTime(iso, now) {
  const date = new Date(iso)
  const today = formats.date.format(new Date(now)) === formats.date.format(date)
  return (today ? 'today' : formats.day.format(date)) + ', ' + formats.minute.format(date)
}

/** @param {string} iso @param {number} now */
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

/** 0:42, 12:05 @param {number} ms */
export function countdown(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000))
  return Math.floor(seconds / 60) + ':' + String(seconds % 60).padStart(2, '0')
}

// ---- lists

/**
 * A list kept in step with the live state: `sync(items)` keeps one entry per key, in the order of
 * items. Existing entries are updated in place (so a button being pressed or focused is never
 * replaced), new ones created, missing ones removed. An entry is its node and whatever `create`
 * keeps with it.
 * @template T
 * @template {{node: HTMLElement}} E
 * @param {HTMLElement} list
 * @param {(item: T) => string} keyOf
 * @param {(item: T) => E} create
 * @param {(entry: E, item: T) => void} update
 */
export function keyedList(list, keyOf, create, update) {
  /** @type {Map<string, E>} */
  let shown = new Map()
  return {
    /** @param {T[]} items */
    sync(items) {
      const existing = shown
      shown = new Map()
      const children = Array.from(list.children)
      const focused = children.findIndex((node) => node.contains(document.activeElement))
      /** @type {Element | null} */
      let previous = null
      for (const item of items) {
        const key = keyOf(item)
        let entry = existing.get(key)
        if (entry) existing.delete(key)
        else {
          entry = create(item)
          entry.node.dataset.key = key
        }
        shown.set(key, entry)
        update(entry, item)
        /** @type {Element | null} */
        const expectedPlace = previous ? previous.nextElementSibling : list.firstElementChild
        if (expectedPlace !== entry.node) list.insertBefore(entry.node, expectedPlace)
        previous = entry.node
      }
      for (const entry of existing.values()) entry.node.remove()
      // The item holding keyboard focus went away: focus moves to its neighbour, or to the heading.
      if (focused >= 0 && !list.contains(document.activeElement)) {
        const neighbour = list.children[focused] || list.children[focused - 1]
        const target = neighbour
          ? neighbour.querySelector('button:not([hidden])')
          : list.closest('section')?.querySelector('h2')
        if (target instanceof HTMLElement) target.focus()
      }
    },
    /** The entries shown now. */
    entries: () => shown.values(),
  }
}

/**
 * A list entry whose call to the service is running: its buttons are marked, and a second click
 * is ignored until the answer came.
 * @typedef {{node: HTMLElement, busy: boolean}} Busy
 */

/**
 * Marks an entry's buttons as busy while its call runs. Not "disabled": a disabled button drops
 * keyboard focus, and focus should stay in place until the entry leaves the list.
 * @param {Busy} entry
 * @param {boolean} busy
 */
export function setBusy(entry, busy) {
  entry.busy = busy
  for (const button of entry.node.querySelectorAll('button')) {
    if (busy) button.setAttribute('aria-disabled', 'true')
    else button.removeAttribute('aria-disabled')
  }
}

/**
 * Shows the empty-state sentence and the count for a section's list.
 * @param {string} id
 * @param {number} count
 * @param {[string, string]} words one, many
 */
export function showCount(id, count, words) {
  $('#' + id + '-empty').hidden = count > 0
  $('#' + id + '-count').textContent = count > 0 ? count + ' ' + (count === 1 ? words[0] : words[1]) : ''
}

/**
 * An action asked twice: the returned handler hides `trigger` and shows `question`, focused on
 * `confirm`; `keep` puts the trigger back. Wire `confirm` to the action itself.
 * @param {HTMLElement} trigger
 * @param {HTMLElement} question
 * @param {HTMLElement} confirm
 * @param {HTMLElement} keep
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

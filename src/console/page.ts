import { escapeHtml } from '../shared/html'

/**
 * Scripts and styles only from the service itself (no inline code, so an injected tag cannot run),
 * no plugins, no <base> rewriting, forms only back to the service, never inside a frame.
 * Style attributes are the one inline thing allowed: the e-mail preview is a sandboxed srcdoc frame,
 * which inherits this policy, and mail HTML can only be styled with attributes.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const SCRIPT_PATH = '/approve/console/main.browser.js'
const STYLE_PATH = '/approve/console.css'
const ICON_PATH = '/approve/icon.svg'

/** `base`: where the service's paths start ('' on the laptop, /productions/<name> deployed). */
function htmlDocument(title: string, head: string, body: string, base: string) {
  return `<!doctype html>
<html lang="en" data-base="${escapeHtml(base)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
${head}<link rel="icon" href="${escapeHtml(base)}${ICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="${escapeHtml(base)}${STYLE_PATH}">
<script type="module" src="${escapeHtml(base)}${SCRIPT_PATH}"></script>
</head>
${body}
</html>
`
}

/**
 * The console's sections, in page order. Each has a list the page script fills from the live
 * state and a sentence shown while the list is empty.
 */
const SECTIONS = [
  {
    id: 'requests',
    title: 'Waiting for approval',
    hint: 'Applications on this laptop ask here before they may read or write logs. Approve the ones you have just started; deny anything you do not recognise.',
    empty: 'No application is waiting. When one asks to connect it appears here within a second — keep this tab open.',
  },
  {
    id: 'windows',
    title: 'E-mail to send',
    hint: 'Each day’s report e-mail waits here, prepared by an application or from a day below. Check recipients, subject and message (changes are saved as you type), then Send — or download the .eml file and send it from your mail app.',
    empty:
      'No e-mail is waiting. When an application prepares a day’s report e-mail, or you do from a day below, it appears here.',
  },
  {
    id: 'days',
    title: 'Days',
    hint: 'Each shooting day of the active project as its log reads now: clips and sizes, each volume’s copies (✓ when nothing is wrong or wanting, ✕ when a clip is missing, not found or different; the words say which), and what the checks found. Open a day to see its findings and its copies by reel, download its reports or prepare its e-mail; pick several days for a wrap report.',
    tools: true,
    empty:
      'No day is logged in the active project yet. When an application posts a day’s log, it appears here within a second.',
  },
  {
    id: 'watchers',
    title: 'Watched folders',
    hint: 'Each media-log watch running for this service: the offload folders it watches, and the last report it took into a day. One that stopped, or has not been heard from for a while, is marked: reports written there since wait until it runs again.',
    empty:
      'No folder is watched. Run media-log watch with the offload drive’s folder on this laptop, and each report a copy tool writes there is taken into its day as it finishes (docs/watch.md).',
  },
  {
    id: 'units',
    title: 'Production',
    hint: 'Each unit’s cart shares its days with the production: a linked cart sends its days and receives the other units’ in the background, and works the same without a network. A day written twice without either side seeing the other waits here until one version is kept: here, or in the production’s console when another unit wrote one.',
    empty: '',
  },
  {
    id: 'apps',
    title: 'Connected applications',
    hint: 'These applications may use the service until you revoke them. A revoked application has to ask again.',
    empty: 'No application is connected yet.',
  },
]

/** A production asks nobody to wait: its applications join with a link code (docs/units.md). */
const ON_A_PRODUCTION = {
  hint: 'On a production nothing asks here: carts and office applications join with a link code made for them under Production, below.',
  empty: 'Nothing waits on a production.',
}

const section = ({ id, title, hint, empty, ...rest }: (typeof SECTIONS)[number]) => `
<section class="section" id="${id}" aria-labelledby="${id}-title">
  <div class="section-head"><h2 id="${id}-title" tabindex="-1">${escapeHtml(title)}</h2><span class="count" id="${id}-count" aria-live="polite"></span></div>
  <p class="hint">${escapeHtml(hint)}</p>${
    'tools' in rest
      ? `
  <div class="section-tools" id="${id}-tools" hidden></div>`
      : ''
  }
  <ul class="cards" id="${id}-list"></ul>
  <p class="empty" id="${id}-empty" hidden>${escapeHtml(empty)}</p>
</section>`

/** The operator key form: the sign-in page's, and the console's when this browser holds no CSRF token. */
const keyForm = (
  base: string,
  problem = '',
) => `<form id="sign-in-form" method="post" action="${escapeHtml(base)}/approve/session" novalidate>
    <label for="key">Operator key</label>
    <input id="key" name="key" type="password" autocomplete="off" autocapitalize="off" spellcheck="false" required>
    <button type="submit" class="primary">Open console</button>
    <p class="problem" id="sign-in-problem" role="alert">${escapeHtml(problem)}</p>
  </form>`

/**
 * The console's shell for a signed-in operator. It holds no state and no token: the script reads
 * its CSRF token from this origin's storage, then everything through GET /approve/state.
 */
export function consolePage({ serviceVersion, base = '' }: { serviceVersion: string; base?: string }) {
  const body = `<body class="console">
<header class="top">
  <div class="brand">
    <h1>Operator console</h1>
    <p class="sub">Media-Log Service <span id="service-version">${escapeHtml(serviceVersion)}</span> · <span id="project"></span></p>
  </div>
  <div class="top-actions">
    <span class="live" id="live" role="status" data-state="connecting">Connecting…</span>
    <button type="button" class="quiet" id="sign-out">Sign out</button>
  </div>
</header>
<div class="notices" id="notices" aria-live="polite"></div>
<main id="console-main">${SECTIONS.map((shown) => section(base && shown.id === 'requests' ? { ...shown, ...ON_A_PRODUCTION } : shown)).join('')}
</main>
<div class="sign-in-box" id="unlock" hidden>
  <h2>Unlock this browser</h2>
  <p>Enter the operator key to unlock this browser. It is <code>OPERATOR_KEY</code> in <code>.dev.vars</code>; opening the console link printed when the service started works too.</p>
  ${keyForm(base)}
</div>
</body>`
  return htmlDocument('Operator console — Media Log', '', body, base)
}

/** Asked for when there is no session: the key comes from `npm start`'s output or `.dev.vars`. */
export function signInPage({ problem, base = '' }: { problem?: string; base?: string } = {}) {
  const body = `<body class="sign-in">
<main class="sign-in-box">
  <h1>Operator console</h1>
  <p>Open the console link printed when the service started, or enter the operator key (<code>OPERATOR_KEY</code> in <code>.dev.vars</code>).</p>
  ${keyForm(base, problem)}
</main>
</body>`
  return htmlDocument('Sign in — Media Log operator console', '', body, base)
}

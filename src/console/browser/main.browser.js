// @ts-check
/** The console page's script: signs in, or starts the live console with its sections in page order. */
import { storeToken } from './core.browser.js'
import { appsSection } from './apps.browser.js'
import { daysSection } from './days.browser.js'
import { startConsole, startSignIn } from './live.browser.js'
import { requestsSection } from './requests.browser.js'
import { unitsSection } from './units.browser.js'
import { watchersSection } from './watchers.browser.js'
import { windowsSection } from './windows.browser.js'

// Arriving from the key link: take the token out of the address bar and history at once.
const handed = /^#session=([A-Za-z0-9_-]{20,100})$/.exec(location.hash)
if (handed) storeToken(handed[1])
if (location.hash) history.replaceState(null, '', location.pathname)

// The same script serves both pages: which one this is, its markup says.
if (document.getElementById('console-main'))
  startConsole([requestsSection(), windowsSection(), daysSection(), watchersSection(), unitsSection(), appsSection()])
else if (document.getElementById('sign-in-form')) startSignIn()

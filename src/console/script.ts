import { appsSection } from './client/apps'
import { core } from './client/core'
import { live } from './client/live'
import { requestsSection } from './client/requests'
import { windowsSection } from './client/windows'

/**
 * The console's script, served at /approve/console.js. A new section is one more part between
 * `core` and `live` (it calls `defineSection`) plus its entry in the page's SECTIONS.
 */
export const consoleScript = ["'use strict';", '(() => {', core, requestsSection, windowsSection, appsSection, live, '})()', ''].join('\n')

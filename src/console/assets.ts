/**
 * The console's script and style as the browser loads them. They are plain files under browser/,
 * checked by the compiler there (tsconfig.json), and reach the worker as text (wrangler.toml's
 * Text rules): the script as ES modules at /approve/console/<name>, the style at /approve/console.css.
 * Every module a page script imports is listed here; browser/state.js holds types only and is
 * never fetched.
 */
import apps from './browser/apps.browser.js'
import card from './browser/card.browser.js'
import style from './browser/console.css'
import core from './browser/core.browser.js'
import days from './browser/days.browser.js'
import dayDetail from './browser/day-detail.browser.js'
import live from './browser/live.browser.js'
import main from './browser/main.browser.js'
import requests from './browser/requests.browser.js'
import units from './browser/units.browser.js'
import watchers from './browser/watchers.browser.js'
import windowActions from './browser/window-actions.browser.js'
import windowAttachments from './browser/window-attachments.browser.js'
import windowCard from './browser/window-card.browser.js'
import windowFields from './browser/window-fields.browser.js'
import windowPreview from './browser/window-preview.browser.js'
import windows from './browser/windows.browser.js'

export const CONSOLE_SCRIPTS: Readonly<Record<string, string>> = {
  'main.browser.js': main,
  'core.browser.js': core,
  'live.browser.js': live,
  'card.browser.js': card,
  'requests.browser.js': requests,
  'windows.browser.js': windows,
  'window-card.browser.js': windowCard,
  'window-fields.browser.js': windowFields,
  'window-attachments.browser.js': windowAttachments,
  'window-preview.browser.js': windowPreview,
  'window-actions.browser.js': windowActions,
  'apps.browser.js': apps,
  'days.browser.js': days,
  'day-detail.browser.js': dayDetail,
  'units.browser.js': units,
  'watchers.browser.js': watchers,
}

export const CONSOLE_STYLE: string = style

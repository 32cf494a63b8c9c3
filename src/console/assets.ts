/**
 * The console's script and style as the browser loads them. They are plain files under browser/,
 * checked by the compiler there (tsconfig.json), and reach the worker as text (wrangler.toml's
 * Text rules): the script as ES modules at /approve/console/<name>, the style at /approve/console.css.
 */
import apps from './browser/apps.browser.js'
import style from './browser/console.css'
import core from './browser/core.browser.js'
import live from './browser/live.browser.js'
import main from './browser/main.browser.js'
import requests from './browser/requests.browser.js'
import windows from './browser/windows.browser.js'

export const CONSOLE_SCRIPTS: Readonly<Record<string, string>> = {
  'main.browser.js': main,
  'core.browser.js': core,
  'live.browser.js': live,
  'requests.browser.js': requests,
  'windows.browser.js': windows,
  'apps.browser.js': apps,
}

export const CONSOLE_STYLE: string = style

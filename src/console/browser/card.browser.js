// @ts-check
/**
 * Page script: the card of one application, as the requests waiting for approval and the
 * approved applications both show it. Its name as it was sent (controls shown, look-alike letters
 * marked), then the section's own lines, its meta line, its actions.
 */
import { el, nameNodes, mixedScriptsMark } from './core.browser.js'
/** @import { Child } from './core.browser.js' */

/**
 * li.card.<kind>: .who (h3.app-name, `above`, p.meta of the `meta` parts joined by " · ",
 * `below`), then `aside`, .actions, and `question` (an action asked first).
 * @param {object} parts
 * @param {'request' | 'app'} parts.kind
 * @param {{appName: string, mixedScripts: string[]}} parts.app
 * @param {Child[][]} parts.meta
 * @param {Child[]} [parts.above]
 * @param {Child[]} [parts.below]
 * @param {Child} [parts.aside]
 * @param {HTMLElement[]} parts.actions
 * @param {string} [parts.actionsClass] beside `actions`
 * @param {Child} [parts.question]
 * @returns {HTMLLIElement}
 */
export function applicationCard({ kind, app, above = [], meta, below = [], aside, actions, actionsClass, question }) {
  return el(
    'li',
    { class: 'card ' + kind },
    el(
      'div',
      { class: 'who' },
      el('h3', { class: 'app-name' }, nameNodes(app.appName), mixedScriptsMark(app.mixedScripts)),
      above,
      el('p', { class: 'meta' }, ...meta.flatMap((part, i) => (i ? [' · ', ...part] : part))),
      below,
    ),
    aside,
    el('div', { class: actionsClass ? 'actions ' + actionsClass : 'actions' }, actions),
    question,
  )
}

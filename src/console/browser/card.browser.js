// @ts-check
/**
 * Page script: a card of the console's lists (a day of the Days view), and the card of one
 * application, as the requests waiting for approval and the approved applications both show it:
 * its name as it was sent (controls shown, look-alike letters marked), then the section's own
 * lines, its meta line, its actions.
 */
import { el, nameNodes, mixedScriptsMark } from './core.browser.js'
/** @import { Child } from './core.browser.js' */

/**
 * li.card.<kind>: .who (`heading`, `above`, p.meta of the `meta` parts joined by " · ", `below`),
 * then `aside`, .actions, and `extra` (a question asked first, or what the card opens).
 * @param {object} parts
 * @param {string} parts.kind
 * @param {Child} parts.heading
 * @param {Child[][]} parts.meta
 * @param {Child[]} [parts.above]
 * @param {Child[]} [parts.below]
 * @param {Child} [parts.aside]
 * @param {HTMLElement[]} parts.actions
 * @param {string} [parts.actionsClass] beside `actions`
 * @param {Child} [parts.extra]
 * @returns {HTMLLIElement}
 */
export function card({ kind, heading, above = [], meta, below = [], aside, actions, actionsClass, extra }) {
  return el(
    'li',
    { class: 'card ' + kind },
    el(
      'div',
      { class: 'who' },
      heading,
      above,
      el('p', { class: 'meta' }, ...meta.flatMap((part, i) => (i ? [' · ', ...part] : part))),
      below,
    ),
    aside,
    el('div', { class: actionsClass ? 'actions ' + actionsClass : 'actions' }, actions),
    extra,
  )
}

/**
 * An application's card (card above): h3.app-name, `above`, p.meta of the `meta` parts joined by " · ",
 * `below`), then `aside`, .actions, and `question` (an action asked first).
 * @param {object} parts
 * @param {'request' | 'app'} parts.kind
 * @param {{appName: string, mixedScripts: string[], unit?: true}} parts.app
 * @param {Child[][]} parts.meta
 * @param {Child[]} [parts.above]
 * @param {Child[]} [parts.below]
 * @param {Child} [parts.aside]
 * @param {HTMLElement[]} parts.actions
 * @param {string} [parts.actionsClass] beside `actions`
 * @param {Child} [parts.question]
 * @returns {HTMLLIElement}
 */
export function applicationCard({ kind, app, above, meta, below, aside, actions, actionsClass, question }) {
  const heading = el(
    'h3',
    { class: 'app-name' },
    nameNodes(app.appName),
    mixedScriptsMark(app.mixedScripts),
    // A unit's cart linking to this production: its token syncs that unit's days and nothing else.
    app.unit
      ? el('span', {
          class: 'unit-cart',
          title: 'It syncs its unit’s days here, and nothing else',
          text: 'unit’s cart',
        })
      : null,
  )
  return card({ kind, heading, above, meta, below, aside, actions, actionsClass, extra: question })
}

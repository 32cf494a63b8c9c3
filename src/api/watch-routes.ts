/** The watchers of offload folders (docs/watch.md). (api/routes.ts joins the groups in the router's order.) */
import { WatcherReportSchema } from '../schemas/watchers'
import * as shapes from './shapes'
import { type Route } from './route'

const ABOUT_ID = 'A UUID the watcher made when it started (lower case).'

export const WATCH_ROUTES = {
  // a running `media-log watch` says what it watches and what it took, every few seconds
  reportWatcher: {
    method: 'put',
    path: '/watchers/{id}',
    summary: 'What a running `media-log watch` watches, the last report it took, and its problems',
    description:
      `${ABOUT_ID} Sent when it starts, after each report and every \`everySeconds\`; the console lists it, ` +
      'and warns once three intervals pass without a word. 409 for another application’s watcher or one that stopped; ' +
      '429 when 32 watchers are running (16 of one application) and none has stopped or gone quiet to make room.',
    tag: 'Watch folders',
    who: 'application',
    body: WatcherReportSchema,
    ok: [200, shapes.SuccessSchema],
    alsoOk: [201, 'the watcher’s first report'],
    errors: [400, 401, 409, 413, 415, 429],
    example: {
      request: {
        folders: ['/Volumes/SHUTTLE_01'],
        everySeconds: 15,
        taken: 1,
        last: {
          report: '/Volumes/SHUTTLE_01/A001/ascmhl/0001_A001_2026-11-28_183012Z.mhl',
          log: 'D014_261128',
          at: '2026-11-28T18:30:14.000Z',
          created: false,
          added: 12,
          changed: 0,
        },
        problems: [],
        walkedOnly: [],
      },
      response: { success: true },
    },
  },
  // the watcher stopped itself (Ctrl-C): the console shows it stopped
  stopWatcher: {
    method: 'delete',
    path: '/watchers/{id}',
    summary: 'A `media-log watch` stopped: the console shows it stopped until it is dismissed',
    tag: 'Watch folders',
    who: 'application',
    ok: [200, shapes.SuccessSchema],
    errors: [400, 401, 404, 409],
  },
  // the operator takes a stopped or quiet watcher off the console
  dismissWatcher: {
    method: 'delete',
    path: '/approve/watchers/{id}',
    summary: 'A watcher taken off the console',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SuccessSchema],
    errors: [400, 401, 403, 404],
  },
} as const satisfies Record<string, Route>

/** Units (docs/units.md): a cart and its production exchange versions of logs. (api/routes.ts joins the groups in the router's order.) */
import { LogSchema } from '../schemas/log'
import {
  LinkSchema,
  ResolveSchema,
  SyncChangesQuerySchema,
  SyncLeafQuerySchema,
  SyncMissingSchema,
  SyncProjectQuerySchema,
  SyncVersionQuerySchema,
} from '../schemas/requests'
import * as shapes from './shapes'
import { type Route } from './route'

export const UNIT_ROUTES = {
  // units (docs/units.md): a cart and its production exchange versions of logs
  syncStatus: {
    method: 'get',
    path: '/sync/status',
    summary: 'Whether this service is linked to a production, when it last synced, what waits to go',
    tag: 'Units',
    who: 'application',
    ok: [200, shapes.SyncStatusSchema],
    errors: [401],
  },
  syncChanges: {
    method: 'get',
    path: '/sync/changes',
    summary: "The active project's logs written after `since`, each with its versions (leaves)",
    description:
      'A page of the changes feed, in the order written; `last` is the `since` of the next page. ' +
      'A leaf is a version no other one here replaces: the first is the log as served, any other is in conflict.',
    tag: 'Units',
    who: 'application',
    query: {
      in: SyncChangesQuerySchema,
      about: {
        project: 'the project synced with (409 when another is loaded)',
        since: 'the `last` of the page before (0 for the start)',
        limit: 'logs per page, 1–1000 (100)',
      },
    },
    ok: [200, shapes.SyncChangesSchema],
    errors: [400, 401, 409],
  },
  syncMissing: {
    method: 'post',
    path: '/sync/missing',
    summary: 'Of the revisions named per log, those this service has neither received nor seen replaced',
    tag: 'Units',
    who: 'application',
    body: SyncMissingSchema,
    ok: [200, shapes.SyncMissingAnswerSchema],
    errors: [400, 401, 409, 413, 415],
    query: {
      in: SyncProjectQuerySchema,
      about: { project: 'the project synced with (409 when another is loaded)' },
    },
    example: {
      request: { logs: [{ id: 'D01', revs: ['2-5b1f0e3c9a7d4e21'] }] },
      response: { missing: [{ id: 'D01', revs: ['2-5b1f0e3c9a7d4e21'] }] },
    },
  },
  getVersion: {
    method: 'get',
    path: '/sync/logs/{id}',
    summary: 'One version of a log, exactly as stored: the one served or one in conflict',
    tag: 'Units',
    who: 'application',
    query: {
      in: SyncVersionQuerySchema,
      about: { project: 'the project synced with (409 when another is loaded)', rev: 'the revision' },
    },
    ok: [200, LogSchema],
    errors: [400, 401, 404, 409],
  },
  sendVersion: {
    method: 'post',
    path: '/sync/logs/{id}',
    summary: 'A version of a log written elsewhere, with the revisions it replaces (no body for a deletion)',
    description:
      'Checked as POST /log checks a log and kept as sent. `outcome`: `known` (this service has it or what ' +
      'replaced it), `winner` (the log as served now), `conflict` (kept beside the log until the operator resolves it). ' +
      'On a production the sender is the unit its token was approved as: 403 for a version ' +
      "naming another owner or replacing another unit's day; beside another unit's version it is a conflict, never merged.",
    tag: 'Units',
    who: 'application',
    query: {
      in: SyncLeafQuerySchema,
      about: {
        project: 'the project synced with (409 when another is loaded)',
        rev: 'the revision',
        ancestors: 'the revisions it replaces, comma separated, newest first',
        deleted: '`true` for a deletion',
        owner: 'the unit that owns the log (none: the production)',
      },
    },
    body: LogSchema,
    read: 'bytes',
    limit: 'log',
    ok: [200, shapes.SyncReceivedSchema],
    errors: [400, 401, 403, 404, 409, 413, 415],
  },
  syncLive: {
    method: 'get',
    path: '/sync/live',
    summary: 'A WebSocket on which the service says `changed` whenever a log of the project is written',
    description:
      'A linked cart keeps one open to its production and syncs at once when it hears `changed`, instead of ' +
      'waiting for its next round; it polls as before whenever the socket is closed. The request must ask to ' +
      'upgrade (`Upgrade: websocket`, else 426). Messages the client sends are not read; `ping` is answered `pong`. ' +
      'One socket a token: asking again closes the older one. Closed with code 4401 when the token is revoked.',
    tag: 'Units',
    who: 'application',
    query: {
      in: SyncProjectQuerySchema,
      about: { project: 'the project synced with (409 when another is loaded)' },
    },
    ok: [101, 'websocket'],
    errors: [400, 401, 403, 409, 426, 429],
  },
  linkStatus: {
    method: 'get',
    path: '/approve/link',
    summary: "This cart's link to its production, as GET /sync/status",
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SyncStatusSchema],
    errors: [401, 403],
  },
  link: {
    method: 'post',
    path: '/approve/link',
    summary: 'Link the active project to a production, with the link code its operator made for this unit',
    description:
      'The service asks the production (POST /auth as `unit`, with `linkCode`, which answers at once): 200 with the ' +
      "status when linked, 502 when the production refuses or cannot be reached. A production with no project loaded takes this one's " +
      'name. 409 on a production, or when linked already.',
    tag: 'Operator',
    who: 'operator',
    body: LinkSchema,
    ok: [200, shapes.SyncStatusSchema],
    errors: [400, 401, 403, 409, 415, 502],
    example: {
      request: {
        url: 'https://media-log.example.com/productions/feature',
        unit: 'Second unit',
        linkCode: '7KQM-2XPD-R4TW-9HNC',
      },
    },
  },
  listConflicts: {
    method: 'get',
    path: '/approve/conflicts',
    summary: 'Logs of the active project whose versions are in conflict, each version described',
    description:
      "Two units wrote the same log without seeing each other's write: both versions are kept, `served` is the one " +
      'GET /log answers (the same on every unit), until the operator keeps one. `owner` is the unit a version belongs ' +
      "to (null: none); `keptHere` is false on a cart where another unit owns a version: the production's operator keeps one.",
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.ConflictListSchema],
    errors: [401, 403],
  },
  compareConflict: {
    method: 'get',
    path: '/approve/conflicts/{id}',
    summary: "One log's versions in conflict side by side, each against the one served",
    description:
      'For each version: its volumes, what its checks find, and (but for the one served and a deletion) the clips it ' +
      'adds, removes or holds otherwise (size, reel, copies, checksums) and the volumes it adds or lacks, against the ' +
      'one served; 50 names of each kind listed, `count` all of them. 404 when the log has no versions in conflict.',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.ConflictComparisonSchema],
    errors: [400, 401, 403, 404],
  },
  listSetAside: {
    method: 'get',
    path: '/log/{id}/set-aside',
    summary: 'The versions of a log that resolving a conflict did not keep, the latest first',
    description:
      'Each service sets aside what it held when a version was kept, here or on another unit: the unit that owned ' +
      'it, the revision that replaced it, when, and the log’s day, date, unit and clips. At most 16 per log.',
    tag: 'Units',
    who: 'application',
    ok: [200, shapes.SetAsideListSchema],
    errors: [400, 401, 403, 409],
  },
  getSetAside: {
    method: 'get',
    path: '/log/{id}/set-aside/{rev}',
    summary: 'A version set aside, exactly as it was stored',
    tag: 'Units',
    who: 'application',
    ok: [200, LogSchema],
    errors: [400, 401, 403, 404, 409],
  },
  daySetAside: {
    method: 'get',
    path: '/approve/days/{id}/set-aside',
    summary: 'As GET /log/{id}/set-aside, for the console',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SetAsideListSchema],
    errors: [400, 401, 403, 409],
  },
  daySetAsideVersion: {
    method: 'get',
    path: '/approve/days/{id}/set-aside/{rev}',
    summary: 'As GET /log/{id}/set-aside/{rev}, for the console: the version as a file to download',
    tag: 'Operator',
    who: 'operator',
    ok: [200, 'application/json'],
    errors: [400, 401, 403, 404, 409],
  },
  resolveConflict: {
    method: 'post',
    path: '/approve/conflicts/{id}',
    summary: 'Keep one version of a log in conflict; the others go, on every unit once synced',
    description:
      "403 on a cart where another unit owns a version (`keptHere` false): the production's operator keeps one there.",
    tag: 'Operator',
    who: 'operator',
    body: ResolveSchema,
    ok: [200, shapes.ResolvedSchema],
    errors: [400, 401, 403, 404, 409, 415],
  },
  unlink: {
    method: 'delete',
    path: '/approve/link',
    summary: 'Stop syncing with the production; every log stays as it is',
    tag: 'Operator',
    who: 'operator',
    ok: [200, shapes.SuccessSchema],
    errors: [401, 403, 404],
  },
} as const satisfies Record<string, Route>

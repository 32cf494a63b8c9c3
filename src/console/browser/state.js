// @ts-check
/**
 * What the service sends the console, as the page reads it: types only. Nothing imports this
 * file when the page runs (the modules name it in JSDoc), so it is not served.
 *
 * The shapes are the service's own: GET /approve/state (src/routes/console.ts), the requests and
 * approved applications of src/openapi/shapes.ts, a send window as src/mail/view.ts draws it.
 */

/**
 * An application asking to connect (GET /approve/state `requests`).
 * @typedef {object} ConnectionRequest
 * @property {string} id
 * @property {string} appName The name it gave, as sent: it may hold controls and look-alike letters.
 * @property {string | null} code The code the application shows, when it shows one.
 * @property {string | null} userAgent
 * @property {string[]} mixedScripts The scripts its name mixes, when more than one.
 * @property {true} [unit] Asked by a unit's cart: on a production its token only syncs.
 * @property {string} createdAt
 * @property {string} lastAskedAt
 * @property {number} attempts
 * @property {string} expiresAt
 */

/**
 * An approved application (GET /approve/state `tokens`).
 * @typedef {object} ApprovedApp
 * @property {string} id
 * @property {string} appName
 * @property {true} [unit]
 * @property {string[]} mixedScripts
 * @property {string} createdAt
 * @property {string | null} lastUsedAt
 */

/** @typedef {'draft' | 'sending' | 'sent' | 'failed'} WindowStatus */

/**
 * One kind of finding of the days' checks, with how often it was found.
 * @typedef {object} CheckKind
 * @property {string} kind
 * @property {string} title
 * @property {'error' | 'warning' | 'info'} severity
 * @property {number} count
 */

/**
 * The days' checks as the logs read now; each day (and the total) in lines of words.
 * @typedef {object} WindowChecks
 * @property {number} errors
 * @property {number} warnings
 * @property {number} info
 * @property {CheckKind[]} kinds Most serious first.
 * @property {Array<{title: string, lines: string[]}>} days
 */

/**
 * A PDF attached to a window; `note` says why it cannot be sent as it is, or what stands in for it.
 * @typedef {object} WindowAttachment
 * @property {string} presetId
 * @property {string} label
 * @property {string | null} note
 * @property {string} filename
 * @property {string} url
 */

/**
 * How the service would deliver the message: never the provider's key.
 * @typedef {object} Delivery
 * @property {string | null} provider
 * @property {boolean} configured
 * @property {string | null} from
 * @property {string | null} problem
 */

/**
 * A send window (src/mail/view.ts WindowView). `days` (the titles of its shooting days) comes
 * with the live state only, not with the answers to an edit or a send.
 * @typedef {object} SendWindow
 * @property {string} id
 * @property {string} createdAt
 * @property {string} updatedAt
 * @property {string} project
 * @property {string[]} logIds
 * @property {string | null} presetId
 * @property {string | null} presetLabel
 * @property {string} template
 * @property {string[]} recipients
 * @property {string} subject
 * @property {string} message
 * @property {{html: string, text: string}} preview
 * @property {WindowChecks | null} checks
 * @property {string} fingerprint The message as it would be sent now, named.
 * @property {string} version The version of the logs and settings it is drawn from.
 * @property {{logIds: string[], settings: boolean, text: string} | null} updated
 * @property {string[]} missingLogs
 * @property {string | null} bodyNote
 * @property {WindowAttachment[]} attachments
 * @property {Array<{id: string, label: string}>} pdfPresets
 * @property {WindowStatus} status
 * @property {string | null} error
 * @property {string | null} sentAt
 * @property {Delivery} delivery
 * @property {string} emlUrl
 * @property {string} mailto
 * @property {string[]} [days]
 */

/**
 * One volume's copies of a day's camera clips (`ocf`) or sound, as the service words them (the one
 * account, docs/checks.md): `held` of the `clips` it owes, the verdict of its worst state, the mark
 * of that verdict, and everything in words. The page says these; it derives none of them.
 * @typedef {object} VolumeChip
 * @property {'ocf' | 'sound'} part
 * @property {string} volume
 * @property {number} held
 * @property {number} clips
 * @property {'ok' | 'warning' | 'error'} verdict
 * @property {string} mark
 * @property {string} words
 */

/**
 * A part's files and the sizes known; `unknown` says how many clips' sizes no report stated, in words.
 * @typedef {{files: number, size: number, unknownSizes?: number, unknown?: string} | null} PartMedia
 */
/** @typedef {{errors: number, warnings: number, info: number}} CheckCounts */

/**
 * A day as the Days view lists it (GET /approve/days).
 * @typedef {object} DayRow
 * @property {string} id
 * @property {string} written Changes with every write of the log.
 * @property {number} day
 * @property {string} date
 * @property {string} unit
 * @property {number} clips
 * @property {PartMedia} ocf
 * @property {PartMedia} sound
 * @property {PartMedia} proxy
 * @property {VolumeChip[]} copies
 * @property {CheckCounts} checks
 */

/**
 * A preset the Days view offers: a PDF to download (`report` says which), or an e-mail to prepare.
 * @typedef {{id: string, label: string, enabled: boolean, report?: 'clips-report' | 'data-report'}} PresetRef
 */

/**
 * GET /approve/days: the days in log order, and the project's presets.
 * @typedef {object} DayList
 * @property {DayRow[]} days
 * @property {{pdfs: PresetRef[], emails: PresetRef[]}} presets
 */

/**
 * A line of a day's findings: a kind (and a volume), `count` in all, `words` the line the service
 * says (the first clips named), and the findings it lists for whoever opens it.
 * @typedef {object} DayFindings
 * @property {string} kind
 * @property {string} title
 * @property {'error' | 'warning' | 'info'} severity
 * @property {string} [volume]
 * @property {number} count
 * @property {string} words
 * @property {Array<{part?: 'ocf' | 'sound', clip?: string, volume?: string, reel?: string, message: string}>} findings
 */

/**
 * A reel's copies on one volume (GET /approve/days/{id} `copies`), as a chip is: held of owed, the
 * verdict, its mark and words.
 * @typedef {{volume: string, held: number, clips: number, verdict: 'ok' | 'warning' | 'error', mark: string, words: string}} ReelCell
 */

/**
 * GET /approve/days/{id}: the day's row, its findings as lines (most serious first), its copies by
 * part and reel.
 * @typedef {object} DayDetail
 * @property {DayRow} day
 * @property {DayFindings[]} checks
 * @property {Array<{part: 'ocf' | 'sound', reel: string, clips: number, volumes: ReelCell[]}>} copies
 */

/**
 * GET /approve/state: everything the console shows, under one version.
 * @typedef {object} ConsoleState
 * @property {number} version
 * @property {ConnectionRequest[]} requests
 * @property {ApprovedApp[]} tokens
 * @property {SendWindow[]} windows
 * @property {{name: string, timeZone: string} | null} project The active project, and the zone times are read in.
 * @property {SyncStatus} sync This service's link to a production, and the logs in conflict.
 * @property {LinkCode[]} [linkCodes] A production's link codes not yet used; none elsewhere.
 * @property {Watcher[]} watchers The `media-log watch` commands reporting here, newest first.
 * @property {string} now The service's time when it answered.
 * @property {{version: string}} service
 */

/**
 * A running (or stopped) `media-log watch`, as it last reported itself (src/workspace/watchers.ts).
 * @typedef {object} Watcher
 * @property {string} id
 * @property {string} appName
 * @property {string[]} folders
 * @property {string} [log] Every report into this log; none: each into the day its dates name.
 * @property {string} [volume]
 * @property {number} everySeconds How often it reports: quiet after three of them unheard.
 * @property {number} taken Reports taken since it started.
 * @property {{report: string, log: string, at: string, created: boolean, added: number, changed: number}} [last]
 * @property {Array<{at: string, message: string}>} problems The last few, newest last.
 * @property {string[]} walkedOnly Folders the system no longer tells of changes: walked every 30 s.
 * @property {string} startedAt
 * @property {string} heardAt
 * @property {string} quietAt When it is "not heard from" unless it reports again (the service's rule).
 * @property {string | null} stoppedAt
 */

/**
 * A production's link code, as listed: never the code itself, shown once when made.
 * @typedef {object} LinkCode
 * @property {string} id
 * @property {string} name The application it admits, by the name it asks as.
 * @property {boolean} unit Whether it is a unit's cart.
 * @property {string} createdAt
 * @property {string} expiresAt
 */

/**
 * GET /sync/status, GET /approve/link: the link to a production (docs/units.md).
 * @typedef {object} SyncStatus
 * @property {boolean} linked
 * @property {string} [production]
 * @property {string} [unit]
 * @property {string | null} [lastSync]
 * @property {number} [pending]
 * @property {string | null} [error]
 * @property {Array<{id: string, rev: string, way: 'push' | 'pull', error: string}>} [refused] Versions set aside.
 * @property {boolean} [live] The production tells this cart of other units' writes as they happen.
 * @property {Array<{id: string, leaves: number}>} conflicts
 */

/**
 * GET /approve/conflicts: a log's versions in conflict.
 * @typedef {object} Conflict
 * @property {string} id
 * @property {boolean} keptHere
 * @property {Array<{rev: string, deleted: boolean, served: boolean, owner: string | null, day?: number, date?: string, unit?: string | null, clips?: number}>} versions
 */

/**
 * GET /approve/conflicts/{id}: one version, its volumes and check counts, and what it holds
 * against the one served (`differs`, left out for that one and for a deletion).
 * @typedef {object} ConflictVersion
 * @property {string} rev
 * @property {boolean} deleted
 * @property {boolean} served
 * @property {string | null} owner
 * @property {number} [day]
 * @property {string} [date]
 * @property {string | null} [unit]
 * @property {number} [clips]
 * @property {string[]} [volumes]
 * @property {{errors: number, warnings: number, info: number}} [checks]
 * @property {{added: Listed, removed: Listed, changed: {count: number, listed: Array<{clip: string, what: string[]}>}, volumes: {added: string[], removed: string[]}}} [differs]
 */

/** @typedef {{count: number, listed: string[]}} Listed */

/**
 * GET /approve/days/{id}/set-aside: a version a resolution did not keep.
 * @typedef {object} SetAsideVersion
 * @property {string} rev
 * @property {string | null} owner
 * @property {string} replacedBy
 * @property {string} setAsideAt
 * @property {number} [day]
 * @property {string} [date]
 * @property {string | null} [unit]
 * @property {number} [clips]
 */

/**
 * GET /approve/conflicts/{id}: a log's versions side by side.
 * @typedef {object} ConflictComparison
 * @property {string} id
 * @property {boolean} keptHere
 * @property {ConflictVersion[]} versions
 */

/**
 * The service's error shape; `details` name what a refused edit got wrong, and a refused send or
 * "seen" whose message changed carries the window as it reads now.
 * @typedef {object} Problem
 * @property {string} [error]
 * @property {Array<{prop: string, message: string}>} [details]
 * @property {SendWindow} [window]
 */

/**
 * A call's answer: status 0 when the service cannot be reached; the body is `T` when it succeeded
 * (as the contract gives it), the error shape otherwise.
 * @template [T={}]
 * @typedef {{status: number, body: T & Problem}} Answer
 */

export {}

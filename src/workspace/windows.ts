import { userBodyTemplate, userReportTemplate, type EmailPreset, type Settings } from '../schemas/settings'
import { Problem, conflict, notFound } from '../shared/problem'
import type { LogSummary } from '../summary/summary'

/**
 * Send windows (SPEC §9): an e-mail the operator still has to check and send. They live in the
 * workspace's SQLite so that they survive a reload of the console and a restart of the service.
 * What the window shows is composed by the worker; this table keeps the operator's draft and what
 * the worker last composed of it (SPEC §11: a window follows its days' logs):
 * - `summary`, the day-summary figures and checks, drawn from the logs and settings named by
 *   `summary_source` (a source key, see Workspace#sourceOf); stale once the source moves.
 * - `content_key`, the hash of the message as last shown, and `composed_at`, since when it reads
 *   so: the message's Date and its PDFs' creation date, so that a .eml downloaded, a PDF opened
 *   and the message sent are the same bytes.
 * - `seen_source`, the source the operator last looked at (at opening, or acknowledged since).
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS send_windows (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    log_ids TEXT NOT NULL,
    preset_id TEXT,
    template TEXT NOT NULL,
    recipients TEXT NOT NULL,
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    attachments TEXT NOT NULL,
    summary TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    sending_since TEXT,
    sent_at TEXT
  );
`

/** Columns added once windows followed their logs; a window stored before has them NULL. */
const LIVE_COLUMNS = ['summary_source', 'content_key', 'composed_at', 'seen_source', 'seen_at'] as const

export type WindowStatus = 'draft' | 'sending' | 'sent' | 'failed'
export type WindowAttachment = { presetId: string; filename: string }

/** A window as the workspace keeps it. `summary` is the composer's own JSON, opaque here. */
export type SendWindowRecord = {
  id: string
  projectId: string
  createdAt: string
  updatedAt: string
  logIds: string[]
  presetId: string | null
  template: string
  recipients: string[]
  subject: string
  message: string
  attachments: WindowAttachment[]
  summary: string
  status: WindowStatus
  error: string | null
  sentAt: string | null
  /** The source key `summary` was drawn from; null for a window stored before windows followed their logs. */
  summarySource: string | null
  contentKey: string | null
  composedAt: string | null
  seenSource: string | null
  seenAt: string | null
}

/** What the console shows beside the stored draft: names from the window's own project. */
export type SendWindowListing = SendWindowRecord & {
  projectName: string
  presetLabel: string | null
  /** The template of the user's the preset names, which the built-in body stands in for. */
  bodyReplaces: string | null
  /** `replaces`: the template of the user's the built-in report stands in for. */
  pdfPresets: Array<{ id: string; label: string; replaces: string | null }>
  /** The source key of the window's logs and settings as they are now. */
  source: string
  /** The window's logs that no longer exist (deleted or renamed since it opened). */
  missingLogs: string[]
}

/**
 * A window's source key: each of its logs with the revision of its last write (null once gone),
 * and a digest of its project's settings. Any write to those moves it; nothing else does.
 */
export type SourceKey = { logs: Array<[id: string, revision: number | null]>; settings: string }

/** A window with what rendering it needs: its logs' summaries; their clips the worker reads one log at a time. */
export type WindowSource = { window: SendWindowListing; settings: Settings; summaries: LogSummary[] }

/**
 * What opening a window needs: the project, its settings, the e-mail preset if any, the logs'
 * summaries, and the source key they were read at.
 */
export type MailSource = {
  projectId: string
  settings: Settings
  preset: EmailPreset | null
  summaries: LogSummary[]
  source: string
}

export function listingOf(record: SendWindowRecord, settings: Settings, source: string): SendWindowListing {
  const preset = settings.emails?.find((p) => p.id === record.presetId)
  const missingLogs = (JSON.parse(source) as SourceKey).logs.filter(([, revision]) => revision === null)
  return {
    ...record,
    source,
    missingLogs: missingLogs.map(([id]) => id),
    projectName: settings.project_name,
    presetLabel: preset?.label ?? null,
    bodyReplaces: (preset && userBodyTemplate(preset)) ?? null,
    pdfPresets: (settings.pdfs ?? []).map((p) => ({
      id: p.id,
      label: p.label,
      replaces: userReportTemplate(p) ?? null,
    })),
  }
}

export type NewSendWindow = Pick<
  SendWindowRecord,
  | 'projectId'
  | 'logIds'
  | 'presetId'
  | 'template'
  | 'recipients'
  | 'subject'
  | 'message'
  | 'attachments'
  | 'summary'
  | 'summarySource'
>
export type WindowEdit = Partial<Pick<SendWindowRecord, 'recipients' | 'subject' | 'message' | 'attachments'>>
export type SendOutcome =
  { sent: true; summary: string; attachments: WindowAttachment[] } | { sent: false; error: string }

/**
 * A send the worker started but never reported back (the process stopped mid-request) must not
 * lock the window for good. Providers answer within seconds; two minutes is well past that.
 */
const SENDING_EXPIRES_MS = 2 * 60_000
/** Unsent windows at once: an application opening one per request must not bury the console. */
const OPEN_WINDOWS_LIMIT = 100

const INTERRUPTED_SEND =
  'The send was interrupted before the provider answered. Check the provider’s log before sending again.'

type Row = {
  id: string
  project_id: string
  created_at: string
  updated_at: string
  log_ids: string
  preset_id: string | null
  template: string
  recipients: string
  subject: string
  message: string
  attachments: string
  summary: string
  status: WindowStatus
  error: string | null
  sending_since: string | null
  sent_at: string | null
  summary_source: string | null
  content_key: string | null
  composed_at: string | null
  seen_source: string | null
  seen_at: string | null
}

const COLUMNS = `id, project_id, created_at, updated_at, log_ids, preset_id, template, recipients, subject, message, attachments, summary, status, error, sending_since, sent_at, ${LIVE_COLUMNS.join(', ')}`

/** An unsent window's logs: what a write must be compared with to know whether the window moved. */
export type WatchedWindow = { id: string; projectId: string; logIds: string[] }

const windowNotFound = () => notFound('Send window')

/** Synchronous, like Store: every call runs in the workspace's single thread. */
export class SendWindows {
  /** The unsent windows' logs, read once and kept until a window opens, is sent or goes. */
  #watched: WatchedWindow[] | undefined

  /** `changed` is told of every change the console shows: a window opened, edited, sent or gone. */
  constructor(
    private readonly sql: SqlStorage,
    private readonly changed: () => void,
  ) {
    sql.exec(SCHEMA)
    const columns = sql.exec('SELECT * FROM send_windows LIMIT 0').columnNames
    for (const column of LIVE_COLUMNS)
      if (!columns.includes(column)) sql.exec(`ALTER TABLE send_windows ADD COLUMN ${column} TEXT`)
  }

  /** The windows not yet sent, with their logs: every log write is compared with these. */
  watched(): WatchedWindow[] {
    this.#watched ??= this.sql
      .exec<Pick<Row, 'id' | 'project_id' | 'log_ids'>>(
        "SELECT id, project_id, log_ids FROM send_windows WHERE status <> 'sent'",
      )
      .toArray()
      .map((row) => ({ id: row.id, projectId: row.project_id, logIds: JSON.parse(row.log_ids) as string[] }))
    return this.#watched
  }

  list(): SendWindowRecord[] {
    return this.sql.exec<Row>(`SELECT ${COLUMNS} FROM send_windows ORDER BY created_at, id`).toArray().map(recordOf)
  }

  get(id: string): SendWindowRecord {
    const row = this.sql.exec<Row>(`SELECT ${COLUMNS} FROM send_windows WHERE id = ?`, id).toArray()[0]
    if (!row) throw windowNotFound()
    return recordOf(row)
  }

  open(draft: NewSendWindow): SendWindowRecord {
    const open = this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM send_windows WHERE status <> 'sent'").one().n
    if (open >= OPEN_WINDOWS_LIMIT)
      throw new Problem('too-many', `${OPEN_WINDOWS_LIMIT} send windows are open: send or discard some first`)
    const now = new Date().toISOString()
    const id = crypto.randomUUID()
    // What the application asked for is what the operator sees first: nothing is "updated" yet.
    this.sql.exec(
      `INSERT INTO send_windows (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', NULL, NULL, NULL, ?, NULL, NULL, ?, NULL)`,
      id,
      draft.projectId,
      now,
      now,
      JSON.stringify(draft.logIds),
      draft.presetId,
      draft.template,
      JSON.stringify(draft.recipients),
      draft.subject,
      draft.message,
      JSON.stringify(draft.attachments),
      draft.summary,
      draft.summarySource,
      draft.summarySource,
    )
    this.#watched = undefined
    this.changed()
    return this.get(id)
  }

  /**
   * The figures of an unsent window drawn again from `source`, and its attachments' names as they
   * now read; dropped when the operator edited the draft since it was read (`updatedAt`). A window
   * whose draft never recorded what the operator saw (stored before windows followed their logs)
   * takes this as seen.
   */
  refresh(
    id: string,
    drawnFrom: { source: string; updatedAt: string },
    summary: string,
    attachments: WindowAttachment[],
  ) {
    this.sql.exec(
      "UPDATE send_windows SET summary = ?, summary_source = ?, attachments = ?, seen_source = COALESCE(seen_source, ?) WHERE id = ? AND status IN ('draft', 'failed') AND updated_at = ?",
      summary,
      drawnFrom.source,
      JSON.stringify(attachments),
      drawnFrom.source,
      id,
      drawnFrom.updatedAt,
    )
  }

  /**
   * The message as composed from the draft of `updatedAt` and the figures of `summarySource`;
   * `composed_at` moves only when it reads differently.
   */
  noteContent(id: string, contentKey: string, composedFrom: { updatedAt: string; summarySource: string | null }) {
    this.sql.exec(
      "UPDATE send_windows SET content_key = ?, composed_at = ? WHERE id = ? AND status IN ('draft', 'failed') AND content_key IS NOT ? AND updated_at = ? AND summary_source IS ?",
      contentKey,
      new Date().toISOString(),
      id,
      contentKey,
      composedFrom.updatedAt,
      composedFrom.summarySource,
    )
  }

  /** The operator looked at the window as drawn from `source`. */
  acknowledge(id: string, source: string) {
    requireEditable(this.get(id))
    this.sql.exec(
      'UPDATE send_windows SET seen_source = ?, seen_at = ? WHERE id = ?',
      source,
      new Date().toISOString(),
      id,
    )
    this.changed()
  }

  /** The operator's edits; a window being sent or already sent no longer changes. */
  edit(id: string, changes: WindowEdit): SendWindowRecord {
    const current = this.get(id)
    requireEditable(current)
    const next = { ...current, ...changes }
    this.sql.exec(
      'UPDATE send_windows SET recipients = ?, subject = ?, message = ?, attachments = ?, updated_at = ? WHERE id = ?',
      JSON.stringify(next.recipients),
      next.subject,
      next.message,
      JSON.stringify(next.attachments),
      new Date().toISOString(),
      id,
    )
    this.changed()
    return this.get(id)
  }

  /** Marks the window as being sent, so that a second Send cannot mail the same message twice. */
  claim(id: string): SendWindowRecord {
    const current = this.get(id)
    requireEditable(current)
    if (!current.recipients.length) throw conflict('Add at least one recipient before sending')
    const now = new Date().toISOString()
    this.sql.exec(
      "UPDATE send_windows SET status = 'sending', sending_since = ?, error = NULL, updated_at = ? WHERE id = ?",
      now,
      now,
      id,
    )
    this.changed()
    return this.get(id)
  }

  /** A claimed send that stopped before the provider was asked (the message had changed): a draft again. */
  release(id: string): SendWindowRecord {
    this.sql.exec(
      "UPDATE send_windows SET status = 'draft', sending_since = NULL WHERE id = ? AND status = 'sending'",
      id,
    )
    this.changed()
    return this.get(id)
  }

  finish(id: string, outcome: SendOutcome): SendWindowRecord {
    const current = this.get(id)
    if (current.status !== 'sending') throw conflict('The window is not being sent')
    const now = new Date().toISOString()
    if (outcome.sent) {
      this.#watched = undefined
      this.sql.exec(
        "UPDATE send_windows SET status = 'sent', error = NULL, sending_since = NULL, sent_at = ?, summary = ?, attachments = ?, updated_at = ? WHERE id = ?",
        now,
        outcome.summary,
        JSON.stringify(outcome.attachments),
        now,
        id,
      )
      this.changed()
    } else {
      this.fail(id, outcome.error)
    }
    return this.get(id)
  }

  /** A failed send keeps the draft as it was, with the reason to show. */
  fail(id: string, error: string) {
    this.sql.exec(
      "UPDATE send_windows SET status = 'failed', error = ?, sending_since = NULL, updated_at = ? WHERE id = ?",
      error,
      new Date().toISOString(),
      id,
    )
    this.changed()
  }

  discard(id: string) {
    const current = this.get(id)
    if (current.status === 'sending') throw conflict('The message is being sent')
    this.sql.exec('DELETE FROM send_windows WHERE id = ?', id)
    this.#watched = undefined
    this.changed()
  }

  /** Sends that never reported back become failures; true when one did. */
  expireStaleSends(now = Date.now()): boolean {
    const cutoff = new Date(now - SENDING_EXPIRES_MS).toISOString()
    const expired =
      this.sql.exec(
        "UPDATE send_windows SET status = 'failed', error = ?, sending_since = NULL WHERE status = 'sending' AND sending_since < ?",
        INTERRUPTED_SEND,
        cutoff,
      ).rowsWritten > 0
    if (expired) this.changed()
    return expired
  }
}

export function requireEditable(window: SendWindowRecord) {
  if (window.status === 'sending') throw conflict('The message is being sent')
  if (window.status === 'sent') throw conflict('The message has already been sent')
}

const recordOf = (row: Row): SendWindowRecord => ({
  id: row.id,
  projectId: row.project_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  logIds: JSON.parse(row.log_ids) as string[],
  presetId: row.preset_id,
  template: row.template,
  recipients: JSON.parse(row.recipients) as string[],
  subject: row.subject,
  message: row.message,
  attachments: JSON.parse(row.attachments) as WindowAttachment[],
  summary: row.summary,
  status: row.status,
  error: row.error,
  sentAt: row.sent_at,
  summarySource: row.summary_source,
  contentKey: row.content_key,
  composedAt: row.composed_at,
  seenSource: row.seen_source,
  seenAt: row.seen_at,
})

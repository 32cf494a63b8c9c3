/**
 * The send windows as the workspace serves them (SPEC §9): kept by windows.ts, each listed with
 * its source (its logs' revisions and its project's settings digest: what its figures were drawn
 * from), followed after writes so the console hears when an unsent window's logs moved. Composed,
 * rendered and sent by the worker. Used in the workspace's single thread.
 */
import { isEnabled } from '../schemas/settings'
import { notFound } from '../shared/problem'
import type { Changes } from './changes'
import type { Logs } from './logs'
import type { Projects } from './projects'
import type { Store } from './store'
import {
  listingOf,
  requireEditable,
  type MailSource,
  type NewSendWindow,
  type SendOutcome,
  type SendWindowListing,
  type SendWindowRecord,
  type SendWindows,
  type SourceKey,
  type WindowAttachment,
  type WindowEdit,
  type WindowSource,
} from './windows'

export class WindowDesk {
  /** Each unsent window's source key as the console last heard of it (follow). */
  #sources = new Map<string, string>()

  constructor(
    private readonly windows: SendWindows,
    private readonly store: Store,
    private readonly projects: Projects,
    private readonly logs: Logs,
    private readonly changes: Changes,
  ) {}

  /** What opening a window needs besides its logs: the settings, the e-mail preset if any. */
  mailSource(logIds: string[], presetId?: string): MailSource {
    const projectId = this.projects.requireForLogs()
    const summaries = this.logs.summaries(projectId, logIds)
    const settings = this.projects.active!.settings
    const emails = settings.emails ?? []
    const preset = presetId === undefined ? emails.find(isEnabled) : emails.find((p) => p.id === presetId)
    if (presetId !== undefined && !preset) throw notFound('Preset')
    return { projectId, settings, preset: preset ?? null, summaries, source: this.#sourceOf(projectId, logIds) }
  }

  open(draft: NewSendWindow): SendWindowListing {
    const record = this.windows.open(draft)
    this.#sources.set(record.id, this.#sourceOf(record.projectId, record.logIds))
    return this.#listing(record)
  }

  list(): SendWindowListing[] {
    this.windows.expireStaleSends()
    return this.windows.list().map((record) => this.#listing(record))
  }

  get(id: string): SendWindowListing {
    this.windows.expireStaleSends()
    return this.#listing(this.windows.get(id))
  }

  /** The window with its project's settings, for rendering attachments and the message. */
  source(id: string): WindowSource {
    return this.#source(this.windows.get(id))
  }

  edit(id: string, changes: WindowEdit): SendWindowListing {
    return this.#listing(this.windows.edit(id, changes))
  }

  /** Starts a send: the window is locked as `sending` until finish reports the outcome. */
  claim(id: string): WindowSource {
    this.windows.expireStaleSends()
    const record = this.windows.get(id)
    requireEditable(record)
    let source: WindowSource
    try {
      source = this.#source(record)
    } catch (err) {
      // A log deleted or renamed since the window opened: the draft stays, with the reason.
      this.windows.fail(id, 'A log of this message no longer exists; discard the window and open a new one.')
      throw err
    }
    return { ...source, window: this.#listing(this.windows.claim(id)) }
  }

  /**
   * A window's figures drawn again by the worker from its logs at `source`: kept only if nothing
   * was written to them since (the source has not moved), so a figure never names a version it
   * was not drawn from. No change is announced: the answer being made carries it.
   */
  refresh(id: string, source: string, updatedAt: string, summary: string, attachments: WindowAttachment[]) {
    const record = this.windows.get(id)
    if (this.#sourceOf(record.projectId, record.logIds) === source)
      this.windows.refresh(id, { source, updatedAt }, summary, attachments)
    return this.#listing(this.windows.get(id))
  }

  /**
   * The message of a window as the worker composed it (its key) from the draft of `updatedAt` and
   * the figures of `summarySource`; ignored when either moved since. The answer has `composedAt`.
   */
  noteContent(id: string, contentKey: string, updatedAt: string, summarySource: string | null) {
    this.windows.noteContent(id, contentKey, { updatedAt, summarySource })
    return this.#listing(this.windows.get(id))
  }

  /** The operator has looked at the window as drawn from `source`: it no longer says "updated". */
  acknowledge(id: string, source: string) {
    this.windows.acknowledge(id, source)
    return this.#listing(this.windows.get(id))
  }

  /** A send stopped before the provider was asked, because the message had changed: a draft again. */
  release(id: string) {
    return this.#listing(this.windows.release(id))
  }

  finish(id: string, outcome: SendOutcome) {
    return this.#listing(this.windows.finish(id, outcome))
  }

  discard(id: string) {
    this.windows.discard(id)
  }

  /**
   * After log writes and settings changes: the console hears of it when an unsent window's logs or
   * settings moved. Only the active project's are written to, so only its windows are looked at:
   * with none open this costs nothing, with some a query per log they name.
   */
  follow() {
    const active = this.projects.active?.row.id
    const sources = new Map<string, string>()
    let moved = false
    for (const { id, projectId, logIds } of this.windows.watched()) {
      const known = this.#sources.get(id)
      const source = projectId !== active && known !== undefined ? known : this.#sourceOf(projectId, logIds)
      sources.set(id, source)
      if (known !== source) moved = true
    }
    this.#sources = sources
    if (moved) this.changes.changed()
  }

  #source(record: SendWindowRecord): WindowSource {
    return {
      window: this.#listing(record),
      settings: this.projects.settingsOf(record.projectId),
      summaries: this.logs.summaries(record.projectId, record.logIds),
    }
  }

  #listing(record: SendWindowRecord): SendWindowListing {
    return listingOf(
      record,
      this.projects.settingsOf(record.projectId),
      this.#sourceOf(record.projectId, record.logIds),
    )
  }

  /** The source key of some logs of a project and its settings (SourceKey): revisions as the store keeps them. */
  #sourceOf(projectId: string, logIds: string[]): string {
    const key: SourceKey = {
      logs: logIds.map((id) => [id, this.store.revision(projectId, id) ?? null]),
      settings: this.projects.settingsDigest(projectId),
    }
    return JSON.stringify(key)
  }
}

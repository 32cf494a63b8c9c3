/**
 * The workspace's methods the operator's console reaches through the worker, each declared once
 * (declare.ts): connection requests and their approval, tokens, a production's link codes, the
 * live state, and the send windows. The worker has checked the operator before it calls any.
 */
import { conflict } from '../shared/problem'
import { noLinkCode, type AccessAsk } from './access'
import { declare } from './declare'
import { consoleState } from './parts'
import type { NewSendWindow, SendOutcome, WindowAttachment, WindowEdit } from './windows'

const notAProduction = () =>
  conflict('Link codes are a production’s: on this machine applications ask in the console and are approved there')

export const CONSOLE_CALLS = {
  // ---- access: approval here, link codes on a production

  /** POST /auth: on a production with a link code, answered at once; elsewhere held for the operator. */
  requestAccess: declare({
    who: 'worker',
    work: async (
      { store, approvals, linkCodes, tokens, changes },
      _,
      ask: AccessAsk,
      requestId?: string,
      linkCode?: string,
    ) => {
      if (store.role !== 'production') {
        const outcome = await approvals.request(ask, requestId)
        if ('failure' in outcome) throw outcome.failure
        return { token: outcome.token }
      }
      if (linkCode === undefined) throw noLinkCode()
      linkCodes.take(linkCode, ask)
      const token = await tokens.issue(ask.appName, ask.unit === true)
      changes.changed()
      return { token }
    },
  }),
  /** 403 unless a production's POST /auth brings a live link code: asked before its body is read. */
  admitLinkCode: declare({
    who: 'worker',
    work: ({ store, linkCodes }, _, code: string | undefined) => {
      if (store.role === 'production' && !(code !== undefined && linkCodes.find(code))) throw noLinkCode()
      return true as const
    },
  }),
  makeLinkCode: declare({
    who: 'worker',
    work: async ({ store, linkCodes, changes }, _, name: string, unit: boolean) => {
      if (store.role !== 'production') throw notAProduction()
      const made = await linkCodes.make(name, unit)
      changes.changed()
      return made
    },
  }),
  linkCodes: declare({
    who: 'worker',
    work: ({ store, linkCodes }) => {
      if (store.role !== 'production') throw notAProduction()
      return linkCodes.list()
    },
  }),
  revokeLinkCode: declare({
    who: 'worker',
    work: ({ linkCodes, changes }, _, id: string) => (linkCodes.revoke(id), changes.changed()),
  }),
  withdrawAccess: declare({
    who: 'worker',
    work: ({ approvals }, _, requestId: string) => approvals.withdraw(requestId),
  }),
  pendingRequests: declare({ who: 'worker', work: ({ approvals }) => approvals.list() }),
  decide: declare({
    who: 'worker',
    work: ({ approvals }, _, requestId: string, decision: 'approve' | 'deny') => approvals.decide(requestId, decision),
  }),
  connectedApps: declare({ who: 'worker', work: ({ tokens }) => tokens.list() }),
  revokeToken: declare({
    who: 'worker',
    work: ({ tokens, changes, listeners }, _, id: string) => {
      tokens.revoke(id)
      // A unit's cart listening with it hears no more (live.ts).
      listeners.revoked(id)
      changes.changed()
    },
  }),

  /** The console's long poll: as soon as the version differs from `since` (or after `timeoutMs`), all it shows. */
  consoleState: declare({
    who: 'worker',
    work: async (modules, _, since: number, timeoutMs: number) =>
      consoleState(modules, await modules.changes.after(since, timeoutMs)),
  }),

  /** DELETE /approve/watchers/{id}: a watcher that stopped or went quiet, taken off the list. */
  dismissWatcher: declare({ who: 'worker', work: ({ watchers }, _, id: string) => watchers.dismiss(id) }),

  // ---- send windows (windows.ts, window-desk.ts)

  openSendWindow: declare({ who: 'worker', work: ({ desk }, _, draft: NewSendWindow) => desk.open(draft) }),
  sendWindows: declare({ who: 'worker', work: ({ desk }) => desk.list() }),
  sendWindow: declare({ who: 'worker', work: ({ desk }, _, id: string) => desk.get(id) }),
  windowSource: declare({ who: 'worker', work: ({ desk }, _, id: string) => desk.source(id) }),
  editSendWindow: declare({
    who: 'worker',
    work: ({ desk }, _, id: string, changes: WindowEdit) => desk.edit(id, changes),
  }),
  claimSendWindow: declare({ who: 'worker', work: ({ desk }, _, id: string) => desk.claim(id) }),
  refreshSendWindow: declare({
    who: 'worker',
    work: (
      { desk },
      _,
      id: string,
      source: string,
      updatedAt: string,
      summary: string,
      attachments: WindowAttachment[],
    ) => desk.refresh(id, source, updatedAt, summary, attachments),
  }),
  noteWindowContent: declare({
    who: 'worker',
    work: ({ desk }, _, id: string, contentKey: string, updatedAt: string, summarySource: string | null) =>
      desk.noteContent(id, contentKey, updatedAt, summarySource),
  }),
  acknowledgeSendWindow: declare({
    who: 'worker',
    work: ({ desk }, _, id: string, source: string) => desk.acknowledge(id, source),
  }),
  releaseSendWindow: declare({ who: 'worker', work: ({ desk }, _, id: string) => desk.release(id) }),
  finishSendWindow: declare({
    who: 'worker',
    work: ({ desk }, _, id: string, outcome: SendOutcome) => desk.finish(id, outcome),
  }),
  discardSendWindow: declare({ who: 'worker', work: ({ desk }, _, id: string) => desk.discard(id) }),
}

/**
 * What the operator's console asks of the workspace: connection requests and their approval,
 * tokens, a production's link codes, the live state, and the send windows. The worker has checked
 * the operator before it calls any of these. The base of the Durable Object (Workspace.ts): the
 * object's modules are assembled here when it starts.
 */
import { DurableObject } from 'cloudflare:workers'
import { conflict, type Problem } from '../shared/problem'
import { noLinkCode, type AccessAsk, type LinkCodeListing } from './access'
import { answer, answerLater } from './answers'
import { Changes } from './changes'
import { assemble, consoleState, type ConsoleState, type Parts } from './parts'
import type { NewSendWindow, SendOutcome, WindowAttachment, WindowEdit } from './windows'

export class ConsoleFacade extends DurableObject<Env> {
  protected parts!: Parts
  protected readonly changes = new Changes()

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    // The set-up is synchronous; blockConcurrencyWhile takes a promise, and if the set-up throws
    // it rejects and the runtime resets the object, so nothing waits on it here.
    // eslint-disable-next-line @typescript-eslint/require-await
    void ctx.blockConcurrencyWhile(async () => {
      this.parts = assemble(ctx, env, this.changes)
      // After a restart: what was written before it and not yet sent goes at once.
      this.parts.sync.soon(0)
    })
  }

  /** Fixed when the object starts (parts.ts). */
  protected get production() {
    return this.parts.store.role === 'production'
  }

  // ---- access: approval here, link codes on a production (the worker checks the operator first)

  /** POST /auth: on a production with a link code, answered at once; elsewhere held for the operator. */
  requestAccess(ask: AccessAsk, requestId?: string, linkCode?: string) {
    if (!this.production)
      return answerLater(
        this.parts.approvals.request(ask, requestId).then((outcome) => {
          if ('failure' in outcome) throw outcome.failure
          return { token: outcome.token }
        }),
      )
    if (linkCode === undefined) return noLinkCode()
    return answerLater(
      (async () => {
        this.parts.linkCodes.take(linkCode, ask)
        const token = await this.parts.tokens.issue(ask.appName, ask.unit === true)
        this.changes.changed()
        return { token }
      })(),
    )
  }
  /** 403 unless a production's POST /auth brings a live link code: asked before its body is read. */
  admitLinkCode(code: string | undefined): true | Problem {
    if (!this.production) return true
    return code !== undefined && this.parts.linkCodes.find(code) ? true : noLinkCode()
  }
  makeLinkCode(name: string, unit: boolean) {
    if (!this.production) return notAProduction()
    return answerLater(this.parts.linkCodes.make(name, unit).then((made) => (this.changes.changed(), made)))
  }
  linkCodes(): LinkCodeListing[] | Problem {
    return this.production ? this.parts.linkCodes.list() : notAProduction()
  }
  revokeLinkCode(id: string) {
    return answer(() => (this.parts.linkCodes.revoke(id), this.changes.changed()))
  }
  withdrawAccess(requestId: string) {
    this.parts.approvals.withdraw(requestId)
  }
  pendingRequests() {
    return this.parts.approvals.list()
  }
  decide(requestId: string, decision: 'approve' | 'deny') {
    return answerLater(this.parts.approvals.decide(requestId, decision))
  }
  connectedApps() {
    return this.parts.tokens.list()
  }
  revokeToken(id: string) {
    return answer(() => (this.parts.tokens.revoke(id), this.changes.changed()))
  }

  /** The console's long poll: as soon as the version differs from `since` (or after `timeoutMs`), all it shows. */
  async consoleState(since: number, timeoutMs: number): Promise<ConsoleState> {
    return consoleState(this.parts, await this.changes.after(since, timeoutMs))
  }

  openSendWindow(draft: NewSendWindow) {
    return answer(() => this.parts.desk.open(draft))
  }
  sendWindows() {
    return answer(() => this.parts.desk.list())
  }
  sendWindow(id: string) {
    return answer(() => this.parts.desk.get(id))
  }
  windowSource(id: string) {
    return answer(() => this.parts.desk.source(id))
  }
  editSendWindow(id: string, changes: WindowEdit) {
    return answer(() => this.parts.desk.edit(id, changes))
  }
  claimSendWindow(id: string) {
    return answer(() => this.parts.desk.claim(id))
  }
  refreshSendWindow(id: string, source: string, updatedAt: string, summary: string, attachments: WindowAttachment[]) {
    return answer(() => this.parts.desk.refresh(id, source, updatedAt, summary, attachments))
  }
  noteWindowContent(id: string, contentKey: string, updatedAt: string, summarySource: string | null) {
    return answer(() => this.parts.desk.noteContent(id, contentKey, updatedAt, summarySource))
  }
  acknowledgeSendWindow(id: string, source: string) {
    return answer(() => this.parts.desk.acknowledge(id, source))
  }
  releaseSendWindow(id: string) {
    return answer(() => this.parts.desk.release(id))
  }
  finishSendWindow(id: string, outcome: SendOutcome) {
    return answer(() => this.parts.desk.finish(id, outcome))
  }
  discardSendWindow(id: string) {
    return answer(() => this.parts.desk.discard(id))
  }
}

const notAProduction = () =>
  conflict('Link codes are a production’s: on this machine applications ask in the console and are approved there')

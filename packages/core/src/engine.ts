import { resolveActor } from './access/actor.ts'
import { loadProfile } from './access/profile.ts'
import { sweepAttachments } from './attachments/sweep.ts'
import { CATALOGUE } from './catalogue.ts'
import { postSystemComment } from './comments/service.ts'
import { advanceCycles, type CycleAdvance } from './cycles/maintenance.ts'
import { sharedSecret } from './kernel/auth/shared-secret.ts'
import { createEngineCore, type EngineBase } from './kernel/pipeline/engine.ts'
import type { EngineOptions } from './kernel/pipeline/engine-options.ts'
import { type MailPass, mailPass } from './mail/run.ts'
import type { MailCounts } from './mail/storage.ts'
import { UNSUBSCRIBE_KEY, unsubscribe } from './mail/unsubscribe.ts'
import {
  type NotifierLoop,
  type NotifierPass,
  notifyAll,
  remindAll,
  startNotifierLoop,
} from './notifications/run.ts'
import type { ConsentId } from './oauth/store.ts'
import { type RulePass, runRules } from './rules/run.ts'
import { createStreamBroker, type StreamBroker } from './streams/broker.ts'
import { automateTasks, type TaskAutomationPass } from './tasks/automation/automation.ts'
import {
  runScheduler,
  type SchedulerLoop,
  type SchedulerPass,
  startSchedulerLoop,
} from './templates/scheduler.ts'
import { runTransfers, type TransferOptions, type TransferPass } from './transfers/runner.ts'

/** The engine: the kernel's pipeline over the whole catalogue, with live streams and time-driven work. */
export interface Engine extends EngineBase {
  /** Live streams of this process (SSE), created on first use. */
  readonly streams: StreamBroker
  /**
   * Deletes what has expired (idempotency records older than 24 h, spent OAuth codes and tokens,
   * events older than `streams.retentionDays`, protocol sessions unseen for a day, attachments of deleted
   * records with their bytes); hosts call it
   * now and then.
   */
  prune(): Promise<{
    idempotencyKeys: number
    oauth: number
    events: number
    sessions: number
    /** Attachments of deleted records, removed with their bytes. */
    attachments: number
  }>
  /** Ends live streams and stops their timers. */
  close(): Promise<void>
  /**
   * Time-driven cycle work: completes cycles whose end has passed (rolling unfinished tasks over)
   * and creates upcoming cycles by each team's cadence. Hosts call it every few minutes; events it
   * writes have `actorId: null`.
   */
  advanceCycles(options?: { onError?: (error: unknown) => void }): Promise<CycleAdvance>
  /**
   * The teams' auto-close and auto-archive (docs/triage.md): open tasks unchanged for a team's
   * `autoCloseDays` move to its first canceled state, tasks closed and unchanged for `autoArchiveDays`
   * are archived, in transactions of `batch` tasks (default 100). Several engines may run it at once; each change
   * is made once. Hosts call it every hour or so; its events and history have `actorId: null`.
   */
  automateTasks(options?: { batch?: number; onError?: (error: unknown) => void }): Promise<TaskAutomationPass>
  /**
   * One notifier pass: brings every workspace's notifications up to the end of its event log
   * (docs/notifications.md). Each batch commits with the notifier's new position, so a crash loses
   * and doubles nothing; tests call it to run the notifier deterministically.
   */
  notify(options?: { onError?: (error: unknown) => void }): Promise<NotifierPass>
  /**
   * One pass of the automation rules (docs/rules.md): runs the rules every workspace's new events
   * trigger, up to the end of its log, each run once however many engines run the pass. Tests call it
   * to run the rules deterministically; hosts run `startRules`.
   */
  runRules(options?: { onError?: (error: unknown) => void }): Promise<RulePass>
  /** Runs the rules in the background every `everyMs` (default 2 s); hosts stop it on shutdown. */
  startRules(options?: { everyMs?: number; onError?: (error: unknown) => void }): SchedulerLoop
  /** Due-soon and overdue reminders for today (UTC, by the engine's clock), once per task, kind and day. */
  remindDue(options?: { onError?: (error: unknown) => void }): Promise<NotifierPass>
  /**
   * Runs the notifier in the background: a pass on every hub wake-up and every `pollMs` (default
   * 5 s), reminders every `remindEveryMs` (default an hour). Hosts start it once and stop it on shutdown;
   * `onPass` hears what each pass did (the reference server logs it at debug level).
   */
  startNotifier(options?: {
    pollMs?: number
    remindEveryMs?: number
    onError?: (error: unknown) => void
    onPass?: (kind: 'notify' | 'remind', pass: NotifierPass) => void
  }): NotifierLoop
  /**
   * One scheduler pass (docs/templates.md): creates the task of every due occurrence of recurring
   * work, exactly once however many engines run it, and delivers due task reminders as notifications.
   * Tests call it to run the scheduler deterministically against the engine's clock.
   */
  schedule(options?: { onError?: (error: unknown) => void }): Promise<SchedulerPass>
  /**
   * Runs the scheduler in the background every `everyMs` (default a minute); hosts stop it on
   * shutdown. `onPass` hears what each pass did.
   */
  startScheduler(options?: {
    everyMs?: number
    onError?: (error: unknown) => void
    onPass?: (pass: SchedulerPass) => void
  }): SchedulerLoop
  /**
   * One pass of the export and import job (docs/exports-imports.md): steps every unfinished export
   * and import from its checkpoint. `maxSteps` stops early, so tests can interrupt it.
   */
  transfer(options?: TransferOptions): Promise<TransferPass>
  /** Runs the transfer job in the background every `everyMs` (default 2 s); hosts stop it on shutdown. */
  startTransfers(options?: { everyMs?: number; onError?: (error: unknown) => void }): SchedulerLoop
  /**
   * One pass of mail delivery of notifications (docs/mail.md) through the engine's mailer: instant
   * mail for new notifications, the daily digests due by the engine's clock, then sending what is
   * due (retries with backoff). Exactly once across engines; tests call it to run mail deterministically.
   */
  mail(options?: { onError?: (error: unknown) => void }): Promise<MailPass>
  /** Runs mail delivery in the background every `everyMs` (default 10 s); hosts with a mail transport start it. */
  startMail(options?: { everyMs?: number; onError?: (error: unknown) => void }): SchedulerLoop
  /** The outbox as the operator sees it: pending, retrying and given-up mail, and the last error. */
  mailStatus(): Promise<MailCounts>
  /**
   * RFC 8058 one-click unsubscribe: verifies the link's signed token and turns the person's mail off.
   * False, changing nothing, for a forged or altered token.
   */
  unsubscribeMail(token: string): Promise<boolean>
}

/** How long an unseen protocol session's row is kept; handlers refuse idle ones sooner. */
const SESSION_RETENTION_MS = 86_400_000

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const core = await createEngineCore(options, {
    catalogue: CATALOGUE,
    resolveActor,
    findTenant: (store, orgId) => store.orgs.get(orgId),
    loadProfile,
    accessTokenIsLive: (store, jti, grantId) =>
      store.oauth.accessTokenIsLive(jti, grantId as ConsentId | null),
  })
  const { storage, hub, cursors, config, clock } = core
  let broker: StreamBroker | undefined
  return {
    config,
    storage,
    hub,
    tokens: core.tokens,
    limiter: core.limiter,
    mailer: core.mailer,
    rateLimitStore: core.rateLimitStore,
    operations: core.operations,
    clock,
    execute: core.execute,
    get streams() {
      broker ??= createStreamBroker({ storage, hub, cursors, config: config.streams, clock })
      return broker
    },
    async prune() {
      const { idempotencyKeys, events } = await core.pruneLogs()
      const oauth = await storage.transaction((s) => s.oauth.prune(clock().toISOString()))
      // Protocol sessions (MCP) unseen for a day: longer than any handler's idle limit.
      const idleBefore = new Date(clock().getTime() - SESSION_RETENTION_MS).toISOString()
      const sessions = await storage.transaction((s) => s.protocolSessions.prune(idleBefore))
      const attachments = await sweepAttachments(storage, core.config)
      return { idempotencyKeys, oauth, events, sessions, attachments }
    },
    advanceCycles(opts = {}) {
      const sweep = {
        ended: (now: string, limit: number) => storage.read((s) => s.cycles.ended(now, limit)),
        teamsWithCadence: () => storage.read((s) => s.cycles.teamsWithCadence()),
      }
      return advanceCycles(sweep, core.runAsSystem, clock().toISOString(), opts.onError)
    },
    automateTasks(opts = {}) {
      const sweep = { teams: () => storage.read((s) => s.taskAutomation.teams()), explain: postSystemComment }
      return automateTasks(sweep, core.runAsSystem, opts)
    },
    notify(opts = {}) {
      return notifyAll(storage, core.runAsSystem, opts.onError)
    },
    runRules(opts = {}) {
      return runRules(storage, core.runAsSystem, opts.onError)
    },
    startRules(opts = {}) {
      const onError = opts.onError ?? ((error: unknown) => console.error('rules failed', error))
      return startSchedulerLoop({
        pass: () => runRules(storage, core.runAsSystem, onError),
        everyMs: opts.everyMs ?? 2_000,
        onError,
      })
    },
    remindDue(opts = {}) {
      return remindAll(storage, core.runAsSystem, clock(), opts.onError)
    },
    startNotifier(opts = {}) {
      const onError = opts.onError ?? ((error: unknown) => console.error('notifier failed', error))
      return startNotifierLoop({
        hub,
        notify: () => notifyAll(storage, core.runAsSystem, onError),
        remind: () => remindAll(storage, core.runAsSystem, clock(), onError),
        pollMs: opts.pollMs ?? 5_000,
        remindEveryMs: opts.remindEveryMs ?? 3_600_000,
        onError,
        onPass: opts.onPass,
      })
    },
    schedule(opts = {}) {
      return runScheduler(storage, core.runAsSystem, clock(), opts.onError)
    },
    startScheduler(opts = {}) {
      const onError = opts.onError ?? ((error: unknown) => console.error('scheduler failed', error))
      return startSchedulerLoop({
        pass: () => runScheduler(storage, core.runAsSystem, clock(), onError),
        everyMs: opts.everyMs ?? 60_000,
        onError,
        onPass: opts.onPass,
      })
    },
    transfer(opts = {}) {
      return runTransfers(storage, core.runAsSystem, opts)
    },
    startTransfers(opts = {}) {
      const onError = opts.onError ?? ((error: unknown) => console.error('transfers failed', error))
      return startSchedulerLoop({
        pass: () => runTransfers(storage, core.runAsSystem, { onError }),
        everyMs: opts.everyMs ?? 2_000,
        onError,
      })
    },
    mail(opts = {}) {
      return mailPass({ storage, mailer: core.mailer, baseUrl: config.baseUrl, clock, ...opts })
    },
    startMail(opts = {}) {
      const onError = opts.onError ?? ((error: unknown) => console.error('mail failed', error))
      return startSchedulerLoop({
        pass: () => mailPass({ storage, mailer: core.mailer, baseUrl: config.baseUrl, clock, onError }),
        everyMs: opts.everyMs ?? 10_000,
        onError,
      })
    },
    mailStatus() {
      return storage.read((s) => s.mail.counts())
    },
    async unsubscribeMail(token) {
      const key = await sharedSecret(storage, UNSUBSCRIBE_KEY, clock)
      return unsubscribe(storage, key, token, clock().toISOString())
    },
    async close() {
      broker?.close()
    },
  }
}

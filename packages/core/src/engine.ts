import { loadProfile } from './access/profile.ts'
import { CATALOGUE } from './catalogue.ts'
import { advanceCycles, type CycleAdvance } from './cycles/maintenance.ts'
import { createEngineCore, type EngineBase, type EngineOptions } from './kernel/engine.ts'
import { resolveActor } from './orgs/actor.ts'
import { createStreamBroker, type StreamBroker } from './streams/broker.ts'

/** The engine: the kernel's pipeline over the whole catalogue, with live streams and time-driven work. */
export interface Engine extends EngineBase {
  /** Live streams of this process (SSE), created on first use. */
  readonly streams: StreamBroker
  /**
   * Deletes what has expired (idempotency records older than 24 h, spent OAuth codes and tokens,
   * events older than `streams.retentionDays`, protocol sessions unseen for a day); hosts call it
   * now and then.
   */
  prune(): Promise<{ idempotencyKeys: number; oauth: number; events: number; sessions: number }>
  /** Ends live streams and stops their timers. */
  close(): Promise<void>
  /**
   * Time-driven cycle work: completes cycles whose end has passed (rolling unfinished tasks over)
   * and creates upcoming cycles by each team's cadence. Hosts call it every few minutes; events it
   * writes have `actorId: null`.
   */
  advanceCycles(options?: { onError?: (error: unknown) => void }): Promise<CycleAdvance>
}

/** How long an unseen protocol session's row is kept; handlers refuse idle ones sooner. */
const SESSION_RETENTION_MS = 86_400_000

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const core = await createEngineCore(options, {
    catalogue: CATALOGUE,
    resolveActor,
    findTenant: (store, orgId) => store.orgs.get(orgId),
    loadProfile,
  })
  const { storage, hub, cursors, config, clock } = core
  let broker: StreamBroker | undefined
  return {
    config,
    storage,
    hub,
    tokens: core.tokens,
    limiter: core.limiter,
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
      return { idempotencyKeys, oauth, events, sessions }
    },
    advanceCycles(opts = {}) {
      const sweep = {
        ended: (now: string, limit: number) => storage.read((s) => s.cycles.ended(now, limit)),
        teamsWithCadence: () => storage.read((s) => s.cycles.teamsWithCadence()),
      }
      return advanceCycles(sweep, core.runAsSystem, clock().toISOString(), opts.onError)
    },
    async close() {
      broker?.close()
    },
  }
}

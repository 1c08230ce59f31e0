import type { Principal } from '../auth/principal.ts'
import { sharedSecret } from '../auth/shared-secret.ts'
import { createTokenService, type TokenService } from '../auth/tokens.ts'
import { type ContextDeps, createContext, type EventBuffer } from '../context.ts'
import { appendEvents, transactionWithEvents } from '../events/commit.ts'
import { createMemoryEventHub, type EventHub, type HubNotice } from '../events/events.ts'
import { hookReader } from '../hooks.ts'
import type { OrgId } from '../ids.ts'
import { createConsoleMailer, type Mailer } from '../mailer.ts'
import {
  type AnyOperation,
  type EngineConfig,
  isOrgScoped,
  isWrite,
  type OperationContext,
  type Tenant,
} from '../operation.ts'
import { CursorCodec } from '../pagination.ts'
import type { Actor, PermissionModel } from '../permissions.ts'
import { ProblemError } from '../problems.ts'
import type { IdempotencyLookup, Storage, Store } from '../storage.ts'
import { etagMatches, etagOf } from './canonical.ts'
import { type CompiledOperation, compileOperation } from './compile-operation.ts'
import { DiscardChanges } from './discard.ts'
import { type EngineOptions, engineConfig, type KernelPorts } from './engine-options.ts'
import type { ExecuteOptions, ExecuteResult, RawInput } from './execution.ts'
import {
  IDEMPOTENCY_WINDOW_MS,
  idempotencyLookup,
  idempotentRequest,
  rememberResponse,
  replayOf,
} from './idempotency.ts'
import {
  createMemoryRateLimitStore,
  createRateLimiter,
  type RateLimiter,
  type RateLimitStore,
} from './rate-limit.ts'
import { checkConditionalHeaders, checkPrecondition, checkScope } from './request-checks.ts'

type InvokeInput = { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown }

/** What every host and the OAuth server use of an engine: its settings, storage, tokens and pipeline. */
export interface EngineBase {
  readonly config: EngineConfig
  readonly storage: Storage
  readonly hub: EventHub
  readonly tokens: TokenService
  readonly limiter: RateLimiter
  /** Sends the service's mail (invitations, sign-up and password-reset links). */
  readonly mailer: Mailer
  /** The counters behind every rate limit of this engine (API, sign-in, registration). */
  readonly rateLimitStore: RateLimitStore
  readonly operations: readonly AnyOperation[]
  /** The engine's clock (tests move it). */
  readonly clock: () => Date
  /** Runs one operation through the whole pipeline. Throws `ProblemError` for every client failure. */
  execute(
    operationId: string,
    input: RawInput,
    principal: Principal | null,
    options?: ExecuteOptions,
  ): Promise<ExecuteResult>
}

/** The kernel's engine, which the composition root completes with the groups' time-driven work. */
export interface EngineCore extends EngineBase {
  /** Signs list and stream cursors with the secret every instance shares. */
  readonly cursors: CursorCodec
  /** Runs `fn` with no actor in one transaction of the org; an archived or missing org is left alone. */
  runAsSystem<T>(orgId: OrgId, fn: (ctx: OperationContext) => Promise<T>): Promise<T | null>
  /** Deletes idempotency records older than 24 h and events older than `streams.retentionDays`. */
  pruneLogs(): Promise<{ idempotencyKeys: number; events: number }>
}

export async function createEngineCore(options: EngineOptions, ports: KernelPorts): Promise<EngineCore> {
  const { catalogue, resolveActor } = ports
  const permissions: PermissionModel = {
    loadProfile: ports.loadProfile,
    targets: catalogue.targets,
    hook: hookReader(catalogue.hooks),
  }
  const config = engineConfig(options.config)
  const { storage } = options
  const hub = options.hub ?? createMemoryEventHub()
  const clock = options.clock ?? (() => new Date())
  const mailer = options.mailer ?? createConsoleMailer()
  const cursors = new CursorCodec(Buffer.from(await sharedSecret(storage, 'cursor-key', clock), 'base64url'))
  const tokens = await createTokenService({
    storage,
    accessTokenIsLive: ports.accessTokenIsLive,
    issuer: config.baseUrl,
    audiences: [`${config.baseUrl}/v1`, `${config.baseUrl}/mcp`],
    clock,
  })
  const rateLimitStore = options.rateLimitStore ?? createMemoryRateLimitStore()
  const limiter = createRateLimiter({ ...config.rateLimit, store: rateLimitStore })
  const compiled = new Map<string, CompiledOperation>(
    catalogue.operations.map((op) => [op.id, compileOperation(op)]),
  )

  const operationOf = (id: string) => compiled.get(id)?.operation

  async function execute(
    operationId: string,
    raw: RawInput,
    principal: Principal | null,
    opts: ExecuteOptions = {},
  ): Promise<ExecuteResult> {
    const entry = compiled.get(operationId)
    if (!entry) throw new Error(`Unknown operation ${operationId}`)
    const { operation } = entry
    const input = await (async () => {
      try {
        checkConditionalHeaders(operation, opts)
        const parsed = entry.parse(raw)
        checkScope(operation, principal)
        return parsed
      } catch (error) {
        // A refusal before the first read answers a dead token's 401 first, as a checked token would.
        await tokens.confirmLive(principal)
        throw error
      }
    })()
    // A deferred token check rides on the org's standing read (`resolveActor`); without one, on its own.
    if (!isOrgScoped(operation)) await tokens.confirmLive(principal)
    const now = clock().toISOString()

    const idempotency =
      opts.idempotencyKey && operation.method === 'POST' && isWrite(operation)
        ? idempotentRequest(opts.idempotencyKey, operationId, principal, input)
        : null

    // The org, actor and capability checks, shared by the outbound step's read and the run; with
    // `lookup`, the Idempotency-Key's stored answer is read with the org (undefined when it was not).
    const checkedContext = async (store: Store, events: EventBuffer, lookup?: IdempotencyLookup) => {
      const { org, actor, known, replay } = await resolveActor(
        store,
        operation,
        input.params,
        principal,
        lookup,
      )
      const deps: ContextDeps = {
        store,
        principal,
        now,
        cursors,
        config,
        events,
        mailer,
        hub,
        permissions,
        operationOf,
        invoke: (id: string, raw: InvokeInput, as: Actor) => invoke(ctx, events, id, raw, as),
      }
      if (operation.perWorkspace) deps.separately = (other, as, fn) => runSeparately(deps, other, as, fn)
      const ctx = createContext(deps, org, actor, known)
      const prefetched = operation.prefetch ? await operation.prefetch(ctx, input) : undefined
      if (prefetched) input.prefetched = prefetched.read
      if (operation.capability) {
        const target = operation.target?.(input) ?? { type: 'org' as const }
        await ctx.require(operation.capability, target, prefetched?.containers)
      }
      return { ctx, replay }
    }

    if (operation.outbound) {
      const step = operation.outbound
      const prepared = await storage.read(async (store) =>
        step.prepare((await checkedContext(store, new Map())).ctx, input),
      )
      input.outbound = await step.send(prepared, config)
    }

    const runIn = async (store: Store): Promise<{ result: ExecuteResult; notices: HubNotice[] }> => {
      const events: EventBuffer = new Map()
      // The key's lock, for the rest of the transaction, comes before the stored answer is read, so
      // that the answer is current: the org's standing read takes it and reads the answer after it;
      // a write that holds no transaction (`perWorkspace`) only looks.
      const lookup = idempotency
        ? idempotencyLookup(idempotency, clock(), !operation.perWorkspace)
        : undefined
      const { ctx, replay } = await checkedContext(store, events, lookup)
      if (idempotency && lookup) {
        let stored = replay
        if (stored === undefined) {
          // Not read with a standing (an operation outside an org): the lock, then the answer.
          if (lookup.lock) await store.locks.acquire(lookup.lock)
          stored = await store.idempotency.get(lookup.principalKey, lookup.key, lookup.notBefore)
        }
        const answer = replayOf(idempotency, stored)
        if (answer) return { result: answer, notices: [] }
      }
      if (operation.precondition)
        await checkPrecondition(ctx, operationOf, operation.precondition, input.params, opts.ifMatch)

      const body = await operation.run(ctx, input)
      const etag = (operation.etag || operation.precondition) && body !== undefined ? etagOf(body) : undefined
      const result: ExecuteResult = {
        status: operation.status,
        body: body ?? null,
        ...(etag ? { etag } : {}),
      }
      if (operation.perWorkspace && events.size > 0)
        throw new Error(`${operation.id} emits events outside ctx.transactionIn`)
      // The answer is stored before the events: their append is the transaction's last statement.
      if (idempotency) await rememberResponse(store, idempotency, result, now)
      return { result, notices: await appendEvents(store, events) }
    }

    let outcome: { result: ExecuteResult; notices: HubNotice[] }
    try {
      outcome =
        isWrite(operation) && !operation.perWorkspace
          ? await storage.transaction(runIn)
          : await storage.read(runIn)
    } catch (error) {
      // A dry run: everything ran and was rolled back; its answer stands, no event was written.
      if (!(error instanceof DiscardChanges)) throw error
      outcome = { result: { status: operation.status, body: error.body }, notices: [] }
    }
    const { result, notices } = outcome
    for (const notice of notices) hub.publish(notice)
    if (
      result.etag &&
      opts.ifNoneMatch &&
      operation.method === 'GET' &&
      etagMatches(opts.ifNoneMatch, result.etag)
    ) {
      return { status: 304, body: null, etag: result.etag }
    }
    return result
  }

  /** One workspace's part of a `perWorkspace` operation: its own transaction, its events published at commit. */
  async function runSeparately<T>(
    deps: ContextDeps,
    org: Tenant,
    actor: Actor,
    fn: (ctx: OperationContext) => Promise<T>,
  ): Promise<T> {
    // Inside, `transactionIn` shares this transaction.
    return transactionWithEvents(storage, hub, (store, events) =>
      fn(createContext({ ...deps, store, events, separately: undefined }, org, actor)),
    )
  }

  /**
   * Runs an operation as another actor (an agent acting in a work session) inside the caller's
   * transaction. Both the agent and the person driving it must hold the capability, and the
   * person's token the scope: acting through an agent never exceeds the person.
   */
  async function invoke(
    parent: OperationContext,
    events: EventBuffer,
    operationId: string,
    raw: InvokeInput,
    actor: Actor,
  ): Promise<unknown> {
    const entry = compiled.get(operationId)
    const operation = entry?.operation
    // People run any operation of their workspace this way (plans); agents only work, not administration.
    // An operation that calls another service cannot run inside the caller's transaction.
    if (
      !entry ||
      !operation ||
      !isOrgScoped(operation) ||
      operation.outbound ||
      (actor.kind === 'agent' && !catalogue.agentTags.has(operation.tag))
    ) {
      throw new ProblemError('rule_violated', `Agents cannot run \`${operationId}\`.`, {
        errors: [{ pointer: '/body/operationId', message: 'Not an operation an agent may run' }],
      })
    }
    checkScope(operation, parent.principal)
    const input = entry.parse({ ...raw, params: { ...raw.params, orgId: parent.org!.id } })
    const child = createContext(
      {
        store: parent.store,
        principal: parent.principal,
        now: parent.now,
        cursors,
        config,
        events,
        mailer,
        hub,
        permissions,
        operationOf,
        invoke: parent.invoke,
      },
      parent.org,
      actor,
    )
    if (operation.capability) {
      const target = operation.target?.(input) ?? { type: 'org' as const }
      await child.require(operation.capability, target)
      await parent.require(operation.capability, target)
    }
    if (operation.precondition)
      await checkPrecondition(child, operationOf, operation.precondition, input.params, undefined)
    return (await operation.run(child, input)) ?? null
  }

  async function pruneLogs() {
    const before = new Date(clock().getTime() - IDEMPOTENCY_WINDOW_MS).toISOString()
    const idempotencyKeys = await storage.transaction((s) => s.idempotency.prune(before))
    const retainFrom = new Date(clock().getTime() - config.streams.retentionDays * 86_400_000).toISOString()
    const events = await storage.transaction((s) => s.events.prune(retainFrom))
    return { idempotencyKeys, events }
  }

  async function runAsSystem<T>(orgId: OrgId, fn: (ctx: OperationContext) => Promise<T>): Promise<T | null> {
    const now = clock().toISOString()
    return transactionWithEvents(storage, hub, async (store, events) => {
      const org = await ports.findTenant(store, orgId)
      if (!org || org.archivedAt) return null
      const invoke = () => Promise.reject(new Error('The system does not act through agents'))
      const deps = {
        store,
        principal: null,
        now,
        cursors,
        config,
        events,
        mailer,
        operationOf,
        invoke,
        hub,
        permissions,
      }
      return fn(createContext(deps, org, null))
    })
  }

  return {
    config,
    storage,
    hub,
    tokens,
    limiter,
    mailer,
    rateLimitStore,
    operations: catalogue.operations,
    clock,
    cursors,
    execute,
    runAsSystem,
    pruneLogs,
  }
}

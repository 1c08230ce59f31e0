import { randomBytes } from 'node:crypto'
import { canonicalJson, etagMatches, etagOf, sha256 } from './canonical.ts'
import { OPERATIONS } from './catalogue.ts'
import { type CompiledOperation, compileOperation } from './compile-operation.ts'
import { createMemoryEventHub, type EventHub, type HubNotice, type NewEvent } from './events.ts'
import { newId, type OrgId } from './ids.ts'
import {
  type AnyOperation,
  type EngineConfig,
  isOrgScoped,
  isWrite,
  type OperationContext,
} from './operation.ts'
import { CursorCodec } from './pagination.ts'
import { requireCapability } from './permissions.ts'
import type { Principal } from './principal.ts'
import { notFound, ProblemError } from './problems.ts'
import { createRateLimiter, type RateLimiter, type RateLimitStore } from './rate-limit.ts'
import type { Storage, Store } from './storage.ts'
import { createTokenService, type TokenService } from './tokens.ts'

export interface RawInput {
  params?: Record<string, unknown>
  query?: Record<string, unknown>
  body?: unknown
}

export interface ExecuteOptions {
  ifMatch?: string
  ifNoneMatch?: string
  idempotencyKey?: string
}

export interface ExecuteResult {
  status: number
  body: unknown
  etag?: string
  /** True when an `Idempotency-Key` replayed a stored response. */
  replayed?: boolean
}

export interface Engine {
  readonly config: EngineConfig
  readonly storage: Storage
  readonly hub: EventHub
  readonly tokens: TokenService
  readonly limiter: RateLimiter
  readonly operations: readonly AnyOperation[]
  /** Runs one operation through the whole pipeline. Throws `ProblemError` for every client failure. */
  execute(
    operationId: string,
    input: RawInput,
    principal: Principal | null,
    options?: ExecuteOptions,
  ): Promise<ExecuteResult>
}

export interface EngineOptions {
  storage: Storage
  config: Partial<EngineConfig> & Pick<EngineConfig, 'baseUrl'>
  hub?: EventHub
  rateLimitStore?: RateLimitStore
  clock?: () => Date
}

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const config: EngineConfig = {
    version: '0.1.0',
    maxBodyBytes: 1_048_576,
    rateLimit: { limit: 600, windowSeconds: 60 },
    ...options.config,
    baseUrl: options.config.baseUrl.replace(/\/+$/, ''),
  }
  const { storage } = options
  const hub = options.hub ?? createMemoryEventHub()
  const clock = options.clock ?? (() => new Date())
  const cursors = new CursorCodec(Buffer.from(await sharedSecret(storage, 'cursor-key', clock), 'base64url'))
  const tokens = await createTokenService({
    storage,
    issuer: config.baseUrl,
    audiences: [`${config.baseUrl}/v1`, `${config.baseUrl}/mcp`],
    clock,
  })
  const limiter = createRateLimiter({
    ...config.rateLimit,
    ...(options.rateLimitStore ? { store: options.rateLimitStore } : {}),
  })
  const compiled = new Map<string, CompiledOperation>(OPERATIONS.map((op) => [op.id, compileOperation(op)]))

  async function execute(
    operationId: string,
    raw: RawInput,
    principal: Principal | null,
    opts: ExecuteOptions = {},
  ): Promise<ExecuteResult> {
    const entry = compiled.get(operationId)
    if (!entry) throw new Error(`Unknown operation ${operationId}`)
    const { operation } = entry
    const input = entry.parse(raw)
    checkScope(operation, principal)
    const now = clock().toISOString()

    const principalKey = principal ? `${principal.userId}:${principal.clientId ?? ''}` : 'anonymous'
    const idempotency =
      opts.idempotencyKey && operation.method === 'POST'
        ? {
            key: opts.idempotencyKey,
            hash: sha256(canonicalJson({ op: operationId, params: input.params, body: input.body })),
          }
        : null
    if (idempotency) {
      const replay = await findReplay(storage, principalKey, idempotency, operationId, clock)
      if (replay) return replay
    }

    const runIn = async (store: Store): Promise<{ result: ExecuteResult; notices: HubNotice[] }> => {
      const events = new Map<OrgId, NewEvent[]>()
      const ctx = await contextFor(store, operation, input.params, principal, now)
      ctx.emit = (event, orgId) => {
        const target = orgId ?? ctx.org?.id
        if (!target) throw new Error(`${operationId} emitted an event outside an org`)
        const list = events.get(target) ?? []
        list.push({ ...event, id: newId('EventId'), createdAt: now, actorId: ctx.actor?.id ?? null })
        events.set(target, list)
      }
      if (operation.capability)
        await ctx.require(operation.capability, operation.target?.(input) ?? { type: 'org' })
      if (opts.ifMatch && operation.precondition) {
        const current = await compiled
          .get(operation.precondition)!
          .operation.run(ctx, { params: input.params, query: {}, body: undefined })
        if (!etagMatches(opts.ifMatch, etagOf(current))) {
          throw new ProblemError(
            'precondition_failed',
            'The resource has changed since the ETag in If-Match was read.',
          )
        }
      }
      const body = await operation.run(ctx, input)
      const etag = (operation.etag || operation.precondition) && body !== undefined ? etagOf(body) : undefined
      const result: ExecuteResult = {
        status: operation.status,
        body: body ?? null,
        ...(etag ? { etag } : {}),
      }
      const notices: HubNotice[] = []
      for (const [orgId, list] of events) {
        const stored = await store.events.append(orgId, list)
        notices.push({ orgId, seq: stored[stored.length - 1]!.seq })
      }
      if (idempotency) {
        const stored = await store.idempotency.put({
          principalKey,
          key: idempotency.key,
          operationId,
          requestHash: idempotency.hash,
          status: result.status,
          body: result.body,
          etag: result.etag ?? null,
          createdAt: now,
        })
        if (!stored) throw new IdempotencyRace()
      }
      return { result, notices }
    }

    try {
      const { result, notices } = isWrite(operation)
        ? await storage.transaction(runIn)
        : await storage.read(runIn)
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
    } catch (error) {
      if (error instanceof IdempotencyRace && idempotency) {
        const replay = await findReplay(storage, principalKey, idempotency, operationId, clock)
        if (replay) return replay
      }
      throw error
    }
  }

  async function contextFor(
    store: Store,
    operation: AnyOperation,
    params: Record<string, unknown>,
    principal: Principal | null,
    now: string,
  ): Promise<OperationContext> {
    const ctx: OperationContext = {
      store,
      principal,
      org: null,
      actor: null,
      now,
      cursors,
      config,
      emit: () => {
        throw new Error('emit is set per execution')
      },
      async require(capability, target) {
        if (!ctx.actor)
          throw new ProblemError('capability_required', `This action needs the \`${capability}\` capability.`)
        await requireCapability(store, ctx.actor, capability, target)
      },
    }
    if (!isOrgScoped(operation)) return ctx
    const orgId = params.orgId as OrgId
    const org = await store.orgs.get(orgId)
    const member = org && principal ? await store.members.findByUser(orgId, principal.userId) : null
    // Not a member and no such org look the same, so membership cannot be probed.
    if (!org || !member || member.status !== 'active') throw notFound('Org')
    if (org.archivedAt && isWrite(operation) && operation.id !== 'orgs.restore') {
      throw new ProblemError('archived', 'The workspace is archived and read-only; restore it first.')
    }
    ctx.org = org
    ctx.actor = member
    return ctx
  }

  return { config, storage, hub, tokens, limiter, operations: OPERATIONS, execute }
}

class IdempotencyRace extends Error {}

function checkScope(operation: AnyOperation, principal: Principal | null): void {
  if (!operation.scope) return
  if (!principal) throw new ProblemError('unauthenticated', 'Send `Authorization: Bearer <access token>`.')
  if (!principal.scopes.has(operation.scope)) {
    throw new ProblemError('insufficient_scope', `This operation needs the \`${operation.scope}\` scope.`, {
      extensions: { requiredScope: operation.scope },
    })
  }
}

async function findReplay(
  storage: Storage,
  principalKey: string,
  idempotency: { key: string; hash: string },
  operationId: string,
  clock: () => Date,
): Promise<ExecuteResult | null> {
  const notBefore = new Date(clock().getTime() - IDEMPOTENCY_WINDOW_MS).toISOString()
  const record = await storage.read((s) => s.idempotency.get(principalKey, idempotency.key, notBefore))
  if (!record) return null
  if (record.requestHash !== idempotency.hash || record.operationId !== operationId) {
    throw new ProblemError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request.',
    )
  }
  return {
    status: record.status,
    body: record.body,
    ...(record.etag ? { etag: record.etag } : {}),
    replayed: true,
  }
}

/** A random secret stored once and shared by every instance; under a race the first insert wins. */
export async function sharedSecret(storage: Storage, name: string, clock: () => Date): Promise<string> {
  const existing = await storage.read((s) => s.secrets.list(name))
  const found = existing.find((s) => s.name === name)
  if (found) return found.value
  await storage.transaction((s) =>
    s.secrets.insert({
      name,
      value: randomBytes(32).toString('base64url'),
      createdAt: clock().toISOString(),
    }),
  )
  const after = await storage.read((s) => s.secrets.list(name))
  return after.find((s) => s.name === name)!.value
}

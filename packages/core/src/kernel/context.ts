import type { Principal } from './auth/principal.ts'
import type { EventHub, NewEvent } from './events/events.ts'
import { newId, type OrgId } from './ids.ts'
import type { Mailer } from './mailer.ts'
import type { AnyOperation, EngineConfig, OperationContext, Tenant } from './operation.ts'
import type { CursorCodec } from './pagination.ts'
import {
  type AccessProfile,
  type Actor,
  containersOf,
  type KnownAccess,
  type PermissionModel,
  readScope,
  requireCapability,
} from './permissions.ts'
import { notFound, ProblemError } from './problems.ts'
import type { ReadScope } from './read-scope.ts'
import type { IdempotencyLookup, IdempotencyRecord, Store } from './storage.ts'

/** Events queued by one execution, per org, appended just before commit. */
export type EventBuffer = Map<OrgId, NewEvent[]>

export interface ContextDeps {
  store: Store
  principal: Principal | null
  now: string
  cursors: CursorCodec
  config: EngineConfig
  events: EventBuffer
  invoke: OperationContext['invoke']
  operationOf: OperationContext['operationOf']
  mailer: Mailer
  hub: EventHub
  permissions: PermissionModel
  /** Set for `perWorkspace` operations: runs one workspace's part in a transaction of its own. */
  separately?: OperationContext['transactionIn']
}

/**
 * Finds the org of an operation under `/v1/orgs/{orgId}` and the caller's Actor in it; the access
 * group provides it. It answers 404 for a missing org and a non-member alike. `known`: the actor's
 * teams and grants, read in the same statement as the org (one round trip fewer per request).
 * `replay`: an Idempotency-Key's stored answer, read with them when `idempotency` asks for it
 * (undefined when it was not read).
 */
export type ActorResolver = (
  store: Store,
  operation: AnyOperation,
  params: Record<string, unknown>,
  principal: Principal | null,
  idempotency?: IdempotencyLookup,
) => Promise<{
  org: Tenant | null
  actor: Actor | null
  known?: KnownAccess
  replay?: IdempotencyRecord | null
}>

/**
 * The context one operation runs in, for one actor; the access profile is loaded at most once, from
 * `known` (the actor's teams and grants, read by this request) when given.
 */
export function createContext(
  deps: ContextDeps,
  org: Tenant | null,
  actor: Actor | null,
  known?: KnownAccess,
): OperationContext {
  let profile: Promise<AccessProfile> | undefined
  const access = () => {
    if (!actor) throw new Error('This operation has no actor')
    profile ??= deps.permissions.loadProfile(deps.store, actor, known)
    return profile
  }
  const ctx: OperationContext = {
    store: deps.store,
    principal: deps.principal,
    org,
    actor,
    now: deps.now,
    cursors: deps.cursors,
    config: deps.config,
    mailer: deps.mailer,
    emit(event, orgId) {
      const target = orgId ?? org?.id
      if (!target) throw new Error('An event was emitted outside an org')
      const list = deps.events.get(target) ?? []
      const id = newId('EventId')
      list.push({
        ...event,
        teamId: event.teamId ?? null,
        id,
        createdAt: deps.now,
        actorId: actor?.id ?? null,
      })
      deps.events.set(target, list)
      return id
    },
    async require(capability, target, containers) {
      if (!actor)
        throw new ProblemError('capability_required', `This action needs the \`${capability}\` capability.`)
      await requireCapability(deps.permissions, deps.store, await access(), capability, target, containers)
    },
    access,
    async containersOf(target) {
      if (!org) throw new Error('This operation runs outside an org')
      return containersOf(deps.permissions, deps.store, org.id, target)
    },
    async scope(): Promise<ReadScope> {
      return readScope(await access())
    },
    invoke: deps.invoke,
    operationOf: deps.operationOf,
    within: (other, as, knownThere) => createContext(deps, other, as, knownThere),
    transactionIn: (other, as, fn) =>
      deps.separately ? deps.separately(other, as, fn) : fn(createContext(deps, other, as)),
    hub: deps.hub,
    hook: deps.permissions.hook,
  }
  return ctx
}

export type { EventHub }

/**
 * The workspace of an operation under `/v1/orgs/{orgId}`: every org-scoped read and write filters by
 * its id. Outside an org (a caller's own account) it is a 404, like a workspace that does not exist.
 */
export function currentOrg(ctx: OperationContext): Tenant {
  if (!ctx.org) throw notFound('Org')
  return ctx.org
}

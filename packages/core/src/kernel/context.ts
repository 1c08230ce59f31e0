import type { Org } from '../orgs/schemas.ts'
import type { EventHub, NewEvent } from './events.ts'
import { newId, type OrgId } from './ids.ts'
import type { Mailer } from './mailer.ts'
import {
  type AnyOperation,
  type EngineConfig,
  isOrgScoped,
  isWrite,
  type OperationContext,
} from './operation.ts'
import type { CursorCodec } from './pagination.ts'
import {
  type AccessProfile,
  type Actor,
  loadProfile,
  type ReadScope,
  readScope,
  requireCapability,
} from './permissions.ts'
import type { Principal } from './principal.ts'
import { notFound, ProblemError } from './problems.ts'
import type { Store } from './storage.ts'

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
}

/** The context one operation runs in, for one actor; the access profile is loaded at most once. */
export function createContext(deps: ContextDeps, org: Org | null, actor: Actor | null): OperationContext {
  let profile: Promise<AccessProfile> | undefined
  const access = () => {
    if (!actor) throw new Error('This operation has no actor')
    profile ??= loadProfile(deps.store, actor)
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
      list.push({
        ...event,
        teamId: event.teamId ?? null,
        id: newId('EventId'),
        createdAt: deps.now,
        actorId: actor?.id ?? null,
      })
      deps.events.set(target, list)
    },
    async require(capability, target) {
      if (!actor)
        throw new ProblemError('capability_required', `This action needs the \`${capability}\` capability.`)
      await requireCapability(deps.store, await access(), capability, target)
    },
    access,
    async scope(): Promise<ReadScope> {
      return readScope(await access())
    },
    invoke: deps.invoke,
    operationOf: deps.operationOf,
    hub: deps.hub,
  }
  return ctx
}

/**
 * The org and the caller's Actor for an operation under `/v1/orgs/{orgId}`. A missing org, a
 * non-member and an inactive member all get the same 404, so membership cannot be probed.
 */
export async function resolveActor(
  store: Store,
  operation: AnyOperation,
  params: Record<string, unknown>,
  principal: Principal | null,
): Promise<{ org: Org | null; actor: Actor | null }> {
  if (!isOrgScoped(operation)) return { org: null, actor: null }
  const orgId = params.orgId as OrgId
  const org = await store.orgs.get(orgId)
  const member = org && principal ? await store.members.findByUser(orgId, principal.userId) : null
  if (!org || !member || member.status !== 'active') throw notFound('Org')
  if (org.archivedAt && isWrite(operation) && operation.id !== 'orgs.restore') {
    throw new ProblemError('archived', 'The workspace is archived and read-only; restore it first.')
  }
  const actor: Actor = {
    id: member.id,
    kind: 'person',
    orgId,
    role: member.role,
    userId: member.userId,
    name: member.name,
  }
  return { org, actor }
}

export type { EventHub }

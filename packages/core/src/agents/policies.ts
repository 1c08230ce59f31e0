import type { Agent, ContainerApprovalPolicy } from '../access/schemas.ts'
import type { Capability } from '../kernel/capabilities.ts'
import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import type { AgentId, ApprovalPolicyId, MemberId, TeamId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import type { CapabilityTarget, Container } from '../kernel/permissions.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'
import type { ApprovalPolicyFilter } from './storage.ts'

type PolicyInput = Pick<ContainerApprovalPolicy, 'containerType' | 'containerId'> &
  Partial<Pick<ContainerApprovalPolicy, 'operations' | 'capabilities' | 'agentIds' | 'approverCapability'>>
type PolicyPatch = Partial<
  Pick<ContainerApprovalPolicy, 'operations' | 'capabilities' | 'agentIds' | 'approverCapability'>
>

function containerTarget(
  p: Pick<ContainerApprovalPolicy, 'containerType' | 'containerId'>,
): CapabilityTarget {
  return p.containerType === 'org' ? { type: 'org' } : { type: p.containerType, id: p.containerId }
}

/** Visible to whoever can view its container; a policy on a team or project the caller cannot see is a 404. */
export async function requirePolicy(
  ctx: OperationContext,
  id: ApprovalPolicyId,
): Promise<ContainerApprovalPolicy> {
  const policy = await ctx.store.approvalPolicies.get(currentOrg(ctx).id, id)
  if (!policy) throw notFound('Approval policy')
  await ctx.require('view', containerTarget(policy)).catch(() => {
    throw notFound('Approval policy')
  })
  return policy
}

export async function listPolicies(
  ctx: OperationContext,
  query: ApprovalPolicyFilter & { cursor?: string; limit?: number },
): Promise<Page<ContainerApprovalPolicy>> {
  const orgId = currentOrg(ctx).id
  if (query.containerType && query.containerType !== 'org' && !query.containerId) {
    throw new ProblemError('rule_violated', 'A team or project filter names the container.', {
      errors: [{ pointer: '/query/containerId', message: 'Required with containerType team or project' }],
    })
  }
  const filter: ApprovalPolicyFilter = {}
  if (query.containerType) filter.containerType = query.containerType
  if (query.containerId) filter.containerId = query.containerType === 'org' ? orgId : query.containerId
  // Policies are listed per container the caller can view: the org's (every member), or one team's or project's.
  if (filter.containerType && filter.containerType !== 'org')
    await ctx.require('view', containerTarget(filter as ContainerApprovalPolicy))
  else if (!filter.containerType) await ctx.require('manage', { type: 'org' })
  return readPage(ctx, {
    scope: ['approvalPolicies.list', orgId, filter],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (p: ContainerApprovalPolicy) => p.id,
    fetch: (page) => ctx.store.approvalPolicies.list(orgId, filter, page),
  })
}

async function checkAgents(ctx: OperationContext, agentIds: readonly string[] | undefined) {
  const orgId = currentOrg(ctx).id
  for (const [i, id] of (agentIds ?? []).entries()) {
    if (!(await ctx.store.agents.get(orgId, id as AgentId))) {
      throw referenceNotFound(
        `/body/agentIds/${i}`,
        'No agent of this workspace has that id.',
        'Unknown agent',
      )
    }
  }
}

function checkOperations(ctx: OperationContext, operations: readonly string[] | undefined) {
  const unknown = (operations ?? []).flatMap((id, i) => (ctx.operationOf(id) ? [] : [i]))
  if (unknown.length > 0) {
    throw new ProblemError('rule_violated', 'Policies name operations of the catalogue.', {
      errors: unknown.map((i) => ({ pointer: `/body/operations/${i}`, message: 'Unknown operation' })),
    })
  }
}

/** A policy must gate something: an empty one would hold nothing and only confuse readers. */
function checkNotEmpty(policy: Pick<ContainerApprovalPolicy, 'operations' | 'capabilities'>) {
  if (policy.operations.length === 0 && policy.capabilities.length === 0) {
    throw new ProblemError('rule_violated', 'A policy names at least one operation or capability.', {
      errors: [{ pointer: '/body/operations', message: 'Name an operation or a capability' }],
    })
  }
}

export async function createPolicy(
  ctx: OperationContext,
  input: PolicyInput,
): Promise<ContainerApprovalPolicy> {
  const orgId = currentOrg(ctx).id
  if (input.containerType === 'org' && input.containerId !== orgId) {
    throw referenceNotFound(
      '/body/containerId',
      'An org policy applies to this workspace: use its id.',
      'Not this workspace',
    )
  }
  // The container is named by the body: missing or hidden, it is a 422 at its field (as the 404 of a
  // path would be); a visible container without `manage` is a 403.
  const container = containerTarget(input)
  await ctx.require(
    'manage',
    container.type === 'org' ? container : { ...container, pointer: '/body/containerId' },
  )
  checkOperations(ctx, input.operations)
  await checkAgents(ctx, input.agentIds)
  const policy: ContainerApprovalPolicy = {
    id: newId('ApprovalPolicyId'),
    orgId,
    containerType: input.containerType,
    containerId: input.containerId,
    operations: [...new Set(input.operations ?? [])],
    capabilities: [...new Set(input.capabilities ?? [])],
    agentIds: [...new Set(input.agentIds ?? [])] as AgentId[],
    approverCapability: input.approverCapability ?? 'manage',
    version: 1,
    createdBy: ctx.actor!.id as MemberId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  checkNotEmpty(policy)
  await ctx.store.approvalPolicies.insert(policy)
  ctx.emit({
    kind: 'approval_policy.created',
    resourceType: 'approval_policy',
    resourceId: policy.id,
    teamId: policy.containerType === 'team' ? (policy.containerId as TeamId) : undefined,
    data: { approvalPolicy: policy },
  })
  return policy
}

/** Pending requests keep the version they were created under; only new actions see the change. */
export async function updatePolicy(
  ctx: OperationContext,
  id: ApprovalPolicyId,
  patch: PolicyPatch,
): Promise<ContainerApprovalPolicy> {
  const policy = await requirePolicy(ctx, id)
  await ctx.require('manage', containerTarget(policy))
  checkOperations(ctx, patch.operations)
  await checkAgents(ctx, patch.agentIds)
  const changed = Object.fromEntries(
    Object.entries(patch).filter(
      ([k, v]) => JSON.stringify(policy[k as keyof ContainerApprovalPolicy]) !== JSON.stringify(v),
    ),
  ) as PolicyPatch
  if (Object.keys(changed).length === 0) return policy
  const next = { ...policy, ...changed, version: policy.version + 1, updatedAt: ctx.now }
  checkNotEmpty(next)
  await ctx.store.approvalPolicies.update(policy.orgId, policy.id, {
    ...changed,
    version: next.version,
    updatedAt: ctx.now,
  })
  ctx.emit({
    kind: 'approval_policy.updated',
    resourceType: 'approval_policy',
    resourceId: policy.id,
    teamId: policy.containerType === 'team' ? (policy.containerId as TeamId) : undefined,
    data: { approvalPolicy: next, changes: changesOf(policy, changed) },
  })
  return next
}

export async function deletePolicy(ctx: OperationContext, id: ApprovalPolicyId): Promise<void> {
  const policy = await requirePolicy(ctx, id)
  await ctx.require('manage', containerTarget(policy))
  await ctx.store.approvalPolicies.delete(policy.orgId, policy.id)
  ctx.emit({
    kind: 'approval_policy.deleted',
    resourceType: 'approval_policy',
    resourceId: policy.id,
    teamId: policy.containerType === 'team' ? (policy.containerId as TeamId) : undefined,
    data: { approvalPolicy: policy },
  })
}

/** Why an action waits: the agent's own policy, or a container's (the first that matches, oldest first). */
export type Gate = { policy: ContainerApprovalPolicy | null; approverCapability: Capability | null }

/**
 * Decides whether an agent's action needs approval. The agent's own policy gates it anywhere; a
 * container's policy gates it on the records that container holds (the action's target).
 */
export async function gateFor(
  ctx: OperationContext,
  agent: Agent,
  operation: { id: string; capability?: Capability },
  target: CapabilityTarget,
): Promise<Gate | null> {
  const matches = (p: { operations: readonly string[]; capabilities: readonly Capability[] }) =>
    p.operations.includes(operation.id) ||
    (operation.capability !== undefined && p.capabilities.includes(operation.capability))
  if (matches(agent.approvalPolicy)) return { policy: null, approverCapability: null }
  const containers: Container[] = (await ctx.containersOf(target)) ?? []
  const policies = await ctx.store.approvalPolicies.onContainers(agent.orgId, containers)
  const policy = policies.find(
    (p) => (p.agentIds.length === 0 || p.agentIds.includes(agent.id)) && matches(p),
  )
  return policy ? { policy, approverCapability: policy.approverCapability } : null
}

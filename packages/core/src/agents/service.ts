import type { Agent, ApprovalPolicy } from '../access/schemas.ts'
import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import type { AgentId, MemberId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import type { Actor } from '../kernel/permissions.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'

export async function requireAgent(ctx: OperationContext, agentId: AgentId): Promise<Agent> {
  const agent = await ctx.store.agents.get(currentOrg(ctx).id, agentId)
  if (!agent) throw notFound('Agent')
  return agent
}

/** The agent as an Actor: it holds grants like a person, and no role. */
export function agentActor(agent: Agent): Actor {
  if (agent.status !== 'active')
    throw new ProblemError('agent_inactive', 'The agent is deactivated; reactivate it first.')
  return { id: agent.id, kind: 'agent', orgId: agent.orgId, role: null, userId: null, name: agent.name }
}

export async function listAgents(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number; status?: Agent['status'] },
): Promise<Page<Agent>> {
  const orgId = currentOrg(ctx).id
  const filter = query.status ? { status: query.status } : {}
  return readPage(ctx, {
    scope: ['agents.list', orgId, filter],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (a: Agent) => a.id,
    fetch: (page) => ctx.store.agents.list(orgId, filter, page),
  })
}

export async function createAgent(
  ctx: OperationContext,
  input: { name: string; description?: string | null; approvalPolicy?: ApprovalPolicy },
): Promise<Agent> {
  const agent: Agent = {
    id: newId('AgentId'),
    orgId: currentOrg(ctx).id,
    kind: 'agent',
    name: input.name,
    description: input.description ?? null,
    status: 'active',
    // By default an agent asks before anything that needs `manage`, and before deleting work.
    approvalPolicy: input.approvalPolicy ?? { capabilities: ['manage'], operations: ['tasks.delete'] },
    createdBy: ctx.actor!.id as MemberId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.agents.insert(agent)
  ctx.emit({ kind: 'agent.created', resourceType: 'agent', resourceId: agent.id, data: { agent } })
  return agent
}

export async function updateAgent(
  ctx: OperationContext,
  agentId: AgentId,
  patch: Partial<Pick<Agent, 'name' | 'description' | 'approvalPolicy' | 'status'>>,
  kind = 'agent.updated',
): Promise<Agent> {
  const agent = await requireAgent(ctx, agentId)
  const changed = Object.fromEntries(
    Object.entries(patch).filter(([k, v]) => JSON.stringify(agent[k as keyof Agent]) !== JSON.stringify(v)),
  )
  if (Object.keys(changed).length === 0) return agent
  await ctx.store.agents.update(agent.orgId, agent.id, { ...changed, updatedAt: ctx.now })
  const next = { ...agent, ...changed, updatedAt: ctx.now }
  ctx.emit({
    kind,
    resourceType: 'agent',
    resourceId: agent.id,
    data: { agent: next, changes: changesOf(agent, changed) },
  })
  return next
}

import type { ActorId, AgentId, OrgId } from '../kernel/ids.ts'
import { isId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Member } from '../orgs/schemas.ts'

/** What access needs of an agent: that it exists, and its name. */
export interface AgentFacts {
  id: AgentId
  name: string
}

/** Reads one agent of the org, or null. */
export type AgentReader = (
  ctx: OperationContext,
  orgId: OrgId,
  agentId: AgentId,
) => Promise<AgentFacts | null>

// Agents sit above access in the groups' layering: this group may not read their storage, so the
// agents group fills this hook.
declare module '../kernel/hooks.ts' {
  interface Hooks {
    'access.agent': AgentReader
  }
}

/** The actor an id names in the org: a member (removed ones included: they keep their name) or an agent. */
export type FoundActor = { kind: 'person'; member: Member } | { kind: 'agent'; agent: AgentFacts }

/** The member or agent `actorId` names in the org, or null: the one actor lookup every group shares. */
export async function findActor(
  ctx: OperationContext,
  orgId: OrgId,
  actorId: ActorId | string,
): Promise<FoundActor | null> {
  if (isId('MemberId', actorId)) {
    const member = await ctx.store.members.get(orgId, actorId)
    return member ? { kind: 'person', member } : null
  }
  if (isId('AgentId', actorId)) {
    const agent = await ctx.hook('access.agent')(ctx, orgId, actorId)
    return agent ? { kind: 'agent', agent } : null
  }
  return null
}

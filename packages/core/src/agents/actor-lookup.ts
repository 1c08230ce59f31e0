import type { AgentReader } from '../access/actors.ts'

/**
 * The agents' part of the one actor lookup (`access/actors.ts`): access sits below agents and cannot
 * read their storage, so this group fills the hook `access.agent`.
 */
export const readActorAgent: AgentReader = async (ctx, orgId, agentId) => {
  const agent = await ctx.store.agents.get(orgId, agentId)
  return agent ? { id: agent.id, name: agent.name } : null
}

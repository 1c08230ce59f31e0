import { registerAgentReader } from '../access/actors.ts'

/**
 * The agents' part of the one actor lookup (`access/actors.ts`): access sits below agents and cannot
 * read their storage, so this group hands the lookup in.
 */
registerAgentReader(async (ctx, orgId, agentId) => {
  const agent = await ctx.store.agents.get(orgId, agentId)
  return agent ? { id: agent.id, name: agent.name } : null
})

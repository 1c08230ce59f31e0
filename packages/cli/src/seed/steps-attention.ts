import type { SeedContext } from './context.ts'

/**
 * What waits for you on minute one beyond your tasks: an agent's action held at the approval gate
 * (driven by a teammate when there are teammates), and today's plan.
 */
export function attentionSteps(ctx: SeedContext): void {
  const { ids, step, count } = ctx
  const bot = () => ids.agents.get('Triage Bot')!
  step('grant:triage-bot', 'Triage Bot may work on Field Ops', async (key) => {
    const body = {
      subjectType: 'agent',
      subjectId: bot(),
      containerType: 'team',
      containerId: ids.teams.get('OPS'),
      capability: 'contribute',
    }
    await ctx.api.post(`${ctx.org()}/grants`, body, key)
  })
  let sessionId = ''
  // Driving an agent takes the agents:run scope: a teammate's token has it, and `workgraph login` asks for it.
  const canDrive = () => ctx.withTeammates || ctx.scopes.includes('agents:run')
  step('agent-session', 'Triage Bot looks at ticket 4712', async (key) => {
    if (!canDrive()) {
      ctx.notes.push('No approval waiting: your sign-in lacks the agents:run scope to run Triage Bot.')
      return
    }
    const body = {
      agentId: bot(),
      taskId: ids.tasks.get('ticket-4712'),
      title: 'Close duplicate support tickets',
    }
    sessionId = (await ctx.as('maya').post(`${ctx.org()}/agent-sessions`, body, key)).id
    count('agent sessions')
  })
  step('agent-action', 'Triage Bot asks to archive a duplicate', async (key) => {
    if (!sessionId) return
    // The bot's policy holds tasks.archive for a person's approval: this creates the request.
    await ctx
      .as('maya')
      .post(
        `${ctx.org()}/agent-sessions/${sessionId}/actions`,
        { operationId: 'tasks.archive', params: { taskId: ids.tasks.get('ticket-4712') } },
        key,
      )
    count('approvals waiting')
  })
  step('plan', 'Your plan for today', async (key) => {
    const day = ctx.day(0)
    await ctx.api.post(
      `/v1/me/daily-plan/${day}/items`,
      {
        task: { orgId: ids.org, key: ids.taskKeys.get('gripper-drift') },
        timeBlock: { start: '09:00', end: '10:30' },
        source: 'suggested:overdue',
      },
      key,
    )
    await ctx.api.post(
      `/v1/me/daily-plan/${day}/items`,
      { text: 'Read the OTA rollout plan before the Lyon call' },
      `${key}:text`,
    )
    count('plan items', 2)
  })
}

import type { SeedContext } from './context.ts'
import { DEMO_AGENTS, DEMO_LABELS, DEMO_TEAMS } from './demo-data.ts'

const DAY = 86_400_000

/** The workspace, its teams and workflow states, labels, Engineering's two cycles, and the agents. */
export function workspaceSteps(ctx: SeedContext, workspaceName: string): void {
  const { api, ids, step, count } = ctx
  step('org', `Workspace “${workspaceName}”`, async (key) => {
    const created = await api.post('/v1/orgs', { name: workspaceName }, key)
    ids.org = created.id
    ids.slug = created.slug ?? ''
  })
  step('me', 'You in the workspace', async () => {
    const me = await api.get<{
      user: { name: string }
      memberships: { orgId: string; memberId: string }[]
      token: { scopes: string[] }
    }>('/v1/me')
    ctx.scopes = me.token.scopes
    const membership = me.memberships.find((m) => m.orgId === ids.org)
    if (membership) ids.members.set('me', membership.memberId)
    ctx.handle = me.user.name.replace(/\s+/g, '').toLowerCase()
  })

  for (const team of DEMO_TEAMS) {
    step(`team:${team.key}`, `Team ${team.name}`, async (key) => {
      const created = await api.post(
        `${ctx.org()}/teams`,
        { name: team.name, key: team.key, description: team.description },
        key,
      )
      ids.teams.set(team.key, created.id)
      const states = await api.get(`${ctx.org()}/teams/${created.id}/states`)
      for (const state of states.data) ids.states.set(`${team.key}/${state.name}`, state.id)
      count('teams')
    })
    for (const state of team.states) {
      step(`state:${team.key}:${state.name}`, `Workflow state ${team.key} ${state.name}`, async (key) => {
        const created = await api.post(`${ctx.org()}/teams/${ids.teams.get(team.key)}/states`, state, key)
        ids.states.set(`${team.key}/${state.name}`, created.id)
        count('workflow states')
      })
    }
  }

  for (const label of DEMO_LABELS) {
    step(`label:${label.name}`, `Label ${label.name}`, async (key) => {
      const body = {
        name: label.name,
        color: label.color,
        ...(label.isGroup ? { isGroup: true } : {}),
        ...(label.group ? { parentId: ids.labels.get(label.group) } : {}),
      }
      ids.labels.set(label.name, (await api.post(`${ctx.org()}/labels`, body, key)).id)
      count('labels')
    })
  }

  const cycles = [
    { name: 'current', title: 'Release 4.2 hardening', start: 0 },
    { name: 'next', title: 'Release 4.3', start: 14 },
  ]
  for (const cycle of cycles) {
    step(`cycle:${cycle.name}`, `Cycle ${cycle.title}`, async (key) => {
      const body = {
        name: cycle.title,
        startsAt: new Date(ctx.anchor.getTime() + cycle.start * DAY).toISOString(),
        endsAt: new Date(ctx.anchor.getTime() + (cycle.start + 14) * DAY).toISOString(),
      }
      ids.cycles.set(
        cycle.name,
        (await api.post(`${ctx.org()}/teams/${ids.teams.get('ENG')}/cycles`, body, key)).id,
      )
      count('cycles')
    })
  }

  for (const agent of DEMO_AGENTS) {
    step(`agent:${agent.name}`, `Agent ${agent.name}`, async (key) => {
      ids.agents.set(agent.name, (await api.post(`${ctx.org()}/agents`, agent, key)).id)
      count('agents')
    })
  }
}

import type { AgentId, MemberId, TaskId, TeamId } from '../ids.ts'
import type { OperationContext } from '../operation.ts'
import { ProblemError } from '../problems.ts'
import type { Team, WorkflowState } from '../schemas/teams.ts'
import { currentOrg } from '../services/orgs.ts'
import { requireTeam } from '../services/teams.ts'
import { matchName } from './match.ts'

/**
 * Name look-ups for one workspace, as the caller: every candidate list is read with the caller's
 * ReadScope, so a name the caller cannot view resolves exactly like a name that does not exist.
 * REST (`names.resolve`), plans and the MCP tools share these rules.
 */

/** How many records a look-up considers; workspaces past this use ids. */
const MAX_CANDIDATES = 1000
const page = <S extends string>(sort: S) => ({
  sort,
  direction: 'asc' as const,
  after: null,
  limit: MAX_CANDIDATES,
})

export const NAME_KINDS = ['team', 'state', 'person', 'task', 'agent'] as const
export type NameKind = (typeof NAME_KINDS)[number]

export interface Resolved {
  kind: NameKind
  id: string
  /** The name a person reads: `ENG-42 Fix login`, `Ada Lovelace <ada@example.com>`. */
  label: string
}

/** A team by id, key (`ENG`) or name. */
export async function resolveTeam(ctx: OperationContext, ref: string, pointer = ''): Promise<Team> {
  const orgId = currentOrg(ctx).id
  const teams = await ctx.store.teams.list(orgId, { archived: null }, page('id'), await ctx.scope())
  return matchName(
    'team',
    ref,
    teams.map((t) => ({ value: t, id: t.id, names: [t.key, t.name], label: `${t.key} (${t.name})` })),
    pointer,
  )
}

/** A workflow state of a team, by id or name. */
export async function resolveState(
  ctx: OperationContext,
  teamId: TeamId,
  ref: string,
  pointer = '',
): Promise<WorkflowState> {
  const team = await requireTeam(ctx, teamId)
  const states = await ctx.store.states.listForTeam(team.orgId, team.id, { includeArchived: false })
  return matchName(
    `state of ${team.key}`,
    ref,
    states.map((s) => ({ value: s, id: s.id, names: [s.name], label: `${s.name} (${s.category})` })),
    pointer,
  )
}

/** An active person of the workspace by id, email, name, or `me` for the caller. */
export async function resolvePerson(ctx: OperationContext, ref: string, pointer = ''): Promise<MemberId> {
  if (ref.trim().toLowerCase() === 'me' && ctx.actor?.kind === 'person') return ctx.actor.id as MemberId
  const orgId = currentOrg(ctx).id
  const members = await ctx.store.members.list(orgId, { status: 'active' }, page('id'))
  return matchName(
    'person',
    ref,
    members.map((m) => ({
      value: m.id,
      id: m.id,
      names: [m.email, m.name],
      label: `${m.name} <${m.email}>`,
    })),
    pointer,
  )
}

/** A task by id or key (`ENG-42`, current or previous); keys match case-insensitively. */
export async function resolveTask(
  ctx: OperationContext,
  ref: string,
  pointer = '',
): Promise<{ id: TaskId; key: string; title: string }> {
  const orgId = currentOrg(ctx).id
  const scope = await ctx.scope()
  const trimmed = ref.trim()
  const key = /^([A-Za-z][A-Za-z0-9]{0,6})-([1-9][0-9]{0,9})$/.exec(trimmed)
  if (key) {
    // Current and previous keys (a task moved to another team keeps answering to its old key).
    const id = await ctx.store.taskKeys.resolve(orgId, trimmed)
    const task = id ? await ctx.store.tasks.get(orgId, id, scope) : null
    if (task) return task
  } else if (trimmed.startsWith('task_')) {
    const task = await ctx.store.tasks.get(orgId, trimmed as TaskId, scope)
    if (task) return task
  }
  return matchName('task', trimmed, [], pointer)
}

/** An agent of the workspace by id or name. */
export async function resolveAgent(ctx: OperationContext, ref: string, pointer = ''): Promise<AgentId> {
  const orgId = currentOrg(ctx).id
  const agents = await ctx.store.agents.list(orgId, {}, page('id'))
  return matchName(
    'agent',
    ref,
    agents.map((a) => ({ value: a.id, id: a.id, names: [a.name], label: a.name })),
    pointer,
  )
}

/** One name of any kind; states need their team (`teamRef`, itself a name or id). */
export async function resolveName(
  ctx: OperationContext,
  kind: NameKind,
  name: string,
  teamRef?: string,
): Promise<Resolved> {
  switch (kind) {
    case 'team': {
      const t = await resolveTeam(ctx, name, '/query/name')
      return { kind, id: t.id, label: `${t.key} (${t.name})` }
    }
    case 'state': {
      if (!teamRef) throw missingTeam()
      const team = await resolveTeam(ctx, teamRef, '/query/team')
      const s = await resolveState(ctx, team.id, name, '/query/name')
      return { kind, id: s.id, label: `${team.key} ${s.name}` }
    }
    case 'person': {
      const id = await resolvePerson(ctx, name, '/query/name')
      const m = await ctx.store.members.get(currentOrg(ctx).id, id)
      return { kind, id, label: m ? `${m.name} <${m.email}>` : id }
    }
    case 'task': {
      const t = await resolveTask(ctx, name, '/query/name')
      return { kind, id: t.id, label: `${t.key} ${t.title}` }
    }
    case 'agent': {
      const id = await resolveAgent(ctx, name, '/query/name')
      return { kind, id, label: name }
    }
  }
}

function missingTeam(): ProblemError {
  return new ProblemError('validation_failed', 'A state is named within its team: give `team` too.', {
    errors: [{ pointer: '/query/team', message: 'Required for a state' }],
  })
}

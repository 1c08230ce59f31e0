import type { Cycle } from '../cycles/schemas.ts'
import { toCycle } from '../cycles/service.ts'
import { currentOrg } from '../kernel/context.ts'
import type { AgentId, MemberId, TaskId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { Label } from '../labels/schemas.ts'
import type { Team, WorkflowState } from '../teams/schemas.ts'
import { requireTeam } from '../teams/service.ts'
import { page } from './candidates.ts'
import { resolveInitiative, resolveMilestone, resolveProgram, resolveProject } from './container-refs.ts'
import { matchName } from './match.ts'

/**
 * Name look-ups for one workspace, as the caller: every candidate list is read with the caller's
 * ReadScope, so a name the caller cannot view resolves exactly like a name that does not exist.
 * REST (`names.resolve`), plans and the MCP tools share these rules.
 */

export const NAME_KINDS = [
  'team',
  'state',
  'person',
  'task',
  'agent',
  'label',
  'cycle',
  'project',
  'milestone',
  'program',
  'initiative',
] as const
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

/**
 * An active label by id or name (`Bug`, or `Size/Large` for a label of a group). With `teamId`, only
 * labels that apply to that team's tasks count (the org's and the team's own), and the team's own
 * label wins over an org label of the same name. Without it, every label the caller can see counts:
 * one name used by several teams is ambiguous and the candidates name their teams.
 */
export async function resolveLabel(
  ctx: OperationContext,
  ref: string,
  teamId?: TeamId,
  pointer = '',
  /** Look among archived labels instead (the one to restore). */
  archived = false,
): Promise<Label> {
  const orgId = currentOrg(ctx).id
  const scope = await ctx.scope()
  const labels = await ctx.store.labels.list(
    orgId,
    { archived, ...(teamId ? { appliesToTeamId: teamId } : {}) },
    page('name'),
    scope,
  )
  const teams = new Map(
    (await ctx.store.teams.list(orgId, { archived: null }, page('id'), scope)).map((t) => [t.id, t.key]),
  )
  const groups = new Map(labels.filter((l) => l.isGroup).map((l) => [l.id, l.name]))
  const candidates = labels.map((l) => {
    const group = l.parentId ? groups.get(l.parentId) : undefined
    const name = group ? `${group}/${l.name}` : l.name
    const owner = l.teamId ? (teams.get(l.teamId) ?? 'another team') : 'workspace'
    return {
      value: l,
      id: l.id,
      names: [l.name, name, group ? `${group} / ${l.name}` : null],
      label: `${name} (${owner})`,
    }
  })
  if (teamId) {
    const wanted = ref.trim().toLowerCase()
    const own = candidates.filter(
      (c) => c.value.teamId === teamId && c.names.some((n) => n?.toLowerCase() === wanted),
    )
    if (own.length === 1) return own[0]!.value
  }
  return matchName('label', ref, candidates, pointer)
}

/** Words that name a cycle by when it runs rather than by its number or name. */
export const CYCLE_WORDS = ['current', 'next', 'previous'] as const

/**
 * A cycle of a team by id, number (`3`, `#3`, `Cycle 3`), name, or `current` (the active one),
 * `next` (the first upcoming one), `previous` (the last one that ended). Cycles are as visible as
 * their team, so a team the caller cannot see has no cycles to name.
 */
export async function resolveCycle(
  ctx: OperationContext,
  teamId: TeamId,
  ref: string,
  pointer = '',
): Promise<Cycle> {
  const team = await requireTeam(ctx, teamId)
  const records = await ctx.store.cycles.list(
    team.orgId,
    { teamId, archived: null },
    page('startsAt'),
    await ctx.scope(),
  )
  const cycles = records.map((r) => toCycle(r, ctx.now))
  const word = ref.trim().toLowerCase()
  const when: Record<string, Cycle | undefined> = {
    current: cycles.find((c) => c.status === 'active'),
    next: cycles.find((c) => c.status === 'upcoming'),
    previous: cycles.filter((c) => c.status === 'past' || c.status === 'completed').at(-1),
  }
  if (word in when) {
    const found = when[word]
    if (found) return found
    throw new ProblemError('unknown_name', `${team.key} has no ${word} cycle.`, {
      errors: [{ pointer, message: `No ${word} cycle` }],
      extensions: { kind: `cycle of ${team.key}`, name: ref, candidates: [] },
    })
  }
  const number = /^(?:cycle\s*)?#?\s*([0-9]{1,9})$/i.exec(ref.trim())
  return matchName(
    `cycle of ${team.key}`,
    number ? String(Number(number[1])) : ref,
    cycles.map((c) => ({
      value: c,
      id: c.id,
      names: [String(c.number), c.name],
      label: `Cycle ${c.number}${c.name ? ` ${c.name}` : ''} (${c.status}, ${c.startsAt.slice(0, 10)})`,
    })),
    pointer,
  )
}

/** One name of any kind; states and cycles need their team (`teamRef`, itself a name or id). */
export async function resolveName(
  ctx: OperationContext,
  kind: NameKind,
  name: string,
  teamRef?: string,
  archived = false,
  /** For a milestone: its project (name or id). */
  projectRef?: string,
): Promise<Resolved> {
  switch (kind) {
    case 'team': {
      const t = await resolveTeam(ctx, name, '/query/name')
      return { kind, id: t.id, label: `${t.key} (${t.name})` }
    }
    case 'state': {
      if (!teamRef) throw missingTeam('state')
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
    case 'label': {
      const team = teamRef ? await resolveTeam(ctx, teamRef, '/query/team') : undefined
      const l = await resolveLabel(ctx, name, team?.id, '/query/name', archived)
      return { kind, id: l.id, label: l.teamId ? `${l.name} (${team?.key ?? 'team label'})` : l.name }
    }
    case 'cycle': {
      if (!teamRef) throw missingTeam('cycle')
      const team = await resolveTeam(ctx, teamRef, '/query/team')
      const c = await resolveCycle(ctx, team.id, name, '/query/name')
      return { kind, id: c.id, label: `${team.key} Cycle ${c.number}${c.name ? ` ${c.name}` : ''}` }
    }
    case 'project': {
      const p = await resolveProject(ctx, name, '/query/name')
      return { kind, id: p.id, label: p.name }
    }
    case 'milestone': {
      const project = projectRef ? await resolveProject(ctx, projectRef, '/query/project') : undefined
      const m = await resolveMilestone(ctx, name, project?.id, '/query/name')
      return { kind, id: m.id, label: `${m.name} (${m.projectName})` }
    }
    case 'program': {
      const p = await resolveProgram(ctx, name, '/query/name')
      return { kind, id: p.id, label: p.name }
    }
    case 'initiative': {
      const i = await resolveInitiative(ctx, name, '/query/name')
      return { kind, id: i.id, label: i.name }
    }
  }
}

function missingTeam(kind: 'state' | 'cycle'): ProblemError {
  return new ProblemError('rule_violated', `A ${kind} is named within its team: give \`team\` too.`, {
    errors: [{ pointer: '/query/team', message: `Required for a ${kind}` }],
  })
}

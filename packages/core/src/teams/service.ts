import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import { newId, type StateId, type TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { type MoveTo, placeMoved } from '../kernel/ordering.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { type StateCategory, TEAM_STATES_MAX, type Team, type WorkflowState } from './schemas.ts'
import './settings-storage.ts'

/** The workflow every new team starts with, in order. */
export const DEFAULT_STATES: ReadonlyArray<{ name: string; category: StateCategory; color: string }> = [
  { name: 'Backlog', category: 'backlog', color: '#bec2c8' },
  { name: 'Todo', category: 'unstarted', color: '#e2e2e2' },
  { name: 'In Progress', category: 'started', color: '#f2c94c' },
  { name: 'In Review', category: 'started', color: '#0f783c' },
  { name: 'Done', category: 'completed', color: '#5e6ad2' },
  { name: 'Canceled', category: 'canceled', color: '#95a2b3' },
  { name: 'Duplicate', category: 'canceled', color: '#95a2b3' },
]

export async function requireTeam(ctx: OperationContext, teamId: TeamId): Promise<Team> {
  const team = await ctx.store.teams.get(currentOrg(ctx).id, teamId, await ctx.scope())
  if (!team) throw notFound('Team')
  return team
}

export async function listTeams(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number; archived?: 'exclude' | 'only' | 'include' },
): Promise<Page<Team>> {
  const orgId = currentOrg(ctx).id
  const archived = archivedFilter(query.archived)
  return readPage(ctx, {
    scope: ['teams.list', orgId, archived],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (t: Team) => t.id,
    fetch: async (page) => ctx.store.teams.list(orgId, { archived }, page, await ctx.scope()),
  })
}

export async function createTeam(
  ctx: OperationContext,
  input: { name: string; key: string; description?: string | null },
): Promise<Team> {
  const orgId = currentOrg(ctx).id
  if (await ctx.store.teams.keyTaken(orgId, input.key)) throw keyTaken(input.key)
  const team: Team = {
    id: newId('TeamId'),
    orgId,
    name: input.name,
    key: input.key,
    description: input.description ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    archivedAt: null,
  }
  await ctx.store.teams.insert(team)
  ctx.emit({
    kind: 'team.created',
    resourceType: 'team',
    resourceId: team.id,
    teamId: team.id,
    data: { team },
  })
  for (const [position, s] of DEFAULT_STATES.entries()) {
    const state: WorkflowState = {
      id: newId('StateId'),
      orgId,
      teamId: team.id,
      name: s.name,
      category: s.category,
      color: s.color,
      description: null,
      position,
      createdAt: ctx.now,
      updatedAt: ctx.now,
      archivedAt: null,
    }
    await ctx.store.states.insert(state)
    ctx.emit({
      kind: 'workflow_state.created',
      resourceType: 'workflow_state',
      resourceId: state.id,
      teamId: team.id,
      data: { state },
    })
  }
  return team
}

export async function updateTeam(
  ctx: OperationContext,
  teamId: TeamId,
  patch: { name?: string; key?: string; description?: string | null },
): Promise<Team> {
  const team = await requireTeam(ctx, teamId)
  if (patch.key && patch.key !== team.key && (await ctx.store.teams.keyTaken(team.orgId, patch.key, team.id)))
    throw keyTaken(patch.key)
  return changeTeam(ctx, team, patch, 'team.updated')
}

export async function setTeamArchived(
  ctx: OperationContext,
  teamId: TeamId,
  archived: boolean,
): Promise<Team> {
  const team = await requireTeam(ctx, teamId)
  if (Boolean(team.archivedAt) === archived) return team
  return changeTeam(
    ctx,
    team,
    { archivedAt: archived ? ctx.now : null },
    archived ? 'team.archived' : 'team.restored',
  )
}

async function changeTeam(
  ctx: OperationContext,
  team: Team,
  patch: Partial<Team>,
  kind: string,
): Promise<Team> {
  const changed = Object.fromEntries(Object.entries(patch).filter(([k, v]) => team[k as keyof Team] !== v))
  if (Object.keys(changed).length === 0) return team
  await ctx.store.teams.update(team.orgId, team.id, { ...changed, updatedAt: ctx.now })
  const next = { ...team, ...changed, updatedAt: ctx.now }
  ctx.emit({
    kind,
    resourceType: 'team',
    resourceId: team.id,
    teamId: team.id,
    data: { team: next, changes: changesOf(team, changed) },
  })
  return next
}

function keyTaken(key: string): ProblemError {
  return new ProblemError('key_taken', `Another team already uses the key \`${key}\`.`, {
    errors: [{ pointer: '/body/key', message: 'Already taken' }],
  })
}

export function archivedFilter(archived: 'exclude' | 'only' | 'include' | undefined): boolean | null {
  return archived === 'only' ? true : archived === 'include' ? null : false
}

export async function requireState(ctx: OperationContext, stateId: StateId): Promise<WorkflowState> {
  const orgId = currentOrg(ctx).id
  const state = await ctx.store.states.get(orgId, stateId)
  // A state is as visible as its team.
  if (!state || !(await ctx.store.teams.get(orgId, state.teamId, await ctx.scope())))
    throw notFound('Workflow state')
  return state
}

export async function listStates(
  ctx: OperationContext,
  teamId: TeamId,
  includeArchived: boolean,
): Promise<WorkflowState[]> {
  await requireTeam(ctx, teamId)
  return ctx.store.states.listForTeam(currentOrg(ctx).id, teamId, { includeArchived })
}

export async function createState(
  ctx: OperationContext,
  teamId: TeamId,
  input: {
    name: string
    category: StateCategory
    color?: string
    description?: string | null
    position?: number
  },
): Promise<WorkflowState> {
  const team = await requireTeam(ctx, teamId)
  const all = await ctx.store.states.listForTeam(team.orgId, teamId, { includeArchived: true })
  if (all.length >= TEAM_STATES_MAX)
    throw new ProblemError(
      'conflict',
      `A team has at most ${TEAM_STATES_MAX} workflow states, archived ones included: rename or restore one instead.`,
    )
  const existing = all.filter((s) => s.archivedAt === null)
  assertNameFree(existing, input.name)
  const position = Math.min(input.position ?? existing.length, existing.length)
  const state: WorkflowState = {
    id: newId('StateId'),
    orgId: team.orgId,
    teamId,
    name: input.name,
    category: input.category,
    color: input.color ?? '#95a2b3',
    description: input.description ?? null,
    position,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    archivedAt: null,
  }
  await ctx.store.states.insert(state)
  await renumber(ctx, [...existing.slice(0, position), state, ...existing.slice(position)])
  ctx.emit({
    kind: 'workflow_state.created',
    resourceType: 'workflow_state',
    resourceId: state.id,
    teamId: state.teamId,
    data: { state },
  })
  return state
}

export async function updateState(
  ctx: OperationContext,
  stateId: StateId,
  patch: { name?: string; color?: string; description?: string | null },
): Promise<WorkflowState> {
  const state = await requireState(ctx, stateId)
  if (patch.name && patch.name !== state.name) {
    assertNameFree(
      await ctx.store.states.listForTeam(state.orgId, state.teamId, { includeArchived: false }),
      patch.name,
    )
  }
  const changed = Object.fromEntries(
    Object.entries(patch).filter(([k, v]) => state[k as keyof WorkflowState] !== v),
  )
  if (Object.keys(changed).length === 0) return state
  await ctx.store.states.update(state.orgId, state.id, { ...changed, updatedAt: ctx.now })
  const next = { ...state, ...changed, updatedAt: ctx.now }
  ctx.emit({
    kind: 'workflow_state.updated',
    resourceType: 'workflow_state',
    resourceId: state.id,
    teamId: state.teamId,
    data: { state: next, changes: changesOf(state, changed) },
  })
  return next
}

/**
 * Moves an active state just before or after another active state of the same team. The team's
 * active states are one list, whatever their categories, renumbered from 0; a move that changes
 * nothing writes and emits nothing.
 */
export async function moveState(ctx: OperationContext, stateId: StateId, to: MoveTo): Promise<WorkflowState> {
  const state = await requireState(ctx, stateId)
  if (state.archivedAt)
    throw new ProblemError('archived', 'The state is archived: it has no place in the workflow to move.')
  const states = await ctx.store.states.listForTeam(state.orgId, state.teamId, { includeArchived: false })
  const { order, moved } = placeMoved(states, state.id, to, 'another active state of the same team')
  if (!moved) return state
  await renumber(ctx, order)
  const position = order.findIndex((s) => s.id === state.id)
  const next = { ...state, position, updatedAt: ctx.now }
  ctx.emit({
    kind: 'workflow_state.moved',
    resourceType: 'workflow_state',
    resourceId: state.id,
    teamId: state.teamId,
    data: { state: next, order: order.map((s) => s.id) },
  })
  return next
}

/** Archives a state that no task sits in; a team keeps at least one active state. */
export async function archiveState(ctx: OperationContext, stateId: StateId): Promise<WorkflowState> {
  const state = await requireState(ctx, stateId)
  if (state.archivedAt) return state
  const active = await ctx.store.states.listForTeam(state.orgId, state.teamId, { includeArchived: false })
  if (active.length <= 1)
    throw new ProblemError('last_state', 'A team keeps at least one active workflow state.')
  const count = await ctx.store.states.countTasks(state.orgId, state.id)
  if (count > 0) {
    throw new ProblemError(
      'state_in_use',
      `${count} task(s) are in this state; move them to another state first.`,
      { extensions: { taskCount: count } },
    )
  }
  await ctx.store.states.update(state.orgId, state.id, { archivedAt: ctx.now, updatedAt: ctx.now })
  await renumber(
    ctx,
    active.filter((s) => s.id !== state.id),
  )
  const next = { ...state, archivedAt: ctx.now, updatedAt: ctx.now }
  ctx.emit({
    kind: 'workflow_state.archived',
    resourceType: 'workflow_state',
    resourceId: state.id,
    teamId: state.teamId,
    data: { state: next },
  })
  return next
}

/**
 * The state a new task of the team starts in: the team's default state (team settings) while it is
 * active, else the first backlog state, else the first unstarted, else the first.
 */
export async function defaultState(
  ctx: OperationContext,
  teamId: TeamId,
  settings?: { defaultStateId: StateId | null },
): Promise<WorkflowState> {
  const orgId = currentOrg(ctx).id
  const states = await ctx.store.states.listForTeam(orgId, teamId, { includeArchived: false })
  const chosen = settings
    ? settings.defaultStateId
    : (await ctx.store.teamSettings.get(orgId, teamId))?.defaultStateId
  return chooseDefaultState(states, chosen ?? null)
}

/**
 * The default state among the team's active states in board order: the one the settings name,
 * else the first backlog, else the first unstarted, else the first.
 */
export function chooseDefaultState(states: readonly WorkflowState[], chosen: StateId | null): WorkflowState {
  const state =
    states.find((s) => s.id === chosen) ??
    states.find((s) => s.category === 'backlog') ??
    states.find((s) => s.category === 'unstarted') ??
    states[0]
  if (!state) throw new ProblemError('conflict', 'The team has no active workflow state.')
  return state
}

async function renumber(ctx: OperationContext, ordered: WorkflowState[]): Promise<void> {
  for (const [position, s] of ordered.entries()) {
    if (s.position !== position)
      await ctx.store.states.update(s.orgId, s.id, { position, updatedAt: ctx.now })
  }
}

function assertNameFree(states: WorkflowState[], name: string): void {
  if (states.some((s) => s.name.toLowerCase() === name.toLowerCase())) {
    throw new ProblemError('key_taken', `The team already has a state named \`${name}\`.`, {
      errors: [{ pointer: '/body/name', message: 'Already taken' }],
    })
  }
}

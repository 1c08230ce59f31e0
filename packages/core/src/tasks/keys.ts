import { currentOrg } from '../kernel/context.ts'
import type { StateId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'
import { defaultState } from '../teams/service.ts'
import { requireTask } from './require-task.ts'
import type { Task } from './schemas.ts'

/** The task with this current or previous key (`eng-42` finds `ENG-42`); 404 when not viewable. */
export async function taskByKey(ctx: OperationContext, key: string): Promise<Task> {
  const id = await ctx.store.taskKeys.resolve(currentOrg(ctx).id, key)
  if (!id) throw notFound('Task')
  return requireTask(ctx, id)
}

/**
 * What a move to another team changes: the task gets the next number of the target team (so a new
 * key; the old one keeps resolving) and a state of the target team: the one asked for, else the
 * target's first active state of the same category, else its default state. The caller needs
 * `contribute` on the target team as well.
 */
export async function planTeamMove(
  ctx: OperationContext,
  task: Task,
  teamId: TeamId,
  stateId: StateId | undefined,
): Promise<{ teamId: TeamId; number: number; stateId?: StateId }> {
  // The target team is named in the body: one that does not exist (or is hidden) is a bad reference, not a missing task.
  const team = await ctx.store.teams.get(task.orgId, teamId, await ctx.scope())
  if (!team) throw referenceNotFound('/body/teamId', 'No team with this id that you can view.')
  if (team.archivedAt) throw new ProblemError('archived', 'The target team is archived; restore it first.')
  await ctx.require('contribute', { type: 'team', id: team.id })
  let state: StateId | undefined = stateId
  if (!state) {
    const states = await ctx.store.states.listForTeam(task.orgId, team.id, { includeArchived: false })
    state = states.find((s) => s.category === task.stateCategory)?.id ?? (await defaultState(ctx, team.id)).id
  }
  await ctx.store.taskKeys.addPrevious(task.orgId, task.key, task.id, ctx.now)
  const number = await ctx.store.teams.nextTaskNumber(task.orgId, team.id)
  return { teamId: team.id, number, stateId: state }
}

import type { MemberId, ProgramId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import type { Member } from '../orgs/schemas.ts'
import type { Team } from '../teams/schemas.ts'
import { requireTeam } from '../teams/service.ts'
import { recordProgramHistory } from './history.ts'
import { activeMember, emitProgram, requireProgram, writableProgram } from './service.ts'

export async function listProgramMembers(
  ctx: OperationContext,
  programId: ProgramId,
  query: { cursor?: string; limit?: number },
): Promise<Page<Member>> {
  const program = await requireProgram(ctx, programId)
  return readPage(ctx, {
    scope: ['programs.members.list', program.orgId, program.id],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (m: Member) => m.id,
    fetch: (page) => ctx.store.programs.members(program.orgId, program.id, page),
  })
}

/** Idempotent; the member must be active in the org. */
export async function addProgramMember(
  ctx: OperationContext,
  programId: ProgramId,
  memberId: MemberId,
): Promise<Member> {
  const program = await writableProgram(ctx, programId)
  await activeMember(ctx, memberId, '/params/actorId')
  if (await ctx.store.programs.addMember(program.orgId, program.id, memberId, ctx.now)) {
    await recordProgramHistory(ctx, program.id, [{ field: 'members', before: null, after: memberId }])
    emitProgram(ctx, 'program.member_added', program, { programId: program.id, memberId })
  }
  return (await ctx.store.members.get(program.orgId, memberId))!
}

export async function removeProgramMember(
  ctx: OperationContext,
  programId: ProgramId,
  memberId: MemberId,
): Promise<void> {
  const program = await requireProgram(ctx, programId)
  if (!(await ctx.store.programs.removeMember(program.orgId, program.id, memberId))) {
    throw notFound('Member of the program')
  }
  await recordProgramHistory(ctx, program.id, [{ field: 'members', before: memberId, after: null }])
  emitProgram(ctx, 'program.member_removed', program, { programId: program.id, memberId })
}

/** The program's teams the caller can view, by id. */
export async function listProgramTeams(
  ctx: OperationContext,
  programId: ProgramId,
  query: { cursor?: string; limit?: number },
): Promise<Page<Team>> {
  const program = await requireProgram(ctx, programId)
  return readPage(ctx, {
    scope: ['programs.teams.list', program.orgId, program.id],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (t: Team) => t.id,
    fetch: async (page) => ctx.store.programs.teams(program.orgId, program.id, page, await ctx.scope()),
  })
}

/** Idempotent; the team becomes a holder of the program, so the caller needs `contribute` on it too. */
export async function addProgramTeam(
  ctx: OperationContext,
  programId: ProgramId,
  teamId: TeamId,
): Promise<Team> {
  const program = await writableProgram(ctx, programId)
  const team = await requireTeam(ctx, teamId)
  if (team.archivedAt) {
    throw new ProblemError('archived', 'The team is archived; restore it first.', {
      errors: [{ pointer: '/params/teamId', message: 'Archived team' }],
    })
  }
  await ctx.require('contribute', { type: 'team', id: team.id })
  if (await ctx.store.programs.addTeam(program.orgId, program.id, team.id, ctx.now)) {
    await recordProgramHistory(ctx, program.id, [
      { field: 'teams', before: null, after: team.id, ref: { type: 'team', id: team.id } },
    ])
    emitProgram(ctx, 'program.team_added', program, { programId: program.id, teamId: team.id }, team.id)
  }
  return team
}

export async function removeProgramTeam(
  ctx: OperationContext,
  programId: ProgramId,
  teamId: TeamId,
): Promise<void> {
  const program = await requireProgram(ctx, programId)
  const team = await requireTeam(ctx, teamId)
  if (!(await ctx.store.programs.removeTeam(program.orgId, program.id, team.id))) {
    throw notFound('Team of the program')
  }
  await recordProgramHistory(ctx, program.id, [
    { field: 'teams', before: team.id, after: null, ref: { type: 'team', id: team.id } },
  ])
  emitProgram(ctx, 'program.team_removed', program, { programId: program.id, teamId: team.id }, team.id)
}

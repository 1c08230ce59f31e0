import type { MemberId, ProgramId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { ProblemError } from '../kernel/problems.ts'
import { requireTeam } from '../teams/service.ts'
import { recordProgramHistory } from './history.ts'
import type { ProgramMember, ProgramTeam } from './schemas.ts'
import { activeMember, emitProgram, requireProgram, writableProgram } from './service.ts'

export async function listProgramMembers(
  ctx: OperationContext,
  programId: ProgramId,
  query: { cursor?: string; limit?: number },
): Promise<Page<ProgramMember>> {
  const program = await requireProgram(ctx, programId)
  const page = await readPage(ctx, {
    scope: ['programs.members.list', program.orgId, program.id],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (m: ProgramMember & { id: string }) => m.id,
    fetch: async (p) =>
      (await ctx.store.programs.members(program.orgId, program.id, p)).map((m) => ({ ...m, id: m.memberId })),
  })
  return { data: page.data.map(({ id: _id, ...m }) => m), nextCursor: page.nextCursor }
}

/** Idempotent; the member must be active in the org. */
export async function addProgramMember(
  ctx: OperationContext,
  programId: ProgramId,
  memberId: MemberId,
): Promise<ProgramMember> {
  const program = await writableProgram(ctx, programId)
  await activeMember(ctx, memberId, '/params/memberId')
  if (await ctx.store.programs.addMember(program.orgId, program.id, memberId, ctx.now)) {
    await recordProgramHistory(ctx, program.id, [{ field: 'members', before: null, after: memberId }])
    emitProgram(ctx, 'program.member_added', program, { programId: program.id, memberId })
  }
  return (await ctx.store.programs.member(program.orgId, program.id, memberId))!
}

export async function removeProgramMember(
  ctx: OperationContext,
  programId: ProgramId,
  memberId: MemberId,
): Promise<void> {
  const program = await requireProgram(ctx, programId)
  if (!(await ctx.store.programs.removeMember(program.orgId, program.id, memberId))) return
  await recordProgramHistory(ctx, program.id, [{ field: 'members', before: memberId, after: null }])
  emitProgram(ctx, 'program.member_removed', program, { programId: program.id, memberId })
}

/** The program's teams the caller can view, by id. */
export async function listProgramTeams(
  ctx: OperationContext,
  programId: ProgramId,
  query: { cursor?: string; limit?: number },
): Promise<Page<ProgramTeam>> {
  const program = await requireProgram(ctx, programId)
  const page = await readPage(ctx, {
    scope: ['programs.teams.list', program.orgId, program.id],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (t: ProgramTeam & { id: string }) => t.id,
    fetch: async (p) =>
      (await ctx.store.programs.teams(program.orgId, program.id, p, await ctx.scope())).map((t) => ({
        ...t,
        id: t.teamId,
      })),
  })
  return { data: page.data.map(({ id: _id, ...t }) => t), nextCursor: page.nextCursor }
}

/** Idempotent; the team becomes a holder of the program, so the caller needs `contribute` on it too. */
export async function addProgramTeam(
  ctx: OperationContext,
  programId: ProgramId,
  teamId: TeamId,
): Promise<ProgramTeam> {
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
  return (await ctx.store.programs.team(program.orgId, program.id, team.id))!
}

export async function removeProgramTeam(
  ctx: OperationContext,
  programId: ProgramId,
  teamId: TeamId,
): Promise<void> {
  const program = await requireProgram(ctx, programId)
  const team = await requireTeam(ctx, teamId)
  if (!(await ctx.store.programs.removeTeam(program.orgId, program.id, team.id))) return
  await recordProgramHistory(ctx, program.id, [
    { field: 'teams', before: team.id, after: null, ref: { type: 'team', id: team.id } },
  ])
  emitProgram(ctx, 'program.team_removed', program, { programId: program.id, teamId: team.id }, team.id)
}

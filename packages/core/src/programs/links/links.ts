import type { ProgramId, ProjectId, TeamId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { type MoveTo, placeMoved, withHiddenInPlace } from '../../kernel/ordering.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import { UNSCOPED } from '../../kernel/read-scope.ts'
import type { Project } from '../../projects/schemas.ts'
import { requireProject } from '../../projects/service.ts'
import { recordProgramHistory } from '../history.ts'
import type { ProgramProject } from '../schemas.ts'
import { emitProgram, requireProgram, writableProgram } from '../service.ts'
import type { ProgramProjectRow } from '../storage.ts'

/** The program's projects the caller can view, in program order; hidden ones are not counted or named. */
export async function listProgramProjects(
  ctx: OperationContext,
  programId: ProgramId,
  query: { cursor?: string; limit?: number },
): Promise<Page<ProgramProject>> {
  const program = await requireProgram(ctx, programId)
  const scope = await ctx.scope()
  const page = await readPage(ctx, {
    scope: ['programs.projects.list', program.orgId, program.id],
    query,
    sort: 'position',
    direction: 'asc',
    keyOf: (row: { id: string; position: number }) => row.position,
    fetch: async (p) =>
      (await ctx.store.programs.projects(program.orgId, program.id, p, scope)).map((r) => ({
        ...r,
        id: r.projectId,
      })),
  })
  const data: ProgramProject[] = []
  for (const row of page.data) {
    data.push(entry(program.id, row, await requireProject(ctx, row.projectId)))
  }
  return { data, nextCursor: page.nextCursor }
}

/**
 * Appends the project to the program. Grants will flow from programs down to their projects, so
 * linking needs `manage` on the project (besides the operation's `contribute` on the program).
 */
export async function addProgramProject(
  ctx: OperationContext,
  programId: ProgramId,
  projectId: ProjectId,
): Promise<ProgramProject> {
  const program = await writableProgram(ctx, programId)
  const project = await requireProject(ctx, projectId)
  const all = await ctx.store.programs.allProjects(program.orgId, program.id)
  const existing = all.find((r) => r.projectId === project.id)
  if (existing) return entry(program.id, existing, project)
  if (program.status === 'retired') {
    throw new ProblemError('conflict', 'The program is retired; reopen it (status `active`) to add projects.')
  }
  if (project.archivedAt) {
    throw new ProblemError('archived', 'The project is archived; restore it first.', {
      errors: [{ pointer: '/params/projectId', message: 'Archived project' }],
    })
  }
  await ctx.require('manage', { type: 'project', id: project.id })
  const row = {
    projectId: project.id,
    position: all.reduce((max, r) => Math.max(max, r.position + 1), 0),
    addedBy: ctx.actor!.id,
    addedAt: ctx.now,
  }
  await ctx.store.programs.addProject(program.orgId, program.id, row)
  await touch(ctx, program.id)
  await recordProgramHistory(ctx, program.id, [
    { field: 'projects', before: null, after: project.id, ref: { type: 'project', id: project.id } },
  ])
  emitProgram(
    ctx,
    'program.project_added',
    program,
    { programId: program.id, projectId: project.id },
    await firstTeam(ctx, project.id),
  )
  return entry(program.id, row, project)
}

function entry(programId: ProgramId, row: ProgramProjectRow, project: Project): ProgramProject {
  return { programId, projectId: row.projectId, addedAt: row.addedAt, position: row.position, project }
}

export async function removeProgramProject(
  ctx: OperationContext,
  programId: ProgramId,
  projectId: ProjectId,
): Promise<void> {
  const program = await requireProgram(ctx, programId)
  await requireProject(ctx, projectId)
  if (!(await ctx.store.programs.removeProject(program.orgId, program.id, projectId))) return
  await touch(ctx, program.id)
  await recordProgramHistory(ctx, program.id, [
    { field: 'projects', before: projectId, after: null, ref: { type: 'project', id: projectId } },
  ])
  emitProgram(
    ctx,
    'program.project_removed',
    program,
    { programId: program.id, projectId },
    await firstTeam(ctx, projectId),
  )
}

/**
 * Moves a project of the program just before or after another one the caller can view. The order
 * is decided among the projects the caller can view, so those hidden from them keep their places
 * and the request reveals nothing about them; the whole list is then renumbered from 0. A move
 * that changes nothing writes and emits nothing.
 */
export async function moveProgramProject(
  ctx: OperationContext,
  programId: ProgramId,
  projectId: ProjectId,
  to: MoveTo,
): Promise<ProgramProject> {
  const program = await writableProgram(ctx, programId)
  const project = await requireProject(ctx, projectId)
  const scope = await ctx.scope()
  const all = (await ctx.store.programs.allProjects(program.orgId, program.id)).map((r) => ({
    ...r,
    id: r.projectId,
  }))
  const shown: typeof all = []
  for (const row of all)
    if (await ctx.store.projects.get(program.orgId, row.projectId, scope)) shown.push(row)
  const current = shown.find((r) => r.id === project.id)
  if (!current) throw notFound('Project of the program')
  const placed = placeMoved(shown, project.id, to, 'another project of the same program')
  if (!placed.moved) return entry(program.id, current, project)
  const order = withHiddenInPlace(all, placed.order)
  for (const [position, row] of order.entries()) {
    if (row.position !== position) {
      await ctx.store.programs.setPosition(program.orgId, program.id, row.projectId, position)
    }
  }
  await touch(ctx, program.id)
  emitProgram(ctx, 'program.projects_reordered', program, { programId: program.id })
  const position = order.findIndex((r) => r.id === project.id)
  return entry(program.id, { ...current, position }, project)
}

async function touch(ctx: OperationContext, programId: ProgramId): Promise<void> {
  await ctx.store.programs.update(ctx.org!.id, programId, { updatedAt: ctx.now })
}

/** Events naming a project are filed under its first team: only readers who can view it get them. */
async function firstTeam(ctx: OperationContext, projectId: ProjectId): Promise<TeamId | null> {
  const project = await ctx.store.projects.get(ctx.org!.id, projectId, UNSCOPED)
  return (project?.teamIds[0] as TeamId | undefined) ?? null
}

import type { ProgramId, ProjectId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { requirePermutation } from '../kernel/ordering.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { ProblemError } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Project } from '../projects/schemas.ts'
import { requireProject } from '../projects/service.ts'
import { recordProgramHistory } from './history.ts'
import type { ProgramProject } from './schemas.ts'
import { emitProgram, requireProgram, writableProgram } from './service.ts'
import type { ProgramProjectRow } from './storage.ts'

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
 * Reorders the projects the caller can view: `projectIds` lists each of them once. They take the
 * positions they held among themselves, so projects hidden from the caller keep their places and
 * the request reveals nothing about them.
 */
export async function reorderProgramProjects(
  ctx: OperationContext,
  programId: ProgramId,
  order: ProjectId[],
): Promise<void> {
  const program = await writableProgram(ctx, programId)
  const scope = await ctx.scope()
  const all = await ctx.store.programs.allProjects(program.orgId, program.id)
  const visible: { id: string; position: number }[] = []
  for (const row of all) {
    if (await ctx.store.projects.get(program.orgId, row.projectId, scope)) {
      visible.push({ id: row.projectId, position: row.position })
    }
  }
  const ordered = requirePermutation(order, visible, 'projectIds', 'the projects of the program you can view')
  const slots = visible.map((v) => v.position).sort((a, b) => a - b)
  let moved = false
  for (const [i, item] of ordered.entries()) {
    if (item.position !== slots[i]) {
      await ctx.store.programs.setPosition(program.orgId, program.id, item.id as ProjectId, slots[i]!)
      moved = true
    }
  }
  if (moved) {
    await touch(ctx, program.id)
    emitProgram(ctx, 'program.projects_reordered', program, { programId: program.id })
  }
}

async function touch(ctx: OperationContext, programId: ProgramId): Promise<void> {
  await ctx.store.programs.update(ctx.org!.id, programId, { updatedAt: ctx.now })
}

/** Events naming a project are filed under its first team: only readers who can view it get them. */
async function firstTeam(ctx: OperationContext, projectId: ProjectId): Promise<TeamId | null> {
  const project = await ctx.store.projects.get(ctx.org!.id, projectId, UNSCOPED)
  return (project?.teamIds[0] as TeamId | undefined) ?? null
}

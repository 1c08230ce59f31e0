import { recordHistory } from '../../initiatives/history/history.ts'
import { emitInitiative, requireInitiative, unscoped, usable } from '../../initiatives/service.ts'
import type { InitiativeId, ProgramId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { ProblemError } from '../../kernel/problems.ts'
import type { InitiativeProgram, ProgramInitiative } from '../links/schemas.ts'
import { requireProgram } from '../service.ts'

/** The programs the initiative includes that the caller may view, in its order. */
export async function listInitiativePrograms(
  ctx: OperationContext,
  initiativeId: InitiativeId,
  query: { cursor?: string; limit?: number },
): Promise<Page<InitiativeProgram>> {
  const initiative = await requireInitiative(ctx, initiativeId)
  const page = await readPage(ctx, {
    scope: ['initiatives.programs.list', initiative.orgId, initiative.id],
    query,
    sort: 'position',
    direction: 'asc',
    keyOf: (row: { id: string; position: number }) => row.position,
    fetch: async (p) =>
      (
        await ctx.store.initiativePrograms.programsOf(initiative.orgId, initiative.id, p, await ctx.scope())
      ).map((r) => ({
        ...r,
        id: r.programId,
      })),
  })
  const data: InitiativeProgram[] = []
  for (const row of page.data) {
    data.push({
      initiativeId: initiative.id,
      programId: row.programId,
      addedAt: row.addedAt,
      program: await requireProgram(ctx, row.programId),
    })
  }
  return { data, nextCursor: page.nextCursor }
}

/**
 * Links the program after the initiative's others. Whoever holds the initiative will reach what the
 * program holds, so it needs `manage` on the program besides `contribute` on the initiative.
 * Idempotent: a linked program keeps its place.
 */
export async function addInitiativeProgram(
  ctx: OperationContext,
  initiativeId: InitiativeId,
  programId: ProgramId,
): Promise<InitiativeProgram> {
  const initiative = await requireInitiative(ctx, initiativeId)
  usable(initiative)
  const program = await requireProgram(ctx, programId)
  const all = await ctx.store.initiativePrograms.allOf(initiative.orgId, [initiative.id])
  const existing = all.find((r) => r.programId === program.id)
  if (existing) {
    return { initiativeId: initiative.id, programId: program.id, addedAt: existing.addedAt, program }
  }
  if (program.archivedAt) {
    throw new ProblemError('archived', 'The program is archived; restore it first.', {
      errors: [{ pointer: '/params/programId', message: 'Archived program' }],
    })
  }
  await ctx.require('manage', { type: 'program', id: program.id })
  const row = {
    initiativeId: initiative.id,
    programId: program.id,
    position: all.reduce((max, r) => Math.max(max, r.position + 1), 0),
    addedBy: ctx.actor!.id,
    addedAt: ctx.now,
  }
  if (await ctx.store.initiativePrograms.add(initiative.orgId, row)) {
    await ctx.store.initiatives.update(initiative.orgId, initiative.id, { updatedAt: ctx.now })
    await recordHistory(ctx, initiative.id, { action: 'program_added', changes: { programId: program.id } })
    emitInitiative(ctx, 'initiative.program_added', await unscoped(ctx, initiative.id), {
      initiativeId: initiative.id,
      programId: program.id,
    })
  }
  return { initiativeId: initiative.id, programId: program.id, addedAt: row.addedAt, program }
}

export async function removeInitiativeProgram(
  ctx: OperationContext,
  initiativeId: InitiativeId,
  programId: ProgramId,
): Promise<void> {
  const initiative = await requireInitiative(ctx, initiativeId)
  await requireProgram(ctx, programId)
  if (!(await ctx.store.initiativePrograms.remove(initiative.orgId, initiative.id, programId))) return
  await ctx.store.initiatives.update(initiative.orgId, initiative.id, { updatedAt: ctx.now })
  await recordHistory(ctx, initiative.id, { action: 'program_removed', changes: { programId } })
  emitInitiative(ctx, 'initiative.program_removed', await unscoped(ctx, initiative.id), {
    initiativeId: initiative.id,
    programId,
  })
}

/** The initiatives including the program that the caller can view, oldest link first. */
export async function listProgramInitiatives(
  ctx: OperationContext,
  programId: ProgramId,
  query: { cursor?: string; limit?: number },
): Promise<Page<ProgramInitiative>> {
  const program = await requireProgram(ctx, programId)
  const scope = await ctx.scope()
  const page = await readPage(ctx, {
    scope: ['programs.initiatives.list', program.orgId, program.id],
    query,
    sort: 'addedAt',
    direction: 'asc',
    keyOf: (row: { id: string; addedAt: string }) => row.addedAt,
    fetch: async (p) =>
      (await ctx.store.initiativePrograms.initiativesOf(program.orgId, program.id, p, scope)).map((r) => ({
        ...r,
        id: r.initiativeId,
      })),
  })
  const data: ProgramInitiative[] = []
  for (const row of page.data) {
    data.push({
      id: row.initiativeId,
      addedBy: row.addedBy,
      addedAt: row.addedAt,
      initiative: await requireInitiative(ctx, row.initiativeId),
    })
  }
  return { data, nextCursor: page.nextCursor }
}

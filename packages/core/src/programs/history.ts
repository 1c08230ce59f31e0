import { newId, type ProgramId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound } from '../kernel/problems.ts'
import type { ProgramHistoryChange, ProgramHistoryEntry } from './schemas.ts'
import type { ProgramHistoryRecord } from './storage.ts'

export type ProgramChange = ProgramHistoryChange & {
  /** The project or team a link change is about (hidden from readers who cannot view it). */
  ref?: ProgramHistoryRecord['ref']
}

/** Records changes of a program by the caller, in the writing transaction. */
export async function recordProgramHistory(
  ctx: OperationContext,
  programId: ProgramId,
  changes: readonly ProgramChange[],
): Promise<void> {
  await ctx.store.programs.insertHistory(
    changes.map(({ ref, ...c }) => ({
      id: newId('ProgramHistoryId'),
      orgId: ctx.org!.id,
      programId,
      actorId: ctx.actor!.id,
      ...c,
      ref: ref ?? null,
      createdAt: ctx.now,
    })),
  )
}

/** The program's history, oldest first, without entries about projects or teams the caller cannot view. */
export async function listProgramHistory(
  ctx: OperationContext,
  programId: ProgramId,
  query: { cursor?: string; limit?: number },
): Promise<Page<ProgramHistoryEntry>> {
  // Not `requireProgram`: service.ts records history through this module.
  const program = await ctx.store.programs.get(ctx.org!.id, programId, await ctx.scope())
  if (!program) throw notFound('Program')
  const scope = await ctx.scope()
  return readPage(ctx, {
    scope: ['programs.history', program.orgId, program.id],
    query,
    sort: 'createdAt',
    direction: 'desc',
    keyOf: (e: ProgramHistoryEntry) => e.createdAt,
    fetch: (page) => ctx.store.programs.history(program.orgId, program.id, page, scope),
  })
}

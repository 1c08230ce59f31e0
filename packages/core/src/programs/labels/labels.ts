import type { LabelId, ProgramId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { containerLabel, requireLabelToRemove } from '../../labels/container-labels.ts'
import { recordProgramHistory } from '../history.ts'
import type { Program } from '../schemas.ts'
import { emitProgram, requireProgram } from '../service.ts'

/** Puts an org label on the program, by the rule of project labels (`containerLabel`). */
export async function addProgramLabel(
  ctx: OperationContext,
  programId: ProgramId,
  labelId: LabelId,
): Promise<Program> {
  const program = await requireProgram(ctx, programId)
  if (program.labelIds.includes(labelId)) return program
  const { label, replaces } = await containerLabel(ctx, program.orgId, labelId, program.labelIds)
  for (const otherId of replaces) await ctx.store.programs.removeLabel(program.orgId, program.id, otherId)
  await ctx.store.programs.addLabel(program.orgId, program.id, label.id, ctx.now)
  return labelsChanged(ctx, program)
}

/** Takes a label off the program; one it does not carry changes nothing. */
export async function removeProgramLabel(
  ctx: OperationContext,
  programId: ProgramId,
  labelId: LabelId,
): Promise<void> {
  const program = await requireProgram(ctx, programId)
  await requireLabelToRemove(ctx, program.orgId, labelId)
  if (await ctx.store.programs.removeLabel(program.orgId, program.id, labelId))
    await labelsChanged(ctx, program)
}

async function labelsChanged(ctx: OperationContext, before: Program): Promise<Program> {
  await ctx.store.programs.update(before.orgId, before.id, { updatedAt: ctx.now })
  const next = await requireProgram(ctx, before.id)
  const change = { before: before.labelIds, after: next.labelIds }
  await recordProgramHistory(ctx, before.id, [{ field: 'labelIds', ...change }])
  emitProgram(ctx, 'program.updated', next, { program: next, changes: { labelIds: change } })
  return next
}

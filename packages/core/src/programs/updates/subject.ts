import type { ProgramId } from '../../kernel/ids.ts'
import { summarizeProgress } from '../../tasks/progress.ts'
import type { UpdateSubject } from '../../updates/subjects.ts'
import { requireProgram } from '../service.ts'
import { programContainers } from '../targets.ts'

/**
 * Status updates on programs: the updates group's operations, storage and events, with a program as
 * the subject (the hook `updates.program`). Its progress snapshot pools the tasks of the program's projects the author can view.
 */
export const programUpdateSubject: UpdateSubject = {
  name: 'Program',
  require: (ctx, id) => requireProgram(ctx, id as ProgramId),
  async progress(ctx, id) {
    const program = await requireProgram(ctx, id as ProgramId)
    const p = summarizeProgress(
      await ctx.store.programs.progress(program.orgId, program.id, await ctx.scope()),
    )
    if (p.total.tasks === 0) return null
    return {
      tasks: p.total.tasks,
      completedTasks: p.byCategory.completed.tasks,
      completedRatio: p.completedRatio,
    }
  },
  // Org-level, as the program's own events: every member may view a program.
  eventTeam: async () => null,
  containers: (store, orgId, id) => programContainers(store, orgId, id),
}

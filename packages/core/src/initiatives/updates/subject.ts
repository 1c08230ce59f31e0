import type { InitiativeId } from '../../kernel/ids.ts'
import { UNSCOPED } from '../../kernel/read-scope.ts'
import type { UpdateSubject } from '../../updates/subjects.ts'
import { initiativeRollup } from '../rollup.ts'
import { requireInitiative } from '../service.ts'

/**
 * Status updates on initiatives: the updates group's operations, storage and events, with an
 * initiative as the subject (the hook `updates.initiative`). Its progress snapshot is the initiative's rollup as the author sees it.
 */
export const initiativeUpdateSubject: UpdateSubject = {
  name: 'Initiative',
  require: (ctx, id) => requireInitiative(ctx, id as InitiativeId),
  async progress(ctx, id) {
    const rollup = await initiativeRollup(ctx, id as InitiativeId)
    if (rollup.total.tasks === 0) return null
    return {
      tasks: rollup.total.tasks,
      completedTasks: rollup.byCategory.completed.tasks,
      completedRatio: rollup.completedRatio,
    }
  },
  // Org-level, as the initiative's own events.
  eventTeam: async () => null,
  async containers(store, orgId, id) {
    const initiative = await store.initiatives.get(orgId, id as InitiativeId, UNSCOPED)
    return initiative ? [{ type: 'org', id: orgId }] : null
  },
}

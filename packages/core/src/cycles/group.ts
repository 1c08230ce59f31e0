import type { ResourceGroup } from '../kernel/group.ts'
import { CYCLE_EVENT_DATA } from './event-data.ts'
import { cyclesCatalogue } from './operations.ts'
import { CYCLE_PROBLEMS } from './problems.ts'
import { cycleTargets } from './targets.ts'
import { readTaskCycle } from './task-cycle.ts'

/** Cycles: a team's time windows, rollover and cadence. */
export const cyclesGroup: ResourceGroup = {
  name: 'cycles',
  tags: [
    {
      name: 'Cycles',
      description:
        "A team's time windows (sprints): tasks planned in them, progress, completion with rollover, and the team's cadence.",
      agentWork: true,
    },
  ],
  operations: cyclesCatalogue,
  problems: CYCLE_PROBLEMS,
  eventData: CYCLE_EVENT_DATA,
  events: [
    {
      kinds: [
        'cycle.created',
        'cycle.updated',
        'cycle.completed',
        'cycle.archived',
        'cycle.restored',
        'cycle.deleted',
      ],
      emittedBy:
        '`cycles.*`, and `engine.advanceCycles()` (actor null); rollovers are `task.updated` with `changes.cycleId`',
    },
    {
      kinds: ['cycle_settings.updated'],
      emittedBy: '`cycleSettings.update`',
    },
  ],
  targets: cycleTargets,
  // The cycle lookup tasks need (tasks/cycle.ts).
  fills: { 'tasks.cycle': readTaskCycle },
}

import type { ResourceGroup } from '../kernel/group.ts'
import { TIME_EVENT_DATA } from './event-data.ts'
import { allocationOperations, timeOperations } from './operations.ts'
import { timeTargets } from './targets.ts'

/** Logged time on tasks, a personal timer, and allocations of people to projects. */
export const timeGroup: ResourceGroup = {
  name: 'time',
  tags: [
    {
      name: 'Time tracking',
      description:
        'Time people log on tasks (by hand, or by stopping their timer), listed and totalled over the tasks the ' +
        'reader can view. One timer per person across workspaces.',
    },
    {
      name: 'Allocations',
      description:
        "A person's planned effort on a project over a date range, in percent or hours per week; overlaps are " +
        'allowed and shown as the person’s total.',
    },
  ],
  operations: [...timeOperations, ...allocationOperations],
  eventData: TIME_EVENT_DATA,
  events: [
    {
      kinds: ['timeEntry.created', 'timeEntry.updated', 'timeEntry.deleted'],
      emittedBy: "`tasks.timeEntries.create`, `timeEntries.*`, `me.timer.stop`, filed under the task's team",
    },
    {
      kinds: ['timer.started', 'timer.stopped'],
      emittedBy:
        '`me.timer.start`, `me.timer.stop`, in the task’s workspace, readable only by the timer’s person',
    },
    {
      kinds: ['allocation.created', 'allocation.updated', 'allocation.deleted'],
      emittedBy: "`allocations.*`, filed under the project's first team",
    },
  ],
  targets: timeTargets,
}

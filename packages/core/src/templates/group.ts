import type { ResourceGroup } from '../kernel/group.ts'
import { TEMPLATE_EVENT_DATA } from './event-data.ts'
import { templateOperations } from './operations.ts'
import { templateTargets } from './targets.ts'

/** Task and project templates, recurring work created by the scheduler, and task reminders. */
export const templatesGroup: ResourceGroup = {
  name: 'templates',
  tags: [
    {
      name: 'Templates',
      description:
        'Task and project templates of a team: apply one to create a task, or a project with its milestones and ' +
        'tasks, dates shifted. Save a project as a template.',
      agentWork: true,
    },
    {
      name: 'Recurring work',
      description:
        'Schedules (daily, weekly on weekdays, monthly on a day, every N) that create a task from a task template ' +
        'in a team, exactly once per occurrence, by the server’s scheduler.',
      agentWork: true,
    },
  ],
  operations: templateOperations,
  eventData: TEMPLATE_EVENT_DATA,
  events: [
    {
      kinds: ['template.created', 'template.updated', 'template.deleted', 'template.applied'],
      emittedBy:
        "`templates.*` and `projects.saveAsTemplate`, filed under the template's team; `template.applied` carries " +
        'the application (what was created), beside the usual events of what was created',
    },
    {
      kinds: [
        'recurrence.created',
        'recurrence.updated',
        'recurrence.paused',
        'recurrence.resumed',
        'recurrence.deleted',
      ],
      emittedBy:
        '`recurrences.*`; the scheduler emits `recurrence.paused` (with a `reason`, `actorId: null`) when it can no ' +
        'longer create the task',
    },
    {
      kinds: ['recurrence.occurred'],
      emittedBy: 'The scheduler (`actorId: null`), with the date and the task, after its `task.created`',
    },
    {
      kinds: ['reminder.created', 'reminder.deleted'],
      emittedBy: '`tasks.reminders.*`, readable only by the reminder’s person',
    },
  ],
  targets: templateTargets,
}

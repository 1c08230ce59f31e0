import type { ResourceGroup } from '../kernel/group.ts'
import { PROGRAM_EVENT_DATA } from './event-data.ts'
import { programInitiativeOperations } from './initiatives/link-operations.ts'
import { programContribution } from './initiatives/rollup.ts'
import { programLabelOperations } from './labels/operations.ts'
import { programLinkOperations } from './links/operations.ts'
import { programOperations } from './operations.ts'
import { programLinkParent, programResourceLinkOperations } from './resource-links.ts'
import { programSubscriberOperations } from './subscriber-operations.ts'
import { programTargets } from './targets.ts'
import { programUpdateOperations } from './updates/operations.ts'
import { programUpdateSubject } from './updates/subject.ts'

/** Programs: ongoing areas holding projects, with members, teams and rolled-up health and progress. */
export const programsGroup: ResourceGroup = {
  name: 'programs',
  tags: [
    {
      name: 'Programs',
      description:
        'Ongoing areas of work (no end date) holding ordered projects, with an owner, members, teams, and ' +
        'progress and health rolled up from the projects the reader can view.',
      agentWork: true,
    },
  ],
  operations: [
    ...programOperations,
    ...programLinkOperations,
    ...programInitiativeOperations,
    ...programSubscriberOperations,
    ...programUpdateOperations,
    ...programResourceLinkOperations,
    ...programLabelOperations,
  ],
  eventData: PROGRAM_EVENT_DATA,
  events: [
    {
      kinds: [
        'program.created',
        'program.updated',
        'program.archived',
        'program.restored',
        'program.deleted',
        'program.projects_reordered',
        'program.member_added',
        'program.member_removed',
      ],
      emittedBy:
        '`programs.*`; org-level (readers with org-wide view see every program). `program.updated` carries the `changes`',
    },
    {
      kinds: ['program.project_added', 'program.project_removed'],
      emittedBy: "`programs.projects.add/remove`; filed under the project's first team",
    },
    {
      kinds: ['program.team_added', 'program.team_removed'],
      emittedBy: '`programs.teams.add/remove`; filed under the team',
    },
    {
      kinds: ['initiative.program_added', 'initiative.program_removed'],
      emittedBy:
        '`initiatives.programs.add/remove` (resource: the initiative; org-level, as its other events)',
    },
    {
      kinds: [
        'program_update.created',
        'program_update.updated',
        'program_update.archived',
        'program_update.restored',
        'program_update.deleted',
      ],
      emittedBy:
        "`programs.updates.create`, and the `updates.*` item operations on a program's update (org-level)",
    },
    {
      kinds: ['program_subscriber.created', 'program_subscriber.deleted'],
      emittedBy: '`programs.subscribers.*` (resource id: the program; org-level)',
    },
  ],
  targets: programTargets,
  // Programs as initiatives' rollups, links and updates see them.
  fills: {
    'initiatives.programContribution': programContribution,
    'links.program': programLinkParent,
    'updates.program': programUpdateSubject,
  },
}

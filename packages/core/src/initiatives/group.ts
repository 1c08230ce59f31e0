import type { ResourceGroup } from '../kernel/group.ts'
import { INITIATIVE_EVENT_DATA } from './event-data.ts'
import { initiativeLabelOperations } from './labels/operations.ts'
import { initiativeLinkOperations } from './links/operations.ts'
import { metricOperations } from './metric/operations.ts'
import { initiativeOperations } from './operations.ts'
import { INITIATIVE_PROBLEMS } from './problems.ts'
import { initiativeReadOperations } from './read-operations.ts'
import { initiativeLinkParent, initiativeResourceLinkOperations } from './resource-links.ts'
import { initiativeSubscriberOperations } from './subscriber-operations.ts'
import { initiativeTargets } from './targets.ts'
import { initiativeUpdateOperations } from './updates/operations.ts'
import { initiativeUpdateSubject } from './updates/subject.ts'

/** Initiatives: strategic themes over projects, nested as sub-initiatives, with rolled-up progress and health. */
export const initiativesGroup: ResourceGroup = {
  name: 'initiatives',
  tags: [
    {
      name: 'Initiatives',
      description:
        'Strategic themes: owner, status, target date, sub-initiatives, linked projects, members, history, and ' +
        'progress and health rolled up over what the reader can see.',
      agentWork: true,
    },
  ],
  operations: [
    ...initiativeOperations,
    ...initiativeReadOperations,
    ...initiativeLinkOperations,
    ...initiativeUpdateOperations,
    ...metricOperations,
    ...initiativeSubscriberOperations,
    ...initiativeResourceLinkOperations,
    ...initiativeLabelOperations,
  ],
  problems: INITIATIVE_PROBLEMS,
  eventData: INITIATIVE_EVENT_DATA,
  events: [
    {
      kinds: [
        'initiative.created',
        'initiative.updated',
        'initiative.archived',
        'initiative.restored',
        'initiative.deleted',
        'initiative.project_added',
        'initiative.project_removed',
        'initiative.project_updated',
        'initiative.member_added',
        'initiative.member_removed',
      ],
      emittedBy:
        '`initiatives.*` (org-level: readers with org-wide view get them). Nesting is an `initiative.updated` ' +
        'with `changes.parentId`; `initiative.deleted` lists the `movedChildIds` that moved up to its parent',
    },
    {
      kinds: [
        'initiative_update.created',
        'initiative_update.updated',
        'initiative_update.archived',
        'initiative_update.restored',
        'initiative_update.deleted',
      ],
      emittedBy:
        '`initiatives.updates.create`, and the `updates.*` item operations on an initiative’s update (org-level)',
    },
    {
      kinds: ['initiative_metric.updated', 'initiative_metric.deleted', 'initiative_metric_value.created'],
      emittedBy:
        '`initiatives.metric.set`, `initiatives.metric.delete`, `initiatives.metric.values.create` (org-level); ' +
        '`initiative_metric.updated` carries the `previous` definition (null for a new metric)',
    },
    {
      kinds: ['initiative_subscriber.created', 'initiative_subscriber.deleted'],
      emittedBy: '`initiatives.subscribers.*` (resource id: the initiative; org-level)',
    },
  ],
  targets: initiativeTargets,
  // Initiatives as links and updates see them.
  fills: { 'links.initiative': initiativeLinkParent, 'updates.initiative': initiativeUpdateSubject },
}

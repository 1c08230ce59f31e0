import type { ResourceGroup } from '../kernel/group.ts'
import { FIELD_EVENT_DATA } from './event-data.ts'
import { customFieldOperations } from './operations.ts'
import { CUSTOM_FIELD_PROBLEMS } from './problems.ts'

/** Per-org custom field definitions, scoped to teams and record kinds, and their values on tasks and projects. */
export const customFieldsGroup: ResourceGroup = {
  name: 'customFields',
  tags: [
    {
      name: 'Custom fields',
      description:
        'Per-org field definitions (text, number, date, select, multi-select, person, URL) scoped to teams, ' +
        'their options, and their values on tasks and projects; `tasks.list` filters and sorts by them.',
      agentWork: true,
    },
  ],
  operations: customFieldOperations,
  problems: CUSTOM_FIELD_PROBLEMS,
  eventData: FIELD_EVENT_DATA,
  events: [
    {
      kinds: [
        'custom_field.created',
        'custom_field.updated',
        'custom_field.archived',
        'custom_field.restored',
      ],
      emittedBy:
        '`customFields.*` and `customFields.options.*` (filed under no team). Values emit `task.updated` and ' +
        '`project.updated` with a `fields` change.',
    },
  ],
}

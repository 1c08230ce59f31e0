import type { ResourceGroup } from '../kernel/group.ts'
import { CONNECTOR_EVENT_DATA } from './event-data.ts'
import { connectorOperations } from './operations.ts'
import { CONNECTOR_PROBLEMS } from './problems.ts'
import { connectorTargets } from './targets.ts'

/** Connections to other tools (workgraph as their OAuth client) and their items linked to tasks and projects. */
export const connectorsGroup: ResourceGroup = {
  name: 'connectors',
  tags: [
    {
      name: 'Connectors',
      description:
        "Connecting other tools with OAuth (a person's own connection, tokens encrypted and never returned) and linking their items to tasks and projects by URL.",
    },
  ],
  operations: connectorOperations,
  problems: CONNECTOR_PROBLEMS,
  eventData: CONNECTOR_EVENT_DATA,
  events: [
    {
      kinds: ['connector_provider.updated'],
      emittedBy:
        '`connectors.providers.update` when a provider is enabled or disabled for the workspace (org-wide)',
    },
    {
      kinds: ['connection.created', 'connection.connected', 'connection.checked', 'connection.deleted'],
      emittedBy:
        '`connections.create`, `connectors.callback`, `connections.test`, `connections.delete`; the data names the member and provider only, never a token',
    },
    {
      kinds: ['linked_item.created', 'linked_item.refreshed', 'linked_item.deleted'],
      emittedBy:
        '`tasks.linkedItems.create`, `projects.linkedItems.create`, `linkedItems.refresh`, `linkedItems.delete` (team: the task’s, or the project’s first)',
    },
    {
      kinds: ['record_property.updated', 'record_property.deleted'],
      emittedBy:
        '`records.properties.set`, `records.properties.delete`, filed like the record’s own events (a task’s team, a project’s first team, org-wide for programs and initiatives); the data names the record, key and client, never the value',
    },
  ],
  targets: connectorTargets,
}

import type { ResourceGroup } from '../kernel/group.ts'
import { LINK_EVENT_DATA } from './event-data.ts'
import { linkOperations } from './operations.ts'
import { linkTargets } from './targets.ts'

/** URL resources of projects, programs and initiatives (Linear's EntityExternalLink); tasks keep `tasks.links`. */
export const linksGroup: ResourceGroup = {
  name: 'links',
  tags: [
    {
      name: 'Links',
      description:
        'URL resources (specs, dashboards, channels) of projects, programs and initiatives, ordered by position. ' +
        'Each container lists and adds its own; these operations read, edit and remove any of them.',
    },
  ],
  operations: linkOperations,
  eventData: LINK_EVENT_DATA,
  events: [
    {
      kinds: ['link.created', 'link.updated', 'link.deleted'],
      emittedBy:
        '`projects.links.create`, `programs.links.create`, `initiatives.links.create`, `links.update` (with ' +
        '`changes`), `links.delete`; `data.parentType` names the container, filed where its own events are',
    },
  ],
  targets: linkTargets,
}

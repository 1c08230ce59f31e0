import type { ResourceGroup } from '../kernel/group.ts'
import { LINK_EVENT_DATA } from './event-data.ts'
import { linkOperations } from './operations.ts'
import { linkTargets } from './targets.ts'

/** URL links of tasks, projects, programs and initiatives (Linear's EntityExternalLink): one family for all of them. */
export const linksGroup: ResourceGroup = {
  name: 'links',
  tags: [
    {
      name: 'Links',
      description:
        'URL links (specs, dashboards, pull requests, channels) of tasks, projects, programs and initiatives, in ' +
        'order. Each parent lists and adds its own (`tasks.links.create`, …); these operations read, edit, move and ' +
        'remove any of them.',
    },
  ],
  operations: linkOperations,
  eventData: LINK_EVENT_DATA,
  events: [
    {
      kinds: ['link.created', 'link.updated', 'link.moved', 'link.deleted'],
      emittedBy:
        '`tasks.links.create`, `projects.links.create`, `programs.links.create`, `initiatives.links.create`, ' +
        '`links.update` (with `changes`), `links.move` (with the new `order`), `links.delete`; `data.parentType` ' +
        'names the parent, filed where its own events are',
    },
  ],
  targets: linkTargets,
}

import type { ResourceGroup } from '../kernel/group.ts'
import { VIEW_EVENT_DATA } from './event-data.ts'
import { viewOperations } from './operations.ts'
import { viewPreferenceOperations } from './preference-operations.ts'

/** Saved views: named filters over tasks or projects, personal or shared with a team. */
export const viewsGroup: ResourceGroup = {
  name: 'views',
  tags: [
    {
      name: 'Views',
      description:
        'Saved views: a named `tasks.list` or `projects.list` filter, personal or shared with a team, its results, and display preferences (a view default and each person’s own overrides).',
    },
  ],
  operations: [...viewOperations, ...viewPreferenceOperations],
  eventData: VIEW_EVENT_DATA,
  events: [
    {
      kinds: ['view.created', 'view.updated', 'view.deleted'],
      emittedBy:
        '`views.create`, `views.update`, `views.delete` for views shared with a team, filed under that team. Personal views are in no workspace log',
    },
    {
      kinds: ['view.unshared'],
      emittedBy:
        '`views.update` making a shared view personal or moving it to another team: to the team it left, with only its id',
    },
    {
      kinds: ['view_preferences.updated', 'view_preferences.deleted'],
      emittedBy:
        "`views.preferences.set` and `views.preferences.delete` (`level`, `memberId`: null for the view default). One's own overrides are read by oneself only; a shared view's default is filed under its team, a personal view's under its owner alone",
    },
  ],
}

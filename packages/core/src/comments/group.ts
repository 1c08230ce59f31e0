import type { ResourceGroup } from '../kernel/group.ts'
import { COMMENT_EVENT_DATA } from './event-data.ts'
import { commentsCatalogue } from './operations.ts'
import { COMMENT_PROBLEMS } from './problems.ts'
import { reactionsCatalogue } from './reaction-operations.ts'
import { commentTargets } from './targets.ts'

/** Threaded comments and reactions. */
export const commentsGroup: ResourceGroup = {
  name: 'comments',
  tags: [
    {
      name: 'Comments',
      description:
        'Threaded Markdown discussion on tasks, projects, milestones and status updates: replies, edits with history, soft deletion, resolution.',
    },
    { name: 'Reactions', description: 'Emoji reactions to tasks, projects, status updates and comments.' },
  ],
  operations: [...commentsCatalogue, ...reactionsCatalogue],
  problems: COMMENT_PROBLEMS,
  eventData: COMMENT_EVENT_DATA,
  events: [
    {
      kinds: [
        'comment.created',
        'comment.updated',
        'comment.deleted',
        'comment.resolved',
        'comment.unresolved',
      ],
      emittedBy:
        "`comments.*` and each subject's `…comments.create`; filed under the subject's team (a project's first team), with `subjectType` and `subjectId` (and `taskId` for a task's)",
    },
    {
      kinds: ['reaction.created', 'reaction.deleted'],
      emittedBy:
        '`tasks.reactions.create`, `comments.reactions.create`, `projects.reactions.create`, `updates.reactions.create` and `reactions.delete`',
    },
  ],
  targets: commentTargets,
}

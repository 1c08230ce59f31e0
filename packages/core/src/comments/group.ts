import type { ResourceGroup } from '../kernel/group.ts'
import { commentsCatalogue } from './operations.ts'
import { reactionsCatalogue } from './reaction-operations.ts'
import { commentTargets } from './targets.ts'

/** Threaded comments and reactions. */
export const commentsGroup: ResourceGroup = {
  name: 'comments',
  tags: [
    {
      name: 'Comments',
      description:
        'Threaded Markdown discussion on tasks: replies, edits with history, soft deletion, resolution.',
    },
    { name: 'Reactions', description: 'Emoji reactions to tasks and comments.' },
  ],
  operations: [...commentsCatalogue, ...reactionsCatalogue],
  events: [
    {
      kinds: [
        'comment.created',
        'comment.updated',
        'comment.deleted',
        'comment.resolved',
        'comment.unresolved',
      ],
      emittedBy: '`comments.*`',
    },
    {
      kinds: ['reaction.created', 'reaction.deleted'],
      emittedBy: '`tasks.reactions.*`, `comments.reactions.*`',
    },
  ],
  targets: commentTargets,
}

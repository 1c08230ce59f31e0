import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { commentRepo } from './comments.ts'
import { reactionRepo } from './reactions.ts'

/** Comments and reactions. */
export const commentsStore = (db: Kysely<Database>) =>
  ({
    comments: commentRepo(db),
    reactions: reactionRepo(db),
  }) satisfies Partial<Store>

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Purge } from '../purge-kinds.ts'
import type { Database } from '../schema.ts'
import { followerRepo } from './followers.ts'
import { projectHistoryRepo } from './history/history.ts'
import { milestoneRepo } from './milestones/milestones.ts'
import { projectRepo } from './projects.ts'
import { projectRelationRepo } from './relations/relations.ts'
import { projectStatusRepo } from './statuses/statuses.ts'

/** Project statuses, projects, milestones and their relations, and the followers of projects (later programs and initiatives). */
export const projectsStore = (db: Kysely<Database>, purge: Purge) =>
  ({
    projectStatuses: projectStatusRepo(db),
    projects: projectRepo(db, purge),
    milestones: milestoneRepo(db, purge),
    followers: followerRepo(db),
    projectRelations: projectRelationRepo(db),
    projectHistory: projectHistoryRepo(db),
  }) satisfies Partial<Store>

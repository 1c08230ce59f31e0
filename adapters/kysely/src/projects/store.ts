import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { followerRepo } from './followers.ts'
import { projectHistoryRepo } from './history.ts'
import { milestoneRepo } from './milestones.ts'
import { projectRepo } from './projects.ts'
import { projectRelationRepo } from './relations.ts'
import { projectStatusRepo } from './statuses.ts'

/** Project statuses, projects, milestones and their relations, and the followers of projects (later programs and initiatives). */
export const projectsStore = (db: Kysely<Database>) =>
  ({
    projectStatuses: projectStatusRepo(db),
    projects: projectRepo(db),
    milestones: milestoneRepo(db),
    followers: followerRepo(db),
    projectRelations: projectRelationRepo(db),
    projectHistory: projectHistoryRepo(db),
  }) satisfies Partial<Store>

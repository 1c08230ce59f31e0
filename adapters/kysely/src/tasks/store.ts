import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Purge } from '../purge-kinds.ts'
import type { Database, Dialect } from '../schema.ts'
import { taskAutomationRepo } from './automation/automation.ts'
import { taskHistoryRepo } from './history/history.ts'
import { taskIntakeRepo } from './intake.ts'
import { taskKeyRepo } from './keys.ts'
import { taskRankRepo } from './rank/ranks.ts'
import { taskDependencyRepo } from './relations/dependencies.ts'
import { taskRelationRepo } from './relations/relations.ts'
import { taskSubscriberRepo } from './subscribers.ts'
import { taskRepo } from './tasks.ts'

/** Tasks and what hangs off them: history, dependencies, relations, keys, subscribers and links; the auto-close pass's queries. */
export const tasksStore = (db: Kysely<Database>, dialect: Dialect, purge: Purge) =>
  ({
    tasks: taskRepo(db, dialect, purge),
    taskHistory: taskHistoryRepo(db),
    taskDependencies: taskDependencyRepo(db),
    taskRelations: taskRelationRepo(db),
    taskKeys: taskKeyRepo(db),
    taskSubscribers: taskSubscriberRepo(db),
    taskAutomation: taskAutomationRepo(db),
    taskRanks: taskRankRepo(db, dialect),
    taskIntake: taskIntakeRepo(db),
  }) satisfies Partial<Store>

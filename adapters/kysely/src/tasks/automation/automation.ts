import type { OrgId, TaskId, TeamId } from '@workgraph/core'
import type { TaskAutomationRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../../schema.ts'

const CLOSED = ['completed', 'canceled']

/**
 * The auto-close and auto-archive pass's queries. Both read one team's tasks through
 * `tasks_team_updated` (org, team, updated_at); a subtask check goes through `tasks_parent`.
 */
export function taskAutomationRepo(db: Kysely<Database>): TaskAutomationRepo {
  return {
    async teams() {
      const rows = await db
        .selectFrom('teamSettings')
        .innerJoin('teams', (j) =>
          j.onRef('teams.orgId', '=', 'teamSettings.orgId').onRef('teams.id', '=', 'teamSettings.teamId'),
        )
        .select(['teamSettings.orgId', 'teamSettings.teamId'])
        .where((eb) =>
          eb.or([
            eb('teamSettings.autoCloseDays', 'is not', null),
            eb('teamSettings.autoArchiveDays', 'is not', null),
          ]),
        )
        .where('teams.archivedAt', 'is', null)
        .orderBy('teamSettings.orgId')
        .orderBy('teamSettings.teamId')
        .execute()
      return rows.map((r) => ({ orgId: r.orgId as OrgId, teamId: r.teamId as TeamId }))
    },
    async stale(orgId, teamId, { categories, cutoff, now, limit }) {
      const rows = await db
        .selectFrom('tasks')
        .innerJoin('workflowStates as s', (j) =>
          j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
        )
        .select('tasks.id')
        .where('tasks.orgId', '=', orgId)
        .where('tasks.teamId', '=', teamId)
        .where('tasks.updatedAt', '<=', cutoff)
        .where('tasks.archivedAt', 'is', null)
        .where('tasks.deletedAt', 'is', null)
        .where('s.category', 'in', [...categories])
        .where('tasks.id', 'not in', (eb) =>
          eb
            .selectFrom('triageSnoozes')
            .select('taskId')
            .where('orgId', '=', orgId)
            .where('snoozedUntil', '>', now),
        )
        // A comment written or edited since is activity too (`comments_subject_thread`).
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('comments')
                .select('comments.id')
                .whereRef('comments.orgId', '=', 'tasks.orgId')
                .where('comments.subjectType', '=', 'task')
                .whereRef('comments.subjectId', '=', 'tasks.id')
                .where('comments.updatedAt', '>', cutoff),
            ),
          ),
        )
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('tasks as c')
                .innerJoin('workflowStates as cs', (j) =>
                  j.onRef('cs.orgId', '=', 'c.orgId').onRef('cs.id', '=', 'c.stateId'),
                )
                .select('c.id')
                .whereRef('c.orgId', '=', 'tasks.orgId')
                .whereRef('c.parentId', '=', 'tasks.id')
                .where('c.archivedAt', 'is', null)
                .where('c.deletedAt', 'is', null)
                .where('cs.category', 'not in', CLOSED),
            ),
          ),
        )
        .orderBy('tasks.updatedAt')
        .orderBy('tasks.id')
        .limit(limit)
        .execute()
      return rows.map((r) => r.id as TaskId)
    },
    async closed(orgId, teamId, { cutoff, limit }) {
      const rows = await db
        .selectFrom('tasks')
        .innerJoin('workflowStates as s', (j) =>
          j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
        )
        .select('tasks.id')
        .where('tasks.orgId', '=', orgId)
        .where('tasks.teamId', '=', teamId)
        .where('tasks.updatedAt', '<=', cutoff)
        .where('tasks.archivedAt', 'is', null)
        .where('tasks.deletedAt', 'is', null)
        .where((eb) =>
          eb.or([
            eb.and([eb('s.category', '=', 'completed'), eb('tasks.completedAt', '<=', cutoff)]),
            eb.and([eb('s.category', '=', 'canceled'), eb('tasks.canceledAt', '<=', cutoff)]),
          ]),
        )
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('tasks as c')
                .select('c.id')
                .whereRef('c.orgId', '=', 'tasks.orgId')
                .whereRef('c.parentId', '=', 'tasks.id')
                .where('c.archivedAt', 'is', null)
                .where('c.deletedAt', 'is', null),
            ),
          ),
        )
        .orderBy('tasks.updatedAt')
        .orderBy('tasks.id')
        .limit(limit)
        .execute()
      return rows.map((r) => r.id as TaskId)
    },
  }
}

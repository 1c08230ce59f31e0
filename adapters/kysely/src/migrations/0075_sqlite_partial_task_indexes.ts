import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * SQLite: the indexes of `tasks` on a column most tasks leave empty (parent, cycle, milestone,
 * project, assignee) hold only the rows that have one. On SQLite every index page a commit changes is
 * one more WAL frame (two `pwrite`s) and a b-tree descent, and a `tasks.create` without a parent,
 * cycle, milestone, project or assignee touched six such pages to file the row under null: 36 frames
 * a create, now 30. Every read of these indexes compares the column with `=` (a filter, a foreign
 * key's check of its children, a person's tasks by due date), which SQLite knows implies
 * `is not null`, so each still uses its index; the `none` filters (`cycleId=none`, …) never read them
 * (their plans, 109 list statements of six readers, are unchanged). docs/performance-log.md, "A
 * create's WAL frames". Postgres keeps the full indexes.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return
  const partial: [name: string, columns: string, column: string][] = [
    ['tasks_parent', 'org_id, parent_id', 'parent_id'],
    ['tasks_cycle', 'org_id, cycle_id', 'cycle_id'],
    ['tasks_milestone', 'org_id, milestone_id', 'milestone_id'],
    [
      'tasks_project_created',
      'org_id, project_id, created_at, id, team_id, archived_at, deleted_at',
      'project_id',
    ],
    [
      'tasks_project_updated',
      'org_id, project_id, updated_at, id, team_id, archived_at, deleted_at',
      'project_id',
    ],
    ['tasks_assignee_due', "org_id, assignee_id, (coalesce(due_date, '9999-12-31')), id", 'assignee_id'],
  ]
  for (const [name, columns, column] of partial) {
    await sql.raw(`drop index ${name}`).execute(db)
    await sql.raw(`create index ${name} on tasks (${columns}) where ${column} is not null`).execute(db)
  }
}

import type { ActorId, TaskHistoryEntry, TaskHistoryId, TaskId } from '@workgraph/core'
import type { TaskHistoryRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, json } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function taskHistoryRepo(db: Kysely<Database>): TaskHistoryRepo {
  return {
    async insert(entries) {
      if (entries.length === 0) return
      await db
        .insertInto('taskHistory')
        .values(
          entries.map((e) => ({
            orgId: e.orgId,
            id: e.id,
            taskId: e.taskId,
            actorId: e.actorId,
            automation: e.automation,
            field: e.field,
            beforeValue: wrap(e.before),
            afterValue: wrap(e.after),
            createdAt: e.createdAt,
          })),
        )
        .execute()
    },
    async list(orgId, taskId, page) {
      const q = db
        .selectFrom('taskHistory')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('taskId', '=', taskId)
      const rows = await keysetPage(q, page, { sort: 'createdAt', id: 'id' }).execute()
      // The row holds what the core's writer recorded, whose type the entry's schema fixes.
      return rows.map(
        (r) =>
          ({
            id: r.id as TaskHistoryId,
            taskId: r.taskId as TaskId,
            actorId: r.actorId as ActorId | null,
            automation: r.automation,
            field: r.field,
            before: unwrap(r.beforeValue),
            after: unwrap(r.afterValue),
            createdAt: iso(r.createdAt),
          }) as TaskHistoryEntry,
      )
    },
  }
}

// Values sit in a `{ "v": … }` envelope: Postgres hands back a bare JSON string already parsed,
// SQLite as text, and only an object reads the same way from both.
function wrap(value: unknown): string {
  return JSON.stringify({ v: value ?? null })
}

function unwrap(column: unknown): unknown {
  return json<{ v: unknown }>(column).v
}

import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema, newId, type OrgId, type ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { AnyJson, Nullable, Timestamp } from '../kernel/schema-types.ts'

/** One recorded change of a project: a field, or its teams, members, labels, milestones or relations. */
export const ProjectHistoryEntry = Type.Object(
  {
    id: IdSchema('ProjectHistoryId'),
    projectId: IdSchema('ProjectId'),
    actorId: Nullable(ActorIdSchema, 'Who made the change.'),
    field: Type.String({
      description:
        'A field of the Project representation (`name`, `statusId`, `leadId`, `archivedAt`, ...), `teamIds`, ' +
        '`members`, `labelIds`, `milestones`, `relations`, or `created`.',
    }),
    before: AnyJson('The value before the change; for collections, the record taken away (or null).'),
    after: AnyJson('The value after the change; for collections, the record added (or null).'),
    createdAt: Timestamp('When the change happened.'),
  },
  { $id: 'ProjectHistoryEntry', additionalProperties: false },
)
export type ProjectHistoryEntry = Static<typeof ProjectHistoryEntry>

/**
 * Records changes of a project, one entry per field, in the writing transaction, so the log never
 * misses a committed change nor keeps a rolled-back one.
 */
export async function recordProjectHistory(
  ctx: OperationContext,
  project: { id: ProjectId; orgId: OrgId },
  entries: Array<{ field: string; before: unknown; after: unknown }>,
): Promise<void> {
  if (entries.length === 0) return
  await ctx.store.projectHistory.insert(
    entries.map((e) => ({
      id: newId('ProjectHistoryId'),
      orgId: project.orgId,
      projectId: project.id,
      actorId: ctx.actor?.id ?? null,
      field: e.field,
      before: e.before ?? null,
      after: e.after ?? null,
      createdAt: ctx.now,
    })),
  )
}

/** Field changes as history entries. */
export function fieldEntries(changes: Record<string, { before: unknown; after: unknown }>) {
  return Object.entries(changes).map(([field, c]) => ({ field, ...c }))
}

import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../../access/schemas.ts'
import { type CUSTOM_FIELD_CHANGE, customFieldEntries } from '../../fields/history-change.ts'
import {
  change,
  historyEntrySchema,
  linkChange,
  type PrefixedRecordedChange,
  type RecordedChange,
  sameChange,
} from '../../kernel/history-entry.ts'
import { IdSchema, newId, type OrgId, type ProjectId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { Nullable, Timestamp } from '../../kernel/schema-types.ts'
import { Project } from '../schemas.ts'

const p = Project.properties
const linked = (what: string, id: TSchema) =>
  linkChange(
    id,
    `${what}: the id added (in \`after\`) or taken away (in \`before\`); the other side is null.`,
  )

/**
 * The fields a project's history records, with their values before and after: the schema of
 * `ProjectHistoryEntry` and the type `recordProjectHistory` accepts both come from here.
 */
export const PROJECT_HISTORY_FIELDS = {
  created: change(
    Type.Null(),
    Type.Object({ name: p.name }, { additionalProperties: false, description: 'The new project’s name.' }),
    'The creation of the project: `before` is null, `after` its name.',
  ),
  name: sameChange(p.name, 'The name changed.'),
  description: sameChange(p.description, 'The description changed (Markdown, or null).'),
  icon: sameChange(p.icon, 'The icon changed (null: none).'),
  color: sameChange(p.color, 'The color changed.'),
  statusId: sameChange(p.statusId, 'The status changed.'),
  leadId: sameChange(p.leadId, 'The lead changed (null: none).'),
  priority: sameChange(p.priority, 'The priority changed.'),
  startDate: sameChange(p.startDate, 'The planned start changed (null: none).'),
  targetDate: sameChange(p.targetDate, 'The planned end changed (null: none).'),
  updateCadence: sameChange(p.updateCadence, 'The status update cadence changed.'),
  updateWeekday: sameChange(p.updateWeekday, 'The day status updates are due on changed.'),
  startedAt: sameChange(p.startedAt, 'Set when the project first entered a `started` status.'),
  completedAt: sameChange(
    p.completedAt,
    'Set or cleared as the project entered or left a `completed` status.',
  ),
  canceledAt: sameChange(p.canceledAt, 'Set or cleared as the project entered or left a `canceled` status.'),
  archivedAt: sameChange(p.archivedAt, 'Archived or restored.'),
  labelIds: sameChange(p.labelIds, 'The label set changed: the whole set before and after.'),
  teamIds: linked('A team of the project', Nullable(IdSchema('TeamId'))),
  members: linked('A member of the project', Nullable(IdSchema('MemberId'))),
  milestones: change(
    Nullable(IdSchema('MilestoneId')),
    Nullable(IdSchema('MilestoneId')),
    'A milestone created (`before` null), changed (its id on both sides) or deleted (`after` null).',
  ),
  relations: linked('A relation of the project', Nullable(IdSchema('ProjectRelationId'))),
} as const

/** A change `recordProjectHistory` records: only the fields, and the value types, the schema describes. */
export type ProjectHistoryChange =
  | RecordedChange<typeof PROJECT_HISTORY_FIELDS>
  | PrefixedRecordedChange<'fields.', typeof CUSTOM_FIELD_CHANGE>

/** One recorded change of a project: a field, or its teams, members, labels, milestones or relations. */
export const ProjectHistoryEntry = historyEntrySchema({
  name: 'ProjectHistoryEntry',
  envelope: {
    id: IdSchema('ProjectHistoryId'),
    projectId: IdSchema('ProjectId'),
    actorId: Nullable(ActorIdSchema, 'Who made the change.'),
    createdAt: Timestamp('When the change happened.'),
  },
  fields: PROJECT_HISTORY_FIELDS,
  prefixed: customFieldEntries,
  description:
    'One recorded change of a project: a field, or its teams, members, labels, milestones or relations.',
  fieldDescription:
    'A field of the Project representation (`name`, `statusId`, `leadId`, `archivedAt`, ...), `teamIds`, ' +
    '`members`, `labelIds`, `milestones`, `relations`, `created`, or `fields.<CustomFieldId>`.',
})
export type ProjectHistoryEntry = Static<typeof ProjectHistoryEntry>

/**
 * Records changes of a project, one entry per field, in the writing transaction, so the log never
 * misses a committed change nor keeps a rolled-back one.
 */
export async function recordProjectHistory(
  ctx: OperationContext,
  project: { id: ProjectId; orgId: OrgId },
  entries: readonly ProjectHistoryChange[],
): Promise<void> {
  if (entries.length === 0) return
  await ctx.store.projectHistory.insert(
    entries.map((e) => ({
      id: newId('ProjectHistoryId'),
      orgId: project.orgId,
      projectId: project.id,
      actorId: ctx.actor?.id ?? null,
      ...e,
      createdAt: ctx.now,
    })),
  )
}

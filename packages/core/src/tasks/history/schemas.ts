import { type Static, Type } from '@sinclair/typebox'
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
import { IdSchema } from '../../kernel/ids.ts'
import { Nullable, NullableTimestamp, Timestamp } from '../../kernel/schema-types.ts'
import { LinkTitle, LinkUrl } from '../relations/schemas.ts'
import { Task } from '../schemas.ts'

/** What acts on the engine's behalf (history.ts `Automation`): a team's setting, or a rule's id. */
export const AutomationName = Type.String({
  pattern: '^(autoClose|autoArchive|rule_[0-9A-HJKMNP-TV-Z]{26})$',
})

const t = Task.properties
const otherTask = (what: string) =>
  linkChange(
    Nullable(IdSchema('TaskId')),
    `${what}: the other task's id, in \`after\` when added, in \`before\` when removed; the other side is null.`,
  )
export const LinkValue = Type.Object(
  { url: LinkUrl, title: LinkTitle },
  { additionalProperties: false, description: 'The link as it was, or null.' },
)
export type LinkValue = Static<typeof LinkValue>

/**
 * The fields a task's history records, with their values before and after: the schema of
 * `TaskHistoryEntry` and the type `recordTaskHistory` accepts both come from here.
 */
export const TASK_HISTORY_FIELDS = {
  created: change(
    Type.Null(),
    Type.Object(
      { key: t.key, title: t.title },
      { additionalProperties: false, description: 'The new task’s key and title.' },
    ),
    'The creation of the task: `before` is null, `after` its key and title.',
  ),
  title: sameChange(t.title, 'The title changed.'),
  description: sameChange(t.description, 'The description changed (Markdown, or null).'),
  stateId: sameChange(t.stateId, 'The workflow state changed.'),
  assigneeId: sameChange(t.assigneeId, 'The assignee changed (null: unassigned).'),
  priority: sameChange(t.priority, 'The priority changed.'),
  estimate: sameChange(t.estimate, 'The estimate changed (null: none).'),
  dueDate: sameChange(t.dueDate, 'The due date changed (null: none).'),
  startDate: sameChange(t.startDate, 'The start date changed (null: none).'),
  parentId: sameChange(t.parentId, 'The parent task changed (null: top-level).'),
  teamId: sameChange(t.teamId, 'The task moved to another team.'),
  key: sameChange(t.key, 'The key changed, after a move to another team.'),
  cycleId: sameChange(t.cycleId, 'The cycle changed (null: none).'),
  projectId: sameChange(t.projectId, 'The project changed (null: none).'),
  milestoneId: sameChange(t.milestoneId, 'The milestone changed (null: none).'),
  labelIds: sameChange(t.labelIds, 'The label set changed: the whole set before and after.'),
  archivedAt: sameChange(NullableTimestamp('When archived; null when not.'), 'Archived or restored.'),
  blockedBy: otherTask('A task blocking this one'),
  blocks: otherTask('A task this one blocks'),
  related: otherTask('A related task'),
  duplicateOf: otherTask('A task this one duplicates'),
  duplicatedBy: otherTask('A task that duplicates this one'),
  subscribers: linkChange(
    Nullable(ActorIdSchema),
    'A subscriber: the actor added (`after`) or removed (`before`); the other side is null.',
  ),
  links: change(
    Nullable(LinkValue),
    Nullable(LinkValue),
    'A link added (`before` null), edited, or deleted (`after` null): its URL and title.',
  ),
} as const

/** A change `recordTaskHistory` records: only the fields, and the value types, the schema describes. */
export type TaskHistoryChange =
  | RecordedChange<typeof TASK_HISTORY_FIELDS>
  | PrefixedRecordedChange<'fields.', typeof CUSTOM_FIELD_CHANGE>

/** One recorded change of one field of a task. */
export const TaskHistoryEntry = historyEntrySchema({
  name: 'TaskHistoryEntry',
  envelope: {
    id: IdSchema('TaskHistoryId'),
    taskId: IdSchema('TaskId'),
    actorId: Nullable(
      ActorIdSchema,
      "Who made the change; null for the system: a rollover when a cycle ends, or the team's auto-close or auto-archive. A rule's change names the rule's author, whose rights it acts with.",
    ),
    automation: Nullable(
      AutomationName,
      "What made the change on the engine's behalf: `autoClose` or `autoArchive` (the team's settings), or the id of the automation rule that acted (`rule_…`); null for a change a person or agent made.",
    ),
    createdAt: Timestamp('When the change happened.'),
  },
  fields: TASK_HISTORY_FIELDS,
  prefixed: customFieldEntries,
  description: 'One recorded change of one field of a task.',
  fieldDescription:
    'The field that changed, as named in the Task representation, `created`, a relation (`blockedBy`, ' +
    '`related`, ...), `subscribers`, `links`, or `fields.<CustomFieldId>`.',
})
export type TaskHistoryEntry = Static<typeof TaskHistoryEntry>

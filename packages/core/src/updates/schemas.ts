import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { UPDATE_HEALTH_VALUES } from '../projects/schemas.ts'

export const UPDATE_HEALTHS = UPDATE_HEALTH_VALUES
export type UpdateHealth = (typeof UPDATE_HEALTHS)[number]
export const UpdateHealthSchema = StringEnum(UPDATE_HEALTHS, {
  $id: 'UpdateHealth',
  description: 'How the author judges the work: on track, at risk, or off track.',
})

/**
 * What an update can be about. Each kind adds its type here and, when its group sits above this
 * one, its hook `updates.<kind>` (subjects.ts), and reuses the rest unchanged.
 */
export const UPDATE_SUBJECT_TYPES = ['project', 'initiative', 'program'] as const
export type UpdateSubjectType = (typeof UPDATE_SUBJECT_TYPES)[number]

export const UpdateBody = Type.String({ minLength: 1, maxLength: 100_000, description: 'Markdown.' })

export const UpdateProgress = Type.Object(
  {
    tasks: Type.Integer({ minimum: 0, description: 'Tasks of the subject the author could view.' }),
    completedTasks: Type.Integer({ minimum: 0, description: 'Of them, in a `completed` state.' }),
    completedRatio: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'As `completedRatio` of the subject’s progress at that time.',
    }),
  },
  {
    $id: 'UpdateProgress',
    additionalProperties: false,
    description: 'The subject’s progress when the update was posted, so old updates stay meaningful.',
  },
)
export type UpdateProgress = Static<typeof UpdateProgress>

export const StatusUpdate = Type.Object(
  {
    id: IdSchema('UpdateId'),
    orgId: IdSchema('OrgId'),
    subjectType: StringEnum(UPDATE_SUBJECT_TYPES, { description: 'What the update is about.' }),
    subjectId: Type.String({
      description: 'The id of the subject (a ProjectId, an InitiativeId or a ProgramId).',
    }),
    body: UpdateBody,
    health: UpdateHealthSchema,
    authorId: ActorIdSchema,
    progress: Nullable(UpdateProgress, 'Progress at posting time; null when the subject has no tasks.'),
    createdAt: Timestamp('When the update was posted.'),
    updatedAt: Timestamp('When the update last changed (edits, archive, restore).'),
    editedAt: NullableTimestamp('When the body or health was last edited; null if never.'),
    archivedAt: NullableTimestamp('When the update was archived; archived updates do not set health.'),
  },
  { $id: 'StatusUpdate', additionalProperties: false },
)
export type StatusUpdate = Static<typeof StatusUpdate>

export const UpdateRevision = Type.Object(
  {
    id: IdSchema('UpdateRevisionId'),
    updateId: IdSchema('UpdateId'),
    body: UpdateBody,
    health: UpdateHealthSchema,
    editorId: ActorIdSchema,
    replacedAt: Timestamp('When an edit replaced this body and health.'),
  },
  {
    $id: 'UpdateRevision',
    additionalProperties: false,
    description: 'A body and health an edit replaced, with who replaced it and when.',
  },
)
export type UpdateRevision = Static<typeof UpdateRevision>

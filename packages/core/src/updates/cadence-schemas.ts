import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { UPDATE_SUBJECT_TYPES } from './schemas.ts'

const SubjectType = StringEnum(UPDATE_SUBJECT_TYPES, { description: 'What kind of record it is.' })
const SubjectId = Type.String({
  pattern: '^(proj|ini|prg)_[0-9A-HJKMNP-TV-Z]{26}$',
  description: 'A ProjectId, an InitiativeId or a ProgramId.',
})

export const UpdateDueItem = Type.Object(
  {
    subjectType: SubjectType,
    subjectId: SubjectId,
    name: Type.String({ description: 'Its name.' }),
    ownerId: Nullable(IdSchema('MemberId'), "The project's lead, or the program's or initiative's owner."),
    lastUpdateAt: NullableTimestamp(
      'When its latest unarchived status update was posted; null before the first.',
    ),
    nextUpdateDueAt: Timestamp('When the update was due, by its cadence.'),
    overdue: Type.Boolean({ description: 'A day or more has passed since `nextUpdateDueAt`.' }),
  },
  {
    $id: 'UpdateDueItem',
    additionalProperties: false,
    description: 'A record whose next status update is due or overdue.',
  },
)
export type UpdateDueItem = Static<typeof UpdateDueItem>

export const UpdateRequest = Type.Object(
  {
    id: IdSchema('UpdateRequestId'),
    orgId: IdSchema('OrgId'),
    subjectType: SubjectType,
    subjectId: SubjectId,
    requesterId: ActorIdSchema,
    recipientId: IdSchema('MemberId', 'The lead or owner asked, notified with `updateRequested`.'),
    note: Nullable(Type.String({ maxLength: 2000 }), 'What the requester wants to know.'),
    createdAt: Timestamp('When it was asked.'),
  },
  {
    $id: 'UpdateRequest',
    additionalProperties: false,
    description: 'A request for a status update, sent to the lead or owner of a record.',
  },
)
export type UpdateRequest = Static<typeof UpdateRequest>

export const UpdateRequestBody = Type.Object(
  {
    subjectType: SubjectType,
    subjectId: SubjectId,
    note: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, description: 'What you want to know.' }),
    ),
  },
  { additionalProperties: false },
)
export type UpdateRequestBody = Static<typeof UpdateRequestBody>

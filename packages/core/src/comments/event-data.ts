import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { EventChanges, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { COMMENT_SUBJECT_TYPES, Comment, Reaction } from './schemas.ts'

/** What service.ts's `emitComment` writes: the comment, its subject, the task it is on, and any `changes`. */
const commentData = (changes: 'none' | 'required'): TObject =>
  Type.Object({
    comment: Comment,
    subjectType: StringEnum(COMMENT_SUBJECT_TYPES),
    subjectId: Type.String({ description: 'The id of the record the thread is on.' }),
    taskId: Type.Optional(IdSchema('TaskId', "The task the thread is on, when it is a task's.")),
    ...(changes === 'required' ? { changes: EventChanges } : {}),
  })

/** The `data` of comment and reaction events, as service.ts and reactions.ts emit it. */
export const COMMENT_EVENT_DATA: Record<string, TSchema> = {
  ...sameData(['comment.created', 'comment.deleted'], commentData('none')),
  ...sameData(['comment.updated', 'comment.resolved', 'comment.unresolved'], commentData('required')),
  ...sameData(['reaction.created', 'reaction.deleted'], recordData('reaction', Reaction)),
}

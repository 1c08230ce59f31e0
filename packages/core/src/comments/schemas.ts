import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { AutomationName } from '../tasks/history/schemas.ts'

/** The kinds of record a comment thread can belong to; each is also a capability target kind. */
export const COMMENT_SUBJECT_TYPES = [
  'task',
  'project',
  'milestone',
  'update',
  'program',
  'initiative',
  'document',
] as const
export type CommentSubjectType = (typeof COMMENT_SUBJECT_TYPES)[number]

/** A comment's Markdown: what a comment holds, and (at least one character) what a request sends. */
const CommentText = { maxLength: 100_000, description: 'Markdown.' }
export const CommentBody = Type.String({ ...CommentText, minLength: 1 })

export const Comment = Type.Object(
  {
    id: IdSchema('CommentId'),
    orgId: IdSchema('OrgId'),
    subjectType: StringEnum(COMMENT_SUBJECT_TYPES, { description: 'What the thread is on.' }),
    subjectId: Type.String({
      description:
        'The TaskId, ProjectId, MilestoneId, UpdateId, ProgramId, InitiativeId or DocumentId of the subject, per `subjectType`.',
    }),
    taskId: Nullable(IdSchema('TaskId'), 'The task, when the subject is a task; null otherwise.'),
    parentId: Nullable(
      IdSchema('CommentId'),
      "The root of the thread this comment replies to; null for a thread's root.",
    ),
    authorId: Nullable(
      ActorIdSchema,
      "Who wrote it; null for the system: the team's auto-close saying why it closed the task (`automation` names it).",
    ),
    automation: Nullable(
      AutomationName,
      "What wrote it on the engine's behalf: `autoClose` (the team's setting), or the id of the automation rule whose `comment` act posted it as its author (`rule_…`); null for a comment a person or agent wrote.",
    ),
    body: Nullable(Type.String(CommentText), 'Markdown; null once the comment is deleted.'),
    createdAt: Timestamp('When the comment was posted.'),
    updatedAt: Timestamp('When the comment last changed (edit, deletion, resolution).'),
    editedAt: NullableTimestamp('When the body was last edited; null if never.'),
    deletedAt: NullableTimestamp('When the comment was deleted; its replies stay readable.'),
    resolvedAt: NullableTimestamp('Thread roots: when the thread was resolved; null while open.'),
    resolvedById: Nullable(ActorIdSchema, 'Who resolved the thread.'),
  },
  { $id: 'Comment', additionalProperties: false },
)
export type Comment = Static<typeof Comment>

export const CommentRevision = Type.Object(
  {
    id: IdSchema('CommentRevisionId'),
    commentId: IdSchema('CommentId'),
    body: Type.String({ maxLength: 100_000, description: 'The body as it was before an edit.' }),
    createdAt: Timestamp('When this body was written.'),
    replacedAt: Timestamp('When an edit replaced it.'),
    editorId: ActorIdSchema,
  },
  { $id: 'CommentRevision', additionalProperties: false },
)
export type CommentRevision = Static<typeof CommentRevision>

export const REACTION_TARGETS = ['task', 'comment', 'project', 'update'] as const
export type ReactionTargetType = (typeof REACTION_TARGETS)[number]

export const Emoji = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    'One Unicode emoji (`👍`, `👍🏽`, `🇫🇷`, `👩‍💻`) or a custom emoji as a `:shortcode:` of lowercase letters, digits, `_`, `+` and `-`. Shortcodes are not translated: `:thumbsup:` and `👍` are two different reactions.',
  examples: ['👍'],
})

export const Reaction = Type.Object(
  {
    id: IdSchema('ReactionId'),
    orgId: IdSchema('OrgId'),
    targetType: StringEnum(REACTION_TARGETS, { description: 'What was reacted to.' }),
    targetId: Type.String({ description: 'The TaskId, CommentId, ProjectId or UpdateId, per `targetType`.' }),
    taskId: Nullable(
      IdSchema('TaskId'),
      'The task, or the task a comment is on; null for reactions to anything else.',
    ),
    emoji: Emoji,
    actorId: ActorIdSchema,
    createdAt: Timestamp('When the reaction was added.'),
  },
  { $id: 'Reaction', additionalProperties: false },
)
export type Reaction = Static<typeof Reaction>

export const ReactionGroup = Type.Object(
  {
    emoji: Emoji,
    count: Type.Integer({ minimum: 1 }),
    actorIds: Type.Array(ActorIdSchema, { description: 'Everyone who reacted with it, first first.' }),
    myReactionId: Nullable(
      IdSchema('ReactionId'),
      "The caller's own reaction with this emoji, to remove it; null if none.",
    ),
  },
  { $id: 'ReactionGroup', additionalProperties: false },
)
export type ReactionGroup = Static<typeof ReactionGroup>

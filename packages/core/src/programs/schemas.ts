import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { AnyJson, Name, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { Project, UPDATE_HEALTH_VALUES } from '../projects/schemas.ts'
import { progressFields } from '../tasks/progress.ts'
import { Color } from '../teams/schemas.ts'

/** `active` → `paused` | `retired`; `paused` → `active` | `retired`; `retired` → `active` (reopen). */
export const PROGRAM_STATUSES = ['active', 'paused', 'retired'] as const
export type ProgramStatus = (typeof PROGRAM_STATUSES)[number]
export const ProgramStatusSchema = StringEnum(PROGRAM_STATUSES, {
  $id: 'ProgramStatus',
  description:
    'An ongoing area is `active`, `paused` (kept, not worked on) or `retired` (closed; reopenable).',
})

const Health = StringEnum(UPDATE_HEALTH_VALUES)

export const ProgramName = Name('The program name.', 200)
export const ProgramDescription = Nullable(Type.String({ maxLength: 100_000 }), 'Markdown.')
export const ProgramIcon = Nullable(Type.String({ minLength: 1, maxLength: 64 }), 'An emoji or an icon name.')

export const Program = Type.Object(
  {
    id: IdSchema('ProgramId'),
    orgId: IdSchema('OrgId'),
    name: ProgramName,
    description: ProgramDescription,
    icon: ProgramIcon,
    color: Color,
    ownerId: Nullable(IdSchema('MemberId'), 'The member answerable for the program.'),
    status: ProgramStatusSchema,
    labelIds: Type.Array(IdSchema('LabelId'), {
      description: 'Org labels on the program, in the order they were added (`programs.labels.add`).',
    }),
    retiredAt: NullableTimestamp('When it was last retired; null while active or paused.'),
    health: Nullable(Health, 'The health of its latest unarchived status update; null without one.'),
    lastUpdateAt: NullableTimestamp('When its latest unarchived status update was posted.'),
    creatorId: ActorIdSchema,
    createdAt: Timestamp('When it was created.'),
    updatedAt: Timestamp('When it last changed.'),
    archivedAt: NullableTimestamp('When it was archived; archived programs leave default lists.'),
  },
  {
    $id: 'Program',
    additionalProperties: false,
    description: 'An ongoing area of work (no end date) holding projects, with an owner, members and teams.',
  },
)
export type Program = Static<typeof Program>

export const ProgramProject = Type.Object(
  {
    id: IdSchema('ProjectId', 'The project, as the entry’s id.'),
    position: Type.Integer({ minimum: 0, description: 'Its place in the program; smaller first.' }),
    addedBy: ActorIdSchema,
    addedAt: Timestamp('When it was added to the program.'),
    project: Project,
  },
  {
    $id: 'ProgramProject',
    additionalProperties: false,
    description: 'A project held by the program, at its position there.',
  },
)
export type ProgramProject = Static<typeof ProgramProject>

const HealthCounts = Type.Object(
  {
    onTrack: Type.Integer({ minimum: 0 }),
    atRisk: Type.Integer({ minimum: 0 }),
    offTrack: Type.Integer({ minimum: 0 }),
    none: Type.Integer({ minimum: 0, description: 'Projects without a status update.' }),
  },
  { additionalProperties: false },
)

export const ComputedHealth = Type.Object(
  {
    value: Nullable(Health, 'The worst signal (off track > at risk > on track); null without any.'),
    reasons: Type.Array(Type.String(), {
      description: 'What made it worse than on track, worst first, naming only projects the caller can view.',
    }),
  },
  { $id: 'ProgramComputedHealth', additionalProperties: false },
)
export type ComputedHealth = Static<typeof ComputedHealth>

export const ProgramRollup = Type.Object(
  {
    programId: IdSchema('ProgramId'),
    health: Nullable(Health, 'As reported by the program’s own latest update.'),
    computedHealth: ComputedHealth,
    projects: Type.Object(
      {
        total: Type.Integer({
          minimum: 0,
          description: 'Unarchived projects of the program the caller can view.',
        }),
        open: Type.Integer({ minimum: 0, description: 'Of them, not completed or canceled.' }),
        byHealth: HealthCounts,
      },
      { additionalProperties: false, description: 'Counted over the open ones for `byHealth`.' },
    ),
    ...progressFields('program’s visible projects'),
  },
  {
    $id: 'ProgramRollup',
    additionalProperties: false,
    description:
      'Progress and health rolled up from the projects of the program the caller can view: hidden work is not counted.',
  },
)
export type ProgramRollup = Static<typeof ProgramRollup>

export const ProgramHistoryEntry = Type.Object(
  {
    id: IdSchema('ProgramHistoryId'),
    programId: IdSchema('ProgramId'),
    actorId: ActorIdSchema,
    field: Type.String({
      description:
        'The field that changed as named in the Program representation (`name`, `status`, `ownerId`, ...), ' +
        '`created`, or the link that changed: `projects`, `members`, `teams`.',
    }),
    before: AnyJson(
      'The value before; for a removed link, the id that was removed; null for `created` and additions.',
    ),
    after: AnyJson('The value after; for an added link, the id that was added; for `created`, `{ name }`.'),
    createdAt: Timestamp('When the change happened.'),
  },
  {
    $id: 'ProgramHistoryEntry',
    additionalProperties: false,
    description: 'One recorded change of a program: a field, or a project, member or team link.',
  },
)
export type ProgramHistoryEntry = Static<typeof ProgramHistoryEntry>

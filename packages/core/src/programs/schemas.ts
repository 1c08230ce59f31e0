import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import {
  change,
  historyEntrySchema,
  linkChange,
  type RecordedChange,
  sameChange,
} from '../kernel/history-entry.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
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

/** A member taking part in a program: the join record of `programs.members.*`. */
export const ProgramMember = Type.Object(
  {
    programId: IdSchema('ProgramId'),
    memberId: IdSchema('MemberId'),
    addedAt: Timestamp('When the member was added.'),
  },
  { $id: 'ProgramMember', additionalProperties: false },
)
export type ProgramMember = Static<typeof ProgramMember>

/** A team working in a program: the join record of `programs.teams.*`. */
export const ProgramTeam = Type.Object(
  {
    programId: IdSchema('ProgramId'),
    teamId: IdSchema('TeamId'),
    addedAt: Timestamp('When the team was added.'),
  },
  { $id: 'ProgramTeam', additionalProperties: false },
)
export type ProgramTeam = Static<typeof ProgramTeam>

/** A project held by a program: the join record of `programs.projects.*`. */
export const ProgramProject = Type.Object(
  {
    programId: IdSchema('ProgramId'),
    projectId: IdSchema('ProjectId'),
    addedAt: Timestamp('When it was added to the program.'),
    position: Type.Integer({ minimum: 0, description: 'Its place in the program, from 0; smaller first.' }),
    project: Project,
  },
  {
    $id: 'ProgramProject',
    additionalProperties: false,
    description:
      'A project held by the program, at its position there; `project` is the project as `projects.get` reads it, for display.',
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

const pg = Program.properties
const linked = (what: string, id: TSchema) =>
  linkChange(
    id,
    `${what}: the id added (in \`after\`) or taken away (in \`before\`); the other side is null.`,
  )

/**
 * The fields a program's history records, with their values before and after: the schema of
 * `ProgramHistoryEntry` and the type `recordProgramHistory` accepts both come from here.
 */
export const PROGRAM_HISTORY_FIELDS = {
  created: change(
    Type.Null(),
    Type.Object({ name: pg.name }, { additionalProperties: false, description: 'The new program’s name.' }),
    'The creation of the program: `before` is null, `after` its name.',
  ),
  name: sameChange(pg.name, 'The name changed.'),
  description: sameChange(pg.description, 'The description changed.'),
  icon: sameChange(pg.icon, 'The icon changed.'),
  color: sameChange(pg.color, 'The color changed.'),
  ownerId: sameChange(pg.ownerId, 'The owner changed (null: none).'),
  status: sameChange(pg.status, 'The status changed.'),
  retiredAt: sameChange(pg.retiredAt, 'Set when the program was retired, cleared when it was reopened.'),
  archivedAt: sameChange(pg.archivedAt, 'Archived or restored.'),
  labelIds: sameChange(pg.labelIds, 'The label set changed: the whole set before and after.'),
  projects: linked('A project of the program', Nullable(IdSchema('ProjectId'))),
  members: linked('A member of the program', Nullable(IdSchema('MemberId'))),
  teams: linked('A team of the program', Nullable(IdSchema('TeamId'))),
} as const

export const ProgramHistoryEntry = historyEntrySchema({
  name: 'ProgramHistoryEntry',
  envelope: {
    id: IdSchema('ProgramHistoryId'),
    programId: IdSchema('ProgramId'),
    actorId: ActorIdSchema,
    createdAt: Timestamp('When the change happened.'),
  },
  fields: PROGRAM_HISTORY_FIELDS,
  description: 'One recorded change of a program: a field, or a project, member or team link.',
  fieldDescription:
    'The field that changed as named in the Program representation (`name`, `status`, `ownerId`, ...), ' +
    '`created`, or the link that changed: `projects`, `members`, `teams`.',
})
export type ProgramHistoryEntry = Static<typeof ProgramHistoryEntry>

/** A change `recordProgramHistory` records: only the fields, and the value types, the schema describes. */
export type ProgramHistoryChange = RecordedChange<typeof PROGRAM_HISTORY_FIELDS>

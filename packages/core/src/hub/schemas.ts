import { type TSchema, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { CursorParam, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../kernel/pagination.ts'
import { Nullable, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { UpdateDueItem } from '../updates/cadence-schemas.ts'
import { AGENDA_KINDS } from './agenda.ts'
import { HUB_RECORD_TYPES, HUB_RELATIONS, HUB_SEARCH_TYPES, TYPEAHEAD_TYPES } from './storage.ts'

/** A workspace whose part of a hub read failed or ran out of time; the rest of the answer stands. */
export const PartialOrg = Type.Object(
  {
    orgId: IdSchema('OrgId', 'The workspace left out of this answer.'),
    code: Type.String({
      description:
        '`timeout` (it took longer than the per-workspace budget), or the problem code it failed with (e.g. `service_unavailable`, `internal_error`).',
    }),
  },
  { additionalProperties: false },
)

/** A hub page: the merged data, the composite cursor, and the workspaces left out. */
export const HubPageOf = <T extends TSchema>(item: T, description: string) =>
  Type.Object(
    {
      data: Type.Array(item, { description }),
      nextCursor: Nullable(
        Type.String(),
        'Pass as `cursor` for the next page (one signed position per workspace); null on the last page.',
      ),
      partial: Type.Array(PartialOrg, {
        description: 'Workspaces whose part failed or timed out; empty when the answer is complete.',
      }),
    },
    { additionalProperties: false },
  )

export const HubPageQuery = {
  cursor: Type.Optional(CursorParam(8192, 'The `nextCursor` of the previous page (opaque, signed).')),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: PAGE_LIMIT_MAX,
      default: PAGE_LIMIT_DEFAULT,
      description: `Page size over all workspaces together (default ${PAGE_LIMIT_DEFAULT}, max ${PAGE_LIMIT_MAX}).`,
    }),
  ),
  orgId: Type.Optional(IdSchema('OrgId', 'Only this workspace (one you are a member of).')),
}

export const SearchHitSchema = Type.Object(
  {
    orgId: IdSchema('OrgId', 'The workspace holding the record.'),
    type: StringEnum(HUB_SEARCH_TYPES, { description: 'What the record is.' }),
    id: Type.String({
      description: 'The record id (`task_…`, `proj_…`, `ini_…`, `doc_…`, `cmt_…`, `upd_…`).',
    }),
    key: Nullable(Type.String(), "The task's key (`ENG-42`); null for other types."),
    title: Nullable(Type.String(), 'Title or name; null for comments and updates.'),
    snippet: Type.String({ description: 'A short excerpt of the text around the first match.' }),
    score: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        "The engine's rank divided by the best rank in the same workspace for this query (1 = its best match). Scores of different workspaces are not comparable beyond that.",
    }),
    parent: Type.Optional(
      Type.Object(
        {
          type: Type.String({
            description: '`team`, `task`, `project`, `milestone`, `update`, `initiative`.',
          }),
          id: Type.String(),
        },
        { additionalProperties: false, description: 'What holds the record.' },
      ),
    ),
    updatedAt: Timestamp('When the record last changed.'),
  },
  { $id: 'HubSearchHit', additionalProperties: false },
)

export const ResolvedRecord = Type.Object(
  {
    orgId: IdSchema('OrgId', 'The workspace holding the record.'),
    type: StringEnum(['task', 'project', 'initiative', 'document'] as const, { description: 'What it is.' }),
    id: Type.String({ description: 'The record id.' }),
    key: Nullable(Type.String(), "The task's current key; null for other types."),
    title: Type.String({ description: 'Title or name.' }),
  },
  { additionalProperties: false },
)

/** One section of `hub.today`: its first items and whether there are more. */
export const TodaySection = <T extends TSchema>(item: T, description: string) =>
  Type.Object(
    {
      items: Type.Array(item),
      more: Type.Boolean({
        description: 'Whether more than these are there (see `hub.tasks`, `hub.inbox`, `hub.approvals`).',
      }),
    },
    { additionalProperties: false, description },
  )

/** `updates.due`'s item with the workspace it is in. */
export const HubUpdateDue = Type.Object(
  { orgId: IdSchema('OrgId', 'The workspace holding the record.'), ...UpdateDueItem.properties },
  {
    $id: 'HubUpdateDue',
    additionalProperties: false,
    description: 'A record you lead or own whose next status update is due or overdue.',
  },
)

export const HubInboxCount = Type.Object(
  {
    orgId: IdSchema('OrgId', 'The workspace.'),
    unread: Type.Integer({ minimum: 0, description: 'Unread notifications in its inbox.' }),
    inbox: Type.Integer({ minimum: 0, description: 'Notifications in its inbox, read or not.' }),
    snoozed: Type.Integer({ minimum: 0, description: 'Snoozed ones.' }),
    unreadByKind: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: 'Unread inbox notifications per kind; kinds with none are left out.',
    }),
  },
  { additionalProperties: false },
)

/** A project, program or initiative of `hub.portfolio`. */
export const PortfolioItemSchema = Type.Object(
  {
    orgId: IdSchema('OrgId', 'The workspace holding the record.'),
    type: StringEnum(HUB_RECORD_TYPES, { description: 'What the record is.' }),
    id: Type.String({ description: 'The record id (`proj_…`, `prg_…`, `ini_…`).' }),
    name: Type.String(),
    relations: Type.Array(StringEnum(HUB_RELATIONS), {
      minItems: 1,
      description:
        'How you relate to it: `lead` (a project’s lead, a program’s or initiative’s owner), `member`, `follower`.',
    }),
    status: Type.String({
      description: 'A project’s status category; a program’s or initiative’s status.',
    }),
    health: Nullable(
      StringEnum(['onTrack', 'atRisk', 'offTrack'] as const),
      'The health of its latest unarchived status update; null without one.',
    ),
    targetDate: Nullable(Type.String({ format: 'date' }), 'Its target date; programs have none.'),
    progress: Nullable(
      Type.Number({ minimum: 0, maximum: 1 }),
      'A project’s completed ratio over the tasks you may view; null for programs and initiatives.',
    ),
    blocked: Type.Boolean({ description: 'A project with an open blocker.' }),
    nextMilestone: Nullable(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          targetDate: Nullable(Type.String({ format: 'date' }), 'When it should be reached.'),
        },
        { additionalProperties: false },
      ),
      'A project’s next milestone (the first neither done nor overdue); null otherwise.',
    ),
    lastUpdate: Nullable(
      Type.Object(
        {
          id: Type.String(),
          health: Type.String(),
          createdAt: Timestamp('When it was posted.'),
          excerpt: Type.String({ description: 'The start of its body.' }),
        },
        { additionalProperties: false },
      ),
      'Its latest unarchived status update; null without one.',
    ),
  },
  { $id: 'HubPortfolioItem', additionalProperties: false },
)

/** A dated item of `hub.agenda`. */
export const AgendaItemSchema = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'The day it falls on (a timestamp’s UTC day).' }),
    kind: StringEnum(AGENDA_KINDS, {
      description:
        '`taskDue`, `milestone` (target date), `projectTarget`, `initiativeTarget`, `cycleStart`, `cycleEnd`, `timeBlock` (a daily-plan item with a time).',
    }),
    orgId: Nullable(IdSchema('OrgId'), 'The workspace; null for a plan item of no workspace.'),
    recordType: StringEnum(['task', 'milestone', 'project', 'initiative', 'cycle', 'planItem'] as const),
    id: Type.String({ description: 'The record id.' }),
    title: Nullable(Type.String(), 'Title or name; null for a plan item that only references a task.'),
    time: Nullable(
      Type.Object(
        { start: Type.String(), end: Type.String() },
        { additionalProperties: false, description: 'Local `HH:MM` times of a time block.' },
      ),
      'Only for time blocks.',
    ),
  },
  { $id: 'HubAgendaItem', additionalProperties: false },
)

/** A name beginning with the typed prefix, for pickers. */
export const TypeaheadHitSchema = Type.Object(
  {
    orgId: IdSchema('OrgId', 'The workspace holding it.'),
    type: StringEnum(TYPEAHEAD_TYPES, { description: 'What it is (`person`: a member).' }),
    id: Type.String({ description: 'Its id (a member id for a person).' }),
    name: Type.String({ description: 'Its name; a task’s title.' }),
    key: Nullable(Type.String(), 'A task’s key (`ENG-42`) or a team’s key; null for the others.'),
  },
  { $id: 'HubTypeaheadHit', additionalProperties: false },
)

const DigestChange = Type.Object(
  {
    from: Nullable(Type.String(), 'Before; null when it had none.'),
    to: Nullable(Type.String(), 'After.'),
    at: Timestamp('When it changed.'),
  },
  { additionalProperties: false },
)

/** One record of `hub.digest` and what changed in it. */
export const DigestRecordSchema = Type.Object(
  {
    orgId: IdSchema('OrgId', 'The workspace holding the record.'),
    type: StringEnum(HUB_RECORD_TYPES, { description: 'What the record is.' }),
    id: Type.String({ description: 'The record id.' }),
    name: Type.String(),
    updates: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          health: Type.String(),
          createdAt: Timestamp('When it was posted.'),
          excerpt: Type.String({ description: 'The start of its body.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Status updates posted since, newest first.' },
    ),
    healthChanges: Type.Array(DigestChange, {
      description: 'Health changes along those updates, oldest first (`from`: the health before).',
    }),
    statusChanges: Type.Array(DigestChange, {
      description: 'Status changes from its history, oldest first (a project’s status by name).',
    }),
    milestonesCompleted: Type.Array(
      Type.Object(
        { id: Type.String(), name: Type.String(), targetDate: Nullable(Type.String({ format: 'date' })) },
        { additionalProperties: false },
      ),
      { description: 'A project’s milestones now done whose tasks were completed since.' },
    ),
    tasksCompleted: Type.Object(
      {
        count: Type.Integer({ minimum: 0, description: 'A project’s tasks you may view completed since.' }),
        items: Type.Array(
          Type.Object(
            {
              id: Type.String(),
              key: Type.String(),
              title: Type.String(),
              completedAt: Timestamp('When it was completed.'),
            },
            { additionalProperties: false },
          ),
          { description: 'The latest ten, newest first.' },
        ),
      },
      { additionalProperties: false },
    ),
    changedAt: Timestamp('Its latest change listed here.'),
  },
  { $id: 'HubDigestRecord', additionalProperties: false },
)

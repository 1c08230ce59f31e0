import { type TProperties, Type } from '@sinclair/typebox'
import { ApprovalRequest } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PAGE_LIMIT_MAX } from '../kernel/pagination.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { PlanItem } from '../me/plan-schemas.ts'
import { NOTIFICATION_VIEWS, Notification, NotificationKindSchema } from '../notifications/schemas.ts'
import { PollQueryFields, StreamEvent } from '../streams/schema.ts'
import { TASK_SORTS } from '../tasks/order.ts'
import { DueDate, PrioritySchema, Task } from '../tasks/schemas.ts'
import { StatusUpdate, UpdateHealthSchema } from '../updates/schemas.ts'
import { hubActivity } from './activity.ts'
import { AGENDA_MAX_DAYS, hubAgenda } from './agenda.ts'
import { hubApprovals } from './approvals.ts'
import { hubInboxCounts } from './counts.ts'
import { DIGEST_MAX_DAYS, hubDigest } from './digest.ts'
import { hubExamples as ex } from './examples.ts'
import { hubInbox } from './inbox.ts'
import { HUB_INBOX_ACTIONS, hubInboxBatch } from './inbox-batch.ts'
import { hubMoreExamples as more } from './more-examples.ts'
import { hubPortfolio, PORTFOLIO_LIMIT_DEFAULT, parseTypes } from './portfolio.ts'
import { hubResolve } from './resolve.ts'
import {
  AgendaItemSchema,
  DigestRecordSchema,
  HubInboxCount,
  HubPageOf,
  HubPageQuery,
  HubUpdateDue,
  PartialOrg,
  PortfolioItemSchema,
  ResolvedRecord,
  SearchHitSchema,
  TodaySection,
  TypeaheadHitSchema,
} from './schemas.ts'
import { hubSearch } from './search.ts'
import { HUB_RECORD_TYPES, HUB_SEARCH_TYPES, TYPEAHEAD_TYPES } from './storage.ts'
import { HUB_TASK_RELATIONS, HUB_TASK_STATUSES, hubTasks } from './tasks.ts'
import { hubToday, TODAY_SECTION_LIMIT_DEFAULT } from './today.ts'
import { hubTypeahead, TYPEAHEAD_LIMIT_DEFAULT, TYPEAHEAD_LIMIT_MAX } from './typeahead.ts'
import { hubUpdates } from './updates.ts'

const TAG = 'Hub'
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const RELATED =
  'the projects, programs and initiatives you lead (a program’s or initiative’s owner), are a member of, or follow'
const typesQuery = Type.Optional(
  Type.String({
    maxLength: 60,
    description: `Comma-separated subset of ${HUB_RECORD_TYPES.map((t) => `\`${t}\``).join(', ')} (default: all).`,
  }),
)
const ACROSS =
  'One permission-scoped query runs in each workspace you are an active member of, with your role and grants there, and the results are merged; no query spans workspaces. A workspace that fails or takes too long is listed in `partial` instead of failing the answer. The cursor is signed and holds one position per workspace: a workspace you join later starts at its beginning, one you leave drops out.'

export const hubOperations: AnyOperation[] = [
  declareOperation({
    id: 'hub.search',
    method: 'GET',
    path: '/v1/hub/search',
    tag: TAG,
    scope: 'work:read',
    summary: 'Search all my workspaces',
    description: `Ranked full-text search over tasks, projects, initiatives, documents, comments and status updates in every workspace you belong to, through each database's own full-text engine (SQLite FTS5, Postgres \`tsvector\` with a GIN index). Every word must begin a word of the title or text. Only records you may view are searched. Each hit's \`score\` is its rank relative to the best hit of its workspace. ${ACROSS}`,
    query: obj({
      q: Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Up to 8 words; each must begin a word of the record.',
      }),
      types: Type.Optional(
        Type.String({
          maxLength: 100,
          description: `Comma-separated subset of ${HUB_SEARCH_TYPES.map((t) => `\`${t}\``).join(', ')} (default: all).`,
        }),
      ),
      ...HubPageQuery,
    }),
    response: HubPageOf(SearchHitSchema, 'Hits, best first.'),
    status: 200,
    errors: ['validation_failed', 'invalid_cursor'],
    examples: ex.search,
    run: (ctx, { query }) => hubSearch(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.inbox',
    method: 'GET',
    path: '/v1/hub/inbox',
    tag: TAG,
    scope: 'work:read',
    summary: 'My notifications in all workspaces',
    description: `Your notifications of every workspace, newest first, with the filters of \`notifications.list\`; mark them read through \`notifications.read\` of their workspace (\`orgId\` is on each). ${ACROSS}`,
    query: obj({
      view: Type.Optional(
        StringEnum(NOTIFICATION_VIEWS, {
          default: 'inbox',
          description: '`inbox` (default): neither archived nor snoozed; `snoozed`; `archived`; `all`.',
        }),
      ),
      unread: Type.Optional(Type.Boolean({ description: 'true: only unread ones; false: only read ones.' })),
      kind: Type.Optional(NotificationKindSchema),
      ...HubPageQuery,
    }),
    response: HubPageOf(Notification, 'Notifications, newest first.'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: ex.inbox,
    run: (ctx, { query }) => hubInbox(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.activity',
    method: 'GET',
    path: '/v1/hub/activity',
    tag: TAG,
    scope: 'work:read',
    summary: 'Recent events in all my workspaces',
    description: `The events you may see in every workspace, newest first (\`streams.hub\` is the same log oldest first, for following it). Filters: \`kinds\`, \`actorId\`, \`recordId\`. ${ACROSS}`,
    query: obj({
      kinds: PollQueryFields.kinds,
      actorId: Type.Optional(
        Type.String({ maxLength: 64, description: 'Only changes made by this member or agent.' }),
      ),
      recordId: Type.Optional(Type.String({ maxLength: 64, description: 'Only events about this record.' })),
      ...HubPageQuery,
    }),
    response: HubPageOf(StreamEvent, 'Events, newest first.'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: ex.activity,
    run: (ctx, { query }) => hubActivity(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.resolve',
    method: 'GET',
    path: '/v1/hub/resolve',
    tag: TAG,
    scope: 'work:read',
    summary: 'Resolve a task key or record id',
    description:
      'Which record a reference names, in each workspace where you may view it: a task key (`ENG-42`, current or previous; every workspace has its own keys, so there may be several) or a task, project, initiative or document id. Workspaces that fail are listed in `partial`.',
    query: obj({
      ref: Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'A task key or a `task_`, `proj_`, `ini_` or `doc_` id.',
      }),
    }),
    response: obj({
      data: Type.Array(ResolvedRecord, { description: 'At most one per workspace.' }),
      partial: Type.Array(PartialOrg, { description: 'Workspaces whose look-up failed or timed out.' }),
    }),
    status: 200,
    errors: ['validation_failed'],
    examples: ex.resolve,
    run: (ctx, { query }) => hubResolve(ctx, (query as { ref: string }).ref),
  }),
  declareOperation({
    id: 'hub.inboxCounts',
    method: 'GET',
    path: '/v1/hub/inbox/counts',
    tag: TAG,
    scope: 'work:read',
    summary: 'My unread counts per workspace',
    description:
      'For a workspace switcher: in each workspace you belong to, the counts of `notifications.counts` (unread, inbox, snoozed, unread per kind), and the unread total. Workspaces that fail are listed in `partial` and left out of the total.',
    response: obj({
      unread: Type.Integer({
        minimum: 0,
        description: 'Unread inbox notifications in all the workspaces answered.',
      }),
      data: Type.Array(HubInboxCount, { description: 'One per workspace, in workspace id order.' }),
      partial: Type.Array(PartialOrg, { description: 'Workspaces whose counts failed or timed out.' }),
    }),
    status: 200,
    errors: [],
    examples: ex.inboxCounts,
    run: (ctx) => hubInboxCounts(ctx),
  }),
  declareOperation({
    id: 'hub.tasks',
    method: 'GET',
    path: '/v1/hub/tasks',
    tag: TAG,
    scope: 'work:read',
    summary: 'My tasks in all workspaces',
    description: `Unarchived tasks assigned to you (default), created by you or followed by you, in every workspace, among the tasks you may view there; filter by status, priority and due dates, sort like \`tasks.list\` (default: due date, undated last). ${ACROSS}`,
    query: obj({
      relation: Type.Optional(
        StringEnum(HUB_TASK_RELATIONS, {
          default: 'assigned',
          description: '`assigned` to you, `created` by you, or `followed` by you (you subscribe to it).',
        }),
      ),
      status: Type.Optional(
        StringEnum(HUB_TASK_STATUSES, {
          default: 'open',
          description: '`open` (default): not completed or canceled; `closed`: completed or canceled; `all`.',
        }),
      ),
      priority: Type.Optional(PrioritySchema),
      dueAfter: Type.Optional({ ...DueDate, description: 'Due on or after this date.' }),
      dueBefore: Type.Optional({ ...DueDate, description: 'Due on or before this date.' }),
      sort: Type.Optional(
        StringEnum(TASK_SORTS, { default: 'dueDate', description: 'A key, descending with a leading `-`.' }),
      ),
      ...HubPageQuery,
    }),
    response: HubPageOf(Task, 'Tasks in the order asked.'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: ex.tasks,
    run: (ctx, { query }) => hubTasks(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.approvals',
    method: 'GET',
    path: '/v1/hub/approvals',
    tag: TAG,
    scope: 'work:read',
    summary: 'Approval requests I can decide',
    description: `Pending, unexpired approval requests of agents in every workspace that you may decide: their session is visible to you and you hold the capability the proposed action needs on its target (what \`approvals.reject\` checks). Oldest first. ${ACROSS}`,
    query: obj({ ...HubPageQuery }),
    response: HubPageOf(ApprovalRequest, 'Requests, oldest first.'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: ex.approvals,
    run: (ctx, { query }) => hubApprovals(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.today',
    method: 'GET',
    path: '/v1/hub/today',
    tag: TAG,
    scope: 'work:read',
    summary: 'What needs me today',
    description:
      'Your day across every workspace, in sections: your open tasks `overdue`, due today (`dueToday`), due in the next two days (`dueSoon`), in a running cycle (`currentCycle`), and newly unblocked (`unblocked`: a blocker completed in the last 24 hours and none still open); approval requests you can decide (`approvals`); unread mentions (`mentions`); the projects, programs and initiatives you lead or own whose status update is due or overdue (`updatesDue`, as `updates.due` with `ownerId=me`, earliest due first); and your daily plan of the day (`plan`, every item in order, as `me.dailyPlan.get`). Each section but `plan` holds at most `limit` items, earliest due first, with `more` when there are others (page through them with `hub.tasks`, `hub.approvals`, `hub.inbox`). "Today" is `date`, else today in your profile\'s time zone (UTC when unset). Only what you may view in each workspace is shown; workspaces that fail are listed in `partial`.',
    query: obj({
      date: Type.Optional({ ...DueDate, description: 'The day to read (default: today in your time zone).' }),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 50,
          default: TODAY_SECTION_LIMIT_DEFAULT,
          description: `Items per section (default ${TODAY_SECTION_LIMIT_DEFAULT}).`,
        }),
      ),
    }),
    response: obj({
      date: { ...DueDate, description: 'The day read.' },
      overdue: TodaySection(Task, 'Open tasks assigned to you, due before the day.'),
      dueToday: TodaySection(Task, 'Open tasks assigned to you, due on the day.'),
      dueSoon: TodaySection(Task, 'Open tasks assigned to you, due in the two days after it.'),
      currentCycle: TodaySection(Task, 'Open tasks assigned to you in a cycle running now.'),
      unblocked: TodaySection(
        Task,
        'Open tasks assigned to you whose blocker completed in the last 24 hours.',
      ),
      approvals: TodaySection(ApprovalRequest, 'Approval requests you can decide, expiring first.'),
      mentions: TodaySection(Notification, 'Unread `mentioned` notifications, newest first.'),
      updatesDue: TodaySection(
        HubUpdateDue,
        'Records you lead or own whose status update is due or overdue, earliest due first.',
      ),
      plan: Type.Array(PlanItem, {
        description: 'Your daily plan of the day, in order; a task you can no longer view shows as hidden.',
      }),
      partial: Type.Array(PartialOrg, { description: 'Workspaces whose part failed or timed out.' }),
    }),
    status: 200,
    errors: ['validation_failed'],
    examples: ex.today,
    run: (ctx, { query }) => hubToday(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.portfolio',
    method: 'GET',
    path: '/v1/hub/portfolio',
    tag: TAG,
    scope: 'work:read',
    summary: 'What I lead or follow',
    description: `Every unarchived one of ${RELATED}, in all workspaces, among those you may view: status, health (of the latest update), target date, progress (over the tasks you may view), whether blocked, the next milestone and the latest update. Worst health first (off track, at risk, on track, none), then the nearest target date. ${ACROSS}`,
    query: obj({
      types: typesQuery,
      cursor: HubPageQuery.cursor,
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: PAGE_LIMIT_MAX,
          default: PORTFOLIO_LIMIT_DEFAULT,
          description: `Page size over all workspaces together (default ${PORTFOLIO_LIMIT_DEFAULT}).`,
        }),
      ),
      orgId: HubPageQuery.orgId,
    }),
    response: HubPageOf(PortfolioItemSchema, 'Records, worst health first.'),
    status: 200,
    errors: ['validation_failed', 'invalid_cursor'],
    examples: more.portfolio,
    run: (ctx, { query }) => hubPortfolio(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.updates',
    method: 'GET',
    path: '/v1/hub/updates',
    tag: TAG,
    scope: 'work:read',
    summary: 'Status updates of what I lead or follow',
    description: `Unarchived status updates of ${RELATED}, in all workspaces, newest first; filter by subject type, health and \`since\`. ${ACROSS}`,
    query: obj({
      types: typesQuery,
      health: Type.Optional(UpdateHealthSchema),
      since: Type.Optional(
        Type.String({ format: 'date-time', description: 'Posted at or after this time.' }),
      ),
      ...HubPageQuery,
    }),
    response: HubPageOf(StatusUpdate, 'Updates, newest first.'),
    status: 200,
    errors: ['validation_failed', 'invalid_cursor'],
    examples: more.updates,
    run: (ctx, { query }) => {
      const q = query as { types?: string }
      return hubUpdates(ctx, { ...(query as object), types: parseTypes(q.types) } as never)
    },
  }),
  declareOperation({
    id: 'hub.agenda',
    method: 'GET',
    path: '/v1/hub/agenda',
    tag: TAG,
    scope: 'work:read',
    summary: 'My agenda',
    description: `Dated items from \`from\` to \`to\` (inclusive, at most ${AGENDA_MAX_DAYS} days) in all workspaces: due dates of your open tasks, milestones and target dates of the projects and initiatives you lead, own, belong to or follow, start and end days of your teams' cycles, and your daily plan's time blocks. Only what you may view in each workspace; by date, time, kind. Workspaces that fail are listed in \`partial\`.`,
    query: obj({
      from: { ...DueDate, description: 'The first day.' },
      to: { ...DueDate, description: `The last day (at most ${AGENDA_MAX_DAYS - 1} days after \`from\`).` },
      orgId: HubPageQuery.orgId,
    }),
    response: obj({
      from: { ...DueDate, description: 'The first day read.' },
      to: { ...DueDate, description: 'The last day read.' },
      data: Type.Array(AgendaItemSchema, { description: 'Items by date, time block, kind.' }),
      partial: Type.Array(PartialOrg, { description: 'Workspaces whose part failed or timed out.' }),
    }),
    status: 200,
    errors: ['validation_failed'],
    examples: more.agenda,
    run: (ctx, { query }) => hubAgenda(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.inboxBatch',
    method: 'POST',
    path: '/v1/hub/inbox/batch',
    tag: TAG,
    scope: 'work:write',
    summary: 'Mark notifications of several workspaces',
    description:
      'Applies one action (`read`, `unread`, `archive`, `restore`) to your notifications in several workspaces at once: in each, the given `ids` (others are left out silently), or without `ids` every one in the inbox (`restore`: every archived one). Each workspace is changed as `notifications.batch` changes it, with a `notification.updated` event per notification in its log, in a transaction of its own: no transaction spans workspaces. A workspace you are not an active member of (`not_found`), an archived one (`archived`), or one whose change fails (its problem code, e.g. `service_unavailable`) changes nothing and is listed in `partial`; the others stand.',
    body: obj({
      action: StringEnum(HUB_INBOX_ACTIONS, { description: 'What to do to each selected notification.' }),
      workspaces: Type.Array(
        obj({
          orgId: IdSchema('OrgId'),
          ids: Type.Optional(
            Type.Array(IdSchema('NotificationId'), {
              minItems: 1,
              maxItems: 200,
              uniqueItems: true,
              description:
                'These notifications; without it, all of the inbox (or of the archive, to restore).',
            }),
          ),
        }),
        { minItems: 1, maxItems: 50, description: 'Each workspace once.' },
      ),
    }),
    response: obj({
      data: Type.Array(
        obj({
          orgId: IdSchema('OrgId'),
          updated: Type.Integer({ minimum: 0, description: 'How many notifications changed there.' }),
        }),
        { description: 'The workspaces changed, in the order given.' },
      ),
      partial: Type.Array(PartialOrg, {
        description:
          '`not_found` (not an active member), `archived`, or the problem code its transaction failed with: nothing changed there.',
      }),
    }),
    status: 200,
    errors: ['validation_failed'],
    examples: more.inboxBatch,
    perWorkspace: true,
    run: (ctx, { body }) => hubInboxBatch(ctx, body as never),
  }),
  declareOperation({
    id: 'hub.typeahead',
    method: 'GET',
    path: '/v1/hub/typeahead',
    tag: TAG,
    scope: 'work:read',
    summary: 'Names beginning with a prefix',
    description: `For pickers: people, teams, projects, programs, initiatives, milestones and views whose name begins with \`q\` (ignoring case), and tasks whose key does (\`ENG-4\` finds ENG-4, ENG-41, …), in every workspace, among what you may view there. At most \`limit\` per type, grouped by type; exact matches first, then shorter names. Use \`hub.search\` for words inside text. Workspaces that fail are listed in \`partial\`.`,
    query: obj({
      q: Type.String({ minLength: 1, maxLength: 64, description: 'What was typed so far.' }),
      types: Type.Optional(
        Type.String({
          maxLength: 100,
          description: `Comma-separated subset of ${TYPEAHEAD_TYPES.map((t) => `\`${t}\``).join(', ')} (default: all).`,
        }),
      ),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: TYPEAHEAD_LIMIT_MAX,
          default: TYPEAHEAD_LIMIT_DEFAULT,
          description: `Per type (default ${TYPEAHEAD_LIMIT_DEFAULT}, max ${TYPEAHEAD_LIMIT_MAX}).`,
        }),
      ),
      orgId: HubPageQuery.orgId,
    }),
    response: obj({
      data: Type.Array(TypeaheadHitSchema, { description: 'Grouped by type, best first in each.' }),
      partial: Type.Array(PartialOrg, { description: 'Workspaces whose part failed or timed out.' }),
    }),
    status: 200,
    errors: ['validation_failed'],
    examples: more.typeahead,
    run: (ctx, { query }) => hubTypeahead(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.digest',
    method: 'GET',
    path: '/v1/hub/digest',
    tag: TAG,
    scope: 'work:read',
    summary: 'What changed since',
    description: `What changed since \`since\` (at most ${DIGEST_MAX_DAYS} days ago) in ${RELATED}, in every workspace, grouped per record: status updates posted, health changes along them, status changes, milestones finished and tasks completed (a project's, counted over the tasks you may view). Records without a change are left out; the most recently changed first. Workspaces that fail are listed in \`partial\`.`,
    query: obj({
      since: Type.String({ format: 'date-time', description: 'Changes at or after this time.' }),
      types: typesQuery,
      orgId: HubPageQuery.orgId,
    }),
    response: obj({
      since: Type.String({ format: 'date-time', description: 'The time read from.' }),
      data: Type.Array(DigestRecordSchema, { description: 'Records, most recently changed first.' }),
      partial: Type.Array(PartialOrg, { description: 'Workspaces whose part failed or timed out.' }),
    }),
    status: 200,
    errors: ['validation_failed'],
    examples: more.digest,
    run: (ctx, { query }) => {
      const q = query as { since: string; types?: string; orgId?: string }
      return hubDigest(ctx, { ...q, types: parseTypes(q.types) })
    },
  }),
]

import { Type } from '@sinclair/typebox'
import { ApprovalRequest } from '../access/schemas.ts'
import { declareOperation } from '../kernel/operation.ts'
import { PAGE_LIMIT_MAX } from '../kernel/pagination.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { PlanItem } from '../me/plan/schemas.ts'
import { Notification } from '../notifications/schemas.ts'
import { TASK_SORTS } from '../tasks/order.ts'
import { DueDate, PrioritySchema, Task } from '../tasks/schemas.ts'
import { StatusUpdate, UpdateHealthSchema } from '../updates/schemas.ts'
import { AGENDA_MAX_DAYS, hubAgenda } from './agenda.ts'
import { hubApprovals } from './approvals.ts'
import { DIGEST_MAX_DAYS, hubDigest } from './digest.ts'
import { hubExamples as ex } from './examples.ts'
import { HUB_ITEMS_MAX } from './fanout.ts'
import { hubMoreExamples as more } from './more-examples.ts'
import { ACROSS, hubListOperation, obj, RELATED, TAG, typesQuery } from './operation-parts.ts'
import { hubPortfolio, PORTFOLIO_LIMIT_DEFAULT, parseTypes } from './portfolio.ts'
import {
  AgendaItemSchema,
  DigestRecordSchema,
  HubPageOf,
  HubPageQuery,
  HubUpdateDue,
  PartialOrg,
  PortfolioItemSchema,
  TodaySection,
} from './schemas.ts'
import { HUB_TASK_RELATIONS, HUB_TASK_STATUSES, hubTasks } from './tasks/tasks.ts'
import { hubToday, TODAY_SECTION_LIMIT_DEFAULT } from './today.ts'
import { hubUpdates } from './updates.ts'

/** My work across workspaces: tasks, approvals, today, the portfolio, updates, agenda and digest. */
export const hubTasksOperation = hubListOperation({
  id: 'hub.tasks',
  path: '/v1/hub/tasks',
  summary: 'My tasks in all workspaces',
  description: `Unarchived tasks assigned to you (default), created by you, followed by you, or any, in every workspace, among the tasks you may view there; filter by status, priority and due dates (\`hub.tasks.query\` takes a composed filter), sort like \`tasks.list\` (default: due date, undated last). ${ACROSS}`,
  query: {
    relation: Type.Optional(
      StringEnum(HUB_TASK_RELATIONS, {
        default: 'assigned',
        description:
          '`assigned` to you, `created` by you, `followed` by you (you subscribe to it), or `any` task you may view.',
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
  },
  item: Task,
  order: 'Tasks in the order asked.',
  examples: ex.tasks,
  run: (ctx, query) => hubTasks(ctx, query as never),
})

export const hubApprovalsOperation = hubListOperation({
  id: 'hub.approvals',
  path: '/v1/hub/approvals',
  summary: 'Approval requests I can decide',
  description: `Pending, unexpired approval requests of agents in every workspace that you may decide: their session is visible to you and you hold the capability the proposed action needs on its target (what \`approvalRequests.reject\` checks). Oldest first. ${ACROSS}`,
  item: ApprovalRequest,
  order: 'Requests, oldest first.',
  examples: ex.approvals,
  run: (ctx, query) => hubApprovals(ctx, query as never),
})

export const hubTodayOperation = declareOperation({
  id: 'hub.today',
  method: 'GET',
  path: '/v1/hub/today',
  tag: TAG,
  scope: 'work:read',
  summary: 'What needs me today',
  description:
    'Your day across every workspace, in sections: your open tasks `overdue`, due today (`dueToday`), due in the next two days (`dueSoon`), in a running cycle (`currentCycle`), and newly unblocked (`unblocked`: a blocker completed in the last 24 hours and none still open); approval requests you can decide (`approvals`); unread mentions (`mentions`); the projects, programs and initiatives you lead or own whose status update is due or overdue (`updatesDue`, as `updates.due` with `ownerId=me`, earliest due first); and your daily plan of the day (`plan`, every item in order, as `me.dailyPlan.list` shows the day). Each section but `plan` holds at most `limit` items, earliest due first, with `more` when there are others (page through them with `hub.tasks`, `hub.approvals`, `hub.inbox`). "Today" is `date`, else today in your profile\'s time zone (UTC when unset). Only what you may view in each workspace is shown; workspaces that fail are listed in `partial`.',
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
    unblocked: TodaySection(Task, 'Open tasks assigned to you whose blocker completed in the last 24 hours.'),
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
  errors: [],
  examples: ex.today,
  run: (ctx, { query }) => hubToday(ctx, query as never),
})

export const hubPortfolioOperation = declareOperation({
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
  errors: ['invalid_cursor'],
  examples: more.portfolio,
  run: (ctx, { query }) => hubPortfolio(ctx, query as never),
})

export const hubUpdatesOperation = hubListOperation({
  id: 'hub.updates',
  path: '/v1/hub/updates',
  summary: 'Status updates of what I lead or follow',
  description: `Unarchived status updates of ${RELATED}, in all workspaces, newest first; filter by subject type, health and \`since\`. ${ACROSS}`,
  query: {
    types: typesQuery,
    health: Type.Optional(UpdateHealthSchema),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'Posted at or after this time.' })),
  },
  item: StatusUpdate,
  order: 'Updates, newest first.',
  examples: more.updates,
  run: (ctx, query) => {
    const q = query as { types?: string }
    return hubUpdates(ctx, { ...(query as object), types: parseTypes(q.types) } as never)
  },
})

export const hubAgendaOperation = declareOperation({
  id: 'hub.agenda',
  method: 'GET',
  path: '/v1/hub/agenda',
  tag: TAG,
  scope: 'work:read',
  summary: 'My agenda',
  description: `Dated items from \`from\` to \`to\` (inclusive, at most ${AGENDA_MAX_DAYS} days) in all workspaces: due dates of your open tasks, milestones and target dates of the projects and initiatives you lead, own, belong to or follow, start and end days of your teams' cycles, and your daily plan's time blocks. Only what you may view in each workspace; by date, time, kind. Workspaces that fail are listed in \`partial\`. A \`to\` before \`from\`, or more than ${AGENDA_MAX_DAYS} days in all, is 422 \`rule_violated\`.`,
  query: obj({
    from: { ...DueDate, description: 'The first day.' },
    to: { ...DueDate, description: `The last day (at most ${AGENDA_MAX_DAYS - 1} days after \`from\`).` },
    orgId: HubPageQuery.orgId,
  }),
  response: obj({
    from: { ...DueDate, description: 'The first day read.' },
    to: { ...DueDate, description: 'The last day read.' },
    data: Type.Array(AgendaItemSchema, {
      maxItems: HUB_ITEMS_MAX,
      description: `Items by date, time block, kind; the first ${HUB_ITEMS_MAX} when there are more.`,
    }),
    partial: Type.Array(PartialOrg, { description: 'Workspaces whose part failed or timed out.' }),
  }),
  status: 200,
  errors: ['rule_violated'],
  examples: more.agenda,
  run: (ctx, { query }) => hubAgenda(ctx, query as never),
})

export const hubDigestOperation = declareOperation({
  id: 'hub.digest',
  method: 'GET',
  path: '/v1/hub/digest',
  tag: TAG,
  scope: 'work:read',
  summary: 'What changed since',
  description: `What changed since \`since\` (at most ${DIGEST_MAX_DAYS} days ago) in ${RELATED}, in every workspace, grouped per record: status updates posted, health changes along them, status changes, milestones finished and tasks completed (a project's, counted over the tasks you may view). Records without a change are left out; the most recently changed first. Workspaces that fail are listed in \`partial\`. A \`since\` more than ${DIGEST_MAX_DAYS} days ago is 422 \`rule_violated\`.`,
  query: obj({
    since: Type.String({ format: 'date-time', description: 'Changes at or after this time.' }),
    types: typesQuery,
    orgId: HubPageQuery.orgId,
  }),
  response: obj({
    since: Type.String({ format: 'date-time', description: 'The time read from.' }),
    data: Type.Array(DigestRecordSchema, {
      maxItems: HUB_ITEMS_MAX,
      description: `Records, most recently changed first; the first ${HUB_ITEMS_MAX} when there are more.`,
    }),
    partial: Type.Array(PartialOrg, { description: 'Workspaces whose part failed or timed out.' }),
  }),
  status: 200,
  errors: ['rule_violated'],
  examples: more.digest,
  run: (ctx, { query }) => {
    const q = query as { since: string; types?: string; orgId?: string }
    return hubDigest(ctx, { ...q, types: parseTypes(q.types) })
  },
})

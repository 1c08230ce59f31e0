import { Type } from '@sinclair/typebox'
import { matchName, type OrgId, ProblemError } from '@workgraph/core'
import { fieldOf, object, optionalFieldsOf, PersonOrNone, TaskRef, TeamRef, Workspace } from '../schema.ts'
import { clip, peopleOf } from '../tasks/detail.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'

export const ProjectRef = Type.String({ minLength: 1, maxLength: 200, description: 'Project name or id.' })
const MilestoneRef = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'A milestone of the project, by name or id.',
})
const StatusRef = Type.String({
  minLength: 1,
  maxLength: 60,
  description: 'A status name, or a category (`planned`, `started`, `paused`, `completed`, `canceled`, …).',
})
const HealthArg = Type.String({
  minLength: 1,
  maxLength: 20,
  description: '`on track`, `at risk` or `off track`.',
})
const Teams = Type.Array(TeamRef, { minItems: 1, maxItems: 20 })
const ACTIONS = ['create', 'update', 'add_tasks', 'post_update'] as const

/** What `get_project` lists of each kind before saying there is more. */
const DETAIL_LIMIT = 25
const BODY_LIMIT = 2000
const CATEGORIES = ['backlog', 'planned', 'started', 'paused', 'completed', 'canceled']
const HEALTH: Record<string, string> = { ontrack: 'onTrack', atrisk: 'atRisk', offtrack: 'offTrack' }
const FIELDS = [
  'description',
  'icon',
  'color',
  'priority',
  'startDate',
  'targetDate',
  'updateCadence',
] as const

/** A project status by name, else by category word (the category's first active status). */
async function statusOf(call: ToolCall, orgId: OrgId, ref: string): Promise<string> {
  const page = await call.run('projectStatuses.list', { params: { orgId }, query: { limit: 200 } })
  const statuses = page.data as { id: string; name: string; category: string }[]
  const word = ref.trim().toLowerCase()
  if (!statuses.some((s) => s.name.toLowerCase() === word) && CATEGORIES.includes(word)) {
    const first = statuses.find((s) => s.category === word)
    if (first) return first.id
  }
  return matchName(
    'project status',
    ref,
    statuses.map((s) => ({ value: s.id, id: s.id, names: [s.name], label: `${s.name} (${s.category})` })),
    '/arguments/status',
  )
}

function healthOf(ref: string): string {
  const health = HEALTH[ref.replace(/[\s_-]/g, '').toLowerCase()]
  if (!health)
    throw new ProblemError('validation_failed', '`health` is one of `on track`, `at risk`, `off track`.', {
      errors: [{ pointer: '/arguments/health', message: 'on track, at risk or off track' }],
    })
  return health
}

/** The fields both `create_project` and `update_project` take by name: status, lead. */
async function namedFields(call: ToolCall, orgId: OrgId, args: any): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = Object.fromEntries(
    FIELDS.filter((f) => args[f] !== undefined).map((f) => [f, args[f]]),
  )
  if (args.status) body.statusId = await statusOf(call, orgId, args.status)
  if (args.lead !== undefined)
    body.leadId = args.lead === null ? null : await call.resolve(orgId, 'person', args.lead)
  return body
}

/** A project as the tools answer: names instead of ids. */
async function projectRow(call: ToolCall, orgId: OrgId, p: any) {
  const [status, teams, people] = await Promise.all([
    call.run('projectStatuses.get', { params: { orgId, statusId: p.statusId } }),
    Promise.all(p.teamIds.map((teamId: string) => call.run('teams.get', { params: { orgId, teamId } }))),
    p.leadId ? peopleOf(call, orgId) : new Map<string, string>(),
  ])
  return {
    id: p.id,
    name: p.name,
    status: `${status.name} (${status.category})`,
    lead: p.leadId ? (people.get(p.leadId) ?? p.leadId) : null,
    teams: teams.map((t: any) => t.key),
    priority: p.priority,
    startDate: p.startDate,
    targetDate: p.targetDate,
    health: p.health,
    updateDue: p.updateDue,
    archived: p.archivedAt !== null,
  }
}

const editable = {
  status: Type.Optional(StatusRef),
  lead: Type.Optional(PersonOrNone),
  ...optionalFieldsOf('projects.update', 'body', [...FIELDS], {
    updateCadence: 'How often an update is due.',
  }),
}

export const projectTools: ToolDefinition[] = [
  {
    name: 'get_project',
    title: 'Read a project',
    description:
      'A project: status, lead, teams, dates, health, progress, milestones, latest update, blocked tasks.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: [
      'projects.get',
      'projects.progress',
      'milestones.list',
      'updates.list',
      'projects.tasks.list',
      'tasks.blockers.list',
      'projectStatuses.get',
      'teams.get',
      'members.list',
      'names.resolve',
    ],
    input: object({ workspace: Workspace, project: ProjectRef }, ['project']),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      const projectId = await call.resolve(orgId, 'project', args.project)
      const params = { orgId, projectId }
      const page = { limit: DETAIL_LIMIT }
      const [project, progress, milestones, updates, tasks, people] = await Promise.all([
        call.run('projects.get', { params }),
        call.run('projects.progress', { params }),
        call.run('milestones.list', { params, query: page }),
        call.run('updates.list', {
          params: { orgId },
          query: { subjectType: 'project', subjectId: projectId, limit: 1 },
        }),
        call.run('projects.tasks.list', { params, query: { limit: 100 } }),
        peopleOf(call, orgId),
      ])
      const latest = updates.data[0]
      const blocked = (tasks.data as any[]).filter((t) => t.isBlocked).slice(0, DETAIL_LIMIT)
      const blockers = await Promise.all(
        blocked.map(async (t) => {
          const by = await call.run('tasks.blockers.list', { params: { orgId, taskId: t.id }, query: page })
          return { key: t.key, title: t.title, blockedBy: by.data.map((b: any) => b.key) }
        }),
      )
      return {
        ...(await projectRow(call, orgId, project)),
        description: project.description ? clip(project.description, BODY_LIMIT) : null,
        progress: {
          tasks: progress.total.tasks,
          completed: progress.byCategory.completed.tasks,
          completedRatio: progress.completedRatio,
          byCategory: Object.fromEntries(
            Object.entries(progress.byCategory).map(([k, v]: [string, any]) => [k, v.tasks]),
          ),
        },
        milestones: milestones.data.map((m: any) => ({
          name: m.name,
          status: m.status,
          targetDate: m.targetDate,
        })),
        moreMilestones: milestones.nextCursor !== null,
        latestUpdate: latest
          ? {
              health: latest.health,
              body: clip(latest.body, BODY_LIMIT),
              author: people.get(latest.authorId) ?? latest.authorId,
              at: latest.createdAt,
            }
          : null,
        blockers,
        ...(tasks.nextCursor ? { blockersOf: 'the newest 100 tasks' } : {}),
      }
    },
  },
  {
    name: 'manage_project',
    title: 'Create or change a project',
    description:
      '`create` a project in `teams`; `update` it (finishing one with open tasks needs `open_tasks`); `add_tasks` (into a `milestone`); `post_update`.',
    readOnly: false,
    destructive: true,
    idempotent: false,
    operations: [
      'projects.create',
      'projects.update',
      'projects.get',
      'projects.teams.add',
      'projects.teams.remove',
      'projectStatuses.list',
      'projectStatuses.get',
      'teams.get',
      'members.list',
      'tasks.batchUpdate',
      'projects.updates.create',
      'names.resolve',
    ],
    input: object(
      {
        workspace: Workspace,
        action: Type.String({ enum: [...ACTIONS] }),
        project: Type.Optional(ProjectRef),
        name: Type.Optional(fieldOf('projects.create', 'body', 'name')),
        teams: Type.Optional(Teams),
        ...editable,
        add_teams: Type.Optional(Teams),
        remove_teams: Type.Optional(Teams),
        tasks: Type.Optional(Type.Array(TaskRef, { minItems: 1, maxItems: 100 })),
        milestone: Type.Optional(MilestoneRef),
        health: Type.Optional(HealthArg),
        body: Type.Optional(fieldOf('projects.updates.create', 'body', 'body')),
        open_tasks: Type.Optional(
          fieldOf(
            'projects.update',
            'body',
            'openTasks',
            'Finishing with open tasks: `keep`, `cancel`, or `move` them to `move_tasks_to`.',
          ),
        ),
        move_tasks_to: Type.Optional(ProjectRef),
      },
      ['action'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      if (args.action === 'create') {
        needs(args.name && args.teams, '`name` and `teams` are required to create a project.')
        const teamIds = await Promise.all(args.teams.map((t: string) => call.resolve(orgId, 'team', t)))
        const body = { name: args.name, teamIds, ...(await namedFields(call, orgId, args)) }
        return projectRow(call, orgId, await call.run('projects.create', { params: { orgId }, body }))
      }
      needs(args.project, '`project` is required for this action.')
      const projectId = await call.resolve(orgId, 'project', args.project)
      const params = { orgId, projectId }
      if (args.action === 'add_tasks') {
        needs(args.tasks, '`tasks` is required to add tasks.')
        const milestoneId = args.milestone
          ? (
              await call.run('names.resolve', {
                params: { orgId },
                query: { kind: 'milestone', name: args.milestone, project: projectId },
              })
            ).id
          : undefined
        const ids = await Promise.all(args.tasks.map((t: string) => call.resolve(orgId, 'task', t)))
        const items = ids.map((id) => ({ id, projectId, ...(milestoneId ? { milestoneId } : {}) }))
        await call.run('tasks.batchUpdate', { params: { orgId }, body: { items } })
        return { project: args.project, milestone: args.milestone ?? null, added: args.tasks }
      }
      if (args.action === 'post_update') {
        needs(args.health && args.body, '`health` and `body` are required to post an update.')
        const update = await call.run('projects.updates.create', {
          params,
          body: { body: args.body, health: healthOf(args.health) },
        })
        return { id: update.id, project: args.project, health: update.health, progress: update.progress }
      }
      const body: Record<string, unknown> = {
        ...(args.name ? { name: args.name } : {}),
        ...(await namedFields(call, orgId, args)),
      }
      if (args.open_tasks) body.openTasks = args.open_tasks
      if (args.move_tasks_to) body.moveTasksTo = await call.resolve(orgId, 'project', args.move_tasks_to)
      for (const t of args.add_teams ?? [])
        await call.run('projects.teams.add', {
          params: { ...params, teamId: await call.resolve(orgId, 'team', t) },
        })
      for (const t of args.remove_teams ?? [])
        await call.run('projects.teams.remove', {
          params: { ...params, teamId: await call.resolve(orgId, 'team', t) },
        })
      const project = Object.keys(body).length
        ? await call.run('projects.update', { params, body })
        : await call.run('projects.get', { params })
      return projectRow(call, orgId, project)
    },
  },
]

function needs(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ProblemError('validation_failed', message)
}

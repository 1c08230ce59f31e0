import { Type } from '@sinclair/typebox'
import { type OrgId, ProblemError } from '@workgraph/core'
import { ProjectRef } from '../projects/projects.ts'
import { fieldOf, object, optionalFieldsOf, PersonOrNone, Workspace } from '../schema.ts'
import { clip, peopleOf } from '../tasks/detail.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'

const ProgramRef = Type.String({ minLength: 1, maxLength: 200, description: 'Program name or id.' })
const InitiativeRef = Type.String({
  minLength: 1,
  maxLength: 400,
  description: 'Initiative name, `Parent/Child` path, or id.',
})
const HealthArg = Type.String({
  minLength: 1,
  maxLength: 20,
  description: '`on track`, `at risk` or `off track`.',
})
const HEALTH: Record<string, string> = { ontrack: 'onTrack', atrisk: 'atRisk', offtrack: 'offTrack' }
/** What the `get_…` tools list of each kind before saying there is more. */
const DETAIL_LIMIT = 25
const BODY_LIMIT = 2000

const PROGRAM_ACTIONS = ['create', 'update', 'add_project', 'remove_project', 'post_update'] as const
const INITIATIVE_ACTIONS = [
  'create',
  'update',
  'link_project',
  'unlink_project',
  'link_program',
  'unlink_program',
  'post_update',
] as const

function healthOf(ref: string): string {
  const health = HEALTH[ref.replace(/[\s_-]/g, '').toLowerCase()]
  if (!health)
    throw new ProblemError('validation_failed', '`health` is one of `on track`, `at risk`, `off track`.', {
      errors: [{ pointer: '/arguments/health', message: 'on track, at risk or off track' }],
    })
  return health
}

function needs(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ProblemError('validation_failed', message)
}

const progressOf = (p: any) => ({
  tasks: p.total.tasks,
  completed: p.byCategory.completed.tasks,
  completedRatio: p.completedRatio,
})

function latestUpdate(page: any, people: Map<string, string>) {
  const latest = page.data[0]
  if (!latest) return null
  return {
    health: latest.health,
    body: clip(latest.body, BODY_LIMIT),
    author: people.get(latest.authorId) ?? latest.authorId,
    at: latest.createdAt,
  }
}

/** A program as the tools answer: names instead of ids. */
async function programRow(call: ToolCall, orgId: OrgId, p: any) {
  const people = p.ownerId ? await peopleOf(call, orgId) : new Map<string, string>()
  return {
    id: p.id,
    name: p.name,
    status: p.status,
    owner: p.ownerId ? (people.get(p.ownerId) ?? p.ownerId) : null,
    health: p.health,
    archived: p.archivedAt !== null,
  }
}

async function initiativeRow(call: ToolCall, orgId: OrgId, i: any) {
  const people = i.ownerId ? await peopleOf(call, orgId) : new Map<string, string>()
  return {
    id: i.id,
    name: i.name,
    status: i.status,
    owner: i.ownerId ? (people.get(i.ownerId) ?? i.ownerId) : null,
    targetDate: i.targetDate,
    health: i.health,
    archived: i.archivedAt !== null,
  }
}

/** The owner by name, email or `me` (null: none), and the plain fields both `create` and `update` take. */
async function ownerAndFields(call: ToolCall, orgId: OrgId, args: any, fields: readonly string[]) {
  const body: Record<string, unknown> = Object.fromEntries(
    fields.filter((f) => args[f] !== undefined).map((f) => [f, args[f]]),
  )
  if (args.owner !== undefined)
    body.ownerId = args.owner === null ? null : await call.resolve(orgId, 'person', args.owner)
  return body
}

const PROGRAM_FIELDS = ['description', 'icon', 'color'] as const
const INITIATIVE_FIELDS = ['description', 'targetDate'] as const

export const programTools: ToolDefinition[] = [
  {
    name: 'get_program',
    title: 'Read a program',
    description:
      'A program: status, owner, health and why, progress, its projects, initiatives and latest update.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: [
      'programs.get',
      'programs.rollup',
      'programs.projects.list',
      'programs.initiatives.list',
      'updates.list',
      'members.list',
      'names.resolve',
    ],
    input: object({ workspace: Workspace, program: ProgramRef }, ['program']),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      const programId = await call.resolve(orgId, 'program', args.program)
      const params = { orgId, programId }
      const page = { limit: DETAIL_LIMIT }
      const [program, rollup, projects, initiatives, updates, people] = await Promise.all([
        call.run('programs.get', { params }),
        call.run('programs.rollup', { params }),
        call.run('programs.projects.list', { params, query: page }),
        call.run('programs.initiatives.list', { params, query: page }),
        call.run('updates.list', {
          params: { orgId },
          query: { subjectType: 'program', subjectId: programId, limit: 1 },
        }),
        peopleOf(call, orgId),
      ])
      return {
        ...(await programRow(call, orgId, program)),
        description: program.description ? clip(program.description, BODY_LIMIT) : null,
        computedHealth: rollup.computedHealth,
        progress: progressOf(rollup),
        projects: projects.data.map((e: any) => ({
          name: e.project.name,
          status: e.project.statusCategory,
          health: e.project.health,
          startDate: e.project.startDate,
          targetDate: e.project.targetDate,
        })),
        moreProjects: projects.nextCursor !== null,
        initiatives: initiatives.data.map((e: any) => e.initiative.name),
        latestUpdate: latestUpdate(updates, people),
      }
    },
  },
  {
    name: 'manage_program',
    title: 'Create or change a program',
    description:
      '`create` or `update` a program; `add_project`/`remove_project`; `post_update` with `health` and `body`.',
    readOnly: false,
    destructive: true,
    idempotent: false,
    operations: [
      'programs.create',
      'programs.update',
      'programs.get',
      'programs.projects.add',
      'programs.projects.remove',
      'programs.updates.create',
      'members.list',
      'names.resolve',
    ],
    input: object(
      {
        workspace: Workspace,
        action: Type.String({ enum: [...PROGRAM_ACTIONS] }),
        program: Type.Optional(ProgramRef),
        name: Type.Optional(fieldOf('programs.create', 'body', 'name')),
        status: Type.Optional(fieldOf('programs.update', 'body', 'status', '')),
        owner: Type.Optional(PersonOrNone),
        ...optionalFieldsOf('programs.update', 'body', [...PROGRAM_FIELDS]),
        project: Type.Optional(ProjectRef),
        health: Type.Optional(HealthArg),
        body: Type.Optional(fieldOf('programs.updates.create', 'body', 'body')),
      },
      ['action'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      if (args.action === 'create') {
        needs(args.name, '`name` is required to create a program.')
        const body = { name: args.name, ...(await ownerAndFields(call, orgId, args, PROGRAM_FIELDS)) }
        return programRow(call, orgId, await call.run('programs.create', { params: { orgId }, body }))
      }
      needs(args.program, '`program` is required for this action.')
      const programId = await call.resolve(orgId, 'program', args.program)
      const params = { orgId, programId }
      if (args.action === 'add_project' || args.action === 'remove_project') {
        needs(args.project, '`project` is required for this action.')
        const projectId = await call.resolve(orgId, 'project', args.project)
        if (args.action === 'add_project') {
          const entry = await call.run('programs.projects.add', { params: { ...params, projectId } })
          return { program: args.program, project: entry.project.name, position: entry.position }
        }
        await call.run('programs.projects.remove', { params: { ...params, projectId } })
        return { program: args.program, removed: args.project }
      }
      if (args.action === 'post_update') {
        needs(args.health && args.body, '`health` and `body` are required to post an update.')
        const update = await call.run('programs.updates.create', {
          params,
          body: { body: args.body, health: healthOf(args.health) },
        })
        return { id: update.id, program: args.program, health: update.health, progress: update.progress }
      }
      const body = {
        ...(args.name ? { name: args.name } : {}),
        ...(args.status ? { status: args.status } : {}),
        ...(await ownerAndFields(call, orgId, args, PROGRAM_FIELDS)),
      }
      const program = Object.keys(body).length
        ? await call.run('programs.update', { params, body })
        : await call.run('programs.get', { params })
      return programRow(call, orgId, program)
    },
  },
  {
    name: 'get_initiative',
    title: 'Read an initiative',
    description:
      'An initiative (name or `Parent/Child` path): status, owner, health and why, progress, sub-initiatives, projects, programs, latest update.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: [
      'initiatives.get',
      'initiatives.rollup',
      'initiatives.projects.list',
      'initiatives.programs.list',
      'updates.list',
      'members.list',
      'names.resolve',
    ],
    input: object({ workspace: Workspace, initiative: InitiativeRef }, ['initiative']),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      const initiativeId = await call.resolve(orgId, 'initiative', args.initiative)
      const params = { orgId, initiativeId }
      const page = { limit: DETAIL_LIMIT }
      const [initiative, rollup, children, projects, programs, updates, people] = await Promise.all([
        call.run('initiatives.get', { params }),
        call.run('initiatives.rollup', { params }),
        call.run('initiatives.list', {
          params: { orgId: params.orgId },
          query: { ...page, parentId: params.initiativeId },
        }),
        call.run('initiatives.projects.list', { params, query: page }),
        call.run('initiatives.programs.list', { params, query: page }),
        call.run('updates.list', {
          params: { orgId },
          query: { subjectType: 'initiative', subjectId: initiativeId, limit: 1 },
        }),
        peopleOf(call, orgId),
      ])
      return {
        ...(await initiativeRow(call, orgId, initiative)),
        description: initiative.description ? clip(initiative.description, BODY_LIMIT) : null,
        computedHealth: { value: rollup.computedHealth.value, summary: rollup.computedHealth.summary },
        progress: progressOf(rollup),
        subInitiatives: children.data.map((c: any) => ({ name: c.name, status: c.status, health: c.health })),
        projects: projects.data.map((p: any) => ({ name: p.name, health: p.health })),
        programs: programs.data.map((e: any) => ({ name: e.program.name, status: e.program.status })),
        latestUpdate: latestUpdate(updates, people),
      }
    },
  },
  {
    name: 'manage_initiative',
    title: 'Create or change an initiative',
    description:
      '`create` or `update` an initiative (`parent`: `none` for top level); `link_`/`unlink_project`, `link_`/`unlink_program`; `post_update`.',
    readOnly: false,
    destructive: true,
    idempotent: false,
    operations: [
      'initiatives.create',
      'initiatives.update',
      'initiatives.get',
      'initiatives.projects.add',
      'initiatives.projects.remove',
      'initiatives.programs.add',
      'initiatives.programs.remove',
      'initiatives.updates.create',
      'members.list',
      'names.resolve',
    ],
    input: object(
      {
        workspace: Workspace,
        action: Type.String({ enum: [...INITIATIVE_ACTIONS] }),
        initiative: Type.Optional(InitiativeRef),
        name: Type.Optional(fieldOf('initiatives.create', 'body', 'name')),
        status: Type.Optional(fieldOf('initiatives.update', 'body', 'status', '')),
        parent: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 400,
            description: 'The parent initiative by name, path or id; `none` moves it to the top level.',
          }),
        ),
        owner: Type.Optional(PersonOrNone),
        ...optionalFieldsOf('initiatives.update', 'body', [...INITIATIVE_FIELDS]),
        project: Type.Optional(ProjectRef),
        program: Type.Optional(ProgramRef),
        health: Type.Optional(HealthArg),
        body: Type.Optional(fieldOf('initiatives.updates.create', 'body', 'body')),
      },
      ['action'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      const parentId = async () =>
        args.parent === undefined
          ? {}
          : { parentId: args.parent === 'none' ? null : await call.resolve(orgId, 'initiative', args.parent) }
      if (args.action === 'create') {
        needs(args.name, '`name` is required to create an initiative.')
        const body = {
          name: args.name,
          ...(await parentId()),
          ...(await ownerAndFields(call, orgId, args, INITIATIVE_FIELDS)),
        }
        return initiativeRow(call, orgId, await call.run('initiatives.create', { params: { orgId }, body }))
      }
      needs(args.initiative, '`initiative` is required for this action.')
      const initiativeId = await call.resolve(orgId, 'initiative', args.initiative)
      const params = { orgId, initiativeId }
      if (args.action === 'link_project' || args.action === 'unlink_project') {
        needs(args.project, '`project` is required for this action.')
        const projectId = await call.resolve(orgId, 'project', args.project)
        const op = args.action === 'link_project' ? 'initiatives.projects.add' : 'initiatives.projects.remove'
        await call.run(op, { params: { ...params, projectId } })
        return {
          initiative: args.initiative,
          [args.action === 'link_project' ? 'linked' : 'unlinked']: args.project,
        }
      }
      if (args.action === 'link_program' || args.action === 'unlink_program') {
        needs(args.program, '`program` is required for this action.')
        const programId = await call.resolve(orgId, 'program', args.program)
        if (args.action === 'link_program') {
          const entry = await call.run('initiatives.programs.add', { params: { ...params, programId } })
          return { initiative: args.initiative, linked: entry.program.name }
        }
        await call.run('initiatives.programs.remove', { params: { ...params, programId } })
        return { initiative: args.initiative, unlinked: args.program }
      }
      if (args.action === 'post_update') {
        needs(args.health && args.body, '`health` and `body` are required to post an update.')
        const update = await call.run('initiatives.updates.create', {
          params,
          body: { body: args.body, health: healthOf(args.health) },
        })
        return {
          id: update.id,
          initiative: args.initiative,
          health: update.health,
          progress: update.progress,
        }
      }
      const body = {
        ...(args.name ? { name: args.name } : {}),
        ...(args.status ? { status: args.status } : {}),
        ...(await parentId()),
        ...(await ownerAndFields(call, orgId, args, INITIATIVE_FIELDS)),
      }
      const initiative = Object.keys(body).length
        ? await call.run('initiatives.update', { params, body })
        : await call.run('initiatives.get', { params })
      return initiativeRow(call, orgId, initiative)
    },
  },
]

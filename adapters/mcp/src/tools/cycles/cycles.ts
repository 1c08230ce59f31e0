import { Type } from '@sinclair/typebox'
import { type OrgId, ProblemError } from '@workgraph/core'
import { Cursor, fieldOf, Limit, object, optionalFieldsOf, TaskRef, TeamRef, Workspace } from '../schema.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'

export const CycleRef = Type.String({
  minLength: 1,
  maxLength: 120,
  description: 'A cycle of the team.',
})

const cycleRow = (c: any) => ({
  number: c.number,
  name: c.name,
  status: c.status,
  startsAt: c.startsAt,
  endsAt: c.endsAt,
})

const CADENCE = ['enabled', 'durationWeeks', 'cooldownWeeks', 'startWeekday', 'autoCreateCount'] as const
const MANAGE = ['create', 'update', 'complete', 'add_tasks', 'remove_tasks'] as const

async function cycleOf(call: ToolCall, orgId: OrgId, team: string, ref: string | undefined) {
  if (!ref) throw new ProblemError('validation_failed', '`cycle` is required for this action.')
  return call.resolve(orgId, 'cycle', ref, team)
}

export const cycleTools: ToolDefinition[] = [
  {
    name: 'list_cycles',
    title: 'List cycles',
    description: "A team's cycles (sprints) in date order; filter by `status`.",
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['cycles.list', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        team: TeamRef,
        status: Type.Optional(fieldOf('cycles.list', 'query', 'status')),
        cursor: Cursor,
        limit: Limit,
      },
      ['team'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const teamId = await call.resolve(org.id, 'team', args.team)
      const page = await call.run('cycles.list', {
        params: { orgId: org.id, teamId },
        query: {
          limit: args.limit ?? 25,
          ...(args.status ? { status: args.status } : {}),
          ...(args.cursor ? { cursor: args.cursor } : {}),
        },
      })
      return { cycles: page.data.map(cycleRow), nextCursor: page.nextCursor }
    },
  },
  {
    name: 'manage_cycle',
    title: 'Plan a cycle',
    description:
      "Creates, updates or completes a team's cycle (unfinished tasks roll over), or adds/removes tasks.",
    readOnly: false,
    destructive: true,
    idempotent: false,
    operations: [
      'cycles.create',
      'cycles.update',
      'cycles.complete',
      'tasks.batchUpdate',
      'tasks.get',
      'tasks.update',
      'names.resolve',
    ],
    input: object(
      {
        workspace: Workspace,
        team: TeamRef,
        action: Type.String({ enum: [...MANAGE] }),
        cycle: Type.Optional(CycleRef),
        ...optionalFieldsOf('cycles.update', 'body', ['name', 'description', 'startsAt', 'endsAt']),
        tasks: Type.Optional(Type.Array(TaskRef, { minItems: 1, maxItems: 100 })),
      },
      ['team', 'action'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      const fields = Object.fromEntries(
        ['name', 'description', 'startsAt', 'endsAt']
          .filter((f) => args[f] !== undefined)
          .map((f) => [f, args[f]]),
      )
      if (args.action === 'create') {
        const teamId = await call.resolve(orgId, 'team', args.team)
        return cycleRow(await call.run('cycles.create', { params: { orgId, teamId }, body: fields }))
      }
      const cycleId = await cycleOf(call, orgId, args.team, args.cycle)
      switch (args.action) {
        case 'update':
          return cycleRow(await call.run('cycles.update', { params: { orgId, cycleId }, body: fields }))
        case 'complete': {
          const done = await call.run('cycles.complete', { params: { orgId, cycleId } })
          return { ...cycleRow(done.cycle), rolledOver: done.rolledOverTaskIds.length }
        }
        default: {
          const taskIds = await Promise.all(
            (args.tasks ?? []).map((t: string) => call.resolve(orgId, 'task', t)),
          )
          if (args.action === 'add_tasks')
            await call.run('tasks.batchUpdate', {
              params: { orgId },
              body: { items: taskIds.map((id) => ({ id, cycleId })) },
            })
          else
            for (const [i, taskId] of taskIds.entries()) {
              // Out of the cycle is `tasks.update` with `cycleId: null`; a task of another cycle stays there.
              const task = await call.run('tasks.get', { params: { orgId, taskId } })
              if (task.cycleId !== cycleId)
                throw new ProblemError('not_found', `${args.tasks[i]} is not in this cycle.`, {
                  errors: [{ pointer: `/arguments/tasks/${i}`, message: 'Not in this cycle' }],
                })
              await call.run('tasks.update', { params: { orgId, taskId }, body: { cycleId: null } })
            }
          const cycle = await call.run('cycles.get', { params: { orgId, cycleId } })
          return { ...cycleRow(cycle), [args.action === 'add_tasks' ? 'added' : 'removed']: args.tasks ?? [] }
        }
      }
    },
  },
  {
    name: 'create_label',
    title: 'Create a label',
    description: "Creates a workspace label, or a team's with `team`; `group` puts it in a label group.",
    readOnly: false,
    destructive: false,
    idempotent: false,
    operations: ['labels.create', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        name: fieldOf('labels.create', 'body', 'name', ''),
        team: Type.Optional(TeamRef),
        group: Type.Optional(
          Type.String({ minLength: 1, maxLength: 200, description: 'The label group, by name.' }),
        ),
        ...optionalFieldsOf('labels.create', 'body', ['color', 'description', 'isGroup']),
      },
      ['name'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const teamId = args.team ? await call.resolve(org.id, 'team', args.team) : undefined
      const body = {
        name: args.name,
        ...(teamId ? { teamId } : {}),
        ...(args.group ? { parentId: await call.resolve(org.id, 'label', args.group, teamId) } : {}),
        ...Object.fromEntries(
          ['color', 'description', 'isGroup'].filter((f) => args[f] !== undefined).map((f) => [f, args[f]]),
        ),
      }
      const label = await call.run('labels.create', { params: { orgId: org.id }, body })
      return {
        id: label.id,
        name: label.name,
        team: args.team ?? null,
        color: label.color,
        isGroup: label.isGroup,
      }
    },
  },
  {
    name: 'cycle_settings',
    title: "A team's cycle cadence",
    description: "Reads a team's cycle cadence, or changes it when a field is given.",
    readOnly: false,
    destructive: false,
    idempotent: true,
    operations: ['cycleSettings.get', 'cycleSettings.update', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        team: TeamRef,
        ...optionalFieldsOf('cycleSettings.update', 'body', [...CADENCE]),
      },
      ['team'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const params = { orgId: org.id, teamId: await call.resolve(org.id, 'team', args.team) }
      const body = Object.fromEntries(CADENCE.filter((f) => args[f] !== undefined).map((f) => [f, args[f]]))
      const settings = Object.keys(body).length
        ? await call.run('cycleSettings.update', { params, body })
        : await call.run('cycleSettings.get', { params })
      const { teamId: _, ...rest } = settings
      return { team: args.team, ...rest }
    },
  },
]

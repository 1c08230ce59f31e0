import { Type } from '@sinclair/typebox'
import { type OrgId, ProblemError, type Recurrence } from '@workgraph/core'
import { fieldOf, object, TeamRef, Workspace } from '../schema.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'

/** Most records a by-name look-up reads: names are compared in the adapter, not in SQL. */
const NAME_SCAN_MAX = 1_000

/**
 * The record of a list (`templates.list`, `recurrences.list`) whose id or name (ignoring case) is
 * `ref`, among those the caller can see. Two with that name is `ambiguous_name`, none `unknown_name`.
 */
async function byName(call: ToolCall, orgId: OrgId, operation: string, ref: string, what: string) {
  const wanted = ref.trim().toLowerCase()
  const found: Array<{ id: string; name: string }> = []
  let cursor: string | null = null
  let read = 0
  do {
    const page: { data: Array<{ id: string; name: string }>; nextCursor: string | null } = await call.run(
      operation,
      { params: { orgId }, query: { limit: 100, ...(cursor ? { cursor } : {}) } },
    )
    for (const r of page.data) if (r.id === ref || r.name.toLowerCase() === wanted) found.push(r)
    read += page.data.length
    cursor = page.nextCursor
  } while (cursor && read < NAME_SCAN_MAX)
  if (found.length > 1) {
    throw new ProblemError('ambiguous_name', `${found.length} ${what}s are named “${ref}”; give its id.`)
  }
  if (!found[0]) throw new ProblemError('unknown_name', `No ${what} you can see is named “${ref}”.`)
  return found[0].id
}

const TemplateRef = Type.String({ minLength: 1, maxLength: 200, description: 'The template’s name or id.' })
const RecurrenceRef = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The recurring task’s name or id.',
})

const recurrenceSummary = (r: Recurrence) => ({
  id: r.id,
  name: r.name,
  teamId: r.teamId,
  templateId: r.templateId,
  schedule: r.schedule,
  nextOccurrence: r.nextOccurrence,
  lastOccurrence: r.lastOccurrence,
  paused: r.pausedAt !== null,
})

/** Tools for templates and recurring tasks, by name. */
export const templateTools: ToolDefinition[] = [
  {
    name: 'apply_template',
    title: 'Apply a template',
    description:
      'Creates a task or a project (with milestones and tasks) from a template; dates count from `startDate` (default today).',
    readOnly: false,
    destructive: false,
    idempotent: false,
    operations: ['templates.list', 'templates.apply', 'names.resolve'],
    input: object({
      workspace: Workspace,
      template: TemplateRef,
      team: Type.Optional(TeamRef),
      title: Type.Optional(fieldOf('templates.apply', 'body', 'title', 'A task template: another title.')),
      name: Type.Optional(fieldOf('templates.apply', 'body', 'name', 'A project template: another name.')),
      startDate: Type.Optional(fieldOf('templates.apply', 'body', 'startDate', '')),
    }),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const templateId = await byName(call, org.id, 'templates.list', args.template, 'template')
      const body: Record<string, unknown> = {}
      if (args.team) body.teamId = await call.resolve(org.id, 'team', args.team)
      for (const key of ['title', 'name', 'startDate'] as const)
        if (args[key] !== undefined) body[key] = args[key]
      return call.run('templates.apply', { params: { orgId: org.id, templateId }, body })
    },
  },
  {
    name: 'manage_recurring_task',
    title: 'Manage a recurring task',
    description:
      'A recurring task: `create` from a task `template` on a `schedule`, `update`, `pause`, `resume`, `delete` (its tasks stay), `show`.',
    readOnly: false,
    destructive: true,
    idempotent: false,
    operations: [
      'recurrences.list',
      'recurrences.get',
      'recurrences.create',
      'recurrences.update',
      'recurrences.pause',
      'recurrences.resume',
      'recurrences.delete',
      'templates.list',
      'names.resolve',
    ],
    input: object(
      {
        workspace: Workspace,
        action: Type.String({
          enum: ['create', 'show', 'update', 'pause', 'resume', 'delete'],
          description: 'What to do.',
        }),
        name: RecurrenceRef,
        template: Type.Optional(TemplateRef),
        team: Type.Optional(TeamRef),
        schedule: Type.Optional(fieldOf('recurrences.create', 'body', 'schedule')),
        startDate: Type.Optional(fieldOf('recurrences.create', 'body', 'startDate')),
        newName: Type.Optional(fieldOf('recurrences.update', 'body', 'name')),
      },
      ['action', 'name'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      if (args.action === 'create') {
        if (!args.template || !args.team || !args.schedule) {
          throw new ProblemError('validation_failed', 'To create, give `template`, `team` and `schedule`.')
        }
        const created = await call.run('recurrences.create', {
          params: { orgId },
          body: {
            teamId: await call.resolve(orgId, 'team', args.team),
            templateId: await byName(call, orgId, 'templates.list', args.template, 'template'),
            name: args.name,
            schedule: args.schedule,
            ...(args.startDate ? { startDate: args.startDate } : {}),
          },
        })
        return recurrenceSummary(created)
      }
      const recurrenceId = await byName(call, orgId, 'recurrences.list', args.name, 'recurring task')
      const params = { orgId, recurrenceId }
      switch (args.action) {
        case 'show':
          return recurrenceSummary(await call.run('recurrences.get', { params }))
        case 'update': {
          const body: Record<string, unknown> = {}
          if (args.schedule) body.schedule = args.schedule
          if (args.startDate) body.startDate = args.startDate
          if (args.newName) body.name = args.newName
          if (Object.keys(body).length === 0) {
            throw new ProblemError(
              'validation_failed',
              'To update, give `schedule`, `startDate` or `newName`.',
            )
          }
          return recurrenceSummary(await call.run('recurrences.update', { params, body }))
        }
        case 'pause':
        case 'resume':
          return recurrenceSummary(await call.run(`recurrences.${args.action}`, { params }))
        default:
          await call.run('recurrences.delete', { params })
          return { deleted: recurrenceId }
      }
    },
  },
]

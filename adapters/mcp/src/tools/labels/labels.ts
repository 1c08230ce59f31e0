import { Type } from '@sinclair/typebox'
import { ProblemError } from '@workgraph/core'
import { object, optionalFieldsOf, TeamRef, Workspace } from '../schema.ts'
import type { ToolDefinition } from '../types.ts'

const LABEL_ACTIONS = ['update', 'archive', 'restore'] as const
const FIELDS = ['name', 'color', 'description'] as const

const labelRow = (l: any) => ({
  id: l.id,
  name: l.name,
  color: l.color,
  description: l.description,
  archived: l.archivedAt !== null,
})

export const labelTools: ToolDefinition[] = [
  {
    name: 'manage_label',
    title: 'Change, archive or restore a label',
    description:
      '`update` a label (`team` picks among same-named team labels), `archive` it (tasks keep it) or `restore` it.',
    readOnly: false,
    destructive: true,
    idempotent: true,
    operations: ['labels.update', 'labels.archive', 'labels.restore', 'labels.list', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        label: Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Label name (`Bug`, `Size/Large`) or id.',
        }),
        team: Type.Optional(TeamRef),
        action: Type.String({ enum: [...LABEL_ACTIONS] }),
        ...optionalFieldsOf('labels.update', 'body', [...FIELDS], { name: '' }),
        group: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'Move it into this label group (by name).',
          }),
        ),
      },
      ['label', 'action'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      const teamId = args.team ? await call.resolve(orgId, 'team', args.team) : undefined
      if (args.action === 'restore') {
        const labelId = await call.resolve(orgId, 'label', args.label, teamId, { archived: true })
        return labelRow(await call.run('labels.restore', { params: { orgId, labelId } }))
      }
      const labelId = await call.resolve(orgId, 'label', args.label, teamId)
      if (args.action === 'archive')
        return labelRow(await call.run('labels.archive', { params: { orgId, labelId } }))
      const body = {
        ...Object.fromEntries(FIELDS.filter((f) => args[f] !== undefined).map((f) => [f, args[f]])),
        ...(args.group ? { parentId: await call.resolve(orgId, 'label', args.group, teamId) } : {}),
      }
      if (!Object.keys(body).length)
        throw new ProblemError(
          'validation_failed',
          '`update` needs a `name`, `color`, `description` or `group`.',
        )
      return labelRow(await call.run('labels.update', { params: { orgId, labelId }, body }))
    },
  },
]

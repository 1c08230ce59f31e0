import { Type } from '@sinclair/typebox'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import type { LabelId, TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { labelExamples } from './examples.ts'
import { Label } from './schemas.ts'
import {
  createLabel,
  deleteLabel,
  listLabels,
  requireLabel,
  setLabelArchived,
  updateLabel,
} from './service.ts'

// The bodies take the label's own field schemas (kernel/body-fields.ts): one type to send and read.
const editable = optionalFieldsOf(Label, {
  color: true,
  description: true,
  parentId: 'A label group of the same scope; null takes the label out of its group.',
})

const labelOperations = resourceOperations({
  name: 'label',
  plural: 'labels',
  tag: 'Labels',
  schema: Label,
  collectionPath: '/v1/orgs/{orgId}/labels',
  idParam: 'labelId',
  idBrand: 'LabelId',
  target: (p) => ({ type: 'label', id: p.labelId! }),
  // Like Linear, anyone who can edit work can add labels: a team label needs `contribute` on the
  // team, an org label `contribute` on the org (members have it through their role).
  createTarget: (_p, body) =>
    body.teamId ? { type: 'team', id: body.teamId, pointer: '/body/teamId' } : { type: 'org' },
  capabilities: {
    create: 'contribute',
    update: 'contribute',
    archive: 'contribute',
    restore: 'contribute',
    delete: 'manage',
  },
  createBody: Type.Object(
    {
      ...fieldsOf(Label, { name: true }),
      ...optionalFieldsOf(Label, {
        teamId: 'The team whose tasks it applies to; left out or null: an org label.',
        isGroup: { default: false, description: 'A group of labels, of which a task carries one.' },
      }),
      ...editable,
    },
    { $id: 'LabelCreate', additionalProperties: false },
  ),
  updateBody: Type.Object(
    { ...optionalFieldsOf(Label, { name: true }), ...editable },
    { $id: 'LabelUpdate', additionalProperties: false, minProperties: 1 },
  ),
  listQuery: {
    teamId: Type.Optional(
      IdSchema('TeamId', "Only labels that apply to this team's tasks: the team's own and the org's."),
    ),
    parentId: Type.Optional(IdSchema('LabelId', 'Only the labels of this group.')),
    archived: Type.Optional(
      StringEnum(['exclude', 'only', 'include'] as const, {
        default: 'exclude',
        description: 'Archived labels: left out (default), only them, or both.',
      }),
    ),
  },
  errors: {
    create: ['label_name_taken', 'reference_not_found', 'archived', 'rule_violated'],
    update: ['label_name_taken', 'reference_not_found', 'label_group_conflict', 'rule_violated'],
    restore: ['label_name_taken'],
  },
  descriptions: {
    list: "The labels the caller can view, by name: the org's labels and those of the teams they see. `teamId` keeps the ones that apply to that team's tasks (its own and the org's), `parentId` the labels of one group. Archived labels are left out unless `archived` asks for them.",
    get: 'One label or label group: its scope (`teamId` null for an org label), group and colour.',
    create:
      'Creates an org label, or a team label with `teamId`; `isGroup` makes a group, of which a task carries at most one label, and `parentId` puts the label in a group of the same scope. ' +
      'The name is unique among the active labels of its scope (409 `label_name_taken`); an archived team is a 409 `archived`. Emits `label.created`. Label groups do not nest: a `parentId` that is itself in a group is 422 `rule_violated`.',
    update:
      'Renames, recolours or moves a label between groups of its scope. Moving it into a group where a task would carry two of its labels is a 409 `label_group_conflict` (with `taskCount`). Emits `label.updated`. Label groups do not nest (422 `rule_violated`).',
    archive:
      'Archived labels can no longer be put on tasks; the tasks that carry one keep it. Archiving an archived label changes nothing. Emits `label.archived`.',
    restore:
      'Makes an archived label usable again, unless an active label of its scope took its name meanwhile (409 `label_name_taken`). Emits `label.restored`.',
    delete:
      'Deletes the label for good and takes it off every task; the labels of a deleted group stay, in no group. Emits `label.deleted` with the number of tasks it was on.',
  },
  requires: { create: '`contribute` on the team named by `teamId`, or on the workspace for an org label' },
  examples: labelExamples,
  handlers: {
    list: (ctx, _p, query) =>
      listLabels(ctx, {
        ...query,
        teamId: query.teamId as TeamId | undefined,
        parentId: query.parentId as LabelId | undefined,
      }),
    get: (ctx, p) => requireLabel(ctx, p.labelId as LabelId),
    create: (ctx, _p, body) =>
      createLabel(ctx, {
        ...body,
        teamId: body.teamId as TeamId | null | undefined,
        parentId: body.parentId as LabelId | null | undefined,
      }),
    update: (ctx, p, body) =>
      updateLabel(ctx, p.labelId as LabelId, {
        ...body,
        parentId: body.parentId as LabelId | null | undefined,
      }),
    archive: (ctx, p) => setLabelArchived(ctx, p.labelId as LabelId, true),
    restore: (ctx, p) => setLabelArchived(ctx, p.labelId as LabelId, false),
    delete: (ctx, p) => deleteLabel(ctx, p.labelId as LabelId),
  },
})

export const labelsCatalogue: AnyOperation[] = labelOperations

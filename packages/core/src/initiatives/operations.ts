import { Type } from '@sinclair/typebox'
import type { InitiativeId, MemberId, ProjectId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf, resourceOperations, subListOperation } from '../kernel/resource.ts'
import { Name, Nullable, PageOf, StringEnum } from '../kernel/schema-types.ts'
import { ProjectDate } from '../projects/schemas.ts'
import { StatusUpdate, UpdateBody, UpdateHealthSchema } from '../updates/schemas.ts'
import { createUpdate, listUpdates } from '../updates/service.ts'
import { examples, initiativeExamples } from './examples.ts'
import { listHistory } from './history-list.ts'
import { InitiativeHistoryEntry } from './history-schemas.ts'
import {
  addInitiativeMember,
  addInitiativeProject,
  listInitiativeMembers,
  listInitiativeProjects,
  removeInitiativeMember,
  removeInitiativeProject,
} from './links.ts'
import { initiativeWithMetric } from './metric.ts'
import { moveInitiativeProject } from './project-order.ts'
import { initiativeRollup, initiativeTree } from './rollup.ts'
import {
  Initiative,
  InitiativeMember,
  InitiativeProject,
  InitiativeRollup,
  InitiativeStatusSchema,
  InitiativeTree,
  MAX_INITIATIVE_DEPTH,
} from './schemas.ts'
import {
  createInitiative,
  deleteInitiative,
  type InitiativeFields,
  listChildren,
  listInitiatives,
  setInitiativeArchived,
  updateInitiative,
} from './service.ts'
import './update-subject.ts'

const TAG = 'Initiatives'
const collection = '/v1/orgs/{orgId}/initiatives'
const itemPath = `${collection}/{initiativeId}`
const itemParams = Type.Object(paramsOf(itemPath), { additionalProperties: false })
const initiativeTarget = ({ params }: { params: Record<string, unknown> }) => ({
  type: 'initiative' as const,
  id: params.initiativeId as string,
})
const archivedQuery = StringEnum(['exclude', 'only', 'include'] as const, {
  default: 'exclude',
  description: 'Archived initiatives: left out (default), only them, or both.',
})
const visibility =
  'A reader with org-wide view sees every initiative; any other reader sees those holding, directly or through ' +
  'sub-initiatives, a project they can view.'

const editable = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }), 'Markdown.')),
  ownerId: Type.Optional(Nullable(IdSchema('MemberId'), 'An active member.')),
  status: Type.Optional(InitiativeStatusSchema),
  targetDate: Type.Optional(Nullable(ProjectDate)),
  parentId: Type.Optional(
    Nullable(
      IdSchema('InitiativeId'),
      `An initiative to nest under (null: top level); no cycle, at most ${MAX_INITIATIVE_DEPTH} levels.`,
    ),
  ),
}

const resource = resourceOperations({
  name: 'initiative',
  plural: 'initiatives',
  tag: TAG,
  schema: Initiative,
  collectionPath: collection,
  idParam: 'initiativeId',
  idBrand: 'InitiativeId',
  target: (p) => ({ type: 'initiative', id: p.initiativeId! }),
  createTarget: () => ({ type: 'org' }),
  capabilities: {
    create: 'contribute',
    update: 'contribute',
    archive: 'contribute',
    restore: 'contribute',
    delete: 'manage',
  },
  createBody: Type.Object(
    { name: Name('The initiative name.', 200), ...editable },
    { additionalProperties: false },
  ),
  updateBody: Type.Object(
    { name: Type.Optional(Name('The initiative name.', 200)), ...editable },
    { additionalProperties: false, minProperties: 1 },
  ),
  listQuery: {
    status: Type.Optional(InitiativeStatusSchema),
    ownerId: Type.Optional(
      Type.String({
        pattern: '^(none|mem_[0-9A-HJKMNP-TV-Z]{26})$',
        description: 'A MemberId, or `none` for initiatives without an owner.',
      }),
    ),
    parentId: Type.Optional(
      Type.String({
        pattern: '^(none|ini_[0-9A-HJKMNP-TV-Z]{26})$',
        description: 'Only sub-initiatives of this initiative, or `none` for top-level ones.',
      }),
    ),
    health: Type.Optional(
      StringEnum(['onTrack', 'atRisk', 'offTrack', 'none'] as const, {
        description: 'Only initiatives whose latest unarchived update has this health (`none`: without one).',
      }),
    ),
    labelId: Type.Optional(IdSchema('LabelId', 'Only initiatives carrying this label.')),
    targetBefore: Type.Optional(Type.String({ format: 'date', description: 'Target date on or before.' })),
    targetAfter: Type.Optional(Type.String({ format: 'date', description: 'Target date on or after.' })),
    archived: Type.Optional(archivedQuery),
  },
  errors: {
    create: ['reference_not_found', 'initiative_depth'],
    update: ['reference_not_found', 'capability_required', 'initiative_cycle', 'initiative_depth'],
  },
  descriptions: {
    list: `Newest first. ${visibility}`,
    get: 'An initiative the caller cannot view is a 404, like a missing one. Only this read carries `metric`.',
    create:
      'Needs `contribute` on the org. Without `status` it is `planned`; `active` sets `startedAt`. Under ' +
      `\`parentId\` it may not nest deeper than ${MAX_INITIATIVE_DEPTH} levels (409 \`initiative_depth\`).`,
    update:
      'A status change keeps `startedAt` (first `active`), `completedAt` and `canceledAt` (cleared on reopening). ' +
      'Changing `parentId` nests the initiative with its sub-initiatives: it needs `manage` on it, and is refused ' +
      'with 409 `initiative_cycle` (naming the `path`) when it would go under itself or a descendant, or ' +
      `\`initiative_depth\` beyond ${MAX_INITIATIVE_DEPTH} levels.`,
    archive: 'Hides it from default lists and rollups; its links stay.',
    restore: 'Undoes `initiatives.archive`.',
    delete:
      'Needs `manage`. Deletes its project links, members, history and status updates; its sub-initiatives ' +
      'move up to its parent.',
  },
  examples: initiativeExamples,
  handlers: {
    list: (ctx, _p, query) => listInitiatives(ctx, query),
    get: (ctx, p) => initiativeWithMetric(ctx, p.initiativeId as InitiativeId),
    create: (ctx, _p, body) => createInitiative(ctx, body as InitiativeFields & { name: string }),
    update: (ctx, p, body) => updateInitiative(ctx, p.initiativeId as InitiativeId, body as InitiativeFields),
    archive: (ctx, p) => setInitiativeArchived(ctx, p.initiativeId as InitiativeId, true),
    restore: (ctx, p) => setInitiativeArchived(ctx, p.initiativeId as InitiativeId, false),
    delete: (ctx, p) => deleteInitiative(ctx, p.initiativeId as InitiativeId),
  },
})

const reads: AnyOperation[] = [
  subListOperation({
    id: 'initiatives.children.list',
    path: `${itemPath}/children`,
    tag: TAG,
    summary: "List an initiative's sub-initiatives",
    description: `Its direct sub-initiatives the caller can view, newest first. ${visibility}`,
    item: Initiative,
    itemName: 'Initiative',
    query: { archived: Type.Optional(archivedQuery) },
    examples: examples.children,
    run: (ctx, params, query) => listChildren(ctx, params.initiativeId as InitiativeId, query),
  }),
  declareOperation({
    id: 'initiatives.tree',
    method: 'GET',
    path: `${collection}/tree`,
    tag: TAG,
    scope: 'work:read',
    summary: 'Read the initiative hierarchy',
    description:
      'The initiatives the caller can view, depth first, each with its status, reported health and the headline ' +
      'of its rollup (computed health, completed ratio, projects), in one read: the whole org, or the subtree of ' +
      '`rootId`. Not paginated: the hierarchy of one org is small and a page cut would break the tree.',
    params: Type.Object(paramsOf(collection), { additionalProperties: false }),
    query: Type.Object(
      {
        rootId: Type.Optional(IdSchema('InitiativeId', 'Only this initiative and what is under it.')),
        archived: Type.Optional(
          StringEnum(['exclude', 'include'] as const, {
            default: 'exclude',
            description:
              'Archived initiatives: left out (default; what is under them then starts a tree) or kept.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    response: InitiativeTree,
    status: 200,
    errors: ['not_found'],
    examples: examples.tree,
    run: (ctx, { query }) => initiativeTree(ctx, query),
  }),
  declareOperation({
    id: 'initiatives.rollup',
    method: 'GET',
    path: `${itemPath}/rollup`,
    tag: TAG,
    scope: 'work:read',
    summary: "An initiative's rolled-up progress and health",
    description:
      'Progress pools the tasks the caller can view of every distinct project linked to the initiative or to one ' +
      'of its sub-initiatives (archived ones and what is under them left out; archived projects too): each task ' +
      'weighs its estimate (one when nothing is estimated), canceled work is out of scope, so larger projects ' +
      'weigh more. `computedHealth` is the worst reported health among the initiative, its open (planned or ' +
      'active) sub-initiatives and its open projects, with each record at risk or off track as a reason. Only ' +
      'what the caller can view is counted or named.',
    params: itemParams,
    response: InitiativeRollup,
    status: 200,
    errors: ['not_found'],
    examples: examples.rollup,
    run: (ctx, { params }) => initiativeRollup(ctx, params.initiativeId as InitiativeId),
  }),
  subListOperation({
    id: 'initiatives.history',
    path: `${itemPath}/history`,
    tag: TAG,
    summary: "List an initiative's history",
    description:
      'Every write to the initiative, newest first: field changes with before and after, archive, restore, ' +
      'project links and members.',
    item: InitiativeHistoryEntry,
    itemName: 'InitiativeHistoryEntry',
    examples: examples.history,
    run: (ctx, params, query) => listHistory(ctx, params.initiativeId as InitiativeId, query),
  }),
]

const projectPath = `${itemPath}/projects/{projectId}`
const projectParams = Type.Object(paramsOf(projectPath), { additionalProperties: false })
const projects: AnyOperation[] = [
  subListOperation({
    id: 'initiatives.projects.list',
    path: `${itemPath}/projects`,
    tag: TAG,
    summary: "List an initiative's projects",
    description:
      'Its linked projects the caller can view, in the initiative’s order: linking appends, ' +
      '`initiatives.projects.update` moves one.',
    item: InitiativeProject,
    itemName: 'InitiativeProject',
    examples: examples.projects,
    run: (ctx, params, query) => listInitiativeProjects(ctx, params.initiativeId as InitiativeId, query),
  }),
  declareOperation({
    id: 'initiatives.projects.add',
    method: 'PUT',
    path: projectPath,
    tag: TAG,
    scope: 'work:write',
    summary: 'Link a project to an initiative',
    description:
      'Appends the project to the initiative’s projects; idempotent. Needs `contribute` on the initiative and ' +
      '`manage` on the project: a link lets whoever holds the initiative reach the project. A project may serve ' +
      'several initiatives.',
    params: projectParams,
    response: InitiativeProject,
    status: 200,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found', 'archived'],
    examples: examples.projectAdd,
    run: (ctx, { params }) =>
      addInitiativeProject(ctx, params.initiativeId as InitiativeId, params.projectId as ProjectId),
  }),
  declareOperation({
    id: 'initiatives.projects.update',
    method: 'PATCH',
    path: projectPath,
    tag: TAG,
    scope: 'work:write',
    summary: "Move a project within an initiative's order",
    description:
      '`position` is the place the project takes among the initiative’s projects the caller can view (0 first; ' +
      'past the end: last); they trade the places they held among themselves, so projects hidden from the ' +
      'caller keep theirs. Needs `contribute` on the initiative; 404 when the project is not linked.',
    params: projectParams,
    body: Type.Object(
      { position: Type.Integer({ minimum: 0, maximum: 10_000, description: 'Its new place, from 0.' }) },
      { additionalProperties: false },
    ),
    response: InitiativeProject,
    status: 200,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found', 'archived'],
    examples: examples.projectMove,
    run: (ctx, { params, body }) =>
      moveInitiativeProject(
        ctx,
        params.initiativeId as InitiativeId,
        params.projectId as ProjectId,
        (body as { position: number }).position,
      ),
  }),
  declareOperation({
    id: 'initiatives.projects.remove',
    method: 'DELETE',
    path: projectPath,
    tag: TAG,
    scope: 'work:write',
    summary: 'Unlink a project from an initiative',
    description: 'The project stays as it is. Needs `contribute` on the initiative.',
    params: projectParams,
    response: null,
    status: 204,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await removeInitiativeProject(ctx, params.initiativeId as InitiativeId, params.projectId as ProjectId)
      return undefined
    },
  }),
]

const memberPath = `${itemPath}/members/{memberId}`
const memberParams = Type.Object(paramsOf(memberPath), { additionalProperties: false })
const members: AnyOperation[] = [
  subListOperation({
    id: 'initiatives.members.list',
    path: `${itemPath}/members`,
    tag: TAG,
    summary: "List an initiative's members",
    description: 'The people working on the initiative, in the order they were added.',
    item: InitiativeMember,
    itemName: 'InitiativeMember',
    examples: examples.members,
    run: (ctx, params, query) => listInitiativeMembers(ctx, params.initiativeId as InitiativeId, query),
  }),
  declareOperation({
    id: 'initiatives.members.add',
    method: 'PUT',
    path: memberPath,
    tag: TAG,
    scope: 'work:write',
    summary: 'Add a member to an initiative',
    description:
      'An active member of the org; idempotent. Membership says who works on it and grants nothing. Needs ' +
      '`contribute` on the initiative.',
    params: memberParams,
    response: InitiativeMember,
    status: 200,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found', 'archived', 'reference_not_found'],
    examples: examples.memberAdd,
    run: (ctx, { params }) =>
      addInitiativeMember(ctx, params.initiativeId as InitiativeId, params.memberId as MemberId),
  }),
  declareOperation({
    id: 'initiatives.members.remove',
    method: 'DELETE',
    path: memberPath,
    tag: TAG,
    scope: 'work:write',
    summary: 'Remove a member from an initiative',
    description: 'Needs `contribute` on the initiative.',
    params: memberParams,
    response: null,
    status: 204,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await removeInitiativeMember(ctx, params.initiativeId as InitiativeId, params.memberId as MemberId)
      return undefined
    },
  }),
]

const updatesPath = `${itemPath}/updates`
const updates: AnyOperation[] = [
  declareOperation({
    id: 'initiativeUpdates.list',
    method: 'GET',
    path: updatesPath,
    tag: 'Status updates',
    scope: 'work:read',
    summary: "List an initiative's status updates",
    description:
      'Newest first; an initiative the caller cannot view is a 404. Each update is read, edited, archived, ' +
      'restored and deleted through `/updates/{updateId}` like a project’s (the `projectUpdates.*` item operations).',
    params: itemParams,
    query: Type.Object(
      {
        ...PageQuery,
        health: Type.Optional(UpdateHealthSchema),
        archived: Type.Optional(
          StringEnum(['exclude', 'only', 'include'] as const, {
            default: 'exclude',
            description: 'Archived updates: left out (default), only them, or both.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    response: PageOf(StatusUpdate, 'StatusUpdate'),
    status: 200,
    errors: ['not_found', 'invalid_cursor'],
    examples: examples.updates,
    run: (ctx, { params, query }) => listUpdates(ctx, 'initiative', params.initiativeId as string, query),
  }),
  declareOperation({
    id: 'initiativeUpdates.create',
    method: 'POST',
    path: updatesPath,
    tag: 'Status updates',
    scope: 'work:write',
    summary: 'Post a status update on an initiative',
    description:
      'Needs `contribute` on the initiative; it records the initiative’s rolled-up progress as the author sees ' +
      'it then. The latest unarchived update gives the initiative its `health`.',
    params: itemParams,
    body: Type.Object({ body: UpdateBody, health: UpdateHealthSchema }, { additionalProperties: false }),
    response: StatusUpdate,
    status: 201,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found', 'archived'],
    location: 'projectUpdates.get',
    examples: examples.updateCreate,
    run: (ctx, { params, body }) => createUpdate(ctx, 'initiative', params.initiativeId as string, body),
  }),
]

export const initiativeOperations: AnyOperation[] = [
  ...resource,
  ...reads,
  ...projects,
  ...members,
  ...updates,
]

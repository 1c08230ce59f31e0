import { Type } from '@sinclair/typebox'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import type { InitiativeId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import type { AnyOperation } from '../kernel/operation.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { initiativeExamples } from './examples.ts'
import { initiativeWithMetric } from './metric/metric.ts'
import { Initiative, InitiativeStatusSchema, MAX_INITIATIVE_DEPTH } from './schemas.ts'
import {
  createInitiative,
  deleteInitiative,
  type InitiativeFields,
  listInitiatives,
  setInitiativeArchived,
  updateInitiative,
} from './service.ts'

/** What the initiative operation files share: the tag, the paths, and how a write names its target. */
export const INITIATIVES_TAG = 'Initiatives'
export const initiativesPath = '/v1/orgs/{orgId}/initiatives'
export const initiativePath = `${initiativesPath}/{initiativeId}`
export const initiativeParams = Type.Object(paramsOf(initiativePath), { additionalProperties: false })
export const initiativeTarget = ({ params }: { params: Record<string, unknown> }) => ({
  type: 'initiative' as const,
  id: params.initiativeId as string,
})
export const archivedInitiativesQuery = StringEnum(['exclude', 'only', 'include'] as const, {
  default: 'exclude',
  description: 'Archived initiatives: left out (default), only them, or both.',
})
export const initiativeVisibility =
  'A reader with org-wide view sees every initiative; any other reader sees those holding, directly or through ' +
  'sub-initiatives, a project they can view.'

// The bodies take the initiative's own field schemas (kernel/body-fields.ts): one type to send and read.
const editable = optionalFieldsOf(Initiative, {
  description: true,
  ownerId: 'An active member.',
  status: true,
  targetDate: true,
  parentId: `An initiative to nest under (null: top level); no cycle, at most ${MAX_INITIATIVE_DEPTH} levels.`,
})

/** The initiative itself: list, read, create, update, archive, restore, delete. */
export const initiativeOperations: AnyOperation[] = resourceOperations({
  name: 'initiative',
  plural: 'initiatives',
  tag: INITIATIVES_TAG,
  schema: Initiative,
  collectionPath: initiativesPath,
  idParam: 'initiativeId',
  idBrand: 'InitiativeId',
  target: (p) => ({ type: 'initiative', id: p.initiativeId! }),
  createTarget: () => ({ type: 'org' }),
  requires: { update: '`contribute` on the initiative, and `manage` on it to change `parentId`' },
  capabilities: {
    create: 'contribute',
    update: 'contribute',
    archive: 'contribute',
    restore: 'contribute',
    delete: 'manage',
  },
  createBody: Type.Object(
    { ...fieldsOf(Initiative, { name: true }), ...editable },
    { $id: 'InitiativeCreate', additionalProperties: false },
  ),
  updateBody: Type.Object(
    { ...optionalFieldsOf(Initiative, { name: true }), ...editable },
    { $id: 'InitiativeUpdate', additionalProperties: false, minProperties: 1 },
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
    archived: Type.Optional(archivedInitiativesQuery),
  },
  errors: {
    create: ['reference_not_found', 'initiative_depth'],
    update: ['reference_not_found', 'capability_required', 'initiative_cycle', 'initiative_depth'],
  },
  descriptions: {
    list: `Newest first; \`parentId\` gives an initiative's direct sub-initiatives (\`none\`: the top-level ones). ${initiativeVisibility}`,
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

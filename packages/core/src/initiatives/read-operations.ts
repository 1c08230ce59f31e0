import { Type } from '@sinclair/typebox'
import type { InitiativeId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf, subListOperation } from '../kernel/resource.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { examples } from './examples.ts'
import { listHistory } from './history/list.ts'
import { InitiativeHistoryEntry } from './history/schemas.ts'
import {
  archivedInitiativesQuery,
  INITIATIVES_TAG,
  initiativeParams,
  initiativePath,
  initiativesPath,
  initiativeVisibility,
} from './operations.ts'
import { initiativeRollup, initiativeTree } from './rollup.ts'
import { Initiative, InitiativeRollup, InitiativeTree } from './schemas.ts'

/** What is derived from initiatives and read only: the tree, the rollup, the history. */
export const initiativeReadOperations: AnyOperation[] = [
  declareOperation({
    id: 'initiatives.tree',
    method: 'GET',
    path: `${initiativesPath}/tree`,
    tag: INITIATIVES_TAG,
    scope: 'work:read',
    summary: 'Read the initiative hierarchy',
    description:
      'The initiatives the caller can view, depth first, each with its status, reported health and the headline ' +
      'of its rollup (computed health, completed ratio, projects), in one read: the whole org, or the subtree of ' +
      '`rootId`. Not paginated: the hierarchy of one org is small and a page cut would break the tree.',
    params: Type.Object(paramsOf(initiativesPath), { additionalProperties: false }),
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
    path: `${initiativePath}/rollup`,
    tag: INITIATIVES_TAG,
    scope: 'work:read',
    summary: "An initiative's rolled-up progress and health",
    description:
      'Progress pools the tasks the caller can view of every distinct project linked to the initiative or to one ' +
      'of its sub-initiatives (archived ones and what is under them left out; archived projects too): each task ' +
      'weighs its estimate (one when nothing is estimated), canceled work is out of scope, so larger projects ' +
      'weigh more. `computedHealth` is the worst reported health among the initiative, its open (planned or ' +
      'active) sub-initiatives and its open projects, with each record at risk or off track as a reason. Only ' +
      'what the caller can view is counted or named.',
    params: initiativeParams,
    response: InitiativeRollup,
    status: 200,
    errors: ['not_found'],
    examples: examples.rollup,
    run: (ctx, { params }) => initiativeRollup(ctx, params.initiativeId as InitiativeId),
  }),
  subListOperation({
    id: 'initiatives.history.list',
    path: `${initiativePath}/history`,
    tag: INITIATIVES_TAG,
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

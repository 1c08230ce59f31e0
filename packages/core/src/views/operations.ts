import { Type } from '@sinclair/typebox'
import type { TeamId, ViewId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { Nullable, PageOf, StringEnum } from '../kernel/schema-types.ts'
import { Project } from '../projects/schemas.ts'
import { Task } from '../tasks/schemas.ts'
import { viewExamples } from './examples.ts'
import { CreateViewBody, UpdateViewBody, VIEW_MODELS, View } from './schemas.ts'
import { createView, deleteView, listViews, requireView, updateView, viewResults } from './service.ts'

const viewsPath = '/v1/orgs/{orgId}/views'
const collection = Type.Object({ orgId: IdSchema('OrgId') }, { additionalProperties: false })
const item = Type.Object(
  { orgId: IdSchema('OrgId'), viewId: IdSchema('ViewId') },
  { additionalProperties: false },
)
const paging = Type.Object(PageQuery, { additionalProperties: false })

export const viewOperations: AnyOperation[] = [
  declareOperation({
    id: 'views.list',
    method: 'GET',
    path: viewsPath,
    tag: 'Views',
    scope: 'work:read',
    summary: 'List saved views',
    description:
      "The caller's personal views and the views shared with teams they can view, in creation order.",
    params: collection,
    query: paging,
    response: PageOf(View, 'View'),
    status: 200,
    errors: [],
    examples: viewExamples.list,
    run: (ctx, { query }) => listViews(ctx, query as never),
  }),
  declareOperation({
    id: 'views.get',
    method: 'GET',
    path: `${viewsPath}/{viewId}`,
    tag: 'Views',
    scope: 'work:read',
    summary: 'Get a saved view',
    description: "Another member's personal view, or a view of a team the caller cannot view, is a 404.",
    params: item,
    response: View,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: viewExamples.get,
    run: (ctx, { params }) => requireView(ctx, params.viewId as ViewId),
  }),
  declareOperation({
    id: 'views.create',
    method: 'POST',
    path: viewsPath,
    tag: 'Views',
    scope: 'work:write',
    summary: 'Save a view',
    requires: 'any member for a personal view; `contribute` on the team named by `teamId` to share it',
    description:
      'Saves a named filter over tasks (the body of `tasks.query`: `tasks.list` query parameters and a composed `filter`, docs/filters.md) or projects (`projects.list` query parameters). The filter is checked against that schema (400 pointing into `/body/filter`); a composed filter past its bounds (5 levels, 50 comparisons, 500 values) is 422 `rule_violated` pointing into `/body/filter/filter`. Without `teamId` the view is personal; with it, it is shared with the team, which needs `contribute` there.',
    params: collection,
    body: CreateViewBody,
    response: View,
    status: 201,
    errors: ['not_found', 'reference_not_found', 'rule_violated'],
    location: 'views.get',
    examples: viewExamples.create,
    run: (ctx, { body }) => createView(ctx, body as never),
  }),
  declareOperation({
    id: 'views.update',
    method: 'PATCH',
    path: `${viewsPath}/{viewId}`,
    tag: 'Views',
    scope: 'work:write',
    summary: 'Update a saved view',
    requires:
      'its owner, or `manage` on the team it is shared with; sharing it with another team needs `contribute` there',
    description:
      'Name, description, filter, or sharing (`teamId`; null makes it personal). Its owner may change it, and so may whoever holds `manage` on the team it is shared with; sharing with a team needs `contribute` there. A filter is checked as on create (a composed filter past its bounds: 422 `rule_violated`).',
    params: item,
    body: UpdateViewBody,
    response: View,
    status: 200,
    errors: ['not_found', 'reference_not_found', 'rule_violated'],
    precondition: 'views.get',
    examples: viewExamples.update,
    run: (ctx, { params, body }) =>
      updateView(ctx, params.viewId as ViewId, body as { teamId?: TeamId | null }),
  }),
  declareOperation({
    id: 'views.delete',
    method: 'DELETE',
    path: `${viewsPath}/{viewId}`,
    tag: 'Views',
    scope: 'work:write',
    summary: 'Delete a saved view',
    requires: 'its owner, or `manage` on the team it is shared with',
    description: 'Its owner may delete it, and so may whoever holds `manage` on the team it is shared with.',
    params: item,
    response: null,
    status: 204,
    errors: ['not_found'],
    precondition: 'views.get',
    run: (ctx, { params }) => deleteView(ctx, params.viewId as ViewId),
  }),
  declareOperation({
    id: 'views.results',
    method: 'GET',
    path: `${viewsPath}/{viewId}/results`,
    tag: 'Views',
    scope: 'work:read',
    summary: 'Run a saved view',
    description:
      "The tasks or projects the view's filter selects, run through `tasks.query` or `projects.list` as the caller: only what the caller can view, in the filter's sort, keyset-paginated (a cursor works only on the view that issued it). A custom field the filter names is looked up now: one deleted, archived or no longer of tasks since the view was saved answers as `tasks.query` would (422 `reference_not_found`, 409 `archived`, 422 `field_not_applicable`, or 422 `rule_violated` for a value it no longer takes).",
    params: item,
    query: paging,
    response: Type.Object(
      {
        model: StringEnum(VIEW_MODELS, { description: 'What `data` holds.' }),
        data: Type.Array(Type.Union([Task, Project])),
        nextCursor: Nullable(Type.String(), 'Pass as `cursor` for the next page; null on the last page.'),
      },
      { $id: 'ViewResults', additionalProperties: false },
    ),
    status: 200,
    errors: ['not_found', 'reference_not_found', 'archived', 'field_not_applicable', 'rule_violated'],
    examples: viewExamples.results,
    run: (ctx, { params, query }) => viewResults(ctx, params.viewId as ViewId, query as never),
  }),
]

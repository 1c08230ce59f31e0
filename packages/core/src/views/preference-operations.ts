import { Type } from '@sinclair/typebox'
import type { ViewId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { viewPreferenceExamples } from './examples.ts'
import {
  PREFERENCE_LEVELS,
  type PreferenceLevel,
  PutViewPreferencesBody,
  ViewPreferences,
} from './preference-schemas.ts'
import { deleteViewPreferences, getViewPreferences, putViewPreferences } from './preferences.ts'

const path = '/v1/orgs/{orgId}/views/{viewId}/preferences'
const params = Type.Object(
  { orgId: IdSchema('OrgId'), viewId: IdSchema('ViewId') },
  { additionalProperties: false },
)
const vid = (p: Record<string, string>) => p.viewId as ViewId

/** A person's own display settings of a saved view, over the view's default: docs/views.md. */
export const viewPreferenceOperations: AnyOperation[] = [
  declareOperation({
    id: 'views.preferences.get',
    method: 'GET',
    path,
    tag: 'Views',
    scope: 'work:read',
    summary: "Get a view's display preferences",
    description:
      'The effective layout, grouping, ordering and columns for the caller (built-in settings, then the view’s default, then the caller’s own overrides), with each level shown apart. A view the caller cannot see is a 404.',
    params,
    response: ViewPreferences,
    status: 200,
    errors: ['not_found'],
    examples: viewPreferenceExamples.get,
    run: (ctx, { params }) => getViewPreferences(ctx, vid(params)),
  }),
  declareOperation({
    id: 'views.preferences.set',
    method: 'PUT',
    path,
    tag: 'Views',
    scope: 'work:write',
    summary: "Set a view's display preferences",
    requires:
      'anyone who can view it for their own level (`mine`); for `default`, its owner or `manage` on the team it is shared with',
    description:
      'Replaces the overrides of one level with `preferences`: the caller’s own (`level: mine`, anyone who sees the view), or the view’s default for everyone (`level: default`: its owner, or `manage` on the team it is shared with). Settings left out come from the level below, so one person’s layout never clobbers another’s.',
    params,
    body: PutViewPreferencesBody,
    response: ViewPreferences,
    status: 200,
    errors: ['not_found'],
    examples: viewPreferenceExamples.put,
    run: (ctx, { params, body }) => putViewPreferences(ctx, vid(params), body as never),
  }),
  declareOperation({
    id: 'views.preferences.delete',
    method: 'DELETE',
    path,
    tag: 'Views',
    scope: 'work:write',
    summary: "Drop a view's display overrides",
    requires:
      'anyone who can view it for their own level (`mine`); for `default`, its owner or `manage` on the team it is shared with',
    description:
      'Drops the caller’s own overrides (or, with `level=default` and the right to edit the view, its default). None set is a 404.',
    params,
    query: Type.Object(
      {
        level: Type.Optional(
          StringEnum(PREFERENCE_LEVELS, { default: 'mine', description: 'Which overrides to drop.' }),
        ),
      },
      { additionalProperties: false },
    ),
    response: null,
    status: 204,
    errors: ['not_found'],
    run: async (ctx, { params, query }) => {
      await deleteViewPreferences(ctx, vid(params), (query as { level?: PreferenceLevel }).level)
      return undefined
    },
  }),
]

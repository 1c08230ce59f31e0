import { Type } from '@sinclair/typebox'
import { type FavoriteId, IdSchema } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { MoveBody } from '../../kernel/ordering.ts'
import { PageQuery } from '../../kernel/pagination.ts'
import { PageOf } from '../../kernel/schema-types.ts'
import { favoriteExamples } from '../examples.ts'
import { Favorite, FavoriteRecordRef } from '../schemas.ts'
import { FAVORITES_MAX } from '../storage.ts'
import { addFavorite, getFavorite, listFavorites, moveFavorite, removeFavorite } from './favorites.ts'

const favoritesPath = '/v1/me/favorites'

export const favoriteOperations: AnyOperation[] = [
  declareOperation({
    id: 'me.favorites.list',
    method: 'GET',
    path: favoritesPath,
    tag: 'Me',
    scope: 'work:read',
    summary: 'List my favorites',
    description:
      'The records the caller starred, in every workspace, in their order. A favorite whose record the caller can no longer view (access removed, membership ended, record deleted) is left out, and comes back if access does.',
    query: Type.Object(PageQuery, { additionalProperties: false }),
    response: PageOf(Favorite, 'Favorite'),
    status: 200,
    errors: [],
    examples: favoriteExamples.list,
    run: (ctx, { query }) => listFavorites(ctx, query as never),
  }),
  declareOperation({
    id: 'me.favorites.create',
    method: 'POST',
    path: favoritesPath,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Star a record',
    description: `Adds a task, project, milestone, cycle, label, team or status update of any of the caller's workspaces to the end of their favorites. The caller must be able to view it, and \`id\` must be of the brand \`type\` names (422 \`reference_not_found\` otherwise). Starring a record already starred answers its existing favorite. At most ${FAVORITES_MAX} favorites (409 \`conflict\`).`,
    body: Type.Object({ record: FavoriteRecordRef }, { additionalProperties: false }),
    response: Favorite,
    status: 201,
    errors: ['reference_not_found', 'conflict'],
    examples: favoriteExamples.create,
    run: (ctx, { body }) => addFavorite(ctx, (body as { record: never }).record),
  }),
  declareOperation({
    id: 'me.favorites.get',
    method: 'GET',
    path: `${favoritesPath}/{favoriteId}`,
    tag: 'Me',
    scope: 'work:read',
    summary: 'Get a favorite',
    description:
      'One of the caller’s favorites with its position. One whose record the caller can no longer view is a 404, as `me.favorites.list` leaves it out.',
    params: Type.Object({ favoriteId: IdSchema('FavoriteId') }, { additionalProperties: false }),
    response: Favorite,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: { response: favoriteExamples.create.response },
    run: (ctx, { params }) => getFavorite(ctx, params.favoriteId as FavoriteId),
  }),
  declareOperation({
    id: 'me.favorites.delete',
    method: 'DELETE',
    path: `${favoritesPath}/{favoriteId}`,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Unstar a record',
    description: 'Removes one of the caller’s favorites; the record itself is untouched.',
    params: Type.Object({ favoriteId: IdSchema('FavoriteId') }, { additionalProperties: false }),
    response: null,
    status: 204,
    errors: ['not_found'],
    run: (ctx, { params }) => removeFavorite(ctx, params.favoriteId as FavoriteId),
  }),
  declareOperation({
    id: 'me.favorites.move',
    method: 'POST',
    path: `${favoritesPath}/{favoriteId}/move`,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Move a favorite before or after another',
    description:
      'Puts the favorite just before `beforeId` or just after `afterId` (exactly one), another of the caller’s favorites ' +
      'that `me.favorites.list` shows. Favorites hidden from the caller keep their places; positions are renumbered ' +
      'from 0. A move that changes nothing changes nothing. One whose record the caller can no longer view is a 404.',
    params: Type.Object({ favoriteId: IdSchema('FavoriteId') }, { additionalProperties: false }),
    body: MoveBody('FavoriteId', 'favorite'),
    response: Favorite,
    status: 200,
    errors: ['not_found', 'reference_not_found'],
    examples: favoriteExamples.move,
    run: (ctx, { params, body }) =>
      moveFavorite(ctx, params.favoriteId as FavoriteId, {
        beforeId: body.beforeId as FavoriteId | undefined,
        afterId: body.afterId as FavoriteId | undefined,
      }),
  }),
]

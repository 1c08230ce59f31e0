import { Type } from '@sinclair/typebox'
import { withArticle } from '../kernel/article.ts'
import type { ReactionId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf } from '../kernel/resource.ts'
import { PageOf } from '../kernel/schema-types.ts'
import { reactionExamples } from './examples.ts'
import { addReaction, deleteReaction, listReactions } from './reactions.ts'
import { Emoji, Reaction, ReactionGroup, type ReactionTargetType } from './schemas.ts'

const ReactionGroupPage = PageOf(ReactionGroup, 'ReactionGroup')

/**
 * List and create for the reactions of one kind of target: `prefix` names the operations
 * (`tasks`, `updates`), `segment` the collection in the path, `name` the target in summaries.
 */
function reactionOperations(
  type: ReactionTargetType,
  names: { prefix: string; segment: string; name: string },
): AnyOperation[] {
  const { prefix, name } = names
  const idParam = `${type}Id`
  const collection = `/v1/orgs/{orgId}/${names.segment}/{${idParam}}/reactions`
  const params = Type.Object(paramsOf(collection), { additionalProperties: false })
  const target = ({ params }: { params: Record<string, string> }) => ({ type, id: params[idParam]! })
  const ofTarget = (p: Record<string, string>) => ({ type, id: p[idParam]! })
  const examples = reactionExamples(type)
  return [
    declareOperation({
      id: `${prefix}.reactions.list`,
      method: 'GET',
      path: collection,
      tag: 'Reactions',
      scope: 'work:read',
      summary: `List ${withArticle(name)}'s reactions`,
      description:
        'Grouped by emoji, each group with its count, who reacted and the id of your own reaction; groups in the order of their first reaction.',
      params,
      query: Type.Object(PageQuery, { additionalProperties: false }),
      response: ReactionGroupPage,
      status: 200,
      errors: ['not_found', 'invalid_cursor'],
      examples: examples.list,
      run: (ctx, { params, query }) => listReactions(ctx, ofTarget(params), query),
    }),
    declareOperation({
      id: `${prefix}.reactions.create`,
      method: 'POST',
      path: collection,
      tag: 'Reactions',
      scope: 'work:write',
      summary: `React to ${withArticle(name)}`,
      description: `One reaction per person per emoji per ${name}: a second one answers 409 \`already_exists\`. The emoji is one Unicode emoji of the RGI list or a \`:shortcode:\`; anything else is 422 \`rule_violated\`.${
        type === 'comment' ? ' A deleted comment takes no reactions (409 `comment_deleted`).' : ''
      }`,
      params,
      // One body for every `…reactions.create`.
      body: Type.Object({ emoji: Emoji }, { $id: 'ReactionCreate', additionalProperties: false }),
      response: Reaction,
      status: 201,
      capability: 'comment',
      target,
      errors: [
        'not_found',
        'already_exists',
        'rule_violated',
        ...(type === 'comment' ? (['comment_deleted'] as const) : []),
      ],
      examples: examples.add,
      run: (ctx, { params, body }) => addReaction(ctx, ofTarget(params), (body as { emoji: string }).emoji),
    }),
  ]
}

const reactionPath = '/v1/orgs/{orgId}/reactions/{reactionId}'

/** One removal for every target: a `ReactionId` names its target, so no parent path is needed. */
const deleteOperation = declareOperation({
  id: 'reactions.delete',
  method: 'DELETE',
  path: reactionPath,
  tag: 'Reactions',
  scope: 'work:write',
  summary: 'Delete a reaction',
  requires: "`comment` on what it reacts to for your own reaction, `manage` for someone else's",
  description:
    "Removes a reaction to a task, a comment, a project or a status update, by its id (a group's `myReactionId` is yours). Your own reaction needs `comment` on what it reacts to; someone else's needs `manage` on it. A reaction to something you cannot view answers 404. Emits `reaction.deleted`.",
  params: Type.Object(paramsOf(reactionPath), { additionalProperties: false }),
  response: null,
  status: 204,
  capability: 'comment',
  target: ({ params }) => ({ type: 'reaction', id: params.reactionId as string }),
  errors: ['not_found'],
  run: async (ctx, { params }) => {
    await deleteReaction(ctx, params.reactionId as ReactionId)
    return undefined
  },
})

export const reactionsCatalogue: AnyOperation[] = [
  ...reactionOperations('task', { prefix: 'tasks', segment: 'tasks', name: 'task' }),
  ...reactionOperations('comment', { prefix: 'comments', segment: 'comments', name: 'comment' }),
  ...reactionOperations('project', { prefix: 'projects', segment: 'projects', name: 'project' }),
  ...reactionOperations('update', { prefix: 'updates', segment: 'updates', name: 'status update' }),
  deleteOperation,
]

import { Type } from '@sinclair/typebox'
import type { OrgId } from '@workgraph/core'
import { fieldOf } from '../schema.ts'
import type { ToolCall } from '../types.ts'

export const EmojiArg = fieldOf('tasks.reactions.create', 'body', 'emoji', 'An emoji, or a `:shortcode:`.')
export const RemoveReaction = Type.Optional(
  Type.Boolean({ default: false, description: 'Take your reaction back instead.' }),
)

type Target = { kind: 'tasks'; taskId: string } | { kind: 'comments'; commentId: string }

/**
 * Adds or takes back the caller's reaction, then answers with the target's reactions as
 * `{ emoji, count, mine }` rows: small, and enough to see the effect. Taking back a reaction
 * that is not there changes nothing (so the call is safe to repeat).
 */
export async function toggleReaction(
  call: ToolCall,
  orgId: OrgId,
  target: Target,
  emoji: string,
  remove: boolean,
) {
  const { kind, ...ids } = target
  const params = { orgId, ...ids }
  const groups = async () =>
    (await call.run(`${kind}.reactions.list`, { params, query: { limit: 200 } })).data as {
      emoji: string
      count: number
      myReactionId: string | null
    }[]
  if (!remove) await call.run(`${kind}.reactions.create`, { params, body: { emoji } })
  else {
    const mine = (await groups()).find((g) => g.emoji === emoji)?.myReactionId
    if (mine) await call.run('reactions.delete', { params: { orgId, reactionId: mine } })
  }
  return (await groups()).map((g) => ({ emoji: g.emoji, count: g.count, mine: g.myReactionId !== null }))
}

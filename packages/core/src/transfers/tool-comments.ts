import { createInvitation } from '../access/invitations/invitations.ts'
import { createComment } from '../comments/service.ts'
import type { CommentId, OrgId, TaskId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Resolver } from './import-rows.ts'
import type { ToolIssue } from './tool-formats.ts'

/**
 * Invites an email nobody in the workspace has (once: a pending invitation is reused); a dry run
 * sends nothing and says who would be invited.
 */
export async function inviteUnknown(
  ctx: OperationContext,
  orgId: OrgId,
  email: string,
  dryRun: boolean,
): Promise<string> {
  const pending = await ctx.store.invitations.listForEmail(email, ctx.now, {
    sort: 'id',
    direction: 'asc',
    after: null,
    limit: 100,
  })
  if (!dryRun && !pending.some((i) => i.orgId === orgId))
    await createInvitation(ctx, { email, role: 'member' })
  return dryRun ? 'would be invited' : 'invited'
}

/**
 * Posts the issue's comments on its task, each once (its source key is mapped to the comment, so a
 * re-run posts only the comments written in the tool since). A comment keeps its time; its author
 * is the member with that email, else the importing member, with "Originally by …" above the body
 * (and an unknown email is invited like an assignee). Returns how many were posted.
 */
export async function applyToolComments(
  ctx: OperationContext,
  orgId: OrgId,
  taskId: TaskId,
  issue: ToolIssue,
  resolver: Resolver,
  notes: string[],
  dryRun: boolean,
): Promise<number> {
  let posted = 0
  const strangers = new Set<string>()
  for (const comment of issue.comments) {
    const known = await ctx.store.imports.mapping(orgId, comment.sourceKey)
    if (known) {
      const existing = await ctx.store.comments.get(orgId, known.id as CommentId)
      // Still on this task: nothing to do. Its task was deleted and made anew: posted again.
      if (existing && existing.subjectId === taskId) continue
      await ctx.store.imports.unmap(orgId, comment.sourceKey)
    }
    const member = comment.author ? await resolver.person(comment.author) : null
    const body =
      member || !comment.author ? comment.body : `*Originally by ${comment.author}*\n\n${comment.body}`
    if (!member && comment.author?.includes('@')) strangers.add(comment.author.toLowerCase())
    const created = await createComment(
      ctx,
      'task',
      taskId,
      { body: body.slice(0, 100_000) },
      { authorId: member?.id ?? ctx.actor!.id, createdAt: comment.createdAt ?? ctx.now },
    )
    await ctx.store.imports.map(orgId, comment.sourceKey, { type: 'comment', id: created.id })
    posted++
  }
  for (const email of strangers)
    notes.push(
      `${email} wrote comments and is not a member: ${await inviteUnknown(ctx, orgId, email, dryRun)}; their comments are posted by you, "Originally by ${email}".`,
    )
  return posted
}

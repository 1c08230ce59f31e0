import { currentOrg } from '../kernel/context.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { UpdateRequest, UpdateRequestBody } from './cadence-schemas.ts'
import { updateSubject } from './subjects.ts'

/**
 * Asks the lead (project) or owner (program, initiative) for a status update: stored, and an
 * `update_request.created` event from which the recipient gets an `updateRequested` notification
 * when they can view the record. A request stays open until an update is posted on the record; one
 * open request per record per day (UTC), so a record is not nagged twice the same day.
 */
export async function requestUpdate(ctx: OperationContext, body: UpdateRequestBody): Promise<UpdateRequest> {
  const kind = updateSubject(ctx.hook, body.subjectType)
  const subject = await kind.require(ctx, body.subjectId)
  if (subject.archivedAt) {
    throw new ProblemError('archived', `The ${kind.name.toLowerCase()} is archived; restore it first.`)
  }
  const recipientId = subject.leadId ?? subject.ownerId ?? null
  if (!recipientId) {
    throw new ProblemError('no_update_owner', `The ${kind.name.toLowerCase()} has no lead or owner to ask.`, {
      errors: [{ pointer: '/body/subjectId', message: 'Has no lead or owner' }],
    })
  }
  const orgId = currentOrg(ctx).id
  const last = await ctx.store.updateRequests.latest(orgId, body.subjectType, subject.id)
  const answered = last !== null && subject.lastUpdateAt !== null && subject.lastUpdateAt >= last.createdAt
  if (last && !answered && last.createdAt.slice(0, 10) === ctx.now.slice(0, 10)) {
    throw new ProblemError('update_already_requested', 'An update was already asked for today.', {
      extensions: { requestedAt: last.createdAt },
    })
  }
  const request: UpdateRequest = {
    id: newId('UpdateRequestId'),
    orgId,
    subjectType: body.subjectType,
    subjectId: subject.id,
    requesterId: ctx.actor!.id,
    recipientId: recipientId as UpdateRequest['recipientId'],
    note: body.note ?? null,
    createdAt: ctx.now,
  }
  await ctx.store.updateRequests.insert(request)
  ctx.emit({
    kind: 'update_request.created',
    resourceType: body.subjectType,
    resourceId: subject.id,
    teamId: await kind.eventTeam(ctx.store, orgId, subject.id),
    data: { updateRequest: request, name: subject.name },
  })
  return request
}

import { currentOrg } from '../kernel/context.ts'
import type { MemberId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'

/** A start date after the due date is refused, whichever of the two the request changed. */
export function checkDates(startDate: string | null, dueDate: string | null): void {
  if (startDate && dueDate && startDate > dueDate) {
    throw new ProblemError('rule_violated', 'The start date is after the due date.', {
      errors: [{ pointer: '/body/startDate', message: 'Must be on or before dueDate' }],
    })
  }
}

/** The assignee of a create or update: an active member of the workspace. */
export async function activeMember(ctx: OperationContext, memberId: MemberId): Promise<void> {
  const member = await ctx.store.members.get(currentOrg(ctx).id, memberId)
  if (member?.status !== 'active') {
    throw referenceNotFound(
      '/body/assigneeId',
      'The assignee is not an active member of this workspace.',
      'Not an active member of this workspace',
    )
  }
}

/** The refusal of a `stateId` that is not an active workflow state of the task's team. */
export function stateNotOfTeam(): ProblemError {
  return referenceNotFound(
    '/body/stateId',
    "The state is not an active workflow state of the task's team.",
    "Not an active state of the task's team",
  )
}

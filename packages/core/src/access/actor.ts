import { invalidToken } from '../kernel/auth/tokens.ts'
import type { ActorResolver } from '../kernel/context.ts'
import type { OrgId } from '../kernel/ids.ts'
import { isOrgScoped, isWrite } from '../kernel/operation.ts'
import type { Actor } from '../kernel/permissions.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import type { Org } from '../orgs/schemas.ts'

declare module '../kernel/operation.ts' {
  /** Operations under `/v1/orgs/{orgId}` run with the whole workspace record. */
  interface Tenant extends Org {}
}

/**
 * The org and the caller's Actor for an operation under `/v1/orgs/{orgId}`. A missing org, a
 * non-member and an inactive member all get the same 404, so membership cannot be probed. The
 * member's teams and grants come in the same read (`standing`), fresh on every request: the
 * permission checks that follow use them instead of reading them again; so does an Idempotency-Key's
 * stored answer, when the request has one, and a token check the request deferred (`liveCheck`).
 */
export const resolveActor: ActorResolver = async (store, operation, params, principal, idempotency) => {
  if (!isOrgScoped(operation)) return { org: null, actor: null }
  const orgId = params.orgId as OrgId
  if (!principal) throw notFound('Org')
  const standing = await store.access.standing(orgId, principal.userId, idempotency, principal.liveCheck)
  // A dead token is refused before membership is looked at, as when it was checked on its own.
  if (principal.liveCheck && standing.tokenLive !== true) throw invalidToken()
  const { org, member, teamIds, grants } = standing
  if (!org || !member || member.status !== 'active') throw notFound('Org')
  if (org.archivedAt && isWrite(operation) && operation.id !== 'orgs.restore') {
    throw new ProblemError('archived', 'The workspace is archived and read-only; restore it first.')
  }
  const actor: Actor = {
    id: member.id,
    kind: 'person',
    orgId,
    role: member.role,
    userId: member.userId,
    name: member.name,
  }
  return {
    org,
    actor,
    known: { teamIds, grants },
    ...(idempotency ? { replay: standing.replay ?? null } : {}),
  }
}

import type { Principal } from '../kernel/auth/principal.ts'
import type { Store } from '../kernel/storage.ts'
import type { ConsentId } from '../oauth/store.ts'

/**
 * The principals whose consent is gone or whose own token was revoked (RFC 7009), every consent and
 * token read once in one statement: a stream round and a ping check all their streams with it.
 */
export async function deadCredentials<T extends { principal: Principal }>(
  store: Store,
  holders: readonly T[],
): Promise<T[]> {
  const grantIds = new Set<ConsentId>()
  const jtis = new Set<string>()
  for (const { principal } of holders) {
    if (principal.grantId) grantIds.add(principal.grantId as ConsentId)
    if (principal.tokenId) jtis.add(principal.tokenId)
  }
  if (grantIds.size === 0 && jtis.size === 0) return []
  const { liveGrants, revokedJtis } = await store.oauth.credentialStates([...grantIds], [...jtis])
  return holders.filter(({ principal: { grantId, tokenId } }) =>
    Boolean((grantId && !liveGrants.has(grantId as ConsentId)) || (tokenId && revokedJtis.has(tokenId))),
  )
}

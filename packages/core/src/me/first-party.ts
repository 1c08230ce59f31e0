import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'

/**
 * Managing the account itself (signing out browsers, disconnecting apps) is for the service's own
 * apps: tokens a host mints without a client, and clients listed in `config.firstPartyClients`. A
 * third-party app holding `work:write` must not sign the person out or cut off other apps.
 */
export function requireFirstParty(ctx: OperationContext): void {
  const clientId = ctx.principal?.clientId
  if (clientId === undefined || ctx.config.firstPartyClients.includes(clientId)) return
  throw new ProblemError(
    'first_party_only',
    "Only the service's own apps manage the account; an app may disconnect only itself.",
  )
}

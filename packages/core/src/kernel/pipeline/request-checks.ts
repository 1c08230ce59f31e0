import type { Principal } from '../auth/principal.ts'
import type { AnyOperation, OperationContext } from '../operation.ts'
import { ProblemError } from '../problems.ts'
import { canonicalJson, etagMatches, etagOf, isEtagList } from './canonical.ts'
import type { ExecuteOptions } from './execution.ts'

/**
 * A malformed `If-Match` is a 400 saying so, never a 412 claiming the resource changed; checked only
 * where the header is honoured (and declared, with its pattern): elsewhere it is ignored.
 */
export function checkConditionalHeaders(operation: AnyOperation, opts: ExecuteOptions): void {
  for (const [name, value, honoured] of [
    ['If-Match', opts.ifMatch, Boolean(operation.precondition)],
    ['If-None-Match', opts.ifNoneMatch, Boolean(operation.etag)],
  ] as const) {
    if (value === undefined || !honoured || isEtagList(value)) continue
    const message = `${name} must be * or one or more quoted ETags (as sent in the ETag header, quotes included), separated by commas`
    throw new ProblemError('bad_request', `${message}.`, {
      errors: [{ pointer: `/headers/${name.toLowerCase()}`, message }],
    })
  }
}

export function checkScope(operation: AnyOperation, principal: Principal | null): void {
  if (!operation.scope) return
  if (!principal) throw new ProblemError('unauthenticated', 'Send `Authorization: Bearer <access token>`.')
  if (!principal.scopes.has(operation.scope)) {
    throw new ProblemError('insufficient_scope', `This operation needs the \`${operation.scope}\` scope.`, {
      extensions: { requiredScope: operation.scope },
    })
  }
}

/**
 * Writes to one resource lock it for the rest of the transaction, so that an `If-Match` check and
 * the write it guards cannot interleave with another writer of the same resource.
 */
export async function checkPrecondition(
  ctx: OperationContext,
  operationOf: (id: string) => AnyOperation | undefined,
  readId: string,
  params: Record<string, unknown>,
  ifMatch: string | undefined,
): Promise<void> {
  await ctx.store.locks.acquire(`resource:${readId}:${canonicalJson(params)}`)
  if (!ifMatch) return
  const current = await operationOf(readId)!.run(ctx, { params, query: {}, body: undefined })
  if (!etagMatches(ifMatch, etagOf(current))) {
    throw new ProblemError(
      'precondition_failed',
      'The resource has changed since the ETag in If-Match was read.',
    )
  }
}

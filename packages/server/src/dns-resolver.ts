import { Resolver } from 'node:dns/promises'
import type { DnsTxtResolver } from '@workgraph/core'

/**
 * `domains.verify` over the system's DNS servers (node:dns), with a timeout and two tries so a
 * slow resolver answers the admin with a reason instead of holding the request.
 */
export function createNodeDnsResolver(options: { timeoutMs?: number } = {}): DnsTxtResolver {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 3_000, tries: 2 })
  return { resolveTxt: (name) => resolver.resolveTxt(name) }
}

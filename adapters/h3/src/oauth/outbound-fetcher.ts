import { lookup } from 'node:dns/promises'
import { createRequire } from 'node:module'
import { type OutboundFetcher, type OutboundPolicy, OutboundRefused } from '@workgraph/core'
import { isPublicAddress, sendPinned } from './cimd-fetcher.ts'

const ipaddr = createRequire(import.meta.url)('ipaddr.js') as typeof import('ipaddr.js')

export interface OutboundFetcherOptions {
  /** Resolves a host name once; defaults to the system resolver (every A and AAAA answer). */
  resolve?: (host: string) => Promise<string[]>
  timeoutMs?: number
  maxBytes?: number
  /** Extra trusted certificates (tests with a local TLS server). */
  ca?: string
}

const systemResolve = async (host: string) =>
  (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address)

const isLoopback = (address: string) =>
  ipaddr.isValid(address) && ipaddr.parse(address).range() === 'loopback'

/**
 * The connectors' fetcher, built on the CIMD fetcher's pinned request: https to public unicast
 * addresses only, every resolved address checked and the first one connected to, no redirects,
 * size and time capped. A provider allowed on loopback may also use loopback addresses and plain
 * http to them (local development and tests), never other special-use ranges.
 */
export function createOutboundFetcher(options: OutboundFetcherOptions = {}): OutboundFetcher {
  const resolve = options.resolve ?? systemResolve
  const timeoutMs = options.timeoutMs ?? 10_000
  const maxBytes = options.maxBytes ?? 1_048_576

  async function destination(target: string, policy: OutboundPolicy): Promise<{ url: URL; address: string }> {
    let url: URL
    try {
      url = new URL(target)
    } catch {
      throw new OutboundRefused('not a URL')
    }
    if (url.username || url.password) throw new OutboundRefused('URLs with credentials are refused')
    const host = url.hostname.replace(/^\[|\]$/g, '')
    const allowed = (a: string) => isPublicAddress(a) || (policy.allowLoopback && isLoopback(a))
    const addresses = ipaddr.isValid(host)
      ? [host]
      : host === 'localhost' || host.endsWith('.localhost')
        ? policy.allowLoopback
          ? ['127.0.0.1']
          : []
        : await resolve(host)
    if (addresses.length === 0) throw new OutboundRefused(`the host ${host} has no allowed address`)
    const refused = addresses.find((a) => !allowed(a))
    if (refused) throw new OutboundRefused(`the host resolves to a special-use address (${refused})`)
    if (url.protocol === 'http:' && !addresses.every(isLoopback))
      throw new OutboundRefused('only https is used outside loopback')
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused('only http(s) URLs')
    return { url, address: addresses[0]! }
  }

  return {
    async refusal(target, policy) {
      try {
        await destination(target, policy)
        return null
      } catch (error) {
        // A name that does not resolve is not refused: nothing is fetched from it.
        return error instanceof OutboundRefused ? error.message : null
      }
    },
    async fetch(request, policy) {
      const { url, address } = await destination(request.url, policy)
      const res = await sendPinned(url, address, {
        method: request.method,
        headers: { 'user-agent': 'workgraph-connectors/1', ...request.headers },
        ...(request.body !== undefined ? { body: request.body } : {}),
        timeoutMs,
        maxBytes,
        ...(options.ca ? { ca: options.ca } : {}),
      })
      // Redirects are never followed: a 3xx is answered as is, and callers treat it as a failure.
      return res
    },
  }
}

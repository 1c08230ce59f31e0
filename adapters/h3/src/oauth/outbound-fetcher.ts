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

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 5

function withoutContentHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !/^content-(type|length)$/i.test(name)),
  )
}

const isLoopback = (address: string) =>
  ipaddr.isValid(address) && ipaddr.parse(address).range() === 'loopback'

/**
 * The connectors' fetcher, built on the CIMD fetcher's pinned request: https to public unicast
 * addresses only, every resolved address checked and the first one connected to, no redirects
 * (unless the policy allows same-origin ones: at most five, each hop checked again), size and time
 * capped. A provider allowed on loopback may also use loopback addresses and plain
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
      let current = request
      for (let hop = 0; ; hop++) {
        const { url, address } = await destination(current.url, policy)
        const res = await sendPinned(url, address, {
          method: current.method,
          headers: { 'user-agent': 'workgraph-connectors/1', ...current.headers },
          ...(current.body !== undefined ? { body: current.body } : {}),
          timeoutMs,
          maxBytes,
          ...(options.ca ? { ca: options.ca } : {}),
        })
        // Unless the provider allows same-origin redirects, a 3xx is answered as is (callers treat
        // it as a failure); a redirect to another origin always is.
        const location = REDIRECTS.has(res.status) ? res.headers.location : undefined
        if (!policy.sameOriginRedirects || !location) return res
        let next: URL
        try {
          next = new URL(location, url)
        } catch {
          return res
        }
        if (next.origin !== url.origin) return res
        if (hop >= MAX_REDIRECTS) throw new OutboundRefused(`more than ${MAX_REDIRECTS} redirects`)
        // 307 and 308 repeat the request; the others turn it into a GET without a body.
        const keep = res.status === 307 || res.status === 308
        const { body: _body, ...rest } = current
        current = keep
          ? { ...current, url: next.href }
          : { ...rest, url: next.href, method: 'GET', headers: withoutContentHeaders(current.headers) }
      }
    },
  }
}

/** One request to another service, as the connectors send it. */
export interface OutboundRequest {
  url: string
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
}

export interface OutboundResponse {
  status: number
  /** Lower-case header names. */
  headers: Record<string, string>
  body: string
}

/** Where a request may go: public unicast addresses only, unless the provider is allowed on loopback. */
export interface OutboundPolicy {
  /** Loopback addresses (and plain http to them) are allowed; for local development and tests only. */
  allowLoopback: boolean
  /**
   * Redirects to the same origin (scheme, host and port) are followed, a few at most, each hop
   * checked like the first; a redirect elsewhere is answered as is. Without it none is followed.
   */
  sameOriginRedirects?: boolean
}

/**
 * Thrown by a fetcher that refuses a destination (a special-use address, a non-https URL, a
 * redirect); anything else it throws is a network failure.
 */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OutboundRefused'
  }
}

/**
 * The hardened fetcher every outbound request goes through (the host supplies it, as it supplies
 * the CIMD fetcher): it resolves the host once, refuses special-use addresses, connects to the
 * address it checked, follows no redirect (unless the policy allows same-origin ones) and caps
 * size and time.
 */
export interface OutboundFetcher {
  fetch(request: OutboundRequest, policy: OutboundPolicy): Promise<OutboundResponse>
  /** Why the URL's destination would be refused (resolving its host), or null when it would be allowed. */
  refusal(url: string, policy: OutboundPolicy): Promise<string | null>
}

import { lookup } from 'node:dns/promises'
import { request as httpRequest } from 'node:http'
import { request } from 'node:https'
import { createRequire } from 'node:module'
import { CIMD_MAX_BYTES, type CimdFetcher, type CimdResponse } from '@workgraph/core'

// ipaddr.js is CommonJS with `export =`; load it as such (the workspace keeps esModuleInterop off).
const ipaddr = createRequire(import.meta.url)('ipaddr.js') as typeof import('ipaddr.js')

export interface CimdFetcherOptions {
  /** Resolves a host name once; defaults to the system resolver (every A and AAAA answer). */
  resolve?: (host: string) => Promise<string[]>
  /** Which resolved addresses may be connected to; defaults to public unicast only. */
  isAllowedAddress?: (address: string) => boolean
  timeoutMs?: number
  maxBytes?: number
  /** Extra trusted certificates (tests with a local TLS server). */
  ca?: string
}

/**
 * Whether an address is public unicast: not loopback, private, link-local, CGNAT, multicast,
 * unique-local, documentation or reserved, and not an IPv6 form that embeds an IPv4 address
 * (IPv4-mapped, NAT64, 6to4, Teredo), which could smuggle a private one.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const ip = ipaddr.parse(address)
  return ip.range() === 'unicast'
}

const systemResolve = async (host: string) =>
  (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address)

/**
 * The real Client ID Metadata Document fetcher: resolves the host once, requires every answer to be
 * allowed, connects to that address only (TLS still checks the name), follows no redirect, does not
 * decompress, and caps size and time.
 */
export function createCimdFetcher(options: CimdFetcherOptions = {}): CimdFetcher {
  const resolve = options.resolve ?? systemResolve
  const allowed = options.isAllowedAddress ?? isPublicAddress
  const timeoutMs = options.timeoutMs ?? 5000
  const maxBytes = options.maxBytes ?? CIMD_MAX_BYTES

  return {
    async fetch(target) {
      const url = new URL(target)
      if (url.protocol !== 'https:') throw new Error('only https is fetched')
      const host = url.hostname.replace(/^\[|\]$/g, '')
      if (host === 'localhost' || host.endsWith('.localhost')) throw new Error('localhost is refused')
      const addresses = ipaddr.isValid(host) ? [host] : await resolve(host)
      if (addresses.length === 0) throw new Error('the host has no address')
      const refused = addresses.find((a) => !allowed(a))
      if (refused) throw new Error(`the host resolves to a refused address (${refused})`)
      const res = await sendPinned(url, addresses[0]!, {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': 'workgraph-cimd/1' },
        timeoutMs,
        maxBytes,
        ...(options.ca ? { ca: options.ca } : {}),
      })
      const response: CimdResponse = {
        status: res.status,
        contentType: res.headers['content-type'] ?? null,
        cacheControl: res.headers['cache-control'] ?? null,
        body: res.body,
      }
      return response
    },
  }
}

/** One request to an address already checked, with the URL's host name for TLS and `Host`. */
export interface PinnedRequest {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  timeoutMs: number
  maxBytes: number
  ca?: string
}

/**
 * Sends one request to `address` (never re-resolving the name), follows no redirect, refuses
 * compressed answers and caps size and time. Used for CIMD documents and connector requests.
 */
export function sendPinned(
  url: URL,
  address: string,
  options: PinnedRequest,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const send = url.protocol === 'http:' ? httpRequest : request
  return new Promise((resolvePromise, reject) => {
    const req = send({
      host: address,
      ...(url.protocol === 'https:' && !ipaddr.isValid(url.hostname.replace(/^\[|\]$/g, ''))
        ? { servername: url.hostname }
        : {}),
      port: url.port || (url.protocol === 'http:' ? 80 : 443),
      path: `${url.pathname}${url.search}`,
      method: options.method,
      headers: { ...options.headers, host: url.host, 'accept-encoding': 'identity' },
      ...(options.ca ? { ca: options.ca } : {}),
    })
    // Settles once: a refusal mid-stream rejects, and the truncated body is never resolved.
    let settled = false
    const fail = (error: Error) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      req.destroy()
      reject(error)
    }
    const deadline = setTimeout(() => fail(new Error('the request timed out')), options.timeoutMs)
    req.on('error', fail)
    req.on('response', (res) => {
      const declared = Number(res.headers['content-length'] ?? 0)
      if (declared > options.maxBytes) return fail(new Error('the answer is too large'))
      if (res.headers['content-encoding'] && res.headers['content-encoding'] !== 'identity')
        return fail(new Error('compressed answers are refused'))
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > options.maxBytes) return fail(new Error('the answer is too large'))
        chunks.push(chunk)
      })
      res.on('error', fail)
      res.on('end', () => {
        if (settled) return
        settled = true
        clearTimeout(deadline)
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === 'string') headers[name] = value
        resolvePromise({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') })
      })
    })
    req.end(options.body)
  })
}

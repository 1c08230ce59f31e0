/** DNS-rebinding protection: a page on another site must not reach a local server through the browser. */
export interface AllowedCallers {
  origins: Set<string>
  hosts: Set<string> | null
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

export function defaultAllowed(
  baseUrl: string,
  options: { allowedOrigins?: string[]; allowedHosts?: string[] },
): AllowedCallers {
  const base = new URL(baseUrl)
  const hosts = options.allowedHosts ?? (LOOPBACK.has(base.hostname) ? [base.host] : null)
  return { origins: new Set(options.allowedOrigins ?? [base.origin]), hosts: hosts ? new Set(hosts) : null }
}

/** A 403 for a foreign `Origin` or an unexpected `Host`; null when the request may proceed. */
export function checkOrigin(request: Request, allowed: AllowedCallers): Response | null {
  const origin = request.headers.get('origin')
  const host = request.headers.get('host') ?? new URL(request.url).host
  if ((origin && !allowed.origins.has(origin)) || (allowed.hosts && !allowed.hosts.has(host))) {
    return new Response(
      JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Forbidden: origin or host not allowed.' },
      }),
      { status: 403, headers: { 'content-type': 'application/json' } },
    )
  }
  return null
}

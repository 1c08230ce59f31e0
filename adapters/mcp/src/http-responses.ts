/** A JSON-RPC error outside any session, with an HTTP status. */
export function jsonRpcError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

/** A 401 or 403 with its `WWW-Authenticate` challenge (RFC 6750, RFC 9728 `resource_metadata`). */
export function challenge(status: 401 | 403, header: string): Response {
  return jsonRpcError(status, status === 401 ? 'Authentication required.' : 'Insufficient scope.', {
    'www-authenticate': header,
  })
}

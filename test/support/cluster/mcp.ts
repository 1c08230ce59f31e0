/** Streamable HTTP MCP requests through the cluster's balancer, as an MCP client sends them. */

export const PROTOCOL = '2025-11-25'

/** POSTs one JSON-RPC message to `base`/mcp; the answer keeps HAProxy's `x-served-by`. */
export function mcpPost(base: string, token: string, body: unknown, session?: string): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body: JSON.stringify(body),
  })
}

/** The JSON-RPC messages of a POST answer, whether JSON or a (finished) SSE stream. */
export async function messages(res: Response): Promise<any[]> {
  const text = await res.text()
  if (!text) return []
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream'))
    return text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)))
  return [JSON.parse(text)]
}

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { UserId } from '@workgraph/core'
import type { TestServer } from '../support/http.ts'

/** An access token for the MCP resource (`{base}/mcp`), as the authorization server would issue. */
export function mcpToken(
  server: TestServer,
  userId: UserId,
  scopes = ['work:read', 'work:write', 'agents:run'],
): Promise<string> {
  return server.engine.tokens.issueAccessToken({ userId, scopes, audience: `${server.url}/mcp` })
}

/** An MCP SDK client connected over Streamable HTTP with a bearer token. */
export async function connect(server: TestServer, token: string): Promise<Client> {
  const client = new Client({ name: 'workgraph-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  )
  return client
}

/** Calls a tool and parses its JSON text answer; `error` is set when the tool reported a failure. */
export async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean
    content: { type: string; text: string }[]
  }
  const body = JSON.parse(result.content[0]!.text)
  return result.isError ? { error: body } : body
}

/**
 * A tool's hints as a host reads them: `tools/list` leaves out what MCP's defaults say (a write is
 * destructive and not idempotent, the world open), and a read-only tool neither destroys nor repeats.
 */
export function hintsOf(tool: { annotations?: Record<string, unknown> }) {
  const readOnly = tool.annotations?.readOnlyHint === true
  return {
    readOnlyHint: false,
    destructiveHint: !readOnly,
    idempotentHint: readOnly,
    openWorldHint: true,
    ...tool.annotations,
  }
}

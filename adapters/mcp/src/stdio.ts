import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Engine, Principal } from '@workgraph/core'
import { createMcpServer, type WorkgraphMcpServer } from './server.ts'

/**
 * Serves MCP on this process's stdin and stdout as one local principal. Per the MCP spec a stdio
 * server takes its credentials from its environment, not from OAuth: the host decides who it is.
 */
export async function serveStdio(
  engine: Engine,
  principal: Principal,
  options: { onError?: (error: unknown) => void } = {},
): Promise<WorkgraphMcpServer> {
  const mcp = createMcpServer(engine, { principal, ...options })
  await mcp.server.connect(new StdioServerTransport())
  return mcp
}

import type { Engine } from '@workgraph/core'
import { createMcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from '@workgraph/mcp'
import type { H3 } from 'h3'

/** Mounts the MCP Streamable HTTP endpoint at `/mcp` (OAuth-protected unless the host authenticates). */
export function registerMcpRoute(app: H3, engine: Engine, options: McpHttpOptions = {}): McpHttpHandler {
  const handler = createMcpHttpHandler(engine, options)
  app.all('/mcp', (event) => handler.handle(event.req))
  return handler
}

import type { Engine } from '@workgraph/core'
import type { McpHttpHandler, McpHttpOptions } from '@workgraph/mcp'
import type { H3 } from 'h3'

/**
 * Mounts the MCP Streamable HTTP endpoint at `/mcp` (OAuth-protected unless the host authenticates).
 * The MCP adapter (the SDK and zod, a sixth of the server's code) is loaded by the first request to
 * `/mcp`, not at start: most starts never serve one.
 */
export function registerMcpRoute(app: H3, engine: Engine, options: McpHttpOptions = {}): void {
  let handler: Promise<McpHttpHandler> | undefined
  app.all('/mcp', async (event) => {
    handler ??= import('@workgraph/mcp').then(
      ({ createMcpHttpHandler }) => createMcpHttpHandler(engine, options),
      (error) => {
        handler = undefined // the next request tries again
        throw error
      },
    )
    return (await handler).handle(event.req)
  })
}

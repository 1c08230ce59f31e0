import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { Value } from '@sinclair/typebox/value'
import { type Engine, type OrgId, type Principal, ProblemError } from '@workgraph/core'
import { getPrompt, listPrompts } from './prompts.ts'
import { asMcpError, listResources, parseRef, readRecord, readResource } from './resources.ts'
import { toolError, toolResult } from './result.ts'
import { INBOX_RECORD, type SharedSubscriptions, Subscriptions } from './subscriptions.ts'
import { createToolCall } from './tools/call.ts'
import { listTools } from './tools/describe.ts'
import { TOOLS } from './tools/index.ts'
import { NAMING } from './tools/schema.ts'
import type { ToolDefinition } from './tools/types.ts'
import { INBOX_URI, RESOURCE_TEMPLATES } from './uris.ts'

export interface McpServerOptions {
  /** The principal when a request carries none: the local user of a stdio server. */
  principal?: Principal
  /** Unexpected (non-problem) errors, for logs. */
  onError?: (error: unknown) => void
  /** Keeps the subscriptions with a session that several instances share. */
  subscriptions?: SharedSubscriptions
}

/** What a transport hands the server per request: the verified principal rides in `authInfo.extra`. */
interface RequestExtra {
  authInfo?: { extra?: Record<string, unknown> }
}

export interface WorkgraphMcpServer {
  server: Server
  /** Who the session's notifications are read as: the caller of its latest request here. */
  setPrincipal(principal: Principal): void
  /** The session's standalone stream opened (or ended) in this process. */
  streamOpened(): void
  streamEnded(): void
  close(): Promise<void>
}

/** The MCP face of an engine: the curated tools, resources with subscriptions, and prompts. */
export function createMcpServer(engine: Engine, options: McpServerOptions = {}): WorkgraphMcpServer {
  const server = new Server(
    { name: 'workgraph', title: 'workgraph', version: engine.config.version },
    {
      capabilities: {
        tools: {},
        resources: { subscribe: true, listChanged: false },
        prompts: {},
        logging: {},
      },
      instructions: `Work management: tasks in teams with workflow states. ${NAMING} Use \`organize\` to apply many changes at once, with \`dryRun: true\` first.`,
    },
  )
  let latest = options.principal
  const principalOf = (extra: RequestExtra): Principal => {
    const found = (extra.authInfo?.extra?.principal as Principal | undefined) ?? options.principal
    if (!found)
      throw new McpError(ErrorCode.InvalidRequest, 'No caller: this request carries no credentials.')
    latest = found
    return found
  }
  const call = (extra: RequestExtra) => createToolCall(engine, principalOf(extra))
  const subscriptions = new Subscriptions(
    engine,
    () => latest,
    (uri) => server.sendResourceUpdated({ uri }),
    options.onError,
    options.subscriptions,
  )

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools() }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS.find((t) => t.name === request.params.name)
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool named ${request.params.name}`)
    const args = request.params.arguments ?? {}
    const invalid = [...Value.Errors(tool.input, args)].slice(0, 10)
    if (invalid.length) {
      const errors = invalid.map((e) => ({ pointer: `/arguments${e.path}`, message: e.message }))
      return toolError(
        new ProblemError('validation_failed', 'The arguments do not match the tool schema.', { errors }),
      )
    }
    try {
      return toolResult(await tool.run(call(extra), args))
    } catch (error) {
      return toolError(error, options.onError, args)
    }
  })

  server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
    listResources(call(extra), request.params?.cursor),
  )
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: RESOURCE_TEMPLATES.map((t) => ({ ...t, mimeType: 'application/json' })),
  }))
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    readResource(call(extra), request.params.uri),
  )
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    const { uri } = request.params
    if (uri === INBOX_URI) {
      // One subscription per workspace the caller belongs to now: each reads that log as them.
      const orgs = await call(extra).run('orgs.list', { query: { limit: 200 } })
      for (const org of orgs.data as { id: OrgId }[])
        await subscriptions.add({ uri, orgId: org.id, recordId: INBOX_RECORD })
      return {}
    }
    const ref = parseRef(uri)
    try {
      // Reading it first checks the caller may see it, and pins the record the URI names now.
      const { id } = await readRecord(call(extra), ref)
      await subscriptions.add({ uri, orgId: ref.orgId, recordId: id })
    } catch (error) {
      throw asMcpError(error, uri)
    }
    return {}
  })
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    await subscriptions.remove(request.params.uri)
    return {}
  })

  server.setRequestHandler(ListPromptsRequestSchema, () => listPrompts())
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(request.params.name, request.params.arguments),
  )

  return {
    server,
    setPrincipal(principal) {
      latest = principal
    },
    streamOpened: () => subscriptions.attach(),
    streamEnded: () => subscriptions.detach(),
    async close() {
      subscriptions.close()
      await server.close()
    },
  }
}

/** The OAuth scopes a tool's operations need, for a 403 `insufficient_scope` challenge. */
export function scopesOf(engine: Engine, tool: ToolDefinition): string[] {
  const scopes = new Set<string>()
  for (const id of tool.operations) {
    const scope = engine.operations.find((o) => o.id === id)?.scope
    if (scope) scopes.add(scope)
  }
  return [...scopes]
}

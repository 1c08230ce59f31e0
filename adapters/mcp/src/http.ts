import { randomUUID } from 'node:crypto'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import type { Engine, Principal } from '@workgraph/core'
import { checkOrigin, defaultAllowed } from './http-origin.ts'
import { challenge, jsonRpcError } from './http-responses.ts'
import { createMcpServer, scopesOf, type WorkgraphMcpServer } from './server.ts'
import { TOOLS } from './tools/index.ts'

export interface McpHttpOptions {
  /**
   * Supplies the caller instead of OAuth: for a host with its own authentication (a loopback
   * development server acting as one local user, say). Returning null answers 401. Default: OAuth
   * access tokens issued for this server's `/mcp` resource.
   */
  authenticate?: (request: Request) => Promise<Principal | null> | Principal | null
  /** Origins allowed to call (browsers send `Origin`); default: the engine's `baseUrl` origin. */
  allowedOrigins?: string[]
  /** `Host` values accepted; default: the `baseUrl` host when it is a loopback address, else any. */
  allowedHosts?: string[]
  /** Sessions idle longer than this are closed; default 1 hour. */
  sessionIdleMs?: number
  onError?: (error: unknown) => void
}

export interface McpHttpHandler {
  /** Streamable HTTP at one URL: POST messages, GET the server's stream, DELETE to end a session. */
  handle(request: Request): Promise<Response>
  close(): Promise<void>
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport
  mcp: WorkgraphMcpServer
  userId: string
  seenAt: number
}

/**
 * A web-standard (Request → Response) MCP endpoint over an engine. Sessions live in this process:
 * behind several instances, route a session's requests to one instance (sticky sessions).
 */
export function createMcpHttpHandler(engine: Engine, options: McpHttpOptions = {}): McpHttpHandler {
  const resource = `${engine.config.baseUrl}/mcp`
  const resourceMetadata = `${engine.config.baseUrl}/.well-known/oauth-protected-resource/mcp`
  const allowed = defaultAllowed(engine.config.baseUrl, options)
  const sessions = new Map<string, Session>()
  const idleMs = options.sessionIdleMs ?? 3_600_000

  async function authenticate(request: Request): Promise<Principal | Response> {
    if (options.authenticate) {
      const principal = await options.authenticate(request)
      return principal ?? jsonRpcError(401, 'Not authenticated.')
    }
    const header = request.headers.get('authorization')
    const token = header?.match(/^Bearer ([A-Za-z0-9._~+/-]+=*)$/i)?.[1]
    if (!token) return challenge(401, `Bearer realm="workgraph", resource_metadata="${resourceMetadata}"`)
    const principal = await engine.tokens.verifyAccessToken(token).catch(() => null)
    // Only tokens issued for this resource: a token meant for the REST API is not accepted here.
    if (!principal || principal.audience !== resource)
      return challenge(
        401,
        `Bearer realm="workgraph", error="invalid_token", resource_metadata="${resourceMetadata}"`,
      )
    return principal
  }

  async function handle(request: Request): Promise<Response> {
    try {
      const refused = checkOrigin(request, allowed)
      if (refused) return refused
      const principal = await authenticate(request)
      if (principal instanceof Response) return principal
      const decision = await engine.limiter.consume(`p:${principal.userId}:${principal.clientId ?? 'mcp'}`)
      if (!decision.allowed)
        return jsonRpcError(429, 'Too many requests.', { 'retry-after': String(decision.resetSeconds) })

      let parsedBody: unknown
      if (request.method === 'POST') {
        const text = await request.text()
        if (text.length > engine.config.maxBodyBytes) return jsonRpcError(413, 'The message is too large.')
        try {
          parsedBody = JSON.parse(text)
        } catch {
          return jsonRpcError(400, 'Parse error: the body is not JSON.', {}, -32700)
        }
        const missing = missingScopes(engine, principal, parsedBody)
        if (missing)
          return challenge(
            403,
            `Bearer realm="workgraph", error="insufficient_scope", scope="${missing.join(' ')}", resource_metadata="${resourceMetadata}"`,
          )
      }

      const session = await sessionFor(request, principal, parsedBody)
      if (session instanceof Response) return session
      session.seenAt = Date.now()
      return await session.transport.handleRequest(request, {
        parsedBody,
        authInfo: {
          token: '',
          clientId: principal.clientId ?? 'local',
          scopes: [...principal.scopes],
          extra: { principal },
        },
      })
    } catch (error) {
      options.onError?.(error)
      return jsonRpcError(500, 'Internal error.', {}, -32603)
    }
  }

  async function sessionFor(
    request: Request,
    principal: Principal,
    body: unknown,
  ): Promise<Session | Response> {
    const id = request.headers.get('mcp-session-id')
    if (id) {
      const found = sessions.get(id)
      // Another person's session id is as unknown as a made-up one.
      if (!found || found.userId !== principal.userId)
        return jsonRpcError(404, 'Session not found.', {}, -32001)
      return found
    }
    const initializing = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body)
    if (request.method !== 'POST' || !initializing)
      return jsonRpcError(400, 'Bad Request: send initialize first, then the Mcp-Session-Id it returns.')
    sweep()
    const mcp = createMcpServer(engine, options.onError ? { onError: options.onError } : {})
    const session: Session = {
      mcp,
      userId: principal.userId,
      seenAt: Date.now(),
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          sessions.set(sid, session)
        },
        onsessionclosed: (sid) => {
          sessions.delete(sid)
          void mcp.close()
        },
      }),
    }
    await mcp.server.connect(session.transport)
    return session
  }

  function sweep() {
    const now = Date.now()
    for (const [id, s] of sessions)
      if (now - s.seenAt > idleMs) {
        sessions.delete(id)
        void s.mcp.close()
      }
  }

  return {
    handle,
    async close() {
      const all = [...sessions.values()]
      sessions.clear()
      await Promise.all(all.map((s) => s.mcp.close()))
    },
  }
}

/** Scopes a `tools/call` needs that the token lacks (for a step-up 403), or null. */
function missingScopes(engine: Engine, principal: Principal, body: unknown): string[] | null {
  const messages = Array.isArray(body) ? body : [body]
  const needed = new Set<string>()
  for (const m of messages) {
    if (!m || typeof m !== 'object' || (m as { method?: unknown }).method !== 'tools/call') continue
    const name = (m as { params?: { name?: unknown } }).params?.name
    const tool = TOOLS.find((t) => t.name === name)
    if (tool) for (const s of scopesOf(engine, tool)) needed.add(s)
  }
  const missing = [...needed].filter((s) => !principal.scopes.has(s))
  return missing.length ? [...needed] : null
}

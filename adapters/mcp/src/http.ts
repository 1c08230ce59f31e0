import { randomUUID } from 'node:crypto'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import type { Engine, Principal } from '@workgraph/core'
import { checkOrigin, defaultAllowed } from './http-origin.ts'
import { challenge, jsonRpcError } from './http-responses.ts'
import { createMcpServer, scopesOf, type WorkgraphMcpServer } from './server.ts'
import type { SharedSubscriptions, StoredSubscription } from './subscriptions.ts'
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
  /** How often a session's subscriptions catch up without a wake-up from the event hub; default 2 s. */
  subscriptionPollMs?: number
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
  /** When this instance last wrote the row's `seenAt`. */
  touchedAt: number
}

/** What the database keeps of a session: enough for any instance to rebuild it. */
interface StoredState {
  /** The client's initialize request, replayed to rebuild the session on another instance. */
  initialize: unknown
  subscriptions: StoredSubscription[]
}

/** The row's `seenAt` is written at most this often per instance. */
const TOUCH_EVERY_MS = 60_000

/**
 * A web-standard (Request → Response) MCP endpoint over an engine. Sessions are kept in the
 * database (the client's initialize request and the subscribed resources), so several instances
 * behind one address serve one session without sticky routing: an instance that gets a request of a
 * session it does not hold rebuilds it from its row, and every request checks that the row still
 * exists (a DELETE through any instance ends the session everywhere). Subscriptions are woken by
 * the engine's event hub (on Postgres it spans instances) and reload the stored list when woken.
 */
export function createMcpHttpHandler(engine: Engine, options: McpHttpOptions = {}): McpHttpHandler {
  const resource = `${engine.config.baseUrl}/mcp`
  const resourceMetadata = `${engine.config.baseUrl}/.well-known/oauth-protected-resource/mcp`
  const allowed = defaultAllowed(engine.config.baseUrl, options)
  const sessions = new Map<string, Session>()
  const rebuilding = new Map<string, Promise<Session>>()
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
      session.mcp.setPrincipal(principal)
      const response = await session.transport.handleRequest(request, {
        parsedBody,
        authInfo: authInfo(principal),
      })
      return request.method === 'GET' ? opened(response, session.mcp) : response
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
      const row = await engine.storage.read((s) => s.protocolSessions.get(id))
      const local = sessions.get(id)
      const now = Date.now()
      const expired = row !== null && now - Date.parse(row.seenAt) > idleMs + TOUCH_EVERY_MS
      if (!row || expired) {
        // Ended or expired through another instance: this copy goes too.
        if (local) drop(id, local)
        if (row && expired) await engine.storage.transaction((s) => s.protocolSessions.delete(id))
      }
      // Another person's session id is as unknown as a made-up one.
      if (!row || expired || row.protocol !== 'mcp' || row.userId !== principal.userId)
        return jsonRpcError(404, 'Session not found.', {}, -32001)
      let session = local
      if (!session) {
        // Concurrent first requests on this instance share one rebuild.
        let pending = rebuilding.get(id)
        if (!pending) {
          pending = rebuild(id, principal, row.state as StoredState).finally(() => rebuilding.delete(id))
          rebuilding.set(id, pending)
        }
        session = await pending
      }
      if (now - session.touchedAt > TOUCH_EVERY_MS) {
        session.touchedAt = now
        await engine.storage.transaction((s) => s.protocolSessions.touch(id, new Date(now).toISOString()))
      }
      return session
    }
    const messages = Array.isArray(body) ? body : [body]
    const initialize = messages.find(isInitializeRequest)
    if (request.method !== 'POST' || !initialize)
      return jsonRpcError(400, 'Bad Request: send initialize first, then the Mcp-Session-Id it returns.')
    sweep()
    const session = open(principal.userId, randomUUID(), async (sid) => {
      const at = new Date().toISOString()
      const state: StoredState = { initialize, subscriptions: [] }
      await engine.storage.transaction((s) =>
        s.protocolSessions.insert({
          id: sid,
          userId: principal.userId,
          protocol: 'mcp',
          state,
          createdAt: at,
          seenAt: at,
        }),
      )
    })
    await session.mcp.server.connect(session.transport)
    return session
  }

  /** A session object of this process; `persist` runs once the transport has its id. */
  function open(userId: string, id: string, persist?: (sid: string) => Promise<void>): Session {
    const mcp = createMcpServer(engine, {
      ...(options.onError ? { onError: options.onError } : {}),
      subscriptions: sharedSubscriptions(id),
    })
    const session: Session = {
      mcp,
      userId,
      seenAt: Date.now(),
      touchedAt: Date.now(),
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        onsessioninitialized: async (sid) => {
          sessions.set(sid, session)
          await persist?.(sid)
        },
        onsessionclosed: async (sid) => {
          sessions.delete(sid)
          void mcp.close()
          await engine.storage.transaction((s) => s.protocolSessions.delete(sid))
        },
      }),
    }
    return session
  }

  /** Rebuilds a session held by another instance: replays its initialize request, then takes the request. */
  async function rebuild(id: string, principal: Principal, state: StoredState): Promise<Session> {
    const session = open(principal.userId, id)
    await session.mcp.server.connect(session.transport)
    const replay = new Request(resource, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(state.initialize),
    })
    const answer = await session.transport.handleRequest(replay, {
      parsedBody: state.initialize,
      authInfo: authInfo(principal),
    })
    await answer.text()
    if (!session.transport.sessionId) throw new Error(`MCP session ${id} could not be rebuilt`)
    return session
  }

  /** The session's subscriptions, kept in its row under a lock so that instances do not overwrite each other. */
  function sharedSubscriptions(id: string): SharedSubscriptions {
    return {
      pollMs: options.subscriptionPollMs ?? 2_000,
      async load() {
        const row = await engine.storage.read((s) => s.protocolSessions.get(id))
        return row ? (row.state as StoredState).subscriptions : null
      },
      async save(change) {
        await engine.storage.transaction(async (s) => {
          await s.locks.acquire(`mcp-session:${id}`)
          const row = await s.protocolSessions.get(id)
          if (!row) return
          const state = row.state as StoredState
          // An added one replaces the same URI in the same workspace (the inbox has one per
          // workspace); a removal ends the URI in all of them.
          const subscriptions = state.subscriptions.filter((x) =>
            'add' in change
              ? x.uri !== change.add.uri || x.orgId !== change.add.orgId
              : x.uri !== change.remove,
          )
          if ('add' in change) subscriptions.push(change.add)
          await s.protocolSessions.update(id, { ...state, subscriptions })
        })
      },
    }
  }

  function drop(id: string, session: Session) {
    sessions.delete(id)
    void session.mcp.close()
  }

  function sweep() {
    const now = Date.now()
    for (const [id, s] of sessions) if (now - s.seenAt > idleMs) drop(id, s)
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

/**
 * The standalone stream with an SSE comment first: Node sends the headers with the first chunk, and
 * a client waiting for them would otherwise wait for the first notification. While it is open, the
 * session's subscriptions poll the stored list (see `Subscriptions.attach`).
 */
function opened(response: Response, mcp: WorkgraphMcpServer): Response {
  if (!response.ok || !response.body || !response.headers.get('content-type')?.includes('text/event-stream'))
    return response
  const reader = response.body.getReader()
  let open = true
  const ended = () => {
    if (open) mcp.streamEnded()
    open = false
  }
  mcp.streamOpened()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(': open\n\n'))
    },
    async pull(controller) {
      const { done, value } = await reader.read().catch((error) => {
        ended()
        throw error
      })
      if (done) {
        ended()
        controller.close()
      } else controller.enqueue(value)
    },
    cancel(reason) {
      ended()
      return reader.cancel(reason)
    },
  })
  return new Response(body, { status: response.status, headers: response.headers })
}

function authInfo(principal: Principal) {
  return {
    token: '',
    clientId: principal.clientId ?? 'local',
    scopes: [...principal.scopes],
    extra: { principal },
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

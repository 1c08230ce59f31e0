import { createOAuthServer, type Engine, type OAuthServerOptions, ProblemError } from '@workgraph/core'
import type { McpHttpOptions } from '@workgraph/mcp'
import { H3 } from 'h3'
import { type ApiRoutesOptions, registerApiRoutes } from './api-routes.ts'
import { registerDocsRoutes } from './docs-routes.ts'
import { type EnvelopeOptions, useEnvelope } from './envelope.ts'
import { registerHealthRoutes } from './health-routes.ts'
import { CORS_HEADERS, internalError, problem } from './http-response.ts'
import { registerMcpRoute } from './mcp-route.ts'
import { registerOAuthRoutes } from './oauth/routes.ts'
import { registerAccountPages } from './pages/account.ts'
import { registerConnectedAppsPage } from './pages/connected-apps.ts'
import { registerConsentPages } from './pages/consent.ts'
import { registerInvitationPage } from './pages/invitation.ts'
import { PROBLEM_TYPE_PATH, registerProblemPages } from './pages/problems.ts'
import { registerSettingsPages } from './pages/settings.ts'
import { registerUnsubscribePage } from './pages/unsubscribe.ts'
import { registerWelcomePage } from './pages/welcome.ts'
import { registerSseRoute } from './sse-route.ts'

export interface AppOptions extends ApiRoutesOptions {
  /** The authorization server: CIMD fetcher, clock, limits. */
  oauth?: OAuthServerOptions
  /** The MCP endpoint at `/mcp`: origins, hosts, or a host-supplied principal instead of OAuth. */
  mcp?: McpHttpOptions
  /** Called once per answered request, with its id, status and time to the response head. */
  onRequest?: EnvelopeOptions['onRequest']
}

/** The HTTP face of an engine: REST /v1 from the catalogue, the OpenAPI document and the docs. */
export function createApp(engine: Engine, options: AppOptions = {}): H3 {
  const app = new H3({
    // What h3 refuses before any route runs (a malformed percent-escape in the path) is a problem document too.
    onError: (error, event) => {
      if (error.status >= 500 || error.unhandled) {
        options.onError?.(error.cause ?? error, event.req)
        return problem(internalError(), CORS_HEADERS)
      }
      const refused =
        error.status === 404
          ? new ProblemError('not_found', `Nothing lives at ${event.url.pathname}.`)
          : error.status === 405
            ? new ProblemError('method_not_allowed', `${event.req.method} is not allowed here.`)
            : new ProblemError('bad_request', 'The request URL is malformed: check its percent-escapes.')
      return problem(refused, CORS_HEADERS)
    },
  })
  useEnvelope(app, {
    problemTypeBase: `${engine.config.baseUrl}${PROBLEM_TYPE_PATH}`,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  })
  registerHealthRoutes(app, engine)
  registerDocsRoutes(app, engine)
  registerApiRoutes(app, engine, options)
  registerSseRoute(app, engine, options.onError)
  const oauth = createOAuthServer(engine, options.oauth)
  registerOAuthRoutes(app, oauth)
  registerAccountPages(app, oauth)
  registerConsentPages(app, oauth)
  registerConnectedAppsPage(app, oauth)
  registerSettingsPages(app, engine, oauth)
  registerInvitationPage(app, engine, oauth)
  registerProblemPages(app, engine)
  registerWelcomePage(app, engine, oauth)
  registerUnsubscribePage(app, engine)
  const mcpRequest = new Request(`${engine.config.baseUrl}/mcp`)
  registerMcpRoute(app, engine, { onError: (e) => options.onError?.(e, mcpRequest), ...options.mcp })
  const inOrg = workspaceCollections(engine)
  app.all('/**', (event) => {
    const path = new URL(event.req.url).pathname
    // `/v1/tasks` and friends: say where the collection really lives.
    const collection = /^\/v1\/([a-z-]+)(\/|$)/.exec(path)?.[1]
    const detail =
      collection && inOrg.has(collection)
        ? `Nothing lives at ${path}: ${collection} belong to a workspace, at /v1/orgs/{orgId}/${collection}. GET /v1/orgs lists your workspaces.`
        : `Nothing lives at ${path}.`
    return problem(new ProblemError('not_found', detail), CORS_HEADERS)
  })
  return app
}

/** The collections under `/v1/orgs/{orgId}/` (tasks, projects, …), from the catalogue. */
function workspaceCollections(engine: Engine): Set<string> {
  const names = engine.operations.map((op) => /^\/v1\/orgs\/\{orgId\}\/([a-z-]+)/.exec(op.path)?.[1])
  return new Set(names.filter((n): n is string => n !== undefined))
}

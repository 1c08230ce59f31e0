import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  API_REFERENCE_CLIENT_ID,
  apiReferenceRedirectUri,
  type Engine,
  generateOpenApi,
  TAGS,
} from '@workgraph/core'
import type { H3 } from 'h3'
import { CORS_HEADERS, json } from './http-response.ts'

const require = createRequire(import.meta.url)

// The page and every script it loads come from this server: a self-hosted reference must work
// offline and tell no third party who reads it. The CSP makes the browser enforce that.
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

const SCALAR_BASE = {
  withDefaultFonts: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: 'json',
  defaultOpenAllTags: false,
}

/**
 * Signing in from the page: the built-in public client (core's oauth/first-party.ts) runs the
 * authorization code flow with PKCE in a window that returns to this server's callback page, and
 * the reference sends the token with every request it tries.
 */
function scalarConfig(issuer: string) {
  return {
    ...SCALAR_BASE,
    authentication: {
      preferredSecurityScheme: 'oauth2',
      securitySchemes: {
        oauth2: {
          flows: {
            authorizationCode: {
              'x-scalar-client-id': API_REFERENCE_CLIENT_ID,
              'x-scalar-redirect-uri': apiReferenceRedirectUri(issuer),
              'x-usePkce': 'SHA-256',
              // A public client: the client id goes in the form, with no Basic header and no secret.
              'x-scalar-credentials-location': 'body',
              selectedScopes: ['work:read', 'work:write'],
            },
          },
        },
      },
    },
  }
}

/** `/v1/openapi.json`, `/v1/docs` (Scalar, served from the installed package) and the JWKS. */
export function registerDocsRoutes(app: H3, engine: Engine): void {
  // Built and serialised on the first request, once: the document is half a megabyte, never changes
  // while the process runs, and building it was a third of a cold start.
  let documentText: string | undefined
  let script: string | undefined
  app.get('/v1/openapi.json', () => {
    documentText ??= JSON.stringify(
      generateOpenApi(engine.operations, {
        serverUrl: engine.config.baseUrl,
        version: engine.config.version,
        tags: TAGS,
      }),
    )
    return new Response(documentText, {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'public, max-age=60',
        ...CORS_HEADERS,
      },
    })
  })
  app.get('/v1/docs/scalar.js', () => {
    script ??= readFileSync(require.resolve('@scalar/api-reference/browser/standalone.js'), 'utf8')
    return new Response(script, {
      headers: {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=3600',
        'x-content-type-options': 'nosniff',
      },
    })
  })
  // The sign-in window lands here; the reference reads the code from its address and closes it.
  app.get('/v1/docs/oauth-callback', () => new Response(CALLBACK_PAGE, { headers: pageHeaders }))
  app.get(
    '/v1/docs',
    () =>
      new Response(docsPage(engine.config.baseUrl), {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': DOCS_CSP,
          'x-frame-options': 'DENY',
          'referrer-policy': 'no-referrer',
          'x-content-type-options': 'nosniff',
        },
      }),
  )
  app.get('/.well-known/jwks.json', async () =>
    json(200, await engine.tokens.jwks(), { ...CORS_HEADERS, 'cache-control': 'public, max-age=300' }),
  )
}

const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
}

const CALLBACK_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Signed in</title></head>
<body><p>Signing you in to the API reference; this window closes by itself.</p></body>
</html>`

function docsPage(issuer: string): string {
  const config = JSON.stringify(scalarConfig(issuer)).replaceAll("'", '&#39;')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>workgraph API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<noscript>The interactive reference needs JavaScript. The machine-readable description is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
<script id="api-reference" data-url="/v1/openapi.json" data-configuration='${config}'></script>
<script src="/v1/docs/scalar.js"></script>
</body>
</html>`
}

import type { OperationExamples } from '../kernel/operation.ts'
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../kernel/pagination.ts'
import { SCOPES } from '../kernel/principal.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const base = 'https://work.example.com'

/** A server at work.example.com with the default limits. */
export const configExample: OperationExamples = {
  response: {
    version: '0.1.0',
    apiBaseUrl: `${base}/v1`,
    issuer: base,
    auth: {
      jwksUri: `${base}/.well-known/jwks.json`,
      authorizationServerMetadata: `${base}/.well-known/oauth-authorization-server`,
      authorizationEndpoint: `${base}/oauth/authorize`,
      tokenEndpoint: `${base}/oauth/token`,
      registrationEndpoint: `${base}/api/auth/mcp/register`,
      revocationEndpoint: `${base}/oauth/revoke`,
      scopes: { ...SCOPES },
      resources: [`${base}/v1`, `${base}/mcp`],
    },
    limits: {
      pageSizeDefault: PAGE_LIMIT_DEFAULT,
      pageSizeMax: PAGE_LIMIT_MAX,
      maxBodyBytes: 1_048_576,
      rateLimit: { limit: 600, windowSeconds: 60 },
      idempotencyKeyHours: 24,
    },
  },
}

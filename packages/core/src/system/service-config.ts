import { SCOPES } from '../kernel/auth/principal.ts'
import type { EngineConfig } from '../kernel/operation.ts'
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../kernel/pagination.ts'

/** What `config.get` answers for a server with these settings (its example is one such server). */
export function serviceConfig(
  config: Pick<EngineConfig, 'baseUrl' | 'version' | 'maxBodyBytes' | 'rateLimit'>,
) {
  const base = config.baseUrl
  return {
    version: config.version,
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
      maxBodyBytes: config.maxBodyBytes,
      rateLimit: config.rateLimit,
      idempotencyKeyHours: 24,
    },
  }
}

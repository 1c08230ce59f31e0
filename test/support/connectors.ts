import { randomBytes } from 'node:crypto'
import {
  type ConnectorsConfig,
  githubProvider,
  newId,
  type OrgId,
  type OutboundFetcher,
} from '@workgraph/core'
import { seal } from '../../packages/core/src/connectors/secrets.ts'
import type { TestServer } from './http.ts'

/**
 * Connector settings for suites that run every operation: GitHub's definition (configured
 * endpoints, so nothing is discovered) and a fetcher that answers every request with one issue,
 * standing in for api.github.com, which tests cannot reach. The two-server suite uses the real fetcher.
 */
export function sampleConnectors(): ConnectorsConfig {
  const fetcher: OutboundFetcher = {
    async fetch() {
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'sample', title: 'Sample issue', state: 'open' }),
      }
    },
    async refusal() {
      return null
    },
  }
  return {
    encryptionKey: randomBytes(32).toString('base64url'),
    fetcher,
    providers: [githubProvider({ clientId: 'sample-client' })],
  }
}

/** Stores an active GitHub connection for a member, as a completed authorization would. */
export async function activeConnection(server: TestServer, orgId: string, memberId: string, userId: string) {
  const key = server.engine.config.connectors!.encryptionKey
  const id = newId('ConnectionId')
  await server.storage.transaction((s) =>
    s.connections.insert({
      id,
      orgId: orgId as OrgId,
      memberId: memberId as never,
      userId,
      providerId: 'github',
      status: 'active',
      scopes: ['repo'],
      createdAt: new Date().toISOString(),
      connectedAt: new Date().toISOString(),
      lastCheckedAt: null,
      lastError: null,
      state: null,
      stateExpiresAt: null,
      codeVerifier: null,
      accessToken: seal(key, id, 'sample-access-token'),
      refreshToken: null,
      tokenExpiresAt: null,
      tokenVersion: 0,
    }),
  )
  return id
}

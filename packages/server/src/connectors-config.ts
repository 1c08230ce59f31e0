import { readFileSync } from 'node:fs'
import {
  type ConnectorsConfig,
  githubProvider,
  gitlabProvider,
  type ProviderDefinition,
  workgraphProvider,
} from '@workgraph/core'
import { createOutboundFetcher } from '@workgraph/h3'

type Entry =
  | ({ kind: 'workgraph' } & Parameters<typeof workgraphProvider>[0])
  | ({ kind: 'github' } & Parameters<typeof githubProvider>[0])
  | ({ kind: 'gitlab' } & Parameters<typeof gitlabProvider>[0])
  | ({ kind: 'custom' } & ProviderDefinition)

/**
 * Connector settings from a JSON file (`{ "providers": [...] }`, docs/connectors.md) and a key:
 * each entry is a built-in kind with its client, or a whole custom definition. Null without a file.
 */
export function loadConnectors(file: string | undefined, key: string | undefined): ConnectorsConfig | null {
  if (!file) return null
  if (!key) throw new Error('CONNECTORS_FILE needs CONNECTORS_KEY: 32 random bytes, base64url')
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { providers?: Entry[] }
  const providers = (parsed.providers ?? []).map((entry): ProviderDefinition => {
    const { kind, ...rest } = entry
    if (kind === 'workgraph') return workgraphProvider(rest as Parameters<typeof workgraphProvider>[0])
    if (kind === 'github') return githubProvider(rest)
    if (kind === 'gitlab') return gitlabProvider(rest)
    if (kind === 'custom') return rest as ProviderDefinition
    throw new Error(`Unknown provider kind ${String(kind)} in ${file}`)
  })
  if (Buffer.from(key, 'base64url').length !== 32)
    throw new Error('CONNECTORS_KEY must be 32 bytes, base64url')
  return { providers, encryptionKey: key, fetcher: createOutboundFetcher() }
}

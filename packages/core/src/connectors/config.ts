import type { OutboundFetcher } from './outbound.ts'
import type { ProviderDefinition } from './providers.ts'

/** Connector settings of a server: the providers its operator configured, and how to reach them. */
export interface ConnectorsConfig {
  providers: readonly ProviderDefinition[]
  /** 32 random bytes, base64url: the key that encrypts tokens at rest (AES-256-GCM). */
  encryptionKey: string
  fetcher: OutboundFetcher
}

declare module '../kernel/operation.ts' {
  interface EngineConfig {
    /** Connectors to other tools (docs/connectors.md); without it no provider is offered. */
    connectors?: ConnectorsConfig
  }
}

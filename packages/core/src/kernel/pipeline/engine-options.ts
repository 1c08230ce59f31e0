import type { ActorResolver } from '../context.ts'
import type { EventHub } from '../events/events.ts'
import type { Catalogue } from '../group.ts'
import type { OrgId } from '../ids.ts'
import type { Mailer } from '../mailer.ts'
import type { EngineConfig, StreamConfig, Tenant } from '../operation.ts'
import type { AccessProfile, Actor, KnownAccess } from '../permissions.ts'
import type { Storage, Store } from '../storage.ts'
import type { RateLimitStore } from './rate-limit.ts'

/** Engine settings as a host gives them: everything but `baseUrl` has a default. */
export type EngineSettings = Partial<Omit<EngineConfig, 'streams'>> & { streams?: Partial<StreamConfig> }

export const STREAM_DEFAULTS: StreamConfig = {
  retentionDays: 30,
  pingSeconds: 25,
  maxBufferedBytes: 1_048_576,
  pollFallbackMs: 2_000,
}

export interface EngineOptions {
  storage: Storage
  config: EngineSettings & Pick<EngineConfig, 'baseUrl'>
  hub?: EventHub
  /** Rate-limit counters; shared ones (Redis) make limits hold across instances. Default: memory. */
  rateLimitStore?: RateLimitStore
  /** Where invitation mail goes; the default prints it. */
  mailer?: Mailer
  clock?: () => Date
}

/** What the composition root plugs into the kernel: the catalogue and the groups that own orgs and grants. */
export interface KernelPorts {
  catalogue: Catalogue
  /** Finds the org and the caller's Actor of an operation under `/v1/orgs/{orgId}`. */
  resolveActor: ActorResolver
  /** The org for work without an actor (time-driven); null when missing. */
  findTenant(store: Store, orgId: OrgId): Promise<Tenant | null>
  loadProfile(store: Store, actor: Actor, known?: KnownAccess): Promise<AccessProfile>
  /** Whether an access token is still live (its consent exists, its `jti` not revoked): the oauth group's read. */
  accessTokenIsLive(store: Store, jti: string, grantId: string | null): Promise<boolean>
}

/** The host's settings completed with the defaults; `baseUrl` loses its trailing slashes. */
export function engineConfig(settings: EngineOptions['config']): EngineConfig {
  return {
    version: '0.1.0',
    maxBodyBytes: 1_048_576,
    rateLimit: { limit: 600, windowSeconds: 60 },
    firstPartyClients: [],
    ...settings,
    streams: { ...STREAM_DEFAULTS, ...settings.streams },
    baseUrl: settings.baseUrl.replace(/\/+$/, ''),
  }
}

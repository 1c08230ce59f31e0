import type { Static, TObject, TSchema } from '@sinclair/typebox'
import type { Principal, Scope } from './auth/principal.ts'
import type { Capability } from './capabilities.ts'
import type { EventHub, NewEvent } from './events/events.ts'
import type { HookReader } from './hooks.ts'
import type { EventId, OrgId } from './ids.ts'
import type { Mailer } from './mailer.ts'
import type { CursorCodec } from './pagination.ts'
import type { AccessProfile, Actor, CapabilityTarget, Container, KnownAccess } from './permissions.ts'
import type { ProblemCode } from './problems.ts'
import type { ReadScope } from './read-scope.ts'
import type { Storage, Store } from './storage.ts'

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

export type { Actor, CapabilityTarget } from './permissions.ts'

/**
 * The org an operation runs in, as the kernel needs it. The orgs group widens it to the whole
 * workspace record by declaration merging, so services read `ctx.org.name` without a cast.
 */
export interface Tenant {
  id: OrgId
  /** Archived workspaces are read-only. */
  archivedAt: string | null
}

export interface OperationContext {
  store: Store
  principal: Principal | null
  /** Set for operations under `/v1/orgs/{orgId}`. */
  org: Tenant | null
  actor: Actor | null
  /** The request time, one value for the whole operation. */
  now: string
  cursors: CursorCodec
  /** Queues an event to be appended in this operation's transaction; answers the event's id. */
  emit(event: Omit<NewEvent, 'id' | 'createdAt' | 'actorId'>, orgId?: OrgId): EventId
  /**
   * Throws unless the actor holds `capability` on `target`: 404 when the actor cannot even view it,
   * 403 `capability_required` when it can. `containers`: the target's, when the caller has read them
   * (what its resolver answers; null when it does not exist), instead of a read of the resolver's.
   */
  require(capability: Capability, target: CapabilityTarget, containers?: Container[] | null): Promise<void>
  /** Sends mail (invitations); a console printer unless the host plugs in another. */
  mailer: Mailer
  /** The actor's role, teams and grants, loaded once per operation. */
  access(): Promise<AccessProfile>
  /** The containers (org, team) holding a target; null when it does not exist. */
  containersOf(target: CapabilityTarget): Promise<Container[] | null>
  /** What the actor may read, for storage to put in its queries. */
  scope(): Promise<ReadScope>
  /** Looks up an operation of the catalogue by id. */
  operationOf(operationId: string): AnyOperation | undefined
  /** Runs another operation inside this one's transaction, as `actor`: an agent acting in a session, or the caller (plans). */
  invoke(
    operationId: string,
    input: { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown },
    actor: Actor,
  ): Promise<unknown>
  /**
   * The same request acting as another of the person's actors, in another org: cross-workspace
   * reads check capabilities and read scopes there (favorites, the hub). It shares the transaction.
   * `known`: the actor's teams and grants when the caller has read them (a hub reader's).
   */
  within(org: Tenant, actor: Actor, known?: KnownAccess): OperationContext
  /**
   * Runs `fn` as `actor` in `org`. In an operation declared `perWorkspace` it is a transaction of its
   * own, with its own events: committed (and its events published) when `fn` resolves, rolled back
   * alone when it throws. In any other operation it shares the operation's transaction, as `within`.
   */
  transactionIn<T>(org: Tenant, actor: Actor, fn: (ctx: OperationContext) => Promise<T>): Promise<T>
  config: EngineConfig
  /** Wakes stream readers when a log grows (long-polls wait on it). */
  hub: EventHub
  /** What the engine's upper groups hand down to lower ones (`kernel/hooks.ts`). */
  hook: HookReader
}

/**
 * Runs `fn` as the system (no actor: its events and history carry `actorId: null`) in one transaction
 * of the org, its events appended before commit; null, without running it, for a missing or archived org.
 */
export type SystemRunner = <T>(orgId: OrgId, fn: (ctx: OperationContext) => Promise<T>) => Promise<T | null>

/** Live-update settings (docs/events.md). */
export interface StreamConfig {
  /** Events older than this many days are pruned by `engine.prune`; older cursors get 410. */
  retentionDays: number
  /** Seconds between SSE pings. */
  pingSeconds: number
  /** Bytes an SSE client may leave unread before it is ended as a slow reader. */
  maxBufferedBytes: number
  /** How often live streams re-read the logs even without a wake-up (a lost notification only delays). */
  pollFallbackMs: number
}

export interface EngineConfig {
  version: string
  /** Public origin of the service, e.g. `https://work.example.com`: the token issuer. */
  baseUrl: string
  /** Request body limit in bytes. */
  maxBodyBytes: number
  rateLimit: { limit: number; windowSeconds: number }
  streams: StreamConfig
  /**
   * OAuth client ids of the service's own apps (its CLI, its reference UI). Only they, and tokens a
   * host mints without a client, may manage the account itself: sign out web sessions, disconnect
   * other apps. Empty by default.
   */
  firstPartyClients: readonly string[]
}

type StaticOr<T, D> = T extends TSchema ? Static<T> : D

export interface OperationInput<P, Q, B> {
  params: P
  query: Q
  body: B
  /** What the operation's `outbound.send` answered, for operations that declare `outbound`. */
  outbound?: unknown
  /** What the operation's `prefetch` read, for operations that declare it. */
  prefetched?: unknown
}

/**
 * What an operation reads before its capability check (`Operation.prefetch`): `read`, handed to
 * `run` as `input.prefetched`, and the target's containers found in it, which the check uses
 * instead of reading them again (null: the target does not exist).
 */
export interface Prefetched {
  read: unknown
  containers: Container[] | null
}

/**
 * Work that must not hold a database transaction open (an HTTP exchange with another service, a
 * streamed upload into a blob store): `prepare`
 * runs first, in a read of its own after the same org, actor and capability checks, and returns
 * what to send; `send` runs outside any transaction; `run` then receives its answer as
 * `input.outbound` in the operation's own transaction, where it re-reads what it changes.
 */
export interface OutboundStep {
  prepare(ctx: OperationContext, input: OperationInput<any, any, any>): Promise<unknown>
  send(prepared: any, config: EngineConfig): Promise<unknown>
}

/** One operation of the API: the single source of routes, validation, OpenAPI, MCP and docs. */
export interface Operation<
  P extends TObject | undefined = TObject | undefined,
  Q extends TObject | undefined = TObject | undefined,
  B extends TSchema | undefined = TSchema | undefined,
  R extends TSchema | null = TSchema | null,
> {
  id: string
  method: HttpMethod
  /** Full path with `{param}` placeholders, e.g. `/v1/orgs/{orgId}/tasks/{taskId}`. */
  path: string
  tag: string
  summary: string
  description?: string
  /**
   * The OAuth scope required; null only for `config.get` (`/v1/config`, the one unauthenticated
   * operation of the API) and the browser landing `connectors.callback` outside `/v1`.
   */
  scope: Scope | null
  /** The capability the actor needs on the target; reads need `view` implicitly via membership. */
  capability?: Capability
  target?: (
    input: OperationInput<StaticOr<P, undefined>, StaticOr<Q, undefined>, StaticOr<B, undefined>>,
  ) => CapabilityTarget
  /**
   * Who may call it, in the reference's access line, where the declaration cannot say it alone: a
   * capability the service checks in code (`manage` on the grant's container), or one whose target
   * the request names (`contribute` on the team given as \`teamId\`). Name the capability in
   * backticks; test/core/openapi-text.test.ts checks that it agrees with `capability`.
   */
  requires?: string
  params?: P
  query?: Q
  body?: B
  /** The response body schema; null for 204. */
  response: R
  status: 200 | 201 | 204
  /** Problem codes this operation can answer with, beyond the ones every operation can. */
  errors: ProblemCode[]
  /** Single-resource reads: strong ETag and `If-None-Match`. */
  etag?: boolean
  /** Writes to one resource: the id of the read whose representation `If-Match` is checked against. */
  precondition?: string
  /** Creations: the id of the read that fetches the new resource (its URL goes in `Location`). */
  location?: string
  /** Shown in the reference beside the body and the success response; a test checks they validate. */
  examples?: OperationExamples
  /** Calls another service between a read and the write (see `OutboundStep`). */
  outbound?: OutboundStep
  /**
   * Reads, in one go, what `run` checks and the capability target's containers, before the
   * capability check (see `Prefetched`); a caller refused there was read for and is answered as
   * without it. `run` gets the read as `input.prefetched` (absent when another operation invokes it).
   */
  prefetch?: (
    ctx: OperationContext,
    input: OperationInput<StaticOr<P, undefined>, StaticOr<Q, undefined>, StaticOr<B, undefined>>,
  ) => Promise<Prefetched>
  /** A GET that changes state (an OAuth redirect landing back): it runs in a write transaction. */
  writes?: boolean
  /**
   * A POST that only reads (`tasks.query`: a filter too large for a URL): it runs in a read
   * transaction, emits nothing and takes no `Idempotency-Key`, like a GET.
   */
  reads?: true
  /**
   * A write across workspaces (`hub.inbox.batch`): no transaction spans them. `run` gets plain reads
   * and changes each workspace in `ctx.transactionIn`, which commits or rolls back on its own; it
   * emits no event outside those. With an `Idempotency-Key`, the stored answer is looked up before
   * and recorded after (no lock is held across workspaces): an exact retry replays it, but two
   * concurrent requests with one key may both run, so only idempotent changes belong here.
   */
  perWorkspace?: true
  /** Answers with a file instead of JSON (see `FileAnswer`); `response` then describes its text. */
  file?: FileAnswer
  /** Takes raw bytes instead of a JSON `body` (see `StreamBody`); leave `body` out. */
  streamBody?: StreamBody
  run(
    ctx: OperationContext,
    input: OperationInput<StaticOr<P, undefined>, StaticOr<Q, undefined>, StaticOr<B, undefined>>,
  ): Promise<R extends TSchema ? Static<R> : undefined>
}

export type AnyOperation = Operation<any, any, any, any>

/**
 * A download. `run` checks access and returns what `content` needs; the host then streams what
 * `content` yields, each piece read on its own after the operation's transaction, so a large file
 * neither holds a transaction open nor sits whole in memory.
 */
export interface FileAnswer {
  /** E.g. `application/x-ndjson`: what `Accept` may name and the reference shows. */
  mediaType: string
  /** The `Content-Type` of this answer when it depends on the file; default `mediaType` as UTF-8 text. */
  contentType?(result: any): string
  /** The attachment's file name (`Content-Disposition`). */
  filename(result: any): string
  /** Text pieces are sent as UTF-8, byte pieces as they are. */
  content(storage: Storage, result: any, config: EngineConfig): AsyncIterable<string | Uint8Array>
}

/**
 * A request body of raw bytes (`application/octet-stream`, any `Content-Type` accepted). The host
 * hands it over unread as `input.body`, an `AsyncIterable<Uint8Array>` (empty when nothing was
 * sent), so the operation can stream it somewhere without holding it in memory; it must stop
 * reading past `maxBytes` and answer 413 `payload_too_large`. Hosts refuse a larger declared
 * `Content-Length` before reading anything.
 */
export interface StreamBody {
  description: string
  maxBytes(config: EngineConfig): number
}

/** A request body and a success response, as the reference shows them. */
export interface OperationExamples {
  request?: unknown
  response?: unknown
}

/** Declares an operation with its types inferred from its schemas. */
export function defineOperation<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema | null = null,
>(operation: Operation<P, Q, B, R>): Operation<P, Q, B, R> {
  return operation
}

/** Whether the operation changes anything (and so runs in a write transaction with events). */
export function isWrite(operation: AnyOperation): boolean {
  return (operation.method !== 'GET' && operation.reads !== true) || operation.writes === true
}

/** Whether the operation lives under `/v1/orgs/{orgId}` and so needs an active Actor. */
export function isOrgScoped(operation: Pick<AnyOperation, 'path'>): boolean {
  return operation.path.startsWith('/v1/orgs/{orgId}')
}

/** Declares an operation whose handler types are checked elsewhere (derived shapes, generic pages). */
export function declareOperation(operation: AnyOperation): AnyOperation {
  // A list that takes a cursor can refuse one; the code is declared here so no list forgets it.
  const paged = (operation.query as { properties?: Record<string, unknown> } | undefined)?.properties?.cursor
  if (!paged || operation.errors.includes('invalid_cursor')) return operation
  return { ...operation, errors: ['invalid_cursor', ...operation.errors] }
}

import type { ConnectionId, LinkedItemId, MemberId, OrgId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { ConnectionRecord, LinkedItem, RecordProperty, RecordType } from './schemas.ts'

export interface ConnectionRepo {
  insert(connection: ConnectionRecord): Promise<void>
  /** Only the member's own connection: another member's id is null, like a missing one. */
  get(orgId: OrgId, memberId: MemberId, id: ConnectionId): Promise<ConnectionRecord | null>
  /** The pending connection waiting for this `state`, in any org (the redirect carries no org). */
  findPendingByState(state: string): Promise<ConnectionRecord | null>
  /** The member's active or broken connection to the provider (at most one). */
  findForProvider(orgId: OrgId, memberId: MemberId, providerId: string): Promise<ConnectionRecord | null>
  /** The member's connections, by id. */
  list(orgId: OrgId, memberId: MemberId, page: PageRequest<'id'>): Promise<ConnectionRecord[]>
  /**
   * Writes `patch` only while the row's `tokenVersion` is still `expectedVersion` (and bumps it);
   * under concurrent calls exactly one caller gets true, the others false and change nothing.
   */
  update(
    orgId: OrgId,
    id: ConnectionId,
    expectedVersion: number,
    patch: Partial<Omit<ConnectionRecord, 'id' | 'orgId' | 'memberId' | 'userId' | 'tokenVersion'>>,
  ): Promise<boolean>
  /** Returns false when it was already gone. */
  delete(orgId: OrgId, id: ConnectionId): Promise<boolean>
  /** Deletes the member's other connection to the provider (a reconnect replaces it). */
  deleteForProvider(
    orgId: OrgId,
    memberId: MemberId,
    providerId: string,
    exceptId: ConnectionId,
  ): Promise<void>
}

/** What an item is linked to: a task or a project. */
export interface LinkedItemHolder {
  type: 'task' | 'project'
  id: string
}

export interface LinkedItemRepo {
  insert(item: LinkedItem): Promise<void>
  /** Whatever it is linked to; the service checks the caller may view that. */
  get(orgId: OrgId, id: LinkedItemId): Promise<LinkedItem | null>
  findByUrl(orgId: OrgId, holder: LinkedItemHolder, url: string): Promise<LinkedItem | null>
  /** A task's or project's linked items in link order (by id). */
  list(orgId: OrgId, holder: LinkedItemHolder, page: PageRequest<'id'>): Promise<LinkedItem[]>
  update(
    orgId: OrgId,
    id: LinkedItemId,
    patch: Pick<LinkedItem, 'title' | 'state' | 'assignee' | 'externalUpdatedAt' | 'fetchedAt' | 'itemType'>,
  ): Promise<void>
  delete(orgId: OrgId, id: LinkedItemId): Promise<void>
  /**
   * The items linked by exactly this (normalised) URL to tasks and projects the scope can view, by
   * id; items of deleted tasks never. The predicate is in the query, so pages are exact.
   */
  lookup(orgId: OrgId, url: string, scope: ReadScope, page: PageRequest<'id'>): Promise<LinkedItem[]>
}

/** Which configured providers a workspace turned off; every other one is on. */
export interface ConnectorSettingsRepo {
  disabled(orgId: OrgId): Promise<string[]>
  /** Answers false when the provider already was in that state (nothing written). */
  setEnabled(orgId: OrgId, providerId: string, enabled: boolean, by: MemberId, at: string): Promise<boolean>
}

/** A record a property is on. */
export interface RecordRef {
  type: RecordType
  id: string
}

/**
 * App-owned properties. `clientKey` is the namespace: the OAuth client of the token ('' for tokens
 * without one); every read and write names it, so one client never reaches another's keys.
 */
export interface RecordPropertyRepo {
  get(orgId: OrgId, record: RecordRef, clientKey: string, key: string): Promise<RecordProperty | null>
  /** By key; the page's `id` is the key. */
  list(orgId: OrgId, record: RecordRef, clientKey: string, page: PageRequest<'id'>): Promise<RecordProperty[]>
  /** Inserts or replaces. */
  put(orgId: OrgId, record: RecordRef, clientKey: string, property: RecordProperty): Promise<void>
  /** Answers false when there was none. */
  delete(orgId: OrgId, record: RecordRef, clientKey: string, key: string): Promise<boolean>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** People's connections to other tools, with their sealed tokens. */
    connections: ConnectionRepo
    /** Items of other tools linked to tasks and projects. */
    linkedItems: LinkedItemRepo
    /** Providers a workspace disabled. */
    connectorSettings: ConnectorSettingsRepo
    /** App-owned JSON on tasks, projects, programs and initiatives. */
    recordProperties: RecordPropertyRepo
  }
}

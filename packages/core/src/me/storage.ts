import type { FavoriteId, OrgId, UserId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { NotificationKind } from '../notifications/schemas.ts'
import type { FavoriteType, Preferences } from './schemas.ts'

/** As stored: `mailKinds` holds only the kinds the person set (the others are on). */
export type StoredPreferences = Omit<Preferences, 'updatedAt' | 'mailKinds'> & {
  mailKinds: Partial<Record<NotificationKind, boolean>>
  updatedAt: string
}

export interface PreferenceRepo {
  /** Null while the person has never changed a preference. */
  get(userId: UserId): Promise<StoredPreferences | null>
  /** Creates or replaces the person's row. */
  put(userId: UserId, preferences: StoredPreferences): Promise<void>
}

export interface FavoriteRecord {
  id: FavoriteId
  userId: UserId
  orgId: OrgId
  recordType: FavoriteType
  recordId: string
  position: number
  createdAt: string
}

export interface FavoriteRepo {
  /**
   * Stars a record unless the person has starred it already; returns the favorite that holds it.
   * Under concurrent calls for one record every caller gets the same favorite (the unique key decides).
   */
  insertOnce(favorite: FavoriteRecord): Promise<FavoriteRecord>
  get(userId: UserId, id: FavoriteId): Promise<FavoriteRecord | null>
  /** In position order, then id; unfiltered: the service checks what the person may still view. */
  list(userId: UserId, page: PageRequest<'position'>): Promise<FavoriteRecord[]>
  /** Every favorite of the person in order (bounded by {@link FAVORITES_MAX}). */
  all(userId: UserId): Promise<FavoriteRecord[]>
  /** The next free position: one past the largest, 0 for the first. */
  nextPosition(userId: UserId): Promise<number>
  setPosition(userId: UserId, id: FavoriteId, position: number): Promise<void>
  /** Returns false when the person had no such favorite. */
  delete(userId: UserId, id: FavoriteId): Promise<boolean>
}

/** Favorites a person may keep: enough for any sidebar, small enough to reorder in one request. */
export const FAVORITES_MAX = 500

declare module '../kernel/storage.ts' {
  interface Store {
    preferences: PreferenceRepo
    favorites: FavoriteRepo
  }
}

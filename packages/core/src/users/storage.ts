import type { UserId } from '../kernel/ids.ts'

export interface User {
  id: UserId
  email: string
  name: string
  createdAt: string
}

/** What a person says about themselves (`PATCH /v1/me`); null until they set it. */
export interface UserProfile extends User {
  avatarUrl: string | null
  /** An IANA time zone name, e.g. `Europe/Paris`. */
  timeZone: string | null
  /** A BCP 47 language tag in canonical form, e.g. `fr-CA`. */
  locale: string | null
}

export type ProfilePatch = Partial<Pick<UserProfile, 'name' | 'avatarUrl' | 'timeZone' | 'locale'>>

export interface UserRepo {
  insert(user: User): Promise<void>
  get(id: UserId): Promise<User | null>
  /** Case-insensitive. */
  getByEmail(email: string): Promise<User | null>
  getProfile(id: UserId): Promise<UserProfile | null>
  /** Changes only the fields present in `patch`. */
  updateProfile(id: UserId, patch: ProfilePatch): Promise<void>
}

declare module '../kernel/storage.ts' {
  interface Store {
    users: UserRepo
  }
}

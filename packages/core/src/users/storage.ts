import type { UserId } from '../kernel/ids.ts'

export interface User {
  id: UserId
  email: string
  name: string
  createdAt: string
}

export interface UserRepo {
  insert(user: User): Promise<void>
  get(id: UserId): Promise<User | null>
  /** Case-insensitive. */
  getByEmail(email: string): Promise<User | null>
}

declare module '../kernel/storage.ts' {
  interface Store {
    users: UserRepo
  }
}

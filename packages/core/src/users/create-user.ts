import { newId } from '../kernel/ids.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { Storage } from '../kernel/storage.ts'
import type { User } from './storage.ts'

/**
 * Creates a person's account. Sign-up (with a password) builds on this; until then hosts and
 * tests create users here and mint tokens for them with the token service.
 */
export async function createUser(
  storage: Storage,
  input: { email: string; name: string },
  now = new Date(),
): Promise<User> {
  const email = input.email.trim().toLowerCase()
  return storage.transaction(async (store) => {
    if (await store.users.getByEmail(email))
      throw new ProblemError('conflict', 'An account with this email exists.')
    const user: User = { id: newId('UserId'), email, name: input.name.trim(), createdAt: now.toISOString() }
    await store.users.insert(user)
    return user
  })
}

import { randomBytes } from 'node:crypto'
import type { Storage } from '../storage.ts'

/** A random secret stored once and shared by every instance; under a race the first insert wins. */
export async function sharedSecret(storage: Storage, name: string, clock: () => Date): Promise<string> {
  const existing = await storage.read((s) => s.secrets.list(name))
  const found = existing.find((s) => s.name === name)
  if (found) return found.value
  await storage.transaction((s) =>
    s.secrets.insert({
      name,
      value: randomBytes(32).toString('base64url'),
      createdAt: clock().toISOString(),
    }),
  )
  const after = await storage.read((s) => s.secrets.list(name))
  return after.find((s) => s.name === name)!.value
}

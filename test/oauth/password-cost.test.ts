/**
 * PASSWORD_HASH_COST: new password hashes take the configured scrypt cost, and a password hashed at
 * another cost still signs in after the setting changes (each hash records its own).
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { signUp } from './support.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

describeEachDatabase('password hash cost', (db) => {
  // One database, served first at cost 11 and then, as after a change of the setting, at cost 10.
  let target: DatabaseTarget
  let before: Server
  let after: Server
  beforeAll(async () => {
    target = await db.fresh()
    const shared: TestDatabase = { ...db, fresh: async () => ({ ...target, drop: async () => {} }) }
    before = await startTestServer(shared, { oauth: { passwordCost: 11 } })
    after = await startTestServer(shared, { oauth: { passwordCost: 10 } })
  }, 60_000)
  afterAll(async () => {
    await before.drop()
    await after.drop()
    await target.drop()
  })

  const storedHash = async (server: Server, email: string) => {
    const user = await server.storage.read((s) => s.users.getByEmail(email))
    return server.storage.read((s) => s.oauth.getPasswordHash(user!.id))
  }
  const signIn = (server: Server, email: string, password: string) =>
    fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })

  it('hashes new passwords at the configured cost, and signs in with a hash of another cost', async () => {
    const person = await signUp(before.url)
    expect(await storedHash(before, person.email)).toMatch(/^scrypt\$2048\$8\$1\$/)

    // The setting changed: the stored hash (2^11) still verifies, a wrong password still fails.
    expect((await signIn(after, person.email, person.password)).status).toBe(200)
    expect((await signIn(after, person.email, 'not the password')).status).toBe(401)
    expect((await signIn(after, `x${person.email}`, person.password)).status).toBe(401)

    // A password set from now on takes the new cost.
    const newcomer = await signUp(after.url)
    expect(await storedHash(after, newcomer.email)).toMatch(/^scrypt\$1024\$8\$1\$/)
    expect((await signIn(before, newcomer.email, newcomer.password)).status).toBe(200)
  })
})

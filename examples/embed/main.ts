// Embeds the workgraph engine in a plain Node program: no HTTP server, an in-memory SQLite
// database, and every call through `engine.execute` with the same rules the REST API applies.
// It checks its own results and exits non-zero if anything is off.
import { strict as assert } from 'node:assert'
import { createEngine, createUser, isProblem } from '@workgraph/core'
import { openStorage } from '@workgraph/kysely'

const storage = await openStorage({ url: process.env.DATABASE_URL ?? ':memory:' })
const engine = await createEngine({ storage, config: { baseUrl: 'http://localhost:3000' } })

// A host authenticates people its own way; here it mints a token for a local user and uses the
// principal it verifies to, exactly as the HTTP adapter does with a bearer token.
const ada = await createUser(storage, { email: 'ada@example.com', name: 'Ada' })
const token = await engine.tokens.issueAccessToken({ userId: ada.id, scopes: ['work:read', 'work:write'] })
const me = await engine.tokens.verifyAccessToken(token)

const run = async (operationId: string, input: Parameters<typeof engine.execute>[1]) =>
  (await engine.execute(operationId, input, me)).body as any

const org = await run('orgs.create', { body: { name: 'Analytical Engines' } })
const team = await run('teams.create', {
  params: { orgId: org.id },
  body: { name: 'Engineering', key: 'ENG' },
})
const task = await run('tasks.create', {
  params: { orgId: org.id },
  body: { teamId: team.id, title: 'Write the first program', priority: 'high' },
})
assert.equal(task.key, 'ENG-1')

const states = await run('states.list', { params: { orgId: org.id, teamId: team.id } })
const done = states.data.find((s: { category: string }) => s.category === 'completed')
const finished = await run('tasks.update', {
  params: { orgId: org.id, taskId: task.id },
  body: { stateId: done.id },
})
assert.ok(finished.completedAt, 'moving to a completed state stamps completedAt')

const open = await run('tasks.list', {
  params: { orgId: org.id },
  query: { stateCategory: 'backlog,unstarted,started' },
})
assert.equal(open.data.length, 0)

// Bad input is a problem document with a catalogued code, and changes nothing.
try {
  await run('tasks.create', { params: { orgId: org.id }, body: { teamId: org.id, title: 'x' } })
  assert.fail('a wrong-brand id must be refused')
} catch (error) {
  assert.ok(isProblem(error))
  assert.equal(error.code, 'invalid_identifier')
}

const events = await storage.read((s) => s.events.list(org.id, 0, 100))
assert.deepEqual(
  events.map((e) => e.seq),
  events.map((_, i) => i + 1),
)
console.log(`embed example: ${task.key} done; ${events.length} events in the log, gap-free`)
await storage.close()

// A typed client of the REST API: types generated from the server's OpenAPI document by
// openapi-typescript (`pnpm run generate`), calls through openapi-fetch. The compiler checks every
// path, parameter, body and response against the document; request bodies are named schemas
// (`TaskCreate`, `TaskUpdate`) whose fields have the types the client reads back (`Task`); `pnpm start` type-checks, then runs it
// against a server it starts on a temporary SQLite file, and exits non-zero if anything is off.
import { strict as assert } from 'node:assert'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createUser } from '@workgraph/core'
import { startServer } from '@workgraph/server'
import createClient from 'openapi-fetch'
import type { components, paths } from './schema.d.ts'

const dir = mkdtempSync(join(tmpdir(), 'workgraph-typed-client-'))
const server = await startServer({ databaseUrl: join(dir, 'workgraph.db') })
try {
  // A person and an access token, minted by the host for the example; an app would sign the
  // person in with OAuth (docs/oauth.md) and get the same kind of token.
  const ada = await createUser(server.storage, { email: 'ada@example.com', name: 'Ada' })
  const token = await server.engine.tokens.issueAccessToken({
    userId: ada.id,
    scopes: ['work:read', 'work:write'],
  })
  const api = createClient<paths>({ baseUrl: server.url, headers: { authorization: `Bearer ${token}` } })

  const newOrg: components['schemas']['OrgCreate'] = { name: 'Analytical Engines' }
  const org = (await api.POST('/v1/orgs', { body: newOrg })).data!
  const orgId = org.id
  const newTeam: components['schemas']['TeamCreate'] = { name: 'Engineering', key: 'ENG' }
  const team = (await api.POST('/v1/orgs/{orgId}/teams', { params: { path: { orgId } }, body: newTeam }))
    .data!
  const newTask: components['schemas']['TaskCreate'] = {
    teamId: team.id,
    title: 'Write the first program',
    priority: 'high',
  }
  const created = await api.POST('/v1/orgs/{orgId}/tasks', { params: { path: { orgId } }, body: newTask })
  assert.equal(created.response.status, 201)
  const task: components['schemas']['Task'] = created.data!
  assert.equal(task.key, 'ENG-1')

  // Query parameters are typed too; the page is `{ data, nextCursor }`.
  const page = await api.GET('/v1/orgs/{orgId}/tasks', {
    params: { path: { orgId }, query: { teamId: team.id, limit: 10 } },
  })
  assert.deepEqual(
    page.data!.data.map((t) => t.key),
    ['ENG-1'],
  )

  // A refusal is an RFC 9457 problem document in `error`, with its stable code.
  const refused = await api.POST('/v1/orgs/{orgId}/tasks', {
    params: { path: { orgId } },
    body: { teamId: team.id, title: '' },
  })
  assert.equal(refused.response.status, 400)
  assert.equal(refused.error?.code, 'validation_failed')

  // Each code's own members are typed: narrowing on `code` gives `expectedType` without a cast.
  const wrongId = await api.GET('/v1/orgs/{orgId}/tasks/{taskId}', {
    params: { path: { orgId, taskId: team.id } },
  })
  const problem = wrongId.error!
  assert.equal(problem.code, 'invalid_identifier')
  if (problem.code === 'invalid_identifier') assert.equal(problem.expectedType, 'TaskId')

  // Conditional update: the ETag of the read, sent back in If-Match.
  const read = await api.GET('/v1/orgs/{orgId}/tasks/{taskId}', {
    params: { path: { orgId, taskId: task.id } },
  })
  const etag = read.response.headers.get('etag')!
  const rename: components['schemas']['TaskUpdate'] = { title: 'Write the first program, typed' }
  const renamed = await api.PATCH('/v1/orgs/{orgId}/tasks/{taskId}', {
    params: { path: { orgId, taskId: task.id }, header: { 'If-Match': etag } },
    body: rename,
  })
  assert.equal(renamed.data?.title, 'Write the first program, typed')
  const stale = await api.PATCH('/v1/orgs/{orgId}/tasks/{taskId}', {
    params: { path: { orgId, taskId: task.id }, header: { 'If-Match': etag } },
    body: { title: 'Lost update' },
  })
  assert.equal(stale.response.status, 412)
  assert.equal(stale.error?.code, 'precondition_failed')

  // The workspace's event stream: `StreamEvent` is a union discriminated by `kind`, so narrowing on
  // the kind types its `data` (the task, and for an update the changed fields) without a cast.
  const stream = await api.GET('/v1/orgs/{orgId}/stream', {
    params: { path: { orgId }, query: { kinds: 'task.created,task.updated' } },
  })
  const titles: string[] = []
  for (const event of stream.data!.data) {
    if (event.kind === 'task.created') titles.push(`created: ${event.data.task.title}`)
    else if (event.kind === 'task.updated') {
      const title = event.data.changes.title
      titles.push(`renamed: ${String(title?.before)} → ${event.data.task.title}`)
    }
  }
  assert.deepEqual(titles, [
    'created: Write the first program',
    'renamed: Write the first program → Write the first program, typed',
  ])

  // A task's history: each entry's `before` and `after` are typed by its `field`. Custom field entries
  // (`fields.<id>`) match a pattern rather than a fixed value, so their `field` is a plain string: a
  // guard sets them apart first, then narrowing on `field` types the values (`after` of `created` is
  // `{ key, title }`, a title's `before` and `after` are strings).
  const history = await api.GET('/v1/orgs/{orgId}/tasks/{taskId}/history', {
    params: { path: { orgId, taskId: task.id } },
  })
  const entries = history.data!.data
  type Entry = (typeof entries)[number]
  type BuiltIn<E> = E extends { field: infer F } ? (string extends F ? never : E) : never
  const isBuiltIn = (e: Entry): e is BuiltIn<Entry> => !e.field.startsWith('fields.')
  const changes: string[] = []
  for (const entry of entries) {
    if (!isBuiltIn(entry)) continue
    if (entry.field === 'created') changes.push(`created ${entry.after.key}`)
    else if (entry.field === 'title')
      changes.push(`title: ${entry.before.length} → ${entry.after.length} chars`)
  }
  // Newest first, as every history list.
  assert.deepEqual(changes, ['title: 23 → 30 chars', 'created ENG-1'])

  // What the client reads fills what it sends, field for field: `Task` and `TaskCreate` share the
  // types of `priority`, `estimate`, `dueDate` and `labelIds`, so a copy needs no conversion.
  const original: components['schemas']['Task'] = renamed.data!
  const copy: components['schemas']['TaskCreate'] = {
    teamId: original.teamId,
    title: `${original.title} (copy)`,
    priority: original.priority,
    estimate: original.estimate,
    dueDate: original.dueDate,
    labelIds: original.labelIds,
  }
  const copied = await api.POST('/v1/orgs/{orgId}/tasks', { params: { path: { orgId } }, body: copy })
  assert.equal(copied.data?.key, 'ENG-2')
  assert.equal(copied.data?.priority, original.priority)

  // One resource, one schema: `PATCH /v1/me` answers `Me`, as `GET /v1/me` does.
  const profile: components['schemas']['MeUpdate'] = { timeZone: 'europe/london' }
  const me: components['schemas']['Me'] = (await api.PATCH('/v1/me', { body: profile })).data!
  assert.equal(me.user.timeZone, 'Europe/London')

  console.log(
    `typed-client example: ${task.key} created, listed, renamed; a stale write refused with 412; its events and history read typed; copied from what was read`,
  )
} finally {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
}

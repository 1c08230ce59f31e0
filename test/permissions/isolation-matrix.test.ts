import { type AnyOperation, isOrgScoped, isWrite, OPERATIONS } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { exampleBody } from '../support/example-world.ts'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer, withoutRequestId } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { type Ids, SHARED_NAMES, sampleWorld } from '../support/sample-world.ts'

const QUERIES: Record<string, (ids: Ids) => Record<string, string>> = {
  'access.explain': (ids) => ({
    actorId: ids.actorId!,
    capability: 'view',
    targetType: 'task',
    targetId: ids.taskId!,
  }),
  'names.resolve': (ids) => ({ kind: 'task', name: ids.taskId! }),
  'access.holders': (ids) => ({ targetType: 'task', targetId: ids.taskId! }),
  'linkedItems.lookup': () => ({ url: 'https://github.com/acme/api/issues/1' }),
  'attachments.create': (ids) => ({ recordType: 'task', recordId: ids.taskId! }),
  'attachments.list': (ids) => ({ recordType: 'task', recordId: ids.taskId! }),
}

function request(op: AnyOperation, ids: Ids) {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? `missing-${name}`)
  const query = QUERIES[op.id] ? `?${new URLSearchParams(QUERIES[op.id]!(ids))}` : ''
  return { path: `${path}${query}`, body: op.body ? exampleBody(op, ids) : undefined }
}

const orgOperations = OPERATIONS.filter(isOrgScoped)

/**
 * Writes to the caller's own notifications, settings, notification rules, mutes, task reminders and view
 * display preferences, and leaving the workspace: a viewer may make them (they change nothing of the
 * workspace), and someone else's notification is a 404, never a 403.
 */
const PERSONAL = new Set(
  orgOperations
    .filter((op) =>
      /^(notification(s|Settings|Rules|Mutes)|tasks\.reminders|views\.preferences|orgs\.leave)/.test(op.id),
    )
    .map((op) => op.id),
)

describeEachDatabase('tenant isolation over every operation', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  // The other tenant, B: every request at its records comes from someone outside it and must fail,
  // so it is never changed, and one serves every test. Each test makes its own A.
  let b: Awaited<ReturnType<typeof sampleWorld>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
    b = await sampleWorld(server)
  })
  afterAll(() => server.drop())

  const world = () => sampleWorld(server)

  // Every org-scoped operation, three ways and more: past the default timeout on a loaded machine.
  it("answers a non-member, and a member using another tenant's ids, with the same 404 as a missing record", {
    timeout: 300_000,
  }, async () => {
    const a = await world()
    const outsider = await newPerson(server.engine, {
      scopes: ['work:read', 'work:write', 'agents:run', 'connectors:link'],
    })
    const missingOrg = { ...b.ids, orgId: 'org_01JD3Q2R4S5T6V7W8X9YZABCDE' }
    const ownerOfA = await server.engine.tokens.issueAccessToken({
      userId: a.ws.owner.user.id,
      scopes: ['work:read', 'work:write', 'agents:run', 'connectors:link'],
    })
    for (const op of orgOperations) {
      const real = request(op, b.ids)
      const asOutsider = await server.request(op.method, real.path, {
        token: outsider.token,
        body: real.body,
      })
      const ghost = request(op, missingOrg)
      const asGhost = await server.request(op.method, ghost.path, {
        token: outsider.token,
        body: ghost.body,
      })
      expect(asOutsider.status, `${op.id} as a non-member`).toBe(404)
      // Each response has its own request id; everything else must be the same.
      expect(withoutRequestId(asOutsider.body), `${op.id}: same answer as a missing org`).toEqual(
        withoutRequestId(asGhost.body),
      )

      // A's owner, in A's org, naming B's records: each of B's ids must behave as missing.
      const names = [...op.path.matchAll(/\{(\w+)\}/g)]
        .map((m) => m[1]!)
        .filter((n) => n !== 'orgId' && !SHARED_NAMES.has(n))
      const crossQuery =
        op.id === 'access.explain' ? ['actorId'] : op.id === 'access.holders' ? ['taskId'] : []
      for (const name of [...names, ...crossQuery]) {
        const crossed = request(op, { ...a.ids, [name]: b.ids[name]! })
        const res = await server.request(op.method, crossed.path, {
          token: ownerOfA,
          body: crossed.body,
        })
        // An idempotent removal answers 204 for an id that is not there: B's must answer the same as
        // a well-formed id that exists nowhere.
        const idempotentRemoval = op.method === 'DELETE' && op.id.endsWith('.remove') && names.at(-1) === name
        if (idempotentRemoval) {
          const prefix = b.ids[name]!.split('_')[0]
          const missing = request(op, { ...a.ids, [name]: `${prefix}_01JD3Q2R4S5T6V7W8X9YZABCDE` })
          const absent = await server.request(op.method, missing.path, {
            token: ownerOfA,
            body: missing.body,
          })
          expect(res.status, `${op.id} with B's ${name}: same as a missing one`).toBe(absent.status)
          continue
        }
        expect([404, 422], `${op.id} with B's ${name}`).toContain(res.status)
        if (res.status === 422) expect(res.body.code, `${op.id} with B's ${name}`).toBe('reference_not_found')
      }
    }
    // Two sample worlds and three requests per operation: minutes on a loaded machine.
  })

  it('opens one project and what it holds to a grant on it, and no other project', {
    // Like its siblings, it walks every operation: minutes on a loaded machine, not a hang.
    timeout: 300_000,
  }, async () => {
    const a = await world()
    const base = `/v1/orgs/${a.ids.orgId}`
    // A second project in A, on a team the guest has no grant on, with a milestone.
    const hidden = (await a.ws.api.post(`${base}/projects`, { name: 'Hidden', teamIds: [a.ids.otherTeamId] }))
      .body
    const hiddenMilestone = (await a.ws.api.post(`${base}/projects/${hidden.id}/milestones`, { name: 'H' }))
      .body
    const guest = await a.ws.addMember('guest')
    const granted = await a.ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'project',
      containerId: a.ids.projectId,
      capability: 'view',
    })
    expect(granted.status).toBe(201)
    const token = await server.engine.tokens.issueAccessToken({
      userId: guest.user.id,
      scopes: ['work:read', 'work:write', 'agents:run', 'connectors:link'],
    })
    // Operations decided by the project or milestone in their path. Linking a project into an
    // initiative or a program is decided by that container first (org-level: 403 to this guest
    // whatever the project).
    const onProject = orgOperations.filter(
      (op) =>
        /\{(projectId|milestoneId)\}/.test(op.path) &&
        !op.path.includes('/initiatives/') &&
        !op.path.includes('/programs/'),
    )
    expect(onProject.length).toBeGreaterThan(10)
    for (const op of onProject) {
      // The granted project: every read answers, every mutation above `view` is a 403.
      const mine = request(op, a.ids)
      const res = await server.request(op.method, mine.path, { token, body: mine.body })
      if (op.method === 'GET') expect(res.status, `${op.id} on the granted project`).toBe(200)
      else if (op.capability && op.capability !== 'view')
        expect(res.status, `${op.id} on the granted project`).toBe(403)
      // Another project of the same org, and one of another org: exactly as missing.
      for (const ids of [
        { ...a.ids, projectId: hidden.id, milestoneId: hiddenMilestone.id },
        { ...a.ids, projectId: b.ids.projectId!, milestoneId: b.ids.milestoneId! },
      ]) {
        const theirs = request(op, ids)
        const hiddenRes = await server.request(op.method, theirs.path, { token, body: theirs.body })
        expect(hiddenRes.status, `${op.id} on a project without a grant`).toBe(404)
      }
    }
    // Its task is reachable through the project; the team's other tasks are not.
    const asGuest = server.as(token)
    expect((await asGuest.get(`${base}/tasks/${a.ids.taskId}`)).status).toBe(200)
    expect((await asGuest.get(`${base}/tasks/${a.ids.otherTaskId}`)).status).toBe(404)
    // Grants on another tenant's project (named in the body: 422 at the field), and explaining one:
    // as missing, for A's owner too.
    const crossed = await a.ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'project',
      containerId: b.ids.projectId,
      capability: 'view',
    })
    expect(crossed).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/containerId' }] },
    })
    expect(
      (await a.ws.api.get(`${base}/grants?containerType=project&containerId=${b.ids.projectId}`)).status,
    ).toBe(404)
    expect(
      (
        await a.ws.api.get(
          `${base}/access/explain?actorId=${guest.memberId}&capability=view&targetType=project&targetId=${b.ids.projectId}`,
        )
      ).status,
    ).toBe(404)
  })

  it('opens one program, and what it holds, to a grant on it, and no other program', {
    timeout: 300_000,
  }, async () => {
    const a = await world()
    const base = `/v1/orgs/${a.ids.orgId}`
    // A second program in A holding the sample project, and a guest with `view` on the sample program.
    const hidden = (await a.ws.api.post(`${base}/programs`, { name: 'Hidden' })).body
    await a.ws.api.put(`${base}/programs/${hidden.id}/projects/${a.ids.projectId}`)
    const guest = await a.ws.addMember('guest')
    const granted = await a.ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'program',
      containerId: a.ids.programId,
      capability: 'view',
    })
    expect(granted.status).toBe(201)
    const token = await server.engine.tokens.issueAccessToken({
      userId: guest.user.id,
      scopes: ['work:read', 'work:write', 'agents:run', 'connectors:link'],
    })
    // Every operation whose path names only the program.
    const onProgram = orgOperations.filter((op) =>
      /^\/v1\/orgs\/\{orgId\}\/programs\/\{programId\}(\/[a-z/]+)?$/.test(op.path),
    )
    expect(onProgram.length).toBeGreaterThan(10)
    for (const op of onProgram) {
      const mine = request(op, a.ids)
      const res = await server.request(op.method, mine.path, { token, body: mine.body })
      if (op.method === 'GET') expect(res.status, `${op.id} on the granted program`).toBe(200)
      else if (op.capability && op.capability !== 'view')
        expect(res.status, `${op.id} on the granted program`).toBe(403)
      // Reads of another program of the same org, and of one of another org: exactly as missing.
      if (op.method !== 'GET') continue
      for (const programId of [hidden.id, b.ids.programId!]) {
        const theirs = request(op, { ...a.ids, programId })
        const hiddenRes = await server.request(op.method, theirs.path, { token, body: theirs.body })
        expect(hiddenRes.status, `${op.id} on a program without a grant`).toBe(404)
      }
    }
    // The program's projects are reachable; the sample project (in the other program) is not.
    const asGuest = server.as(token)
    const held = a.ids.programProjectIds!.split(',')
    for (const projectId of held)
      expect((await asGuest.get(`${base}/projects/${projectId}`)).status).toBe(200)
    expect((await asGuest.get(`${base}/projects/${a.ids.projectId}`)).status).toBe(404)
    expect((await asGuest.get(`${base}/tasks/${a.ids.taskId}`)).status).toBe(404)
    // A grant on another tenant's program: as missing (named in the body: 422 at the field).
    const crossed = await a.ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'program',
      containerId: b.ids.programId,
      capability: 'view',
    })
    expect(crossed).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/containerId' }] },
    })
  })

  // Every mutation twice, with a new person each: minutes on a loaded machine.
  it('answers a view-only person with 403 on every mutation, and changes nothing', {
    timeout: 300_000,
  }, async () => {
    const a = await world()
    const viewer = await a.ws.addMember('guest')
    await a.ws.api.post(`/v1/orgs/${a.ids.orgId}/grants`, {
      subjectType: 'member',
      subjectId: viewer.memberId,
      containerType: 'org',
      containerId: a.ids.orgId,
      capability: 'view',
    })
    const runner = await server.engine.tokens.issueAccessToken({
      userId: viewer.user.id,
      scopes: ['work:read', 'work:write', 'agents:run', 'connectors:link'],
    })
    const before = await server.storage.read((s) => s.events.list(a.ids.orgId as never, 0, 10_000))
    for (const op of orgOperations.filter((o) => isWrite(o))) {
      const r = request(op, a.ids)
      if (!PERSONAL.has(op.id)) {
        const res = await server.request(op.method, r.path, { token: runner, body: r.body })
        expect(res.status, `${op.id} as a viewer: ${JSON.stringify(res.body)}`).toBe(403)
      } else if (/\{(notification|reminder|rule|mute)Id\}/.test(op.path)) {
        const res = await server.request(op.method, r.path, { token: runner, body: r.body })
        expect(res.status, `${op.id} on the owner's notification or reminder as a viewer`).toBe(404)
      }
      const readOnly = await server.request(op.method, r.path, {
        token: (await newPerson(server.engine, { scopes: ['work:read'] })).token,
        body: r.body,
      })
      expect([403, 404], `${op.id} with a read-only token`).toContain(readOnly.status)
    }
    const after = await server.storage.read((s) => s.events.list(a.ids.orgId as never, 0, 10_000))
    expect(after.length).toBe(before.length)
  })
})

import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { createComponentValidator } from '../support/openapi-validator.ts'
import { readAll } from '../support/task-helpers.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const DAY = 86_400_000
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString()

/**
 * History entries are unions discriminated by `field`, each branch typing `before` and `after`
 * (an initiative's by `action`, each branch typing `changes`). Every kind of change a task, a
 * project, a program and an initiative record is made here over HTTP; every entry
 * read back must match its component, and every branch the document describes must have been seen,
 * so a writer that records a field or a value its schema does not allow fails here.
 */
describeEachDatabase('typed history entries', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let document: any
  beforeAll(async () => {
    server = await startTestServer(db)
    document = (await server.request('GET', '/v1/openapi.json')).body
  })
  afterAll(() => server.drop())

  /**
   * Reads every entry of the histories at `paths` over HTTP and expects each to match the `name`
   * union, and every branch of the union to have been seen: each value of its discriminator; one
   * custom field (`fields.<id>`) when the union has one beside its built-in branches
   * (`<name>BuiltIn`); with `updatedChanges`, every property the `updated` branch's `changes` may hold.
   */
  async function expectEveryBranchTyped(
    ws: TestWorkspace,
    name: string,
    paths: string[],
    options: { updatedChanges?: boolean } = {},
  ): Promise<void> {
    const schemas = document.components.schemas
    const union = schemas[`${name}BuiltIn`] ?? schemas[name]
    const by: string = union.discriminator.propertyName
    const expected = Object.keys(union.discriminator.mapping)
    if (schemas[`${name}BuiltIn`]) expected.push('fields.<id>')
    if (options.updatedChanges)
      for (const f of Object.keys(schemas[`${name}Updated`].properties.changes.properties))
        expected.push(`changes.${f}`)
    const matches = createComponentValidator(document, name)
    const seen = new Set<string>()
    const mismatches: string[] = []
    for (const path of paths) {
      for (const entry of await readAll(ws, path, 100)) {
        seen.add(entry[by].startsWith('fields.') ? 'fields.<id>' : entry[by])
        if (options.updatedChanges && entry.action === 'updated')
          for (const f of Object.keys(entry.changes)) seen.add(`changes.${f}`)
        const errors = matches(entry)
        if (errors) mismatches.push(`${entry[by]}: ${errors} in ${JSON.stringify(entry)}`)
      }
    }
    expect(mismatches, `${name} entries that do not match their branch`).toEqual([])
    expect(
      expected.filter((b) => !seen.has(b)),
      `${name} branches never seen`,
    ).toEqual([])
  }

  /** POST and PATCH as the workspace's owner, expecting success; they answer the body. */
  const writes = (ws: TestWorkspace) => ({
    post: async (path: string, body?: unknown) => {
      const res = await ws.api.post(path, body)
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
      return res.body
    },
    patch: async (path: string, body: unknown) => {
      const res = await ws.api.patch(path, body)
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200)
      return res.body
    },
  })

  // Each test compiles validators against the whole document (Ajv): slow on two busy cores, hence 120 s.
  it('types every task history entry as the writers record it', async () => {
    const ws = await newWorkspace(server)
    const member = await ws.addMember('member')
    const org = `/v1/orgs/${ws.orgId}`
    const tasks = `${org}/tasks`
    const { post, patch } = writes(ws)
    const label = await post(`${org}/labels`, { name: 'Bug' })
    const other = await post(`${org}/labels`, { name: 'Chore' })
    const notes = await post(`${org}/custom-fields`, { name: 'Notes', type: 'text' })
    const cycle = await post(`${org}/teams/${ws.teamId}/cycles`, { startsAt: at(0), endsAt: at(14) })
    const project = await post(`${org}/projects`, { name: 'P', teamIds: [ws.teamId] })
    const milestone = await post(`${org}/projects/${project.id}/milestones`, { name: 'M' })
    const design = await post(`${org}/teams`, { name: 'Design', key: 'DES' })
    const parent = await post(tasks, { teamId: ws.teamId, title: 'Parent' })
    const blocker = await post(tasks, { teamId: ws.teamId, title: 'Blocker' })
    const related = await post(tasks, { teamId: ws.teamId, title: 'Related' })
    const original = await post(tasks, { teamId: ws.teamId, title: 'Original' })
    const task = await post(tasks, {
      teamId: ws.teamId,
      title: 'Task',
      labelIds: [label.id],
      fields: { [notes.id]: 'first' },
    })
    const path = `${tasks}/${task.id}`
    await patch(path, {
      title: 'Task, renamed',
      description: 'Some **Markdown**.',
      assigneeId: member.memberId,
      priority: 'high',
      estimate: 3,
      dueDate: '2030-04-15',
      startDate: '2030-04-01',
      parentId: parent.id,
      cycleId: cycle.id,
      projectId: project.id,
      milestoneId: milestone.id,
      stateId: ws.states['In Progress']!.id,
    })
    await patch(path, { description: null, estimate: null, dueDate: null, fields: { [notes.id]: null } })
    expect((await ws.api.put(`${path}/labels/${other.id}`)).status).toBe(200)
    expect((await ws.api.delete(`${path}/labels/${label.id}`)).status).toBeLessThan(300)
    await patch(path, { fields: { [notes.id]: 'again' } })
    await patch(path, { fields: { [notes.id]: null } })
    expect((await ws.api.put(`${path}/blockers/${blocker.id}`)).status).toBe(200)
    expect((await ws.api.delete(`${path}/blockers/${blocker.id}`)).status).toBeLessThan(300)
    expect((await ws.api.put(`${path}/relations/${related.id}`, { type: 'related' })).status).toBe(200)
    expect((await ws.api.delete(`${path}/relations/${related.id}`)).status).toBeLessThan(300)
    expect((await ws.api.put(`${path}/subscribers/${member.memberId}`)).status).toBeLessThan(300)
    expect((await ws.api.delete(`${path}/subscribers/${member.memberId}`)).status).toBeLessThan(300)
    const link = await post(`${path}/links`, { url: 'https://example.com/spec', title: 'Spec' })
    await patch(`${org}/links/${link.id}`, { title: null })
    expect((await ws.api.delete(`${org}/links/${link.id}`)).status).toBeLessThan(300)
    await post(`${path}/archive`)
    await post(`${path}/restore`)
    // Archiving a parent with `children=detach` takes its subtask out.
    await post(`${tasks}/${parent.id}/archive?children=detach`)
    // A move to another team: its key, team, state (and the cycle of the old team) change.
    const mover = await post(tasks, { teamId: ws.teamId, title: 'Mover', cycleId: cycle.id })
    await patch(`${tasks}/${mover.id}`, { teamId: design.id })
    // Marking a duplicate records `duplicateOf` on it, `duplicatedBy` on the original.
    expect((await ws.api.put(`${path}/relations/${original.id}`, { type: 'duplicateOf' })).status).toBe(200)

    await expectEveryBranchTyped(
      ws,
      'TaskHistoryEntry',
      [task, parent, blocker, related, original, mover].map((t) => `${tasks}/${t.id}/history`),
    )
  }, 120_000)

  it('types every project history entry as the writers record it', async () => {
    const ws = await newWorkspace(server)
    const member = await ws.addMember('member')
    const org = `/v1/orgs/${ws.orgId}`
    const { post } = writes(ws)
    const status = async (category: string) =>
      (await ws.api.get(`${org}/project-statuses`)).body.data.find((s: any) => s.category === category).id
    const label = await post(`${org}/labels`, { name: 'Bet' })
    const budget = await post(`${org}/custom-fields`, {
      name: 'Budget',
      type: 'number',
      recordKinds: ['project'],
    })
    // The lead stays a member; another one joins and leaves.
    const joiner = await ws.addMember('member')
    const design = await post(`${org}/teams`, { name: 'Design', key: 'DES' })
    const project = await post(`${org}/projects`, { name: 'P', teamIds: [ws.teamId] })
    const blocked = await post(`${org}/projects`, { name: 'Q', teamIds: [ws.teamId] })
    const path = `${org}/projects/${project.id}`
    const changed = await ws.api.patch(path, {
      name: 'P2',
      description: 'Why it matters.',
      icon: '🚀',
      color: '#ff0000',
      leadId: member.memberId,
      priority: 'high',
      startDate: '2030-04-01',
      targetDate: '2030-04-15',
      updateCadence: 'weekly',
      updateWeekday: 'tuesday',
      statusId: await status('started'),
    })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect((await ws.api.patch(path, { icon: null, targetDate: null })).status).toBeLessThan(300)
    expect((await ws.api.patch(path, { statusId: await status('completed') })).status).toBeLessThan(300)
    await post(`${path}/archive`)
    await post(`${path}/restore`)
    expect((await ws.api.put(`${path}/teams/${design.id}`)).status).toBeLessThan(300)
    expect((await ws.api.delete(`${path}/teams/${design.id}`)).status).toBeLessThan(300)
    expect((await ws.api.put(`${path}/members/${joiner.memberId}`)).status).toBeLessThan(300)
    expect((await ws.api.delete(`${path}/members/${joiner.memberId}`)).status).toBeLessThan(300)
    expect((await ws.api.put(`${path}/labels/${label.id}`)).status).toBe(200)
    expect((await ws.api.delete(`${path}/labels/${label.id}`)).status).toBeLessThan(300)
    const milestone = await post(`${path}/milestones`, { name: 'M' })
    expect((await ws.api.patch(`${org}/milestones/${milestone.id}`, { name: 'M2' })).status).toBeLessThan(300)
    expect((await ws.api.delete(`${org}/milestones/${milestone.id}`)).status).toBeLessThan(300)
    const relation = await post(`${path}/relations`, { type: 'blocks', relatedProjectId: blocked.id })
    expect((await ws.api.delete(`${org}/project-relations/${relation.id}`)).status).toBeLessThan(300)
    expect((await ws.api.patch(path, { fields: { [budget.id]: 12.5 } })).status).toBeLessThan(300)
    expect((await ws.api.patch(path, { fields: { [budget.id]: null } })).status).toBeLessThan(300)

    // Canceling is the other closing path; it stamps `canceledAt` (closing tests cover its rules).
    const canceled = await post(`${org}/projects`, { name: 'C', teamIds: [ws.teamId] })
    const cancel = await ws.api.patch(`${org}/projects/${canceled.id}`, {
      statusId: await status('canceled'),
    })
    expect(cancel.status, JSON.stringify(cancel.body)).toBeLessThan(300)

    await expectEveryBranchTyped(ws, 'ProjectHistoryEntry', [
      `${path}/history`,
      `${org}/projects/${canceled.id}/history`,
    ])
  }, 120_000)

  it('types every program history entry as the writers record it', async () => {
    const ws = await newWorkspace(server)
    const member = await ws.addMember('member')
    const org = `/v1/orgs/${ws.orgId}`
    const { post } = writes(ws)
    const label = await post(`${org}/labels`, { name: 'Theme' })
    const project = await post(`${org}/projects`, { name: 'P', teamIds: [ws.teamId] })
    const program = await post(`${org}/programs`, { name: 'Platform' })
    const path = `${org}/programs/${program.id}`
    const changed = await ws.api.patch(path, {
      name: 'Platform 2',
      description: 'The ground we build on.',
      icon: '🧱',
      color: '#00ff00',
      ownerId: member.memberId,
      status: 'paused',
    })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect((await ws.api.patch(path, { status: 'retired' })).status).toBeLessThan(300)
    expect((await ws.api.patch(path, { status: 'active', ownerId: null })).status).toBeLessThan(300)
    await post(`${path}/archive`)
    await post(`${path}/restore`)
    expect((await ws.api.put(`${path}/projects/${project.id}`)).status).toBeLessThan(300)
    expect((await ws.api.delete(`${path}/projects/${project.id}`)).status).toBeLessThan(300)
    expect((await ws.api.put(`${path}/members/${member.memberId}`)).status).toBeLessThan(300)
    expect((await ws.api.delete(`${path}/members/${member.memberId}`)).status).toBeLessThan(300)
    expect((await ws.api.put(`${path}/teams/${ws.teamId}`)).status).toBeLessThan(300)
    expect((await ws.api.delete(`${path}/teams/${ws.teamId}`)).status).toBeLessThan(300)
    expect((await ws.api.put(`${path}/labels/${label.id}`)).status).toBe(200)
    expect((await ws.api.delete(`${path}/labels/${label.id}`)).status).toBeLessThan(300)

    await expectEveryBranchTyped(ws, 'ProgramHistoryEntry', [`${path}/history`])
  }, 120_000)

  it('types every initiative history entry as the writers record it', async () => {
    const ws = await newWorkspace(server)
    const member = await ws.addMember('member')
    const org = `/v1/orgs/${ws.orgId}`
    const ok = async (res: Promise<{ status: number; body: any }>, what: string) => {
      const answer = await res
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeLessThan(300)
      return answer.body
    }
    const label = await ok(ws.api.post(`${org}/labels`, { name: 'Goal' }), 'label')
    const first = await ok(ws.api.post(`${org}/projects`, { name: 'P', teamIds: [ws.teamId] }), 'project')
    const second = await ok(ws.api.post(`${org}/projects`, { name: 'Q', teamIds: [ws.teamId] }), 'project')
    const program = await ok(ws.api.post(`${org}/programs`, { name: 'Platform' }), 'program')
    const parent = await ok(ws.api.post(`${org}/initiatives`, { name: 'Parent' }), 'parent')
    const initiative = await ok(ws.api.post(`${org}/initiatives`, { name: 'Grow' }), 'create')
    const path = `${org}/initiatives/${initiative.id}`
    await ok(
      ws.api.patch(path, {
        name: 'Grow more',
        description: 'Why it matters.',
        ownerId: member.memberId,
        targetDate: '2030-06-30',
        parentId: parent.id,
        status: 'active',
      }),
      'update',
    )
    await ok(ws.api.patch(path, { status: 'completed' }), 'complete')
    await ok(ws.api.patch(path, { status: 'canceled', ownerId: null, parentId: null }), 'cancel')
    await ok(ws.api.put(`${path}/labels/${label.id}`), 'label add')
    await ok(ws.api.delete(`${path}/labels/${label.id}`), 'label remove')
    await ok(ws.api.put(`${path}/projects/${first.id}`), 'project add')
    await ok(ws.api.put(`${path}/projects/${second.id}`), 'project add')
    await ok(ws.api.post(`${path}/projects/${second.id}/move`, { beforeId: first.id }), 'project move')
    await ok(ws.api.delete(`${path}/projects/${first.id}`), 'project remove')
    await ok(ws.api.put(`${path}/programs/${program.id}`), 'program add')
    await ok(ws.api.delete(`${path}/programs/${program.id}`), 'program remove')
    await ok(ws.api.put(`${path}/members/${member.memberId}`), 'member add')
    await ok(ws.api.delete(`${path}/members/${member.memberId}`), 'member remove')
    const metric = { unit: 'currency', currencyCode: 'EUR', precision: 2, initial: 10, target: 50 }
    await ok(ws.api.put(`${path}/metric`, metric), 'metric set')
    await ok(ws.api.post(`${path}/metric/values`, { value: 20 }), 'metric value')
    await ok(ws.api.put(`${path}/metric`, { ...metric, progressSource: 'projects' }), 'metric reset')
    await ok(ws.api.delete(`${path}/metric`), 'metric delete')
    await ok(ws.api.post(`${path}/archive`), 'archive')
    await ok(ws.api.post(`${path}/restore`), 'restore')

    await expectEveryBranchTyped(ws, 'InitiativeHistoryEntry', [`${path}/history`], { updatedChanges: true })
  }, 120_000)
})

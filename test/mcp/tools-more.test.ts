import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'
import { connect, hintsOf, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP tools for reactions, comment threads, labels, followers, links, cadence', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  async function owner() {
    const ws = await newWorkspace(server)
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    return { ws, client }
  }
  const labelsOf = async (ws: TestWorkspace, key: string) => {
    const task = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/by-key/${key}`)
    const names = await Promise.all(
      task.body.labelIds.map(
        async (id: string) => (await ws.api.get(`/v1/orgs/${ws.orgId}/labels/${id}`)).body.name,
      ),
    )
    return names.sort()
  }

  it('lists the new tools with honest hints', async () => {
    const { client } = await owner()
    const { tools } = await client.listTools()
    const hints = Object.fromEntries(tools.map((t) => [t.name, hintsOf(t)]))
    expect(hints.manage_comment).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    })
    expect(hints.react_to_task).toMatchObject({ readOnlyHint: false, destructiveHint: false })
    expect(hints.manage_label).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    })
    expect(hints.follow_task).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    })
    expect(hints.task_links).toMatchObject({ readOnlyHint: false, destructiveHint: true })
    expect(hints.cycle_settings).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    })
    for (const t of tools) expect(JSON.stringify(t.inputSchema)).not.toContain('"anyOf"')
  })

  it('edits, reacts to, resolves and deletes a comment; reacts to a task', async () => {
    const { client } = await owner()
    await tool(client, 'create_task', { team: 'ENG', title: 'Checkout' })
    const c = await tool(client, 'comment', { task: 'ENG-1', body: 'Ship it?' })
    expect(
      await tool(client, 'manage_comment', { comment: c.id, action: 'edit', body: 'Ship it today?' }),
    ).toEqual({
      comment: c.id,
      task: 'ENG-1',
      resolved: false,
      deleted: false,
      edited: true,
    })
    expect(await tool(client, 'manage_comment', { comment: c.id, action: 'react', emoji: '👍' })).toEqual({
      comment: c.id,
      reactions: [{ emoji: '👍', count: 1, mine: true }],
    })
    const twice = await tool(client, 'manage_comment', { comment: c.id, action: 'react', emoji: '👍' })
    expect(twice.error).toMatchObject({ code: 'already_exists', status: 409 })
    expect(
      (await tool(client, 'manage_comment', { comment: c.id, action: 'unreact', emoji: '👍' })).reactions,
    ).toEqual([])
    // Taking back a reaction that is not there changes nothing.
    expect(
      (await tool(client, 'manage_comment', { comment: c.id, action: 'unreact', emoji: '👍' })).reactions,
    ).toEqual([])
    expect((await tool(client, 'manage_comment', { comment: c.id, action: 'resolve' })).resolved).toBe(true)
    expect((await tool(client, 'manage_comment', { comment: c.id, action: 'unresolve' })).resolved).toBe(
      false,
    )
    const missing = await tool(client, 'manage_comment', { comment: c.id, action: 'edit' })
    expect(missing.error).toMatchObject({ code: 'validation_failed' })
    expect((await tool(client, 'manage_comment', { comment: c.id, action: 'delete' })).deleted).toBe(true)
    expect((await tool(client, 'get_task', { task: 'ENG-1' })).comments[0]).toMatchObject({
      body: '(deleted)',
    })

    expect(await tool(client, 'react_to_task', { task: 'eng-1', emoji: '🎉' })).toEqual({
      task: 'eng-1',
      reactions: [{ emoji: '🎉', count: 1, mine: true }],
    })
    expect(
      (await tool(client, 'react_to_task', { task: 'ENG-1', emoji: '🎉', remove: true })).reactions,
    ).toEqual([])
  })

  it('renames, regroups, archives and restores a label by name', async () => {
    const { ws, client } = await owner()
    await tool(client, 'create_label', { name: 'Bug', team: 'ENG' })
    await tool(client, 'create_label', { name: 'Kind', team: 'ENG', isGroup: true })
    const updated = await tool(client, 'manage_label', {
      label: 'bug',
      action: 'update',
      name: 'Defect',
      color: '#ff0000',
      group: 'Kind',
    })
    expect(updated).toMatchObject({ name: 'Defect', color: '#ff0000', archived: false })
    expect(await tool(client, 'manage_label', { label: 'Kind/Defect', action: 'archive' })).toMatchObject({
      archived: true,
    })
    // An archived label is no longer a name to use …
    expect((await tool(client, 'manage_label', { label: 'Defect', action: 'archive' })).error).toMatchObject({
      code: 'unknown_name',
    })
    // … but restore finds it among the archived ones.
    expect(
      await tool(client, 'manage_label', { label: 'Defect', action: 'restore', team: 'ENG' }),
    ).toMatchObject({
      name: 'Defect',
      archived: false,
    })
    const rest = await ws.api.get(`/v1/orgs/${ws.orgId}/labels/${updated.id}`)
    expect(rest.body).toMatchObject({ name: 'Defect', archivedAt: null })
    expect((await tool(client, 'manage_label', { label: 'Defect', action: 'update' })).error).toMatchObject({
      code: 'validation_failed',
    })
  })

  it('follows and unfollows a task, for oneself and for someone else', async () => {
    const { ws, client } = await owner()
    const ada = await ws.addMember('member')
    await tool(client, 'create_task', { team: 'ENG', title: 'Checkout' })
    const subscribers = async () => {
      const task = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/by-key/ENG-1`)
      const page = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${task.body.id}/subscribers`)
      return page.body.data.map((s: any) => s.actorId)
    }
    expect(await tool(client, 'follow_task', { task: 'ENG-1', person: ada.user.email })).toEqual({
      task: 'ENG-1',
      person: ada.user.email,
      following: true,
    })
    expect(await subscribers()).toContain(ada.memberId)
    const adaClient = await connect(server, await mcpToken(server, ada.user.id))
    expect((await tool(adaClient, 'follow_task', { task: 'ENG-1', unfollow: true })).following).toBe(false)
    expect(await subscribers()).not.toContain(ada.memberId)
    // Subscribing someone else needs `manage`: a member is refused, as over REST.
    const other = await tool(adaClient, 'follow_task', {
      task: 'ENG-1',
      person: ws.owner.user.email,
      unfollow: true,
    })
    expect(other.error).toMatchObject({ status: 403 })
  })

  it("adds, updates and removes a task's links, naming them by URL", async () => {
    const { client } = await owner()
    await tool(client, 'create_task', { team: 'ENG', title: 'Checkout' })
    const added = await tool(client, 'task_links', {
      task: 'ENG-1',
      action: 'add',
      url: 'https://example.com/spec',
      title: 'Spec',
    })
    expect(added).toMatchObject({
      task: 'ENG-1',
      links: [{ url: 'https://example.com/spec', title: 'Spec' }],
      more: false,
    })
    const renamed = await tool(client, 'task_links', {
      task: 'ENG-1',
      action: 'update',
      link: 'https://example.com/spec',
      title: 'Spec v2',
    })
    expect(renamed.links).toEqual([
      { id: added.links[0].id, url: 'https://example.com/spec', title: 'Spec v2' },
    ])
    const gone = await tool(client, 'task_links', {
      task: 'ENG-1',
      action: 'remove',
      link: 'https://nope.example',
    })
    expect(gone.error).toMatchObject({ code: 'not_found' })
    expect(
      (await tool(client, 'task_links', { task: 'ENG-1', action: 'remove', link: added.links[0].id })).links,
    ).toEqual([])
  })

  it("reads and changes a team's cycle cadence", async () => {
    const { client } = await owner()
    expect(await tool(client, 'cycle_settings', { team: 'Engineering' })).toMatchObject({
      team: 'Engineering',
      enabled: false,
      durationWeeks: 2,
    })
    const on = await tool(client, 'cycle_settings', {
      team: 'eng',
      enabled: true,
      durationWeeks: 1,
      autoCreateCount: 2,
    })
    expect(on).toMatchObject({ enabled: true, durationWeeks: 1, autoCreateCount: 2 })
    expect(on.teamId).toBeUndefined()
    expect((await tool(client, 'list_cycles', { team: 'ENG' })).cycles.length).toBeGreaterThanOrEqual(2)
    const bad = await tool(client, 'cycle_settings', { team: 'ENG', durationWeeks: 9 })
    expect(bad.error).toMatchObject({ status: 400 })
  })

  it('decides permissions as REST does: a commenting guest reacts and resolves but cannot change a label', async () => {
    const { ws, client } = await owner()
    const bug = await tool(client, 'create_label', { name: 'Bug', team: 'ENG' })
    await tool(client, 'create_task', { team: 'ENG', title: 'Checkout' })
    const c = await tool(client, 'comment', { task: 'ENG-1', body: 'Thread' })
    const guest = await teamGuest(ws, 'comment')
    const token = await mcpToken(server, guest.user.id, ['work:read', 'work:write'])
    const gc = await connect(server, token)
    expect((await tool(gc, 'react_to_task', { task: 'ENG-1', emoji: '👀' })).reactions).toHaveLength(1)
    expect((await tool(gc, 'manage_comment', { comment: c.id, action: 'resolve' })).resolved).toBe(true)
    expect((await tool(gc, 'follow_task', { task: 'ENG-1' })).following).toBe(true)
    const mcp = await tool(gc, 'manage_label', { label: 'Bug', action: 'update', name: 'Defect' })
    const rest = await server.request('PATCH', `/v1/orgs/${ws.orgId}/labels/${bug.id}`, {
      token,
      body: { name: 'Defect' },
    })
    expect(rest.status).toBe(403)
    expect(mcp.error).toMatchObject({ code: rest.body.code, status: rest.status })
    const links = await tool(gc, 'task_links', { task: 'ENG-1', action: 'add', url: 'https://example.com' })
    expect(links.error).toMatchObject({ code: 'capability_required', status: 403 })
    expect(await labelsOf(ws, 'ENG-1')).toEqual([])
  })

  it('label_task is atomic: a bad last label changes nothing', async () => {
    const { ws, client } = await owner()
    for (const name of ['Bug', 'Feature']) await tool(client, 'create_label', { name, team: 'ENG' })
    await tool(client, 'create_label', { name: 'Size', isGroup: true })
    await tool(client, 'create_task', { team: 'ENG', title: 'Checkout' })
    await tool(client, 'label_task', { task: 'ENG-1', add: ['Bug'] })

    // An unknown name: nothing runs, and the pointer names the argument.
    const unknown = await tool(client, 'label_task', {
      task: 'ENG-1',
      remove: ['Bug'],
      add: ['Feature', 'Nope'],
    })
    expect(unknown.error).toMatchObject({ code: 'unknown_name', errors: [{ pointer: '/arguments/add/1' }] })
    expect(await labelsOf(ws, 'ENG-1')).toEqual(['Bug'])

    // A label that resolves but cannot go on a task (a group): the earlier changes are rolled back.
    const group = await tool(client, 'label_task', {
      task: 'ENG-1',
      remove: ['Bug'],
      add: ['Feature', 'Size'],
    })
    expect(group.error).toMatchObject({
      code: 'reference_not_found',
      status: 422,
      errors: [{ pointer: '/arguments/add/1' }],
    })
    expect(await labelsOf(ws, 'ENG-1')).toEqual(['Bug'])

    expect(await tool(client, 'label_task', { task: 'ENG-1', remove: ['Bug'], add: ['Feature'] })).toEqual({
      key: 'ENG-1',
      labels: ['Feature'],
    })
  })

  it('organize applies the new actions in one plan, or none of them', async () => {
    const { ws, client } = await owner()
    const ada = await ws.addMember('member')
    await tool(client, 'create_task', { team: 'ENG', title: 'Checkout' })
    const c = await tool(client, 'comment', { task: 'ENG-1', body: 'Thread' })
    const steps = [
      { action: 'create_label', handle: 'old', name: 'Old', team: 'ENG' },
      { action: 'update_label', label: '$old', name: 'Legacy', color: '#123456' },
      { action: 'subscribe', task: 'ENG-1', person: ada.user.email },
      { action: 'add_link', task: 'ENG-1', url: 'https://example.com/doc', title: 'Doc' },
      { action: 'react', task: 'ENG-1', emoji: '🚀' },
      { action: 'react', comment: c.id, emoji: '👍' },
      { action: 'resolve_comment', comment: c.id },
      { action: 'archive_label', label: '$old' },
    ]
    // A failing last step (an unknown comment) leaves everything as it was.
    const failed = await tool(client, 'organize', {
      steps: [...steps, { action: 'resolve_comment', comment: 'cmt_01JD3Q2R4S5T6V7W8X9YZABCDE' }],
    })
    expect(failed.error).toMatchObject({ code: 'not_found', step: 8 })
    expect((await tool(client, 'task_links', { task: 'ENG-1', action: 'list' })).links).toEqual([])
    expect((await tool(client, 'react_to_task', { task: 'ENG-1', emoji: '🚀' })).reactions).toHaveLength(1)
    await tool(client, 'react_to_task', { task: 'ENG-1', emoji: '🚀', remove: true })

    const report = await tool(client, 'organize', { steps })
    expect(report.steps.map((s: any) => [s.action, s.type, s.key, s.changed])).toEqual([
      ['create_label', 'label', null, ['name', 'team']],
      ['update_label', 'label', null, ['name', 'color']],
      ['subscribe', 'task', 'ENG-1', ['subscribers']],
      ['add_link', 'task', 'ENG-1', ['links']],
      ['react', 'task', 'ENG-1', ['reactions']],
      ['react', 'comment', 'ENG-1', ['reactions']],
      ['resolve_comment', 'comment', 'ENG-1', ['resolvedAt']],
      ['archive_label', 'label', null, ['archivedAt']],
    ])
    expect((await tool(client, 'task_links', { task: 'ENG-1', action: 'list' })).links).toMatchObject([
      { url: 'https://example.com/doc', title: 'Doc' },
    ])
    const comment = await ws.api.get(`/v1/orgs/${ws.orgId}/comments/${c.id}`)
    expect(comment.body.resolvedAt).not.toBeNull()
    const label = await ws.api.get(`/v1/orgs/${ws.orgId}/labels/${report.steps[0].id}`)
    expect(label.body).toMatchObject({ name: 'Legacy', color: '#123456' })
    expect(label.body.archivedAt).not.toBeNull()

    // Shape checks: react needs exactly one target, update_label a field to change.
    const shape = await tool(client, 'organize', {
      steps: [
        { action: 'react', emoji: '👍' },
        { action: 'update_label', label: 'Legacy' },
      ],
    })
    expect(shape.error).toMatchObject({ code: 'rule_violated' })
    expect(shape.error.errors.map((e: any) => e.pointer)).toEqual(['/body/steps/0', '/body/steps/1'])
  })
})

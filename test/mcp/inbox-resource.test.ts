import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { newId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken } from './support.ts'

const INBOX = 'workgraph://me/inbox'

/**
 * The inbox as an MCP resource: Alice owns A and is a member of B. Her unread notifications of both
 * read as one resource, and its subscribers hear when one arrives or changes, never of anyone else's.
 */
describeEachDatabase('MCP inbox resource', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('lists and reads her unread notifications of every workspace, and notifies her subscription', async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server)
    const alice = a.owner
    const aliceInA = (await a.api.get(`/v1/orgs/${a.orgId}/members`)).body.data[0].id
    const aliceInB = newId('MemberId')
    const now = new Date().toISOString()
    await server.storage.transaction((s) =>
      s.members.insert({
        id: aliceInB,
        orgId: b.orgId,
        userId: alice.user.id,
        kind: 'person',
        role: 'member',
        status: 'active',
        createdAt: now,
        updatedAt: now,
      }),
    )
    const bob = await a.addMember('member')
    const notify = () => server.engine.notify({ onError: (e) => console.error(e) })

    const client = await connect(server, await mcpToken(server, alice.user.id))
    const { resources } = await client.listResources()
    expect(resources[0]).toMatchObject({ uri: INBOX, mimeType: 'application/json' })
    const read = async () =>
      JSON.parse(((await client.readResource({ uri: INBOX })).contents[0] as { text: string }).text)
    expect(await read()).toEqual({ unread: 0, notifications: [], more: false, partial: [] })

    const updates: string[] = []
    let wanted = 0
    let arrived: () => void = () => {}
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri)
      if (updates.length >= wanted) arrived()
    })
    const expectNotified = async (count: number, act: () => Promise<unknown>) => {
      wanted = updates.length + count
      const done = new Promise<void>((resolve) => {
        arrived = resolve
      })
      await act()
      await done
    }
    await client.subscribeResource({ uri: INBOX })

    // B's owner assigns her a task: a notification in B arrives.
    await b.api.post(`/v1/orgs/${b.orgId}/tasks`, { teamId: b.teamId, title: 'In B', assigneeId: aliceInB })
    await expectNotified(1, notify)
    expect(updates).toEqual([INBOX])
    const first = await read()
    expect(first).toMatchObject({ unread: 1, more: false, partial: [] })
    expect(first.notifications.map((n: any) => [n.orgId, n.kind])).toEqual([[b.orgId, 'assigned']])

    // Bob's notification in A is not hers: only her own next one is heard.
    await a.api.post(`/v1/orgs/${a.orgId}/tasks`, {
      teamId: a.teamId,
      title: 'For Bob',
      assigneeId: bob.memberId,
    })
    await notify()
    const before = updates.length
    await bob.api.post(`/v1/orgs/${a.orgId}/tasks`, { teamId: a.teamId, title: 'In A', assigneeId: aliceInA })
    await expectNotified(1, notify)
    expect(updates.slice(before)).toEqual([INBOX])
    const second = await read()
    expect(second.unread).toBe(2)
    expect(new Set(second.notifications.map((n: any) => n.orgId))).toEqual(new Set([a.orgId, b.orgId]))

    // Reading one in B changes the inbox: heard, and it leaves the unread list.
    const inB = first.notifications[0].id
    await expectNotified(1, () =>
      client.callTool({ name: 'inbox', arguments: { markRead: [{ workspace: b.orgId, id: inB }] } }),
    )
    const third = await read()
    expect(third.unread).toBe(1)
    expect(third.notifications.map((n: any) => n.orgId)).toEqual([a.orgId])

    // After unsubscribing, nothing more is heard.
    await client.unsubscribeResource({ uri: INBOX })
    const after = updates.length
    await b.api.post(`/v1/orgs/${b.orgId}/tasks`, { teamId: b.teamId, title: 'Later', assigneeId: aliceInB })
    await notify()
    await new Promise((r) => setTimeout(r, 200))
    expect(updates.length).toBe(after)
    await client.close()
  })
})

import type { OrgId } from '@workgraph/core'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../support/matrix.ts'
import { createTask, recordingSink, testBroker, useBrokerServer } from '../support/stream-broker.ts'
import { newWorkspace } from '../support/workspace.ts'

// A server runs for months and hears a notice for every write in every workspace: the broker must
// keep nothing for a workspace once no stream of it is open or being opened, or its memory grows
// with every workspace that ever wrote.
describeEachDatabase('a long-lived stream broker', (db) => {
  const server = useBrokerServer(db)

  it('keeps nothing for workspaces whose notices it heard without a stream', async () => {
    const { hub, broker } = testBroker(server().storage)
    try {
      for (let i = 0; i < 20; i++) hub.publish({ orgId: `org_${i}` as OrgId, seq: i + 1 })
      expect(broker.workspaces).toBe(0)
    } finally {
      broker.close()
    }
  })

  it('forgets a workspace once its last stream has closed, and still delivers to the next one', async () => {
    const { hub, broker } = testBroker(server().storage)
    const spaces = [await newWorkspace(server()), await newWorkspace(server())]
    try {
      for (const [i, ws] of spaces.entries()) {
        const stream = recordingSink()
        const close = await broker.subscribe(
          ws.owner.principal,
          { orgId: ws.orgId, from: 'now' },
          stream.sink,
        )
        await createTask(server(), ws, `first ${i}`, hub)
        expect(await stream.until(`first ${i}`)).toEqual([`first ${i}`])
        expect(broker.workspaces).toBe(1)
        close()
        await createTask(server(), ws, `unheard ${i}`, hub)
        expect(broker.workspaces).toBe(0)
      }

      // A workspace forgotten is read afresh by its next stream: nothing written meanwhile is skipped.
      const [ws] = spaces
      const again = recordingSink()
      await broker.subscribe(ws!.owner.principal, { orgId: ws!.orgId, from: 'now' }, again.sink)
      await createTask(server(), ws!, 'after', hub)
      expect(await again.until('after')).toEqual(['after'])
    } finally {
      broker.close()
    }
  })

  it('keeps nothing for a workspace whose stream was refused', async () => {
    const { broker } = testBroker(server().storage)
    const [mine, theirs] = [await newWorkspace(server()), await newWorkspace(server())]
    try {
      await expect(
        broker.subscribe(mine.owner.principal, { orgId: theirs.orgId }, recordingSink().sink),
      ).rejects.toMatchObject({ code: 'not_found' })
      await expect(
        broker.subscribe(
          mine.owner.principal,
          { orgId: mine.orgId, cursor: 'not a cursor' },
          recordingSink().sink,
        ),
      ).rejects.toThrow()
      expect(broker.workspaces).toBe(0)
    } finally {
      broker.close()
    }
  })
})

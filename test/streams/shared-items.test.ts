import { expect, it } from 'vitest'
import { decodeStreamCursor } from '../../packages/core/src/streams/cursor.ts'
import { joinWorkspace } from '../support/hub-workspaces.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { createTask, recordingSink, testBroker, useBrokerServer } from '../support/stream-broker.ts'
import { newWorkspace } from '../support/workspace.ts'

// A round makes a page's items once for all the streams of a group at the same positions. A stream
// that also follows another workspace is at the same position here but has a cursor of its own:
// resuming from it must not lose its place in the other workspace.
describeEachDatabase('streams that read the same page in a round', (db) => {
  const server = useBrokerServer(db)

  it('each get the page with the cursors of their own positions', async () => {
    const [a, b] = [await newWorkspace(server()), await newWorkspace(server())]
    const person = a.owner
    await joinWorkspace(server(), b, person.user.id, 'member')
    await createTask(server(), b, 'in b')
    const { hub, broker, cursors } = testBroker(server().storage)
    try {
      const [first, second, everywhere] = [recordingSink(), recordingSink(), recordingSink()]
      await broker.subscribe(person.principal, { orgId: a.orgId, from: 'now' }, first.sink)
      await broker.subscribe(person.principal, { orgId: a.orgId, from: 'now' }, second.sink)
      await broker.subscribe(person.principal, { from: 'now' }, everywhere.sink)
      const inB = (await server().storage.read((s) => s.events.bounds(b.orgId))).last

      // Two events in one page: every stream gets both, in order.
      await createTask(server(), a, 'one')
      await createTask(server(), a, 'two', hub)
      for (const stream of [first, second, everywhere])
        expect(await stream.until('two')).toEqual(['one', 'two'])

      const created = (stream: ReturnType<typeof recordingSink>) =>
        stream.items.flatMap((i) =>
          i.type === 'event' && i.event.kind === 'task.created'
            ? [{ seq: i.event.seq, positions: Object.fromEntries(decodeStreamCursor(cursors, i.cursor)) }]
            : [],
        )
      const seqs = created(first).map((c) => c.seq)
      expect(created(first)).toEqual(seqs.map((seq) => ({ seq, positions: { [a.orgId]: seq } })))
      expect(created(second)).toEqual(created(first))
      expect(created(everywhere)).toEqual(
        seqs.map((seq) => ({ seq, positions: { [a.orgId]: seq, [b.orgId]: inB } })),
      )
    } finally {
      broker.close()
    }
  })
})

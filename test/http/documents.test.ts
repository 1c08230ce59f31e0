import { DOCUMENT_CONTENT_MAX } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/** Walks every page of a list with the given page size and answers all items in order. */
async function walk(api: TestWorkspace['api'], path: string, limit: number): Promise<any[]> {
  const items: any[] = []
  let cursor: string | null = null
  const sep = path.includes('?') ? '&' : '?'
  do {
    const res: any = await api.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    items.push(...res.body.data)
    cursor = res.body.nextCursor
  } while (cursor)
  return items
}

describeEachDatabase('documents', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('creates, reads, lists by page and holder, edits, archives, restores and deletes, emitting events', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const project = (await ws.api.post(`${base}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
    const created = await ws.api.post(`${base}/documents`, {
      holderType: 'project',
      holderId: project.id,
      title: 'Design',
      content: '# Goal',
      icon: '📄',
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(`${base}/documents/${created.body.id}`)
    const me = created.body.creatorId
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^doc_/),
      holderType: 'project',
      holderId: project.id,
      title: 'Design',
      content: '# Goal',
      icon: '📄',
      version: 1,
      creatorId: expect.stringMatching(/^mem_/),
      lastEditorId: me,
      archivedAt: null,
    })
    const doc = created.body
    const teamDocs: string[] = []
    for (const title of ['One', 'Two', 'Three']) {
      const res = await ws.api.post(`${base}/documents`, { holderType: 'team', holderId: ws.teamId, title })
      expect(res.body).toMatchObject({ content: '', icon: null, version: 1 })
      teamDocs.push(res.body.id)
    }

    // Newest first, every document once whatever the page size.
    for (const limit of [1, 2, 5]) {
      const all = await walk(ws.api, `${base}/documents`, limit)
      expect(all.map((d) => d.title)).toEqual(['Three', 'Two', 'One', 'Design'])
    }
    const ofTeam = await walk(ws.api, `${base}/documents?holderType=team&holderId=${ws.teamId}`, 2)
    expect(ofTeam.map((d) => d.id)).toEqual([...teamDocs].reverse())
    const ofProject = await ws.api.get(`${base}/documents?holderType=project&holderId=${project.id}`)
    expect(ofProject.body.data.map((d: any) => d.id)).toEqual([doc.id])
    expect((await ws.api.get(`${base}/documents?holderType=project`)).body.data).toHaveLength(1)
    expect((await ws.api.get(`${base}/documents?creatorId=${me}`)).body.data).toHaveLength(4)
    const orphan = await ws.api.get(`${base}/documents?holderId=${project.id}`)
    expect(orphan).toMatchObject({ status: 422, body: { code: 'rule_violated' } })

    const item = `${base}/documents/${doc.id}`
    expect((await ws.api.get(item)).body).toEqual(doc)
    const renamed = await ws.api.patch(item, { title: 'Design v2', icon: null })
    expect(renamed.body).toMatchObject({ title: 'Design v2', icon: null, version: 1, content: '# Goal' })
    const edited = await ws.api.patch(item, { content: '# Goal\n\nShip it.' })
    expect(edited.body).toMatchObject({ version: 2, content: '# Goal\n\nShip it.' })
    // Nothing changed: no version, no event.
    expect((await ws.api.patch(item, { content: '# Goal\n\nShip it.' })).body.version).toBe(2)

    const archived = await ws.api.post(`${item}/archive`)
    expect(archived.body.archivedAt).not.toBeNull()
    expect((await ws.api.get(`${base}/documents`)).body.data.map((d: any) => d.id)).not.toContain(doc.id)
    expect((await ws.api.get(`${base}/documents?archived=only`)).body.data.map((d: any) => d.id)).toEqual([
      doc.id,
    ])
    expect((await ws.api.get(`${base}/documents?archived=include`)).body.data).toHaveLength(4)
    expect(await ws.api.patch(item, { title: 'x' })).toMatchObject({
      status: 409,
      body: { code: 'archived' },
    })
    expect((await ws.api.post(`${item}/restore`)).body.archivedAt).toBeNull()

    expect((await ws.api.delete(item)).status).toBe(204)
    expect((await ws.api.get(item)).status).toBe(404)
    expect((await ws.api.get(`${item}/versions`)).status).toBe(404)
    expect((await ws.api.delete(item)).status).toBe(404)

    const events = (await ws.api.get(`${base}/stream?limit=200`)).body.data.filter((e: any) =>
      e.kind.startsWith('document'),
    )
    expect(events.map((e: any) => e.kind)).toEqual([
      'document.created',
      'document.created',
      'document.created',
      'document.created',
      'document.updated',
      'document.updated',
      'document.archived',
      'document.restored',
      'document.deleted',
    ])
    const contentEdit = events[5]
    expect(contentEdit.data.changes).toEqual({ version: { before: 1, after: 2 } })
    expect(contentEdit.data.document).not.toHaveProperty('content')
    expect(events[4].data.changes).toEqual({
      title: { before: 'Design', after: 'Design v2' },
      icon: { before: '📄', after: null },
    })
    expect(events[0]).toMatchObject({ resourceType: 'document', resourceId: doc.id })
  })

  it('keeps every content as a version, pages them, and restores one as a new version', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const doc = (
      await ws.api.post(`${base}/documents`, {
        holderType: 'team',
        holderId: ws.teamId,
        title: 'T',
        content: 'v1',
      })
    ).body
    const item = `${base}/documents/${doc.id}`
    await ws.api.patch(item, { content: 'v2' })
    await ws.api.patch(item, { title: 'Title only' })
    await ws.api.patch(item, { content: 'v3' })

    const versions = await walk(ws.api, `${item}/versions`, 1)
    expect(versions.map((v) => [v.number, v.content])).toEqual([
      [3, 'v3'],
      [2, 'v2'],
      [1, 'v1'],
    ])
    expect(versions.every((v) => v.documentId === doc.id && v.authorId === doc.creatorId)).toBe(true)
    const first = versions[2]
    expect((await ws.api.get(`${item}/versions/${first.id}`)).body).toEqual(first)

    const restored = await ws.api.post(`${item}/versions/${first.id}/restore`)
    expect(restored.status).toBe(200)
    expect(restored.body).toMatchObject({ content: 'v1', version: 4, title: 'Title only' })
    const newest = (await ws.api.get(`${item}/versions?limit=1`)).body.data[0]
    expect(newest).toMatchObject({ number: 4, content: 'v1', restoredFromId: first.id })
    // Restoring what the document already holds changes nothing.
    expect((await ws.api.post(`${item}/versions/${newest.id}/restore`)).body.version).toBe(4)
    expect((await walk(ws.api, `${item}/versions`, 10)).length).toBe(4)

    const stream = (await ws.api.get(`${base}/stream?limit=200`)).body.data
    const restoreEvent = stream.filter((e: any) => e.kind === 'document.version_restored')
    expect(restoreEvent).toHaveLength(1)
    expect(restoreEvent[0].data).toMatchObject({
      restoredFromId: first.id,
      restoredFromNumber: 1,
      changes: { version: { before: 3, after: 4 } },
    })

    // Another document's version is not this document's.
    const other = (
      await ws.api.post(`${base}/documents`, { holderType: 'team', holderId: ws.teamId, title: 'O' })
    ).body
    expect((await ws.api.get(`${base}/documents/${other.id}/versions/${first.id}`)).status).toBe(404)
    expect((await ws.api.post(`${base}/documents/${other.id}/versions/${first.id}/restore`)).status).toBe(404)
    await ws.api.post(`${item}/archive`)
    expect(await ws.api.post(`${item}/versions/${first.id}/restore`)).toMatchObject({
      status: 409,
      body: { code: 'archived' },
    })
  })

  it('subscribes the creator, adds and removes subscribers, and pages them', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const doc = (
      await ws.api.post(`${base}/documents`, { holderType: 'team', holderId: ws.teamId, title: 'T' })
    ).body
    const subs = `${base}/documents/${doc.id}/subscribers`
    expect((await ws.api.get(subs)).body.data.map((s: any) => s.actorId)).toEqual([doc.creatorId])

    const reader = await ws.addMember('member')
    const added = await reader.api.put(`${subs}/${reader.memberId}`)
    expect(added).toMatchObject({ status: 200, body: { documentId: doc.id, actorId: reader.memberId } })
    // Twice changes nothing and answers the stored subscription.
    expect((await reader.api.put(`${subs}/${reader.memberId}`)).body).toEqual(added.body)
    const other = await ws.addMember('member')
    expect(await reader.api.put(`${subs}/${other.memberId}`)).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'manage' },
    })
    expect((await ws.api.put(`${subs}/${other.memberId}`)).status).toBe(200)
    expect((await ws.api.put(`${subs}/mem_01JD3Q2R4S5T6V7W8X9YZABCDE`)).status).toBe(404)

    const all = await walk(ws.api, subs, 1)
    expect(all.map((s) => s.actorId)).toEqual([doc.creatorId, reader.memberId, other.memberId].sort())

    expect((await reader.api.delete(`${subs}/${reader.memberId}`)).status).toBe(204)
    expect((await reader.api.delete(`${subs}/${reader.memberId}`)).status).toBe(204)
    const kinds = (await ws.api.get(`${base}/stream?limit=200`)).body.data.map((e: any) => e.kind)
    expect(kinds.filter((k: string) => k.startsWith('document_subscriber'))).toEqual([
      'document_subscriber.created',
      'document_subscriber.created',
      'document_subscriber.deleted',
    ])
  })

  it('shows a document to whoever can view its team or project, and needs contribute to write', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const design = (await ws.api.post(`${base}/teams`, { name: 'Design', key: 'DES' })).body
    const hiddenProject = (await ws.api.post(`${base}/projects`, { name: 'Hidden', teamIds: [design.id] }))
      .body
    const sharedProject = (
      await ws.api.post(`${base}/projects`, { name: 'Shared', teamIds: [design.id, ws.teamId] })
    ).body
    const create = (holderType: string, holderId: string, title: string) =>
      ws.api.post(`${base}/documents`, { holderType, holderId, title, content: `secret ${title}` })
    const onTeam = (await create('team', ws.teamId, 'team')).body
    const onDesign = (await create('team', design.id, 'design')).body
    const onHidden = (await create('project', hiddenProject.id, 'hidden')).body
    const onShared = (await create('project', sharedProject.id, 'shared')).body

    const viewer = await teamGuest(ws, 'view')
    const visible = await walk(viewer.api, `${base}/documents`, 1)
    expect(visible.map((d) => d.id)).toEqual([onShared.id, onTeam.id])
    const found = await viewer.api.get(`${base}/documents?q=secret`)
    expect(found.body.data.map((d: any) => d.id).sort()).toEqual([onShared.id, onTeam.id].sort())
    for (const hidden of [onDesign, onHidden]) {
      const item = `${base}/documents/${hidden.id}`
      expect((await viewer.api.get(item)).status).toBe(404)
      expect((await viewer.api.get(`${item}/versions`)).status).toBe(404)
      expect((await viewer.api.get(`${item}/subscribers`)).status).toBe(404)
      expect((await viewer.api.patch(item, { title: 'x' })).status).toBe(404)
      expect((await viewer.api.delete(item)).status).toBe(404)
    }
    expect((await viewer.api.get(`${base}/documents/${onShared.id}`)).status).toBe(200)
    expect(await viewer.api.patch(`${base}/documents/${onTeam.id}`, { title: 'x' })).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    expect(
      await viewer.api.post(`${base}/documents`, { holderType: 'team', holderId: ws.teamId, title: 'x' }),
    ).toMatchObject({ status: 403, body: { code: 'capability_required' } })
    const intoHidden = await viewer.api.post(`${base}/documents`, {
      holderType: 'project',
      holderId: hiddenProject.id,
      title: 'x',
    })
    expect(intoHidden.status).toBe(404)

    const writer = await teamGuest(ws, 'contribute')
    const own = await writer.api.post(`${base}/documents`, {
      holderType: 'project',
      holderId: sharedProject.id,
      title: 'Mine',
    })
    expect(own.status).toBe(201)
    const item = `${base}/documents/${onShared.id}`
    expect((await writer.api.patch(item, { content: 'edited' })).body).toMatchObject({
      version: 2,
      lastEditorId: writer.memberId,
    })
    expect((await writer.api.post(`${item}/archive`)).status).toBe(200)
    expect((await writer.api.post(`${item}/restore`)).status).toBe(200)
    expect((await writer.api.delete(`${base}/documents/${own.body.id}`)).status).toBe(204)

    // A wrong holder type for the id, or a missing holder, is a 404.
    expect(
      (await ws.api.post(`${base}/documents`, { holderType: 'project', holderId: ws.teamId, title: 'x' }))
        .status,
    ).toBe(404)
    expect(
      (
        await ws.api.post(`${base}/documents`, {
          holderType: 'project',
          holderId: 'proj_01JD3Q2R4S5T6V7W8X9YZABCDE',
          title: 'x',
        })
      ).status,
    ).toBe(404)
  })

  it('searches title and content with the database’s full-text index, ranked, by exact pages', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const make = async (title: string, content: string) =>
      (await ws.api.post(`${base}/documents`, { holderType: 'team', holderId: ws.teamId, title, content }))
        .body
    const inContent = await make('Notes', 'We will migrate the billing ledger next quarter.')
    const inTitle = await make('Billing migration plan', 'Steps and owners.')
    const unrelated = await make('Hiring', 'Interview loop for designers.')
    const both = await make('Billing', 'Billing runbook: how billing retries work.')

    const search = async (q: string, extra = '') =>
      (await ws.api.get(`${base}/documents?q=${encodeURIComponent(q)}${extra}`)).body.data.map(
        (d: any) => d.id,
      )
    // The title weighs more than the content.
    const billing = await search('billing')
    expect(billing).toHaveLength(3)
    expect(billing.indexOf(inTitle.id)).toBeLessThan(billing.indexOf(inContent.id))
    expect(billing).not.toContain(unrelated.id)
    // Every word must match; a word matches as a prefix; case does not matter.
    expect(await search('BILLING ledger')).toEqual([inContent.id])
    expect(await search('migra')).toEqual(expect.arrayContaining([inContent.id, inTitle.id]))
    expect((await search('migra')).length).toBe(2)
    expect(await search('interview designers')).toEqual([unrelated.id])
    expect(await search('nothing-like-this')).toEqual([])
    // Punctuation is not syntax of either engine.
    expect(await search('"billing" AND (ledger* OR -x)')).toEqual([])
    expect(await search('billing: ledger!')).toEqual([inContent.id])
    expect(await search('   ')).toHaveLength(4)
    // Terms either engine's tokenizer drops or splits differently answer, never fail.
    for (const odd of ['\u0301', 'billing \u0301', '½', 'ー', 'x\u0301y', '١٢٣', 'ǅ', 'ﬁ']) {
      const res = await ws.api.get(`${base}/documents?q=${encodeURIComponent(odd)}`)
      expect(res.status, odd).toBe(200)
    }

    // Ranked pages are exact: every match once, in the order of a single page.
    const single = await search('billing', '&limit=50')
    for (const limit of [1, 2]) {
      const paged = await walk(ws.api, `${base}/documents?q=billing`, limit)
      expect(paged.map((d) => d.id)).toEqual(single)
    }

    // The index follows edits, archive and delete.
    await ws.api.patch(`${base}/documents/${unrelated.id}`, { content: 'Billing interviews too.' })
    expect(await search('billing interview')).toEqual([unrelated.id])
    await ws.api.patch(`${base}/documents/${inTitle.id}`, { title: 'Plan' })
    expect(await search('billing migration')).toEqual([])
    expect(await search('billing migrat')).toEqual([inContent.id])
    await ws.api.post(`${base}/documents/${both.id}/archive`)
    expect(await search('runbook')).toEqual([])
    expect(await search('runbook', '&archived=only')).toEqual([both.id])
    await ws.api.delete(`${base}/documents/${both.id}`)
    expect(await search('runbook', '&archived=include')).toEqual([])
    expect(await search('billing', `&holderType=team&holderId=${ws.teamId}`)).toHaveLength(2)

    const tooMany = await ws.api.get(`${base}/documents?q=${encodeURIComponent('a b c d e f g h i')}`)
    expect(tooMany).toMatchObject({ status: 422, body: { code: 'rule_violated' } })
    // Another workspace's documents never match.
    const other = await newWorkspace(server)
    expect(
      (await other.api.get(`/v1/orgs/${other.orgId}/documents?q=billing`)).body.data.map((d: any) => d.id),
    ).toEqual([])
  })

  it('limits content size, refuses archived holders, and deletes documents with their project', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const big = await ws.api.post(`${base}/documents`, {
      holderType: 'team',
      holderId: ws.teamId,
      title: 'Big',
      content: 'x'.repeat(DOCUMENT_CONTENT_MAX + 1),
    })
    expect(big).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
    const full = await ws.api.post(`${base}/documents`, {
      holderType: 'team',
      holderId: ws.teamId,
      title: 'Full',
      content: 'é'.repeat(DOCUMENT_CONTENT_MAX),
    })
    expect(full.status).toBe(201)
    expect((await ws.api.get(`${base}/documents`)).body.data).toHaveLength(1)

    const project = (await ws.api.post(`${base}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
    const doc = (
      await ws.api.post(`${base}/documents`, { holderType: 'project', holderId: project.id, title: 'D' })
    ).body
    await ws.api.patch(`${base}/documents/${doc.id}`, { content: 'more' })
    await ws.api.post(`${base}/projects/${project.id}/archive`)
    const refused = await ws.api.post(`${base}/documents`, {
      holderType: 'project',
      holderId: project.id,
      title: 'x',
    })
    expect(refused).toMatchObject({ status: 409, body: { code: 'archived' } })
    expect((await ws.api.delete(`${base}/projects/${project.id}`)).status).toBe(204)
    expect((await ws.api.get(`${base}/documents/${doc.id}`)).status).toBe(404)
    expect((await ws.api.get(`${base}/documents?archived=include`)).body.data.map((d: any) => d.id)).toEqual([
      full.body.id,
    ])
  })
})

import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, hintsOf, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP tools for documents', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('writes a document in a team or a project, appends to it as new versions, and searches what the caller sees', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const { tools } = await client.listTools()
    const hints = Object.fromEntries(tools.map((t) => [t.name, hintsOf(t)]))
    expect(hints.search_documents).toMatchObject({ readOnlyHint: true })
    expect(hints.write_document).toMatchObject({ readOnlyHint: false, destructiveHint: false })

    const spec = await tool(client, 'write_document', {
      team: 'ENG',
      title: 'Checkout spec',
      content: 'Cards first.',
    })
    expect(spec).toMatchObject({
      holderType: 'team',
      holderId: ws.teamId,
      title: 'Checkout spec',
      version: 1,
    })
    const project = (await ws.api.post(`${base}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
    const notes = await tool(client, 'write_document', { project: project.id, title: 'Launch notes' })
    expect(notes).toMatchObject({ holderType: 'project', holderId: project.id })
    expect((await tool(client, 'write_document', { title: 'Nowhere' })).error).toMatchObject({
      code: 'validation_failed',
    })
    expect(
      (await tool(client, 'write_document', { team: 'ENG', project: project.id, title: 'Both' })).error,
    ).toMatchObject({ code: 'validation_failed' })
    expect(
      (await tool(client, 'write_document', { document: spec.id, title: 'x', content: 'y' })).error,
    ).toMatchObject({ code: 'validation_failed' })

    const appended = await tool(client, 'write_document', {
      document: spec.id,
      content: '## Wallets\nLater.',
    })
    expect(appended.version).toBe(2)
    await tool(client, 'write_document', { document: notes.id, content: 'Wallets ship in May.' })
    const read = (await ws.api.get(`${base}/documents/${spec.id}`)).body
    expect(read.content).toBe('Cards first.\n\n## Wallets\nLater.')
    expect((await ws.api.get(`${base}/documents/${notes.id}`)).body.content).toBe('Wallets ship in May.')

    const found = await tool(client, 'search_documents', { query: 'wallets' })
    expect(found.documents.map((d: any) => d.id).sort()).toEqual([spec.id, notes.id].sort())
    expect(found.documents.find((d: any) => d.id === spec.id).excerpt).toContain('Wallets')
    const inProject = await tool(client, 'search_documents', { query: 'wallets', project: project.id })
    expect(inProject.documents.map((d: any) => d.id)).toEqual([notes.id])
    const paged = await tool(client, 'search_documents', { query: 'wallets', limit: 1 })
    const rest = await tool(client, 'search_documents', {
      query: 'wallets',
      limit: 1,
      cursor: paged.nextCursor,
    })
    expect([...paged.documents, ...rest.documents].map((d: any) => d.id).sort()).toEqual(
      [spec.id, notes.id].sort(),
    )

    // A guest who can only view the team finds its documents but cannot write to them.
    const guest = await teamGuest(ws, 'view')
    const guestClient = await connect(server, await mcpToken(server, guest.user.id))
    expect((await tool(guestClient, 'search_documents', { query: 'cards' })).documents).toHaveLength(1)
    expect(
      (await tool(guestClient, 'write_document', { document: spec.id, content: 'x' })).error,
    ).toMatchObject({ code: 'capability_required' })
  })
})

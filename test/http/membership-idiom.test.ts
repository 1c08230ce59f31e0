import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { readAll } from '../support/task-helpers.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * One idiom for every membership and link between containers, as a client notices it: PUT on the
 * item adds (twice answers the same record, same `addedAt`, one event), DELETE on the item removes
 * (twice answers 204 both times), GET on the collection lists the join records.
 */
interface Family {
  name: string
  /** Makes the parent and a child to link; answers the collection path and the two ids. */
  setup: (ws: TestWorkspace) => Promise<{ collection: string; parentId: string; childId: string }>
  parentKey: string
  childKey: string
  added: string
  removed: string
}

const org = (ws: TestWorkspace) => `/v1/orgs/${ws.orgId}`
const created = async (ws: TestWorkspace, path: string, body: unknown): Promise<string> => {
  const res = await ws.api.post(`${org(ws)}${path}`, body)
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.id
}
const project = (ws: TestWorkspace) => created(ws, '/projects', { name: 'Linked', teamIds: [ws.teamId] })
const program = (ws: TestWorkspace) => created(ws, '/programs', { name: 'Program' })
const initiative = (ws: TestWorkspace) => created(ws, '/initiatives', { name: 'Initiative' })
const team = (ws: TestWorkspace) => created(ws, '/teams', { name: 'Design', key: 'DES' })
const member = async (ws: TestWorkspace) => (await ws.addMember('member')).memberId

const families: Family[] = [
  {
    name: 'teams.members',
    setup: async (ws) => ({
      collection: `${org(ws)}/teams/${ws.teamId}/members`,
      parentId: ws.teamId,
      childId: await member(ws),
    }),
    parentKey: 'teamId',
    childKey: 'actorId',
    added: 'team.member_added',
    removed: 'team.member_removed',
  },
  {
    name: 'projects.members',
    setup: async (ws) => {
      const id = await project(ws)
      return { collection: `${org(ws)}/projects/${id}/members`, parentId: id, childId: await member(ws) }
    },
    parentKey: 'projectId',
    childKey: 'memberId',
    added: 'project.member_added',
    removed: 'project.member_removed',
  },
  {
    name: 'programs.members',
    setup: async (ws) => {
      const id = await program(ws)
      return { collection: `${org(ws)}/programs/${id}/members`, parentId: id, childId: await member(ws) }
    },
    parentKey: 'programId',
    childKey: 'memberId',
    added: 'program.member_added',
    removed: 'program.member_removed',
  },
  {
    name: 'initiatives.members',
    setup: async (ws) => {
      const id = await initiative(ws)
      return { collection: `${org(ws)}/initiatives/${id}/members`, parentId: id, childId: await member(ws) }
    },
    parentKey: 'initiativeId',
    childKey: 'memberId',
    added: 'initiative.member_added',
    removed: 'initiative.member_removed',
  },
  {
    name: 'projects.teams',
    setup: async (ws) => {
      const id = await project(ws)
      return { collection: `${org(ws)}/projects/${id}/teams`, parentId: id, childId: await team(ws) }
    },
    parentKey: 'projectId',
    childKey: 'teamId',
    added: 'project.team_added',
    removed: 'project.team_removed',
  },
  {
    name: 'programs.teams',
    setup: async (ws) => {
      const id = await program(ws)
      return { collection: `${org(ws)}/programs/${id}/teams`, parentId: id, childId: await team(ws) }
    },
    parentKey: 'programId',
    childKey: 'teamId',
    added: 'program.team_added',
    removed: 'program.team_removed',
  },
  {
    name: 'programs.projects',
    setup: async (ws) => {
      const id = await program(ws)
      return { collection: `${org(ws)}/programs/${id}/projects`, parentId: id, childId: await project(ws) }
    },
    parentKey: 'programId',
    childKey: 'projectId',
    added: 'program.project_added',
    removed: 'program.project_removed',
  },
  {
    name: 'initiatives.projects',
    setup: async (ws) => {
      const id = await initiative(ws)
      return { collection: `${org(ws)}/initiatives/${id}/projects`, parentId: id, childId: await project(ws) }
    },
    parentKey: 'initiativeId',
    childKey: 'projectId',
    added: 'initiative.project_added',
    removed: 'initiative.project_removed',
  },
  {
    name: 'initiatives.programs',
    setup: async (ws) => {
      const id = await initiative(ws)
      return { collection: `${org(ws)}/initiatives/${id}/programs`, parentId: id, childId: await program(ws) }
    },
    parentKey: 'initiativeId',
    childKey: 'programId',
    added: 'initiative.program_added',
    removed: 'initiative.program_removed',
  },
]

/** Subscribers: the same idiom on every record that has them; `{actorId}` takes members or agents. */
const subscribed = (
  _name: string,
  plural: string,
  make: (ws: TestWorkspace) => Promise<string>,
  parentKey: string,
  kind: string,
): Family => ({
  name: `${plural}.subscribers`,
  setup: async (ws) => {
    const id = await make(ws)
    return { collection: `${org(ws)}/${plural}/${id}/subscribers`, parentId: id, childId: await member(ws) }
  },
  parentKey,
  childKey: 'actorId',
  added: `${kind}_subscriber.created`,
  removed: `${kind}_subscriber.deleted`,
})
families.push(
  subscribed(
    'task',
    'tasks',
    (ws) => created(ws, '/tasks', { teamId: ws.teamId, title: 'Watched' }),
    'taskId',
    'task',
  ),
  subscribed('project', 'projects', project, 'recordId', 'project'),
  subscribed('program', 'programs', program, 'recordId', 'program'),
  subscribed('initiative', 'initiatives', initiative, 'recordId', 'initiative'),
  subscribed(
    'document',
    'documents',
    async (ws) =>
      created(ws, '/documents', { holderType: 'project', holderId: await project(ws), title: 'Spec' }),
    'documentId',
    'document',
  ),
)

describeEachDatabase('membership and links: one idiom', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const count = async (ws: TestWorkspace, kind: string) =>
    (await ws.api.get(`${org(ws)}/stream?limit=200`)).body.data.filter((e: any) => e.kind === kind).length

  describe.each(families)('$name', (family) => {
    it('PUT twice answers the same record and emits once; DELETE twice answers 204; the list follows', async () => {
      const ws = await newWorkspace(server)
      const { collection, parentId, childId } = await family.setup(ws)
      const item = `${collection}/${childId}`
      const listed = async () => (await readAll(ws, collection, 50)).map((r: any) => r[family.childKey])

      const first = await ws.api.put(item)
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({ [family.parentKey]: parentId, [family.childKey]: childId })
      expect(typeof first.body.addedAt).toBe('string')
      expect(first.body).not.toHaveProperty('id')
      expect(first.body).not.toHaveProperty('createdAt')
      await new Promise((resolve) => setTimeout(resolve, 5))
      const again = await ws.api.put(item)
      expect(again).toMatchObject({ status: 200, body: first.body })
      expect(await count(ws, family.added)).toBe(1)
      expect(await listed()).toContain(childId)
      const record = (await readAll(ws, collection, 50)).find((r: any) => r[family.childKey] === childId)
      expect(record).toEqual(first.body)

      expect((await ws.api.delete(item)).status).toBe(204)
      expect((await ws.api.delete(item)).status).toBe(204)
      expect(await count(ws, family.removed)).toBe(1)
      expect(await listed()).not.toContain(childId)
    })

    it('answers 404 for a parent that does not exist, on add and on remove', async () => {
      const ws = await newWorkspace(server)
      const { collection, parentId, childId } = await family.setup(ws)
      const missing = collection.replace(parentId, `${parentId.slice(0, -4)}ZZZZ`)
      expect((await ws.api.put(`${missing}/${childId}`)).status).toBe(404)
      expect((await ws.api.delete(`${missing}/${childId}`)).status).toBe(404)
    })
  })
})

/**
 * Links that are a field of the parent (its `labelIds`, its blockers, its relations): the same PUT
 * and DELETE on the item, but the add answers the parent as it now is (or the link record). Adding
 * again changes nothing (same body, one event); the link shows on the parent. Removing answers 204,
 * and 204 again once the link is gone, with one event.
 */
interface ParentLink {
  name: string
  /** Makes the parent and a child to link; answers the item path and how to read the link back. */
  setup: (ws: TestWorkspace) => Promise<{ item: string; parent: string; childId: string; readBack: string }>
  body?: unknown
  event: string
  /** The event a removal emits (a label change is the parent's `updated`, like its add). */
  removed: string
}

const orgLabel = (ws: TestWorkspace) => created(ws, '/labels', { name: 'Q3' })
const task = (ws: TestWorkspace, title = 'Linked') => created(ws, '/tasks', { teamId: ws.teamId, title })
const labelled = (
  plural: string,
  make: (ws: TestWorkspace) => Promise<string>,
  kind: string,
): ParentLink => ({
  name: `${plural}.labels`,
  setup: async (ws) => {
    const id = await make(ws)
    const childId = await orgLabel(ws)
    const parent = `${org(ws)}/${plural}/${id}`
    return { item: `${parent}/labels/${childId}`, parent, childId, readBack: parent }
  },
  event: `${kind}.updated`,
  removed: `${kind}.updated`,
})
const parentLinks: ParentLink[] = [
  labelled('tasks', task, 'task'),
  labelled('projects', project, 'project'),
  labelled('programs', program, 'program'),
  labelled('initiatives', initiative, 'initiative'),
  {
    name: 'tasks.blockers',
    setup: async (ws) => {
      const parent = `${org(ws)}/tasks/${await task(ws)}`
      const childId = await task(ws, 'Blocker')
      return { item: `${parent}/blockers/${childId}`, parent, childId, readBack: `${parent}/blockers` }
    },
    event: 'task_dependency.created',
    removed: 'task_dependency.deleted',
  },
  ...(['related', 'duplicateOf'] as const).map(
    (type): ParentLink => ({
      name: `tasks.relations (${type})`,
      setup: async (ws) => {
        const parent = `${org(ws)}/tasks/${await task(ws)}`
        const childId = await task(ws, 'Other')
        return { item: `${parent}/relations/${childId}`, parent, childId, readBack: `${parent}/relations` }
      },
      body: { type },
      event: 'task_relation.created',
      removed: 'task_relation.deleted',
    }),
  ),
]

describeEachDatabase('links on the parent: one idiom', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const count = async (ws: TestWorkspace, kind: string) =>
    (await ws.api.get(`${org(ws)}/stream?limit=200`)).body.data.filter((e: any) => e.kind === kind).length

  describe.each(parentLinks)('$name', (link) => {
    it('PUT twice answers the same (the parent or the link) and emits once; the old POST is gone', async () => {
      const ws = await newWorkspace(server)
      const { item, childId, readBack } = await link.setup(ws)
      const before = await count(ws, link.event)
      const first = await ws.api.put(item, link.body)
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      expect(JSON.stringify(first.body)).toContain(childId)
      const again = await ws.api.put(item, link.body)
      expect(again.status).toBe(200)
      expect(again.body).toEqual(first.body)
      expect(await count(ws, link.event)).toBe(before + 1)
      expect(JSON.stringify((await ws.api.get(readBack)).body)).toContain(childId)
      const collection = item.slice(0, item.lastIndexOf('/'))
      expect([404, 405]).toContain(
        (await ws.api.post(collection, { labelId: childId, taskId: childId })).status,
      )
    })

    it('DELETE twice answers 204 both times, emits once, and the link is gone', async () => {
      const ws = await newWorkspace(server)
      const { item, childId, readBack } = await link.setup(ws)
      // Never linked: already as asked.
      const quiet = await count(ws, link.removed)
      expect((await ws.api.delete(item)).status).toBe(204)
      expect(await count(ws, link.removed)).toBe(quiet)
      expect((await ws.api.put(item, link.body)).status).toBe(200)
      const before = await count(ws, link.removed)
      const first = await ws.api.delete(item)
      expect(first.status).toBe(204)
      expect(first.body).toBeFalsy()
      expect((await ws.api.delete(item)).status).toBe(204)
      expect(await count(ws, link.removed)).toBe(before + 1)
      expect(JSON.stringify((await ws.api.get(readBack)).body)).not.toContain(childId)
    })

    it('answers 404 for a parent that does not exist or is hidden, on add and on remove', async () => {
      const ws = await newWorkspace(server)
      const { item, parent } = await link.setup(ws)
      const id = parent.slice(parent.lastIndexOf('/') + 1)
      const missing = item.replace(id, `${id.slice(0, -4)}ZZZZ`)
      expect((await ws.api.put(missing, link.body)).status).toBe(404)
      expect((await ws.api.delete(missing)).status).toBe(404)
      // Another workspace's member sees neither the parent nor the link.
      const stranger = await newWorkspace(server)
      const theirs = item.replace(`/orgs/${ws.orgId}/`, `/orgs/${stranger.orgId}/`)
      expect((await stranger.api.delete(theirs)).status).toBe(404)
    })
  })
})

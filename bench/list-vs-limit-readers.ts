/**
 * The readers of bench/list-vs-limit.ts that the permissions world does not hold: a guest whose
 * one grant is on a program, and one whose one grant is on an initiative. The program holds 15 of
 * the org's projects; the initiative links two projects and a sub-initiative that links a second
 * program of 15 projects, so its grant reaches through the closure and a program both (as the
 * container-grants bench's readers do).
 */
import { type InitiativeId, newId, type OrgId, type ProgramId, type UserId } from '@workgraph/core'
import type { RunningServer } from '@workgraph/server'
import type { World } from './seed-world.ts'

export interface ContainerReaders {
  program: UserId
  initiative: UserId
}

export async function containerReaders({ storage }: RunningServer, world: World): Promise<ContainerReaders> {
  const { call } = world
  const params = { orgId: world.orgId }
  // Every 7th project, so each program spans many teams (and their projects' tasks interleave in time).
  const projects = [...world.projectsByTeam.values()].flat().filter((_, i) => i % 7 === 0)
  const program = async (name: string, from: number) => {
    const { id } = await call<{ id: ProgramId }>('programs.create', { params, body: { name } })
    for (const projectId of projects.slice(from, from + 15))
      await call('programs.projects.add', { params: { ...params, programId: id, projectId } })
    return id
  }
  const granted = await program('Program for a reader', 0)
  const linked = await program('Program below an initiative', 15)
  const root = await call<{ id: InitiativeId }>('initiatives.create', {
    params,
    body: { name: 'Initiative for a reader' },
  })
  for (const projectId of projects.slice(30, 32))
    await call('initiatives.projects.add', { params: { ...params, initiativeId: root.id, projectId } })
  const child = await call<{ id: InitiativeId }>('initiatives.create', {
    params,
    body: { name: 'Sub-initiative', parentId: root.id },
  })
  await call('initiatives.programs.add', {
    params: { ...params, initiativeId: child.id, programId: linked },
  })
  return {
    program: await guest(storage, world.orgId, 'program', granted),
    initiative: await guest(storage, world.orgId, 'initiative', root.id),
  }
}

/** A fresh guest of the org whose only grant is `view` on the container. */
async function guest(
  storage: RunningServer['storage'],
  orgId: OrgId,
  containerType: 'program' | 'initiative',
  containerId: string,
): Promise<UserId> {
  const now = new Date().toISOString()
  const user = {
    id: newId('UserId'),
    email: `${containerType}-reader@example.com`,
    name: containerType,
    createdAt: now,
  }
  const memberId = newId('MemberId')
  await storage.transaction(async (store) => {
    await store.users.insert(user)
    await store.members.insert({
      id: memberId,
      orgId,
      userId: user.id,
      kind: 'person',
      role: 'guest',
      status: 'active',
      createdAt: now,
      updatedAt: now,
    })
    await store.access.insertGrant({
      id: newId('GrantId'),
      orgId,
      subjectType: 'member',
      subjectId: memberId,
      containerType,
      containerId,
      capability: 'view',
      createdAt: now,
      updatedAt: now,
      createdBy: null,
    })
  })
  return user.id
}

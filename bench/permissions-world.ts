/**
 * The org the permissions bench measures: 1,000 people of nine kinds, their grants and team
 * memberships over 50 teams and 1,000 projects, and 100,000 tasks (six in ten in a project), seeded
 * straight through storage from a fixed seed (every run builds the same org).
 */
import type {
  Capability,
  Grant,
  MemberId,
  OrgId,
  OrgRole,
  Principal,
  ProjectId,
  StateId,
  TeamId,
} from '@workgraph/core'
import { CAPABILITIES, createUser, newId, ranksInOrder } from '@workgraph/core'
import type { MemberRecord, TaskRecord, User } from '@workgraph/core/storage'
import type { RunningServer } from '@workgraph/server'
import { postgres } from './support.ts'

export const TASKS = 100_000
export const TEAMS = 50
export const MEMBERS = 1_000
export const PROJECTS = 1_000
/** The share of tasks in a project (one of their team's 20 projects). */
export const IN_PROJECT = 0.6
export const BATCH = 2_000
/** Postgres only: seeding transactions in flight at once (the pool has 10 connections). */
export const SEED_CONCURRENCY = 4

export type Kind =
  | 'admin'
  | 'member'
  | 'guest-org'
  | 'guest-1'
  | 'guest-few'
  | 'guest-many'
  | 'guest-none'
  | 'guest-projects'
  | 'guest-team-projects'
export const CLASSES: { kind: Kind; label: string }[] = [
  { kind: 'admin', label: 'admin (role)' },
  { kind: 'member', label: 'member (role)' },
  { kind: 'guest-org', label: 'guest, org-level grant' },
  { kind: 'guest-1', label: 'guest, 1 team' },
  { kind: 'guest-few', label: 'guest, 2–4 teams' },
  { kind: 'guest-many', label: 'guest, via team memberships' },
  { kind: 'guest-none', label: 'guest, no grants' },
  { kind: 'guest-projects', label: 'guest, 1–3 projects' },
  { kind: 'guest-team-projects', label: 'guest, 1 team + 1–3 projects' },
]

export interface Person {
  index: number
  kind: Kind
  role: OrgRole
  user: User
  memberId: MemberId
}
/** What the model needs of a task: the list's sort key and the visibility inputs. */
export interface Row {
  id: string
  teamId: string
  projectId: string | null
  createdAt: string
  archived: boolean
}
/** Small seeded PRNG, so every run builds the same org. */
export function mulberry32(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const random = mulberry32(20_250_101)

/** 1,000 users and members: every 10th an admin, four in ten members, half guests of five kinds. */
export async function seedPeople(storage: RunningServer['storage'], orgId: OrgId): Promise<Person[]> {
  const people: Person[] = []
  const now = new Date().toISOString()
  const guestKinds: Kind[] = [
    'guest-org',
    'guest-none',
    ...Array<Kind>(5).fill('guest-1'),
    ...Array<Kind>(7).fill('guest-few'),
    ...Array<Kind>(6).fill('guest-many'),
    ...Array<Kind>(3).fill('guest-projects'),
    ...Array<Kind>(3).fill('guest-team-projects'),
  ]
  let guests = 0
  await storage.transaction(async (store) => {
    for (let i = 0; i < MEMBERS; i++) {
      const role: OrgRole = i % 10 === 0 ? 'admin' : i % 10 <= 4 ? 'member' : 'guest'
      const kind: Kind =
        role === 'guest' ? guestKinds[guests++ % guestKinds.length]! : role === 'admin' ? 'admin' : 'member'
      const user: User = {
        id: newId('UserId'),
        email: `person${i}@example.com`,
        name: `Person ${i}`,
        createdAt: now,
      }
      const member: MemberRecord = {
        id: newId('MemberId'),
        orgId,
        userId: user.id,
        kind: 'person',
        role,
        status: 'active',
        createdAt: now,
        updatedAt: now,
      }
      await store.users.insert(user)
      await store.members.insert(member)
      people.push({ index: i, kind, role, user, memberId: member.id })
    }
  })
  return people
}

/**
 * 1,000 projects, 20 per team (project p on team p mod 50), inserted through storage with the status
 * of one project made through the engine. Returns each team's projects.
 */
export async function seedProjects(
  storage: RunningServer['storage'],
  orgId: OrgId,
  teamIds: TeamId[],
  first: { id: ProjectId; statusId: string; creatorId: MemberId },
): Promise<Map<string, ProjectId[]>> {
  const byTeam = new Map<string, ProjectId[]>(teamIds.map((t) => [t, []]))
  byTeam.get(teamIds[0]!)!.push(first.id)
  const now = new Date().toISOString()
  await storage.transaction(async (store) => {
    for (let p = 1; p < PROJECTS; p++) {
      const teamId = teamIds[p % teamIds.length]!
      const id = newId('ProjectId')
      await store.projects.insert(
        {
          id,
          orgId,
          name: `Project ${p}`,
          description: null,
          icon: null,
          color: '#5e6ad2',
          statusId: first.statusId,
          leadId: null,
          priority: 'none',
          startDate: null,
          targetDate: null,
          updateCadence: 'none',
          updateWeekday: 'friday',
          creatorId: first.creatorId,
          createdAt: now,
          updatedAt: now,
          startedAt: null,
          completedAt: null,
          canceledAt: null,
          archivedAt: null,
        } as never,
        [teamId],
        now,
      )
      byTeam.get(teamId)!.push(id)
    }
  })
  return byTeam
}

/**
 * Team-subject grants (most teams on themselves, each team `view` on a few neighbours), people in teams,
 * and direct grants by kind: guests on 1 or 2–4 teams, via 2–4 team memberships plus 0–2 direct grants,
 * on the org, or nothing (each of those is in a team that holds no grant). Members and admins get team
 * memberships and a few grants too, which an org-wide reader does not need but the tables hold.
 */
export async function seedAccess(
  storage: RunningServer['storage'],
  orgId: OrgId,
  teamIds: TeamId[],
  people: Person[],
  projectsByTeam: Map<string, ProjectId[]>,
) {
  const projects = [...projectsByTeam.values()].flat()
  const grants: Grant[] = []
  const teamsOf = new Map<string, Set<string>>()
  const now = new Date().toISOString()
  const capability = () => CAPABILITIES[Math.floor(random() * CAPABILITIES.length)] as Capability
  const grant = (
    subjectType: Grant['subjectType'],
    subjectId: string,
    container: string | null,
    cap: Capability,
  ) =>
    grants.push({
      id: newId('GrantId'),
      orgId,
      subjectType,
      subjectId,
      containerType: !container ? 'org' : container.startsWith('proj_') ? 'project' : 'team',
      containerId: container ?? orgId,
      capability: cap,
      createdAt: now,
      updatedAt: now,
    })
  const pickTeams = (n: number, from = teamIds) => {
    const pool = [...from]
    return Array.from({ length: n }, () => pool.splice(Math.floor(random() * pool.length), 1)[0]!)
  }
  const join = (person: Person, teamId: string) => {
    const set = teamsOf.get(person.memberId) ?? new Set<string>()
    set.add(teamId)
    teamsOf.set(person.memberId, set)
  }
  // Teams 45–49 hold no team grant at all: being in one gives nothing.
  const grantless = teamIds.slice(45)
  const pickProjects = (n: number, outside: string[] = []) => {
    const picked = new Set<string>()
    while (picked.size < n) {
      const p = projects[Math.floor(random() * projects.length)]!
      if (!outside.some((t) => projectsByTeam.get(t)!.includes(p))) picked.add(p)
    }
    return [...picked]
  }
  teamIds.forEach((teamId, t) => {
    if (t >= 45) return
    grant('team', teamId, teamId, 'contribute')
    const neighbours = 2 + (t % 4)
    for (let k = 1; k <= neighbours; k++) grant('team', teamId, teamIds[(t + k * 7) % TEAMS]!, 'view')
    // And `comment` on two projects of other teams: a team invited into someone else's effort.
    for (const p of pickProjects(2, [teamId])) grant('team', teamId, p, 'comment')
  })
  for (const person of people) {
    const direct = (n: number) => {
      for (const teamId of pickTeams(n)) grant('member', person.memberId, teamId, capability())
    }
    switch (person.kind) {
      case 'admin':
      case 'member':
        for (const teamId of pickTeams(1 + (person.index % 2), teamIds.slice(0, 45))) join(person, teamId)
        if (person.index % 7 === 0) direct(1)
        if (person.index % 5 === 0) grant('member', person.memberId, pickProjects(1)[0]!, capability())
        break
      case 'guest-org':
        grant('member', person.memberId, null, CAPABILITIES[person.index % 3]!)
        break
      case 'guest-1':
        direct(1)
        break
      case 'guest-few':
        direct(2 + Math.floor(random() * 3))
        break
      case 'guest-many':
        for (const teamId of pickTeams(2 + Math.floor(random() * 3), teamIds.slice(0, 45)))
          join(person, teamId)
        direct(Math.floor(random() * 3))
        break
      case 'guest-none':
        join(person, pickTeams(1, grantless)[0]!)
        break
      case 'guest-projects':
        for (const p of pickProjects(1 + Math.floor(random() * 3)))
          grant('member', person.memberId, p, capability())
        break
      case 'guest-team-projects': {
        const [teamId] = pickTeams(1)
        grant('member', person.memberId, teamId!, capability())
        for (const p of pickProjects(1 + Math.floor(random() * 3), [teamId!]))
          grant('member', person.memberId, p, capability())
        break
      }
    }
  }
  let memberships = 0
  await storage.transaction(async (store) => {
    for (const g of grants) await store.access.insertGrant({ ...g, createdBy: null })
    for (const [actorId, teams] of teamsOf) {
      for (const teamId of teams) {
        await store.access.addTeamMember({ orgId, teamId: teamId as TeamId, actorId, createdAt: now })
        memberships++
      }
    }
  })
  return { grants, teamsOf, memberships }
}

/**
 * 100,000 tasks over the 50 teams with Zipf-like sizes (the largest team about 22%, the smallest about
 * 0.4%), in time order across teams, with `createdAt` shared by pairs (ties break on id) and 5% archived.
 * Numbers are explicit per team; the teams' counters are left alone, as nothing creates tasks afterwards.
 */
export async function seedTasks(
  storage: RunningServer['storage'],
  orgId: OrgId,
  teamIds: TeamId[],
  people: Person[],
  projectsByTeam: Map<string, ProjectId[]>,
) {
  const backlog = new Map<string, StateId>()
  await storage.read(async (s) => {
    for (const teamId of teamIds) {
      const states = await s.states.listForTeam(orgId, teamId, { includeArchived: false })
      backlog.set(teamId, states.find((st) => st.category === 'backlog')!.id)
    }
  })
  const weights = teamIds.map((_, t) => 1 / (t + 1))
  const total = weights.reduce((a, b) => a + b, 0)
  const cumulative = weights.map(
    (
      (sum) => (w) =>
        (sum += w / total)
    )(0),
  )
  const creators = people.filter((p) => p.role !== 'guest')
  const base = Date.parse('2025-01-01T00:00:00.000Z')
  const numbers = new Map<string, number>()
  const records: TaskRecord[] = []
  // Ranks in creation order, unique across the world and so in every list.
  const ranks = ranksInOrder(TASKS)
  for (let i = 0; i < TASKS; i++) {
    const r = random()
    const teamId =
      teamIds[
        Math.min(
          TEAMS - 1,
          cumulative.findIndex((c) => r < c),
        )
      ]!
    const number = (numbers.get(teamId) ?? 0) + 1
    numbers.set(teamId, number)
    const createdAt = new Date(base + Math.floor(i / 2) * 1000).toISOString()
    const own = projectsByTeam.get(teamId)!
    const projectId = random() < IN_PROJECT ? own[Math.floor(random() * own.length)]! : null
    records.push({
      id: newId('TaskId'),
      orgId,
      teamId,
      number,
      title: `Task ${i}`,
      description: null,
      stateId: backlog.get(teamId)!,
      assigneeId: null,
      creatorId: creators[i % creators.length]!.memberId,
      priority: 'none',
      estimate: null,
      dueDate: null,
      createdAt,
      updatedAt: createdAt,
      startedAt: null,
      completedAt: null,
      canceledAt: null,
      archivedAt: i % 20 === 7 ? createdAt : null,
      projectId,
      boardRank: ranks[i]!,
      projectRank: projectId ? ranks[i]! : null,
    } as TaskRecord)
  }
  const batches: TaskRecord[][] = []
  for (let from = 0; from < TASKS; from += BATCH) batches.push(records.slice(from, from + BATCH))
  const worker = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      const rows = batch
      await storage.transaction(async (store) => {
        for (const task of rows) await store.tasks.insert(task)
      })
    }
  }
  await Promise.all(Array.from({ length: postgres ? SEED_CONCURRENCY : 1 }, worker))
  return records.map(
    (t): Row => ({
      id: t.id,
      teamId: t.teamId,
      projectId: t.projectId ?? null,
      createdAt: t.createdAt,
      archived: !!t.archivedAt,
    }),
  )
}

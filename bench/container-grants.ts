/**
 * Container grants: the org of bench/permissions-world.ts (100,000 tasks, 50 teams, 1,000 projects,
 * 1,000 people) plus 100 programs holding 10–20 projects each and 200 initiatives (20 trees up to four
 * levels deep, each linking 0–3 projects and 1–2 programs). For readers of five classes, interleaved
 * round by round in one process so every class sees the same machine:
 * - the expansion of their program/initiative grants into the read scope, two ways: the initiative
 *   closure table (what storage uses) and `WITH RECURSIVE` over `initiatives.parent_id`;
 * - the first task page (`store.tasks.list`, limit 50, `-createdAt`) with the resulting scope,
 *   against today's guest with one team grant.
 * Every first page is checked against a model computed from the seed. SQLite by default; `--postgres`
 * as the other benches.
 */
import type { Actor, InitiativeId, ProgramId, ReadScope } from '@workgraph/core'
import { loadProfile, newId, readScope } from '@workgraph/core'
import type { KyselyStorage } from '@workgraph/kysely'
import type { RunningServer } from '@workgraph/server'
import { reachByClosure, reachByRecursion } from '../adapters/kysely/src/access/container-reach.ts'
import { mulberry32, type Row, TEAMS } from './permissions-world.ts'
import { seedWorld } from './seed-world.ts'
import { analyzePostgres, failures, fmt, percentile, postgres, runBench } from './support.ts'

const LIMIT = 50
const PROGRAMS = 100
const INITIATIVES = 200
const PER_CLASS = 10
const WARMUP = 10
const ROUNDS = Number(process.env.AB_ROUNDS ?? 100)
const random = mulberry32(20_261_127)

type ClassKind = 'team' | 'program' | 'root' | 'leaf' | 'team+program'
const CLASSES: { kind: ClassKind; label: string }[] = [
  { kind: 'team', label: 'guest, 1 team grant (today)' },
  { kind: 'program', label: 'guest, 1 program grant' },
  { kind: 'root', label: 'guest, 1 top-level initiative grant' },
  { kind: 'leaf', label: 'guest, 1 leaf initiative grant' },
  { kind: 'team+program', label: 'guest, 1 team + 1 program grant' },
]

await runBench('containers', async (server: RunningServer, schema: string) => {
  const { storage } = server
  // The two expansions are measured on the storage's own Kysely instance, outside a transaction.
  const { db } = storage as unknown as KyselyStorage
  const world = await seedWorld(server, 'Bench')
  const { call, teamIds, projectsByTeam, rows } = world
  const params = { orgId: world.orgId }
  const org = { id: world.orgId }
  const started = performance.now()
  const projects = [...projectsByTeam.values()].flat()
  const pick = <T>(from: readonly T[], n: number) => {
    const pool = [...from]
    return Array.from(
      { length: Math.min(n, pool.length) },
      () => pool.splice(Math.floor(random() * pool.length), 1)[0]!,
    )
  }

  // Programs and initiatives through the engine (links, closure rows and history as a person makes them).
  const programs: { id: ProgramId; projectIds: string[] }[] = []
  for (let g = 0; g < PROGRAMS; g++) {
    const program = await call<{ id: ProgramId }>('programs.create', {
      params,
      body: { name: `Program ${g}` },
    })
    const projectIds = pick(projects, 10 + Math.floor(random() * 11))
    for (const projectId of projectIds)
      await call('programs.projects.add', { params: { ...params, programId: program.id, projectId } })
    programs.push({ id: program.id, projectIds })
  }
  const initiatives: {
    id: InitiativeId
    parentId: string | null
    depth: number
    projectIds: string[]
    programIds: string[]
  }[] = []
  for (let i = 0; i < INITIATIVES; i++) {
    // 20 roots; then each new initiative under a random earlier one that is less than 3 deep.
    const candidates = initiatives.filter((x) => x.depth < 3)
    const parent = i < 20 ? null : candidates[Math.floor(random() * candidates.length)]!
    const body = parent ? { name: `Initiative ${i}`, parentId: parent.id } : { name: `Initiative ${i}` }
    const initiative = await call<{ id: InitiativeId }>('initiatives.create', { params, body })
    const at = { ...params, initiativeId: initiative.id }
    const projectIds = pick(projects, Math.floor(random() * 4))
    for (const projectId of projectIds)
      await call('initiatives.projects.add', { params: { ...at, projectId } })
    const programIds = pick(
      programs.map((g) => g.id),
      1 + Math.floor(random() * 2),
    )
    for (const programId of programIds)
      await call('initiatives.programs.add', { params: { ...at, programId } })
    initiatives.push({
      id: initiative.id,
      parentId: parent?.id ?? null,
      depth: parent ? parent.depth + 1 : 0,
      projectIds,
      programIds,
    })
  }
  console.log(
    `${storage.dialect}: programs and initiatives seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  if (postgres) await analyzePostgres(schema)

  // The model: what a grant on a program or initiative reaches, from the seed alone.
  const below = (id: string): string[] => [
    id,
    ...initiatives.filter((x) => x.parentId === id).flatMap((x) => below(x.id)),
  ]
  const reachedProjects = (grant: { program?: string; initiative?: string }) => {
    const inits = grant.initiative ? below(grant.initiative) : []
    const progs = new Set([
      ...(grant.program ? [grant.program] : []),
      ...initiatives.filter((x) => inits.includes(x.id)).flatMap((x) => x.programIds),
    ])
    return new Set([
      ...initiatives.filter((x) => inits.includes(x.id)).flatMap((x) => x.projectIds),
      ...programs.filter((g) => progs.has(g.id)).flatMap((g) => g.projectIds),
    ])
  }
  const newestFirst = [...rows].sort((a: Row, b: Row) =>
    a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? 1 : -1,
  )
  const roots = initiatives.filter((x) => x.parentId === null)
  const leaves = initiatives.filter((x) => !initiatives.some((y) => y.parentId === x.id))

  // Ten fresh guests per class, each with its grants.
  const now = new Date().toISOString()
  const readers: { kind: ClassKind; actor: Actor; teams: Set<string>; projects: Set<string> }[] = []
  await storage.transaction(async (store) => {
    for (const { kind } of CLASSES) {
      for (let k = 0; k < PER_CLASS; k++) {
        const user = {
          id: newId('UserId'),
          email: `${kind}${k}@example.com`,
          name: `${kind} ${k}`,
          createdAt: now,
        }
        const memberId = newId('MemberId')
        await store.users.insert(user)
        await store.members.insert({
          id: memberId,
          orgId: org.id,
          userId: user.id,
          kind: 'person',
          role: 'guest',
          status: 'active',
          createdAt: now,
          updatedAt: now,
        })
        const grant = async (containerType: 'team' | 'program' | 'initiative', containerId: string) =>
          store.access.insertGrant({
            id: newId('GrantId'),
            orgId: org.id,
            subjectType: 'member',
            subjectId: memberId,
            containerType,
            containerId,
            capability: 'view',
            createdAt: now,
            updatedAt: now,
            createdBy: null,
          })
        const teams = new Set<string>()
        let reached = new Set<string>()
        if (kind === 'team' || kind === 'team+program') {
          const teamId = teamIds[(k * 7) % TEAMS]!
          await grant('team', teamId)
          teams.add(teamId)
        }
        if (kind === 'program' || kind === 'team+program') {
          const program = programs[(k * 13) % PROGRAMS]!
          await grant('program', program.id)
          reached = reachedProjects({ program: program.id })
        }
        if (kind === 'root' || kind === 'leaf') {
          const pool = kind === 'root' ? roots : leaves
          const initiative = pool[(k * 3) % pool.length]!
          await grant('initiative', initiative.id)
          reached = reachedProjects({ initiative: initiative.id })
        }
        const actor: Actor = {
          id: memberId,
          kind: 'person',
          orgId: org.id,
          role: 'guest',
          userId: user.id,
          name: user.name,
        }
        readers.push({ kind, actor, teams, projects: reached })
      }
    }
  })

  const page = { sort: 'createdAt' as const, direction: 'desc' as const, after: null, limit: LIMIT }
  const list = (scope: ReadScope) =>
    storage.read((s) => s.tasks.list(org.id, { archived: false }, page, scope))
  const from = (r: (typeof readers)[number], grants: Awaited<ReturnType<typeof loadProfile>>['grants']) => ({
    programIds: grants.filter((g) => g.containerType === 'program').map((g) => g.containerId),
    initiativeIds: grants.filter((g) => g.containerType === 'initiative').map((g) => g.containerId),
    r,
  })

  const sampled = []
  for (const r of readers) {
    const profile = await storage.read((s) => loadProfile(s, r.actor))
    const scope = readScope(profile)
    const ids = (await list(scope)).slice(0, LIMIT).map((t) => t.id)
    const expected = newestFirst
      .filter(
        (row) =>
          !row.archived &&
          (r.teams.has(row.teamId) || (row.projectId !== null && r.projects.has(row.projectId))),
      )
      .slice(0, LIMIT)
      .map((row) => row.id)
    if (ids.join() !== expected.join()) failures.push(`${r.kind} ${r.actor.id}: first page differs`)
    const f = from(r, profile.grants)
    const closure = await reachByClosure(db, org.id, f)
    const recursion = await reachByRecursion(db, org.id, f)
    for (const key of ['initiativeIds', 'programIds', 'projectIds'] as const)
      if ([...closure[key]].sort().join() !== [...recursion[key]].sort().join())
        failures.push(`${r.kind} ${r.actor.id}: closure and recursion disagree on ${key}`)
    sampled.push({
      ...r,
      scope,
      from: f,
      visible: newestFirst.filter(
        (row) =>
          !row.archived &&
          (r.teams.has(row.teamId) || (row.projectId !== null && r.projects.has(row.projectId))),
      ).length,
    })
  }

  const times = new Map<
    ClassKind,
    { page: number[]; pageCpu: number[]; closure: number[]; recursion: number[]; profile: number[] }
  >(CLASSES.map((c) => [c.kind, { page: [], pageCpu: [], closure: [], recursion: [], profile: [] }]))
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const { kind } of CLASSES) {
      const mine = sampled.filter((s) => s.kind === kind)
      const s = mine[round % mine.length]!
      const t = times.get(kind)!
      const measure = async (into: number[], work: () => Promise<unknown>) => {
        const t0 = performance.now()
        await work()
        if (round >= WARMUP) into.push(performance.now() - t0)
      }
      // Alternate the two expansions' order so neither always runs on a warmer cache.
      const order =
        round % 2 === 0 ? (['closure', 'recursion'] as const) : (['recursion', 'closure'] as const)
      for (const which of order)
        await measure(t[which], () =>
          (which === 'closure' ? reachByClosure : reachByRecursion)(db, org.id, s.from),
        )
      await measure(t.profile, () => storage.read((st) => loadProfile(st, s.actor)))
      // On SQLite the query runs in this process: its CPU time is the page's own cost, where wall
      // time on a shared machine is mostly waiting for a core.
      const cpu = process.cpuUsage()
      await measure(t.page, () => list(s.scope))
      const used = process.cpuUsage(cpu)
      if (round >= WARMUP) t.pageCpu.push((used.user + used.system) / 1000)
    }
  }

  console.log(
    `\n| class | visible tasks | projects in scope | task page p50 / p99 (ms) |${postgres ? '' : ' task page CPU p50 / p99 |'} profile load | reach: closure | reach: recursive |`,
  )
  console.log(`| --- | --- | --- | --- |${postgres ? '' : ' --- |'} --- | --- | --- |`)
  const baseline = percentile(times.get('team')!.page, 0.5)
  const cpuBaseline = percentile(times.get('team')!.pageCpu, 0.5)
  for (const { kind, label } of CLASSES) {
    const mine = sampled.filter((s) => s.kind === kind)
    const visible = mine.map((s) => s.visible)
    const inScope = mine.map((s) => s.scope.projectIds.length)
    const t = times.get(kind)!
    const expands = kind !== 'team'
    const delta = percentile(t.page, 0.5) - baseline
    const cpuDelta = percentile(t.pageCpu, 0.5) - cpuBaseline
    const cpu = postgres ? '' : ` ${fmt(t.pageCpu)} (${cpuDelta >= 0 ? '+' : ''}${cpuDelta.toFixed(2)}) |`
    console.log(
      `| ${label} | ${Math.min(...visible)}–${Math.max(...visible)} | ${Math.min(...inScope)}–${Math.max(...inScope)} | ` +
        `${fmt(t.page)} (${delta >= 0 ? '+' : ''}${delta.toFixed(2)} vs today) |${cpu} ${fmt(t.profile)} | ` +
        `${expands ? fmt(t.closure) : '–'} | ${expands ? fmt(t.recursion) : '–'} |`,
    )
  }
  console.log(
    failures.length === 0
      ? '\ncorrectness: every first page matched the model; closure and recursion agree'
      : '',
  )
})

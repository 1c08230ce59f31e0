/**
 * Project grants A/B: the org of bench/permissions-world.ts (100,000 tasks, 50 teams, 1,000 projects,
 * 1,000 members with team, project and org grants), and for 10 actors of each class the first page of
 * `store.tasks.list` (limit 50, `-createdAt`) with two predicates, interleaved round by round in one
 * process so both see the same machine:
 * - `after`: the actor's real scope; with project grants, its teams and each granted project outside them
 *   are read as separate keyset sides and merged (`adapters/kysely/src/tasks/list.ts`);
 * - `before`: the same scope without `projectIds`, which compiles to the team predicate alone
 *   (`team_id in (…)`): the page the reader would get without project grants.
 * `after` must return the model's first page; readers without project grants get the same SQL twice.
 * SQLite by default; `--postgres` as the other benches.
 */
import type { Actor, ReadScope } from '@workgraph/core'
import { loadProfile, readScope } from '@workgraph/core'
import type { RunningServer } from '@workgraph/server'
import { CLASSES, type Kind, type Person, type Row } from './permissions-world.ts'
import { seedWorld } from './seed-world.ts'
import { analyzePostgres, failures, fmt, percentile, postgres, runBench } from './support.ts'

const LIMIT = 50
const PER_CLASS = 10
const WARMUP = 10
const ROUNDS = Number(process.env.AB_ROUNDS ?? 100)

await runBench('projab', async (server: RunningServer, schema: string) => {
  const { storage } = server
  const { orgId, people, access, rows } = await seedWorld(server, 'Bench')
  const org = { id: orgId }
  if (postgres) await analyzePostgres(schema)

  // The model: teams and projects a person's grants name (or everything), from the seed alone.
  const sees = (person: Person): Set<string> | 'all' => {
    if (person.role !== 'guest') return 'all'
    const mine = access.teamsOf.get(person.memberId) ?? new Set<string>()
    const reaching = access.grants.filter(
      (g) => g.subjectId === person.memberId || (g.subjectType === 'team' && mine.has(g.subjectId)),
    )
    if (reaching.some((g) => g.containerType === 'org')) return 'all'
    return new Set(reaching.map((g) => g.containerId))
  }
  const newestFirst = [...rows].sort((a: Row, b: Row) =>
    a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? 1 : -1,
  )
  const page = { sort: 'createdAt' as const, direction: 'desc' as const, after: null, limit: LIMIT }
  const list = (scope: ReadScope) =>
    storage.read((s) => s.tasks.list(org.id, { archived: false }, page, scope))

  // On SQLite the query runs in this process, so its CPU time is the query's own cost, which a
  // loaded machine distorts far less than wall time; on Postgres it would be only the client's.
  const cpuColumns = postgres ? '' : ' CPU before, p50 | CPU after, p50 |'
  console.log(
    `\n| class | visible tasks | project grants | before (teams only) | after | after − before (p50) |${cpuColumns}`,
  )
  console.log(`| --- | --- | --- | --- | --- | --- |${postgres ? '' : ' --- | --- |'}`)
  for (const { kind, label } of CLASSES) {
    const candidates = people
      .filter((p) => p.kind === (kind as Kind))
      .map((person) => {
        const set = sees(person)
        const visible = newestFirst.filter(
          (r) =>
            !r.archived &&
            (set === 'all' || set.has(r.teamId) || (r.projectId !== null && set.has(r.projectId))),
        )
        return { person, visible }
      })
      .sort((a, b) => a.visible.length - b.visible.length)
    const picks = Array.from(
      { length: Math.min(PER_CLASS, candidates.length) },
      (_, i) => candidates[Math.round((i * (candidates.length - 1)) / Math.max(1, PER_CLASS - 1))]!,
    )
    const sampled = []
    for (const { person, visible } of picks) {
      const actor: Actor = {
        id: person.memberId,
        kind: 'person',
        orgId: org.id,
        role: person.role,
        userId: person.user.id,
        name: person.user.name,
      }
      const after = readScope(await storage.read((s) => loadProfile(s, actor)))
      const before: ReadScope = { ...after, projectIds: [] }
      // Storage reads one row past the page (to know whether another follows).
      const ids = (await list(after)).slice(0, LIMIT).map((t) => t.id)
      const expected = visible.slice(0, LIMIT).map((r) => r.id)
      if (ids.join() !== expected.join()) failures.push(`${kind} ${person.memberId}: first page differs`)
      sampled.push({ after, before, visible: visible.length })
    }
    const times = { before: [] as number[], after: [] as number[] }
    const cpu = { before: [] as number[], after: [] as number[] }
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const s = sampled[round % sampled.length]!
      const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)
      for (const which of order) {
        const t0 = performance.now()
        const c0 = process.cpuUsage()
        await list(s[which])
        const used = process.cpuUsage(c0)
        if (round < WARMUP) continue
        times[which].push(performance.now() - t0)
        cpu[which].push((used.user + used.system) / 1000)
      }
    }
    const visible = sampled.map((s) => s.visible)
    const granted = sampled.map((s) => s.after.projectIds.length)
    const delta = percentile(times.after, 0.5) - percentile(times.before, 0.5)
    console.log(
      `| ${label} | ${Math.min(...visible)}–${Math.max(...visible)} | ${Math.min(...granted)}–${Math.max(...granted)} | ` +
        `${fmt(times.before)} | ${fmt(times.after)} | ${delta >= 0 ? '+' : ''}${delta.toFixed(2)} ms |` +
        (postgres
          ? ''
          : ` ${percentile(cpu.before, 0.5).toFixed(2)} | ${percentile(cpu.after, 0.5).toFixed(2)} |`),
    )
  }
  console.log(failures.length === 0 ? '\ncorrectness: every first page matched the model' : '')
})

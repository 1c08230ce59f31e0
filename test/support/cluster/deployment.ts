/**
 * The deployment of docs/scale-out.md on loopback for the cluster test: a database of its own,
 * PgBouncer in transaction mode before it, HAProxy before three reference servers started at once on
 * the empty database (one migrates through the pooler while the others wait), Redis for the shared
 * limits, and a workspace with its people made beside the cluster on the same database and issuer.
 */
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine, type MemberId, newId } from '@workgraph/core'
import { openStorage } from '@workgraph/kysely'
import pg from 'pg'
import { postgresDirectUrl } from '../databases.ts'
import { newPerson, type TestPerson } from '../fixtures.ts'
import { freePort } from '../ports.ts'
import { type Balancer, type Component, startHaproxy, startPgBouncer, stopComponent } from './components.ts'
import { admin, type Instance, startInstance, until } from './instances.ts'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

export interface Deployment {
  dir: string
  database: string
  /** The database on Postgres itself (the instances' DATABASE_DIRECT_URL). */
  directUrl: string
  bouncer: Component & { url: string }
  balancer: Balancer
  /** s1, s2 and s3 in HAProxy's names; a restarted one takes its place. */
  instances: Instance[]
  /** A direct connection for the test's own reads. */
  db: pg.Client
  orgId: string
  teamId: string
  /** The workspace's owner, then the other writers (members). */
  writers: TestPerson[]
  assignee: { person: TestPerson; id: MemberId }
  /** The environment of an instance on `port`, as an operator sets it, with `extra` over it. */
  settings(port: number, extra?: Record<string, string>): Record<string, string>
  /** Starts the bin on instance `i`'s port again (it must have exited), with `extra` settings. */
  restart(i: number, extra?: Record<string, string>): Promise<Instance>
  /** Everything every instance printed, restarted ones included. */
  logs(): string
  /** Every process started for this deployment, to stop when it ends (a test's own ones too). */
  children: ChildProcess[]
  stop(): Promise<void>
}

/** Starts it all; on a failure part-way, stops what was started and drops the database. */
export async function startDeployment(writerCount: number): Promise<Deployment> {
  const dir = mkdtempSync(join(tmpdir(), 'workgraph-cluster-'))
  const database = `wg_cluster_${randomBytes(5).toString('hex')}`
  const children: ChildProcess[] = []
  const stop = async () => {
    // The instances and the test's own processes first, then the balancer, then the pooler.
    for (const child of [...children].reverse()) await stopComponent(child)
    await admin(`drop database if exists ${database} with (force)`).catch(() => {})
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    return await deploy(dir, database, children, stop, writerCount)
  } catch (error) {
    await stop()
    throw error
  }
}

async function deploy(
  dir: string,
  database: string,
  children: ChildProcess[],
  stopAll: () => Promise<void>,
  writerCount: number,
): Promise<Deployment> {
  const directUrl = postgresDirectUrl(database)
  const started: Instance[] = []
  await admin(`create database ${database}`)
  const bouncer = await startPgBouncer(dir, new URL(directUrl))
  children.push(bouncer.child)
  // The balancer's public origin is every instance's BASE_URL, so its port comes first.
  const ports = [await freePort(), await freePort(), await freePort()]
  const balancer = await startHaproxy(dir, ports)
  children.push(balancer.child)
  const settings = (port: number, extra: Record<string, string> = {}) => ({
    PORT: String(port),
    BASE_URL: balancer.url,
    DATABASE_URL: bouncer.url,
    DATABASE_DIRECT_URL: directUrl,
    REDIS_URL,
    BLOB_DIR: join(dir, 'blobs'),
    LOG_LEVEL: 'warn',
    SHUTDOWN_TIMEOUT_SECONDS: '5',
    ...extra,
  })
  const start = async (port: number, extra?: Record<string, string>) => {
    const instance = await startInstance(dir, settings(port, extra))
    children.push(instance.child)
    started.push(instance)
    return instance
  }
  // All three at once on the empty database: one migrates through the pooler, the others wait.
  const instances = await Promise.all(ports.map((port) => start(port)))
  await until(async () => Object.values(await balancer.states()).every((s) => s === 'UP'), 'all three UP')

  const db = new pg.Client({ connectionString: directUrl })
  await db.connect()
  const storage = await openStorage({ url: directUrl })
  const engine = await createEngine({ storage, config: { baseUrl: balancer.url } })
  try {
    const owner = await newPerson(engine)
    const org = (
      await engine.execute('orgs.create', { params: {}, body: { name: 'Cluster' } }, owner.principal)
    ).body as any
    const team = (
      await engine.execute(
        'teams.create',
        { params: { orgId: org.id }, body: { name: 'Core', key: 'CORE' } },
        owner.principal,
      )
    ).body as any
    const member = async () => {
      const person = await newPerson(engine)
      const id = newId('MemberId')
      const now = new Date().toISOString()
      await storage.transaction((s) =>
        s.members.insert({
          id,
          orgId: org.id,
          userId: person.user.id,
          kind: 'person',
          role: 'member',
          status: 'active',
          createdAt: now,
          updatedAt: now,
        }),
      )
      return { person, id }
    }
    const writers = [owner]
    for (let i = 1; i < writerCount; i++) writers.push((await member()).person)
    const assignee = await member()
    return {
      dir,
      database,
      directUrl,
      bouncer,
      balancer,
      instances,
      db,
      orgId: org.id,
      teamId: team.id,
      writers,
      assignee,
      settings,
      async restart(i, extra) {
        const instance = await start(instances[i]!.port, extra)
        instances[i] = instance
        return instance
      },
      logs: () => started.map((instance) => instance.output()).join('\n'),
      children,
      async stop() {
        await db.end().catch(() => {})
        await stopAll()
      },
    }
  } finally {
    await engine.close()
    await storage.close()
  }
}
